"""``chunkgate export``: the corpus as JSON lines ready for ingest."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from chunkgate.cli.errors import report_failures, reports_errors
from chunkgate.cli.options import config_option, jobs_option, load, quiet_option


@click.command("export")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--rev", help="Export this commit, read from git's objects (not the work tree).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the records to this file (replaced at once when done) instead of stdout.",
)
@jobs_option()
@config_option
@quiet_option
@reports_errors
def export_command(
    *,
    paths: tuple[str, ...],
    rev: str | None,
    output: Path | None,
    jobs: int,
    config_path: Path | None,
    quiet: bool,  # read by ``reports_errors``: no progress line
) -> None:
    """Write the corpus (or PATHS) as JSON lines ready for ingest: one record a chunk, with
    its text and embed text, relations, git blob and commit, and recorded moves."""
    # imported per command: chunking pulls in the parsers, which the hook may not need
    from chunkgate.ingest.records import Skipped, plan_export

    plan = plan_export(load(config_path), paths or None, rev, revision_config=config_path is None)
    skipped: list[Skipped] = []

    def lines() -> Iterator[str]:
        for file in plan.files(jobs=jobs):
            if isinstance(file, Skipped):
                skipped.append(file)
            else:
                yield file

    if output is None:
        sys.stdout.writelines(lines())
    else:
        # imported for `-o` only: the file is replaced at once, when every record is written
        from chunkgate.manifest import write_atomic

        # A file name that is not UTF-8 holds lone surrogates: written as the \udcXX
        # escapes JSON reads back, as on stdout (``cli``) and in the manifest.
        encoded = (text.encode("utf-8", "backslashreplace") for text in lines())
        write_atomic(output.resolve(), encoded)
    report_failures(skipped)
