"""``chunkgate redirects SITE...``: the redirects of the accepted moves, for these sites."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, load


@click.command("redirects")
@click.argument("sites", nargs=-1, required=True)
@click.option(
    "--anchors",
    metavar="FILE",
    help="Also write the map of moved anchors (old URL#anchor -> new URL#anchor) as JSON "
    "to FILE, for a site's script to serve (README: Redirects).",
)
@click.option("--dry-run", is_flag=True, help="Show the edits as a diff, and write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@config_option
@reports_errors
def redirects_command(
    *,
    sites: tuple[str, ...],
    anchors: str | None,
    dry_run: bool,
    as_json: bool,
    config_path: Path | None,
) -> None:
    """Write redirects for the pages the manifest's recorded moves took elsewhere.

    SITE is a site's configuration file (mkdocs.yml, hugo.toml, _config.yml,
    docusaurus.config.js): MkDocs gets mkdocs-redirects' redirect_maps, Hugo
    aliases and Jekyll redirect_from in the moved pages' front matter,
    Docusaurus a chunkgate-redirects.json for its client-redirects plugin.
    Each edit is shown as a diff; a second run writes nothing.
    """
    # imported per command: the gate, which `--help` never needs
    from chunkgate.gate.redirects import write_redirects

    result = write_redirects(load(config_path), list(sites), anchors=anchors, write=not dry_run)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
        return
    for written in result.files:
        sys.stdout.write(written.diff if written.diff.endswith("\n") else f"{written.diff}\n")
    done = "written" if result.written else "to write (--dry-run)"
    click.echo(
        f"{result.pages} page redirect(s), {result.anchors} anchor(s) mapped; "
        f"{len(result.files)} file(s) {done}"
    )
