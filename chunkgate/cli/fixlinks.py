"""``chunkgate fix-links``: the corpus's links into moved sections and pages, rewritten."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, format_option, load
from chunkgate.report import formats


@click.command("fix-links")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--dry-run", is_flag=True, help="Show the edits as a diff, and write nothing.")
@format_option(formats.FIX_LINKS)
@config_option
@reports_errors
def fix_links_command(
    *, paths: tuple[str, ...], dry_run: bool, fmt: str, config_path: Path | None
) -> None:
    """Rewrite the links into sections and pages that moved to where they went.

    A broken link (CG404, CG405) whose section or page a move took elsewhere (a
    rename in the work tree, or one the manifest records as moved_from) is
    rewritten there: only the link's destination changes, in the form it was
    written in (relative path, anchor spelling), and each edit is shown as a
    diff. With PATHS, the links of those files and the links into them. The
    broken links with no move to follow are listed, for a person to fix (the
    check reports them). Exit status: 0 done (nothing left to rewrite), 1
    --dry-run found links to rewrite, 2 errors.
    """
    # imported per command: the gate, which `--help` never needs
    from chunkgate.gate.relink import fix_links

    result = fix_links(load(config_path), list(paths) or None, write=not dry_run)
    fmt = formats.FIX_LINKS.resolve(fmt, sys.stdout)
    formats.FIX_LINKS.writer(fmt)(result, sys.stdout)
    sys.exit(1 if dry_run and result.fixed else 0)
