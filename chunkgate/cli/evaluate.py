"""``chunkgate eval``: golden queries against a BM25 index of the corpus's chunks."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from chunkgate.cli.errors import exit_with, reports_errors
from chunkgate.cli.options import config_option, format_option
from chunkgate.report import formats


@click.command("eval")
@click.argument("golden", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True,
              help="How many chunks each query retrieves.")  # fmt: skip
@click.option("--base", metavar="REV", help="Also run the queries against the corpus at REV.")
@click.option(
    "--max-drop",
    type=click.FloatRange(min=0, max=1),
    default=0.0,
    show_default=True,
    help="With --base: exit 1 when recall@k falls by more than this.",
)
@click.option(
    "--min-recall",
    type=click.FloatRange(min=0, max=1),
    help="Exit 1 when recall@k is below this.",
)
@format_option(formats.EVAL)
@config_option
@reports_errors
def eval_command(
    *,
    golden: Path,
    k: int,
    base: str | None,
    max_drop: float,
    min_recall: float | None,
    fmt: str,
    config_path: Path | None,
) -> None:
    """Run GOLDEN's queries (YAML or JSON lines) against a BM25 index of the corpus's chunks.

    Reports recall@k and MRR@k per query and overall. With --base REV the same
    queries run against the corpus at REV, read from git. Exit status: 0, 1
    when recall fell by more than --max-drop (or is under --min-recall), 2 errors.
    """
    # imported per command: the index and the corpus's chunks, which the hook never needs
    from chunkgate.evaluate.retrieval import run_eval

    report = run_eval(
        Path.cwd(),
        golden,
        k=k,
        base=base,
        max_drop=max_drop,
        min_recall=min_recall,
        config_path=config_path,
    )
    formats.EVAL.writer(formats.EVAL.resolve(fmt, sys.stdout))(report, sys.stdout, env=os.environ)
    exit_with(report.failures())
