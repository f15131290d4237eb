"""The progress line: drawn on a terminal only, only once a run has lasted the delay, with
the files done, the rate and the time left, and erased when the loop ends."""

from __future__ import annotations

import io

import pytest

from chunkgate.core.progress import metered, tracked
from chunkgate.report.progress import DELAY, TerminalMeter, progress_line, terminal_meter


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    """A clock the test moves: each reading advances it by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


NO_CI: dict[str, str] = {}


def drawn(lines: str) -> list[str]:
    """What the terminal showed, one entry a draw (the line redrawn after each ``\\r``)."""
    return [line.rstrip() for line in lines.split("\r") if line.strip()]


def run_loop(meter: TerminalMeter | None, total: int) -> list[int]:
    with metered(meter):
        return list(tracked(range(total), total, "checking"))


def test_a_long_loop_shows_files_done_rate_and_time_left_then_erases_them() -> None:
    screen = Terminal()
    clock = Clock(step=0.5)  # every file takes half a second
    meter = terminal_meter(screen, NO_CI, quiet=False, clock=clock)
    assert meter is not None
    assert run_loop(meter, 20) == list(range(20))
    shown = drawn(screen.getvalue())
    assert shown, "a 10-second loop drew nothing"
    first = shown[0]
    assert first.startswith("checking [")
    # Nothing before the delay: the first line counts the files done by then.
    done = int(first.split("] ")[1].split("/")[0])
    assert done >= DELAY / 0.5 - 1
    assert "/20 files" in first
    assert "2 files/s" in first
    assert "left" in first
    assert any("/20 files" in line for line in shown[1:])
    # Erased at the end: the last write is spaces over the line, the cursor at its start.
    assert screen.getvalue().endswith("\r")
    assert screen.getvalue().rsplit("\r", 2)[-2].strip() == ""


def test_a_loop_that_ends_before_the_delay_draws_nothing() -> None:
    screen = Terminal()
    meter = terminal_meter(screen, NO_CI, quiet=False, clock=Clock(step=0.001))
    run_loop(meter, 500)  # half a second
    assert screen.getvalue() == ""


def test_the_delay_counts_from_the_start_of_the_run_not_of_each_loop() -> None:
    screen = Terminal()
    clock = Clock(step=0.001)
    meter = terminal_meter(screen, NO_CI, quiet=False, clock=clock)
    with metered(meter):
        clock.now += DELAY  # the run has been going: listing, reading the manifest
        list(tracked(range(5), 5, "reading links"))
    assert drawn(screen.getvalue())[0].startswith("reading links [")


def test_a_loop_inside_another_leaves_the_outer_line() -> None:
    screen = Terminal()
    meter = terminal_meter(screen, NO_CI, quiet=False, clock=Clock(step=1.0))
    with metered(meter):
        for _ in tracked(range(3), 3, "outer"):
            list(tracked(range(3), 3, "inner"))
    assert not any(line.startswith("inner") for line in drawn(screen.getvalue()))


@pytest.mark.parametrize(
    ("stream", "env", "quiet"),
    [
        pytest.param(io.StringIO(), NO_CI, False, id="a-pipe-or-file"),
        pytest.param(Terminal(), {"CI": "true"}, False, id="CI"),
        pytest.param(Terminal(), {"GITHUB_ACTIONS": "true"}, False, id="GITHUB_ACTIONS"),
        pytest.param(Terminal(), NO_CI, True, id="quiet"),
    ],
)
def test_no_meter_off_a_terminal_under_ci_or_quiet(
    stream: io.StringIO, env: dict[str, str], quiet: bool
) -> None:
    meter = terminal_meter(stream, env, quiet=quiet, clock=Clock(step=1.0))
    assert meter is None
    run_loop(meter, 10)
    assert stream.getvalue() == ""


@pytest.mark.parametrize(
    ("done", "total", "elapsed", "width", "expected"),
    [
        pytest.param(
            1234,
            2193,
            2.0,
            100,
            "checking [#############-----------] 1,234/2,193 files  617 files/s  0:02 left",
            id="bar",
        ),
        pytest.param(
            1234, 2193, 2.0, 60, "checking 1,234/2,193 files  617 files/s  0:02 left", id="no-room"
        ),
        pytest.param(
            10, 100_000, 1.0, 60, "checking 10/100,000 files  10 files/s  2:46:39 left", id="hours"
        ),
        pytest.param(5, 5, 1.0, 40, "checking 5/5 files  5 files/s", id="done"),
        pytest.param(0, 5, 0.0, 80, "checking [------------------------] 0/5 files  0 files/s"),
        pytest.param(1234, 2193, 2.0, 20, "checking 1,234/2,19", id="cut-to-the-width"),
    ],
)
def test_progress_line(done: int, total: int, elapsed: float, width: int, expected: str) -> None:
    assert progress_line("checking", done, total, elapsed, width) == expected
