"""``chunkgate stats``: the chunk size distribution against the limits."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, format_option, largest_option, load
from chunkgate.report import formats


@click.command("stats")
@click.argument("paths", nargs=-1, type=click.Path())
@format_option(formats.STATS)
@largest_option(10)
@config_option
@reports_errors
def stats_command(
    *, paths: tuple[str, ...], fmt: str, largest: int, config_path: Path | None
) -> None:
    """Chunk size distribution: percentiles, the largest chunks, a histogram against the limits."""
    # imported per command: chunking pulls in the parsers, which the hook may not need
    from chunkgate.listing import size_stats

    result = size_stats(load(config_path), list(paths) or None, largest=largest)
    formats.STATS.writer(formats.STATS.resolve(fmt, sys.stdout))(result, sys.stdout)
