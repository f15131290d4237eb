"""``chunkgate search``: one query against a BM25 index of the corpus's chunks."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, format_option, jobs_option, load
from chunkgate.report import formats


@click.command("search")
@click.argument("query")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-k", "k", type=click.IntRange(min=1), default=8, show_default=True,
              help="How many chunks to show.")  # fmt: skip
@click.option("--rev", help="Search this commit, read from git's objects (not the work tree).")
@click.option(
    "--explain",
    type=click.IntRange(min=1),
    metavar="RANK",
    help="Show the terms the result at RANK matched, with their weights, and a hint for "
    "each result a size or never-embed rule flags.",
)
@format_option(formats.SEARCH)
@jobs_option()
@config_option
@reports_errors
def search_command(
    *,
    query: str,
    paths: tuple[str, ...],
    k: int,
    rev: str | None,
    explain: int | None,
    fmt: str,
    jobs: int,
    config_path: Path | None,
) -> None:
    """Rank the corpus's chunks (or those of PATHS) for QUERY with BM25, as `eval` does,
    and print the top k: rank, chunk ID, score, heading path or symbol, size, and a
    snippet with the query's words marked. Needs the eval extra (bm25s)."""
    # imported per command: the index and the corpus's chunks, which the hook never needs
    from chunkgate.evaluate.search import run_search
    from chunkgate.report.search import write_search  # with it: writing it needs the result

    result = run_search(
        load(config_path),
        query,
        paths or None,
        k=k,
        rev=rev,
        explain=explain,
        jobs=jobs,
        revision_config=config_path is None,
    )
    write_search(result, formats.SEARCH.resolve(fmt, sys.stdout), sys.stdout)
