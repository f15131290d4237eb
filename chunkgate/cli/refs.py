"""``chunkgate refs``: the chunk IDs other files cite, checked against the corpus."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, format_option, quiet_option
from chunkgate.report import formats


@click.command("refs")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--field",
    metavar="KEY",
    help="Read IDs from this key (JSON, JSON lines, YAML) or column (CSV), whatever their "
    "shape, instead of finding path#identity strings.",
)
@click.option("--fix", is_flag=True, help="Rewrite IDs through recorded moves (moved_from).")
@format_option(formats.REFS)
@config_option
@quiet_option
@reports_errors
def refs_command(
    *,
    files: tuple[Path, ...],
    field: str | None,
    fix: bool,
    fmt: str,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Check that the chunk IDs other files cite (eval sets, citations, notes) exist.

    An ID that moved (moved_from in the manifest) is named with where it went;
    --fix rewrites it there, changing nothing else in the file. An ID of a section
    merged into another chunk (markdown.merge_small) exists: it is named with that
    chunk and left as it is. Exit status: 0
    every ID exists (after --fix), 1 some do not, 2 errors.
    """
    # imported per command: the corpus's IDs, which the hook never needs
    from chunkgate.evaluate.citations import check_files, corpus_ids

    ids = corpus_ids(Path.cwd(), config_path=config_path)
    result = check_files(
        list(files),
        ids.known,
        ids.moved,
        field=field,
        fix=fix,
        suffixes=ids.suffixes,
        merged=ids.merged,
    )
    fmt = formats.REFS.resolve(fmt, sys.stdout)
    if not quiet or fmt == "json":
        formats.REFS.writer(fmt)(result, sys.stdout)
    sys.exit(1 if result.broken else 0)
