"""Progress on a terminal for a long run: the files done, the rate, the time left.

Drawn on stderr (stdout stays the command's output, JSON or records) when it
is a terminal only: never in a pipe or a file, never under CI (``CI`` or
``GITHUB_ACTIONS`` set, where a log is no terminal even when it looks like
one), never with ``-q``; and only once the run has lasted ``DELAY``, so the
hook's runs, most of them shorter, never flash a line. The line is redrawn in
place a few times a second and erased when the loop or the run ends.

Written by hand (a carriage return, the line, spaces over the last one's tail)
rather than with rich's live display: nothing runs beside the loop (no refresh
thread, no stdout redirected), the loop pays one clock reading per file, and a
terminal without escape sequences shows it as well.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Mapping
from typing import IO

# A run still going after this many seconds shows its progress.
DELAY = 2.0
# Seconds between two draws of the line.
REDRAW = 0.2
BAR_WIDTH = 24


def terminal_meter(
    stream: IO[str],
    env: Mapping[str, str],
    *,
    quiet: bool,
    delay: float = DELAY,
    clock: Callable[[], float] = time.monotonic,
) -> TerminalMeter | None:
    """A meter for this run's loops when ``stream`` is a terminal a person watches."""
    if quiet or env.get("CI") or env.get("GITHUB_ACTIONS"):
        return None
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return None
    return TerminalMeter(stream, clock() + delay, clock)


class TerminalMeter:
    """One line on ``stream``, from ``shown_from`` (a ``clock`` reading) on."""

    def __init__(self, stream: IO[str], shown_from: float, clock: Callable[[], float]) -> None:
        self._stream = stream
        self._shown_from = shown_from
        self._clock = clock
        self._busy = False
        self._drawn = 0  # the length of the line on the screen

    @contextlib.contextmanager
    def phase(self, what: str, total: int) -> Iterator[Callable[[int], None]]:
        if self._busy:  # a loop inside another's: the outer one's line stays
            yield _ignore
            return
        self._busy = True
        started = self._clock()
        due = max(started, self._shown_from)

        def done(count: int) -> None:
            nonlocal due
            now = self._clock()
            if now >= due:
                due = now + REDRAW
                line = progress_line(what, count, total, now - started, self._width())
                self._draw(line)

        try:
            yield done
        finally:
            self._busy = False
            self.close()

    def close(self) -> None:
        if self._drawn:
            self._write("\r" + " " * self._drawn + "\r")
            self._drawn = 0

    def _draw(self, line: str) -> None:
        self._write("\r" + line.ljust(self._drawn))
        self._drawn = len(line)

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()

    def _width(self) -> int:
        try:
            columns = os.get_terminal_size(self._stream.fileno()).columns
        except (AttributeError, OSError, ValueError):  # not a real terminal (a test's)
            columns = 0
        return columns or 80  # a terminal nobody sized (a fresh pty) says 0


def _ignore(count: int) -> None:
    pass


def progress_line(what: str, done: int, total: int, elapsed: float, width: int) -> str:
    """``chunking [#####-----] 1,234/2,193 files  812 files/s  0:01 left``, cut to fit
    ``width`` (less one column: a line that fills the last one wraps on some terminals)."""
    rate = done / elapsed if elapsed > 0 else 0.0
    parts = [f"{done:,}/{total:,} files", f"{rate:,.0f} files/s"]
    if rate > 0 and done < total:
        parts.append(f"{_duration((total - done) / rate)} left")
    text = "  ".join(parts)
    if total > 0 and width - 1 >= len(what) + BAR_WIDTH + 4 + len(text):
        filled = BAR_WIDTH * min(done, total) // total
        text = f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {text}"
    return f"{what} {text}"[: max(0, width - 1)]


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
