"""``chunkgate report``: the corpus as one self-contained HTML page."""

from __future__ import annotations

import os
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, jobs_option, largest_option, quiet_option

DEFAULT_OUTPUT = "chunkgate-report.html"


@click.command("report")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_OUTPUT,
    show_default=True,
    help="Write the page to this file (replaced at once when done; its folder made).",
)
@largest_option(20)
@jobs_option()
@config_option
@quiet_option
@reports_errors
def report_command(
    *,
    paths: tuple[str, ...],
    output: Path,
    largest: int,
    jobs: int,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Write the corpus (or PATHS) as one HTML page that needs no network: the size
    histogram against the limits, the largest chunks, findings by rule and by folder,
    a treemap of the folders and the near-duplicate clusters."""
    # imported per command: the run pulls in the chunkers and the rules
    from chunkgate.manifest import write_atomic
    from chunkgate.overview import corpus_overview  # the gate, with the chunkers and rules
    from chunkgate.report.page import report_page  # with the run it renders

    overview = corpus_overview(
        paths, config_path=config_path, largest=largest, jobs=jobs, env=os.environ
    )
    target = output.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    # A file name that is not UTF-8 holds lone surrogates: written as \udcXX escapes.
    write_atomic(target, report_page(overview).encode("utf-8", "backslashreplace"))
    if not quiet:
        summary = overview.summary
        click.echo(f"{output}: {summary.files:,} files, {summary.chunks:,} chunks")
