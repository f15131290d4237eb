"""``chunkgate outline``: the Markdown heading tree of files, with each section's chunk ID."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.errors import report_failures, reports_errors
from chunkgate.cli.options import config_option, format_option, load, quiet_option
from chunkgate.report import formats


@click.command("outline")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option(formats.OUTLINE)
@config_option
@quiet_option
@reports_errors
def outline_command(
    paths: tuple[str, ...], fmt: str, config_path: Path | None, quiet: bool
) -> None:
    """Print the Markdown heading tree of files, with each section's chunk ID."""
    # imported per command: chunking pulls in the parsers, which the hook may not need
    from chunkgate.listing import Failure, kept, outline_named

    failures: list[Failure] = []
    outlines = list(kept(outline_named(load(config_path), paths), failures))
    fmt = formats.OUTLINE.resolve(fmt, sys.stdout)
    if not quiet or fmt in ("json", "jsonl"):
        formats.OUTLINE.writer(fmt)(outlines, sys.stdout)
    report_failures(failures)
