"""A progress bar on a terminal for long runs (``export`` of a large corpus).

Shown on a terminal only: never in a pipe or a file, never under CI (``CI`` or
``GITHUB_ACTIONS`` set, where a log is no terminal even when it looks like one),
and not for a run of a few files, which ends before a bar would help. It is
transient: once done, nothing is left on the screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TypeVar

from chunkgate.report.console import make_console

_T = TypeVar("_T")

# Fewer files than this end before a bar is worth drawing.
SHOWN_FROM = 200


def shown(stream: IO[str], env: Mapping[str, str], total: int) -> bool:
    if total < SHOWN_FROM or env.get("CI") or env.get("GITHUB_ACTIONS"):
        return False
    isatty = getattr(stream, "isatty", None)
    return isatty is not None and bool(isatty())


def with_progress(
    items: Iterable[_T], total: int, stream: IO[str], env: Mapping[str, str], what: str
) -> Iterator[_T]:
    """``items`` as they come, with a bar counting them to ``total`` on ``stream``."""
    if not shown(stream, env, total):
        yield from items
        return
    # rich takes tens of ms to import: only terminal output needs it
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (f"[bold]{what}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=make_console(stream), transient=True) as bar:
        task = bar.add_task(what, total=total)
        for item in items:
            yield item
            bar.advance(task)
