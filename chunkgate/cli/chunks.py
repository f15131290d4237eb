"""``chunkgate chunks``: the chunks of files, as a table or JSON."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from chunkgate.cli.errors import report_failures, reports_errors
from chunkgate.cli.options import config_option, format_option, jobs_option, load, quiet_option
from chunkgate.report import formats

if TYPE_CHECKING:
    from chunkgate.chunking import ChunkedFile


@click.command("chunks")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option(formats.CHUNKS)
@click.option("--text", "with_text", is_flag=True, help="Include each chunk's text.")
@jobs_option()
@config_option
@quiet_option
@reports_errors
def chunks_command(
    *,
    paths: tuple[str, ...],
    fmt: str,
    with_text: bool,
    jobs: int,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Print the chunks of files (folders: their corpus files)."""
    # imported per command: chunking pulls in the parsers, which the hook may not need
    from chunkgate.listing import Failure, chunk_named, kept, whole
    from chunkgate.report.listing import json_lines  # rendered beside the chunking, in workers

    config = load(config_path)
    fmt = formats.CHUNKS.resolve(fmt, sys.stdout)
    convert: Callable[[ChunkedFile], object] = whole
    anchors = None
    if fmt == "jsonl":
        # Each file's lines are rendered where it is chunked (in a worker, with
        # jobs) and written as they come: a corpus's chunks are never all held.
        convert = functools.partial(json_lines, text=with_text)
    else:
        # imported for these formats only: Markdown's parser, which JSON lines never need
        from chunkgate.chunking.markdown import anchors_shown

        anchors = functools.partial(anchors_shown, config.chunking)
    failures: list[Failure] = []
    files = kept(chunk_named(config, paths, convert, jobs=jobs), failures)
    if quiet and fmt not in ("json", "jsonl"):
        for _ in files:
            pass  # still chunk every file, to report the ones that fail
    else:
        formats.CHUNKS.writer(fmt)(files, sys.stdout, text=with_text, anchors=anchors)
    report_failures(failures)
