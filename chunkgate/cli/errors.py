"""Errors into exit codes, in one place: 0 clean, 1 findings, 2 errors (130 interrupted);
and the run's progress on a terminal, which the same wrapper of every command installs."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, Protocol, TypeVar

import click

from chunkgate.core.errors import ChunkgateError, os_error_message
from chunkgate.core.progress import metered
from chunkgate.report.printable import printable
from chunkgate.report.progress import terminal_meter

F = TypeVar("F", bound=Callable[..., Any])


class Failure(Protocol):
    """A file a command could not read (``listing.Failure``, ``export.records.Skipped``)."""

    @property
    def path(self) -> str: ...

    @property
    def message(self) -> str: ...


def fail(message: str) -> None:
    """One line on stderr for each of the message's lines (a configuration's problems,
    all of them); a file name in it may hold an ESC, shown escaped."""
    for line in message.split("\n"):
        click.echo(f"chunkgate: error: {printable(line)}", err=True)


def reports_errors(command: F) -> F:
    """Turn chunkgate's errors into a one-line message and exit code 2; show the
    progress of a long run on a terminal (stderr), unless ``--quiet``."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        meter = terminal_meter(sys.stderr, os.environ, quiet=bool(kwargs.get("quiet")))
        try:
            # The line is erased before any message below is printed.
            with metered(meter):
                return command(*args, **kwargs)
        except ChunkgateError as exc:
            fail(str(exc))
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("chunkgate: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            raise  # the reader stopped (`| head`): Click ends quietly, as a pipe's writer should
        except OSError as exc:  # disk full, read-only, permissions: the environment's
            fail(os_error_message(exc))
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def report_failures(failures: Iterable[Failure]) -> None:
    """The files a listing could not read, one line each; exit 2 if there were any."""
    failed = False
    for failure in failures:
        fail(f"{failure.path}: {failure.message}")
        failed = True
    if failed:
        sys.exit(2)


def exit_with(reasons: Iterable[str]) -> None:
    """Exit 1 after saying why when there are reasons to fail, else 0."""
    failed = False
    for reason in reasons:
        fail(reason)
        failed = True
    sys.exit(1 if failed else 0)
