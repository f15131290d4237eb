"""The command line. The only module that imports click; every command is thin:
parse options, call one core function, render, exit (0 clean, 1 violations, 2 errors)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from chunkguard import __version__
from chunkguard.errors import ChunkguardError

if TYPE_CHECKING:
    from chunkguard.chunking import ChunkedFile
    from chunkguard.config import Config
    from chunkguard.listing import Failure
    from chunkguard.model import Heading

F = TypeVar("F", bound=Callable[..., Any])


def _fail(message: str) -> None:
    click.echo(f"chunkguard: error: {message}", err=True)


def reports_errors(command: F) -> F:
    """Turn chunkguard's errors into a one-line message and exit code 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ChunkguardError as exc:
            _fail(str(exc))
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("chunkguard: interrupted", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Configuration file (default: .chunkguard.yaml or pyproject.toml at the repository root).",
)
quiet_option = click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")


def _load(config_path: Path | None) -> Config:
    from chunkguard.config import load_config

    return load_config(Path.cwd(), config_path=config_path)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="chunkguard")
def cli() -> None:
    """Keep a RAG corpus's chunks stable, sized and clean.

    Chunks Markdown by heading, Python by definition and text in windows,
    each with a stable, citable ID; keeps a committed manifest of every
    chunk; and fails a commit or CI run when the corpus gets worse.
    """


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "table", "json", "jsonl"]),
    default="auto",
    show_default=True,
    help="table: rich on a terminal, plain text otherwise.",
)
@click.option("--text", "with_text", is_flag=True, help="Include each chunk's text.")
@config_option
@quiet_option
@reports_errors
def chunks(
    paths: tuple[str, ...], fmt: str, with_text: bool, config_path: Path | None, quiet: bool
) -> None:
    """Print the chunks of files (folders: their corpus files)."""
    from chunkguard.listing import Failure, chunk_named
    from chunkguard.report import is_terminal
    from chunkguard.report.listing import write_chunks

    config = _load(config_path)
    files: list[ChunkedFile] = []
    failures: list[Failure] = []
    for result in chunk_named(config, paths):
        if isinstance(result, Failure):
            failures.append(result)
        else:
            files.append(result)
    out = sys.stdout
    if fmt in ("auto", "table"):
        fmt = "rich" if is_terminal(out) else "text"
    if not quiet or fmt in ("json", "jsonl"):
        write_chunks(files, fmt, out, text=with_text)
    _report_failures(failures)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "tree", "json", "jsonl"]),
    default="auto",
    show_default=True,
    help="tree: rich on a terminal, plain text otherwise.",
)
@config_option
@quiet_option
@reports_errors
def outline(paths: tuple[str, ...], fmt: str, config_path: Path | None, quiet: bool) -> None:
    """Print the Markdown heading tree of files, with each section's chunk ID."""
    from chunkguard.listing import Failure, outline_named
    from chunkguard.report import is_terminal
    from chunkguard.report.listing import write_outline

    config = _load(config_path)
    outlines: list[list[Heading]] = []
    failures: list[Failure] = []
    for result in outline_named(config, paths):
        if isinstance(result, Failure):
            failures.append(result)
        else:
            outlines.append(result)
    out = sys.stdout
    if fmt in ("auto", "tree"):
        fmt = "rich" if is_terminal(out) else "text"
    if not quiet or fmt in ("json", "jsonl"):
        write_outline(outlines, fmt, out)
    _report_failures(failures)


def _report_failures(failures: list[Failure]) -> None:
    for failure in failures:
        _fail(f"{failure.path}: {failure.message}")
    if failures:
        sys.exit(2)


def main() -> None:
    cli(prog_name="chunkguard")
