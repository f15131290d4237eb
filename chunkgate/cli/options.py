"""The options several commands share, and the configuration they name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from chunkgate.core.parallel import default_jobs
from chunkgate.report import formats

if TYPE_CHECKING:
    from chunkgate.config.model import Config

F = TypeVar("F", bound=Callable[..., Any])

config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Configuration file (default: .chunkgate.yaml or pyproject.toml at the repository root).",
)
quiet_option = click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
baseline_option = click.option(
    "--baseline",
    metavar="REV",
    help="Keep the IDs of the manifest committed at REV stable, not HEAD's (e.g. the pull "
    "request's base, for a move already committed).",
)


def largest_option(default: int) -> Callable[[F], F]:
    """``--largest N``: how many of the largest chunks a size report names."""
    return click.option(
        "--largest",
        type=click.IntRange(min=0),
        default=default,
        show_default=True,
        help="How many of the largest chunks to list.",
    )


def jobs_option(
    help: str = "Worker processes for many files (0: one per CPU).",
) -> Callable[[F], F]:
    """``-j N``, given to the command as a count of workers (0 is one per CPU)."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=0),
        default=0,
        callback=lambda _context, _param, jobs: jobs or default_jobs(),
        help=help,
    )


def format_option(command: formats.Formats) -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        type=command.check_name,
        metavar=command.metavar(),
        default="auto",
        show_default=True,
        help="auto: github under GitHub Actions, rich on a terminal, text otherwise."
        if command.github
        else "auto: rich on a terminal, text otherwise.",
    )


def load(config_path: Path | None, hook_files: Sequence[str] | None = None) -> Config:
    """The configuration of the repository that holds the working folder (or ``--config``)."""
    # imported per command: the configuration pulls in the rules, which `--help` never needs
    from chunkgate.config.load import load_config

    return load_config(Path.cwd(), config_path=config_path, hook_files=hook_files)
