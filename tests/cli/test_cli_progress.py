"""Every command's long run shows its progress on a terminal (stderr), and only there:
in process with a stream that says it is a terminal, and as a real process on a real
pseudo-terminal, whose JSON on stdout is the same as a run's in a pipe."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from random import Random
from typing import IO

import pytest
from helpers import cli_process, git_env, invoke, write

import chunkgate.cli.errors
from chunkgate.report import progress
from chunkgate.report.progress import TerminalMeter

# -- in process: the commands install the meter, which honours CI and -q ----------------


class Terminal:
    """What the commands write on a terminal, gathered."""

    def __init__(self) -> None:
        self.seen = ""

    def write(self, text: str) -> int:
        self.seen += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """The meter's stream, a terminal; no delay, so that a short run shows its progress."""
    terminal = Terminal()

    def at_once(stream: IO[str], env: Mapping[str, str], *, quiet: bool) -> TerminalMeter | None:
        return progress.terminal_meter(terminal, env, quiet=quiet, delay=0)  # type: ignore[arg-type]

    monkeypatch.setattr(chunkgate.cli.errors, "terminal_meter", at_once)
    return terminal


@pytest.fixture
def pages(cli_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CI", raising=False)
    for index in range(6):
        write(cli_repo, f"docs/page{index}.md", f"# Page {index}\n\nText of page {index}.\n")
    return cli_repo


@pytest.mark.parametrize(
    ("args", "what"),
    [
        pytest.param(("check", "--format", "json", "-j", "1"), "checking", id="check"),
        pytest.param(("update", "-j", "1"), "checking", id="update"),
        pytest.param(("export", "-j", "1"), "exporting", id="export"),
        pytest.param(("chunks", "docs", "--format", "json", "-j", "1"), "chunking", id="chunks"),
        pytest.param(("stats",), "sizing", id="stats"),
    ],
)
def test_a_command_shows_its_files_on_a_terminal(
    pages: Path, screen: Terminal, args: tuple[str, ...], what: str
) -> None:
    result = invoke(*args)
    assert result.exit_code in (0, 1), result.output
    assert f"\r{what} [" in screen.seen
    assert "/6 files" in screen.seen
    assert screen.seen.endswith("\r")  # erased
    assert what not in result.stdout


def test_diff_shows_its_chunking(pages: Path, screen: Terminal) -> None:
    invoke("update")
    subprocess.run(["git", "add", "-A"], cwd=pages, env=git_env(), check=True)
    subprocess.run(["git", "commit", "-qm", "pages"], cwd=pages, env=git_env(), check=True)
    write(pages, "docs/page0.md", "# Page 0\n\nOther text.\n")
    screen.seen = ""
    assert invoke("diff", "--format", "json").exit_code == 0
    assert "\rchunking [" in screen.seen


@pytest.mark.parametrize(
    ("args", "env"),
    [
        pytest.param(("check", "-q"), {}, id="quiet"),
        pytest.param(("check",), {"CI": "true"}, id="CI"),
        pytest.param(("check",), {"GITHUB_ACTIONS": "true"}, id="GITHUB_ACTIONS"),
    ],
)
def test_nothing_under_ci_or_quiet(
    pages: Path,
    screen: Terminal,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    env: dict[str, str],
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    invoke(*args)
    assert screen.seen == ""


# -- a real process on a real terminal ------------------------------------------------------

# A run shows its progress from 2 s on; the corpus grows until a run in a pipe lasts this
# long, so that one on a terminal lasts past the delay on a fast machine as on a slow one.
LONG_SECONDS = 3.0


def add_pages(repo: Path, start: int, count: int) -> None:
    words = Random(start)
    vocabulary = [
        "".join(words.choices("abcdefghijklmnop", k=words.randint(2, 9))) for _ in range(2000)
    ]

    def paragraph() -> str:
        return " ".join(words.choices(vocabulary, k=50)) + ".\n\n"

    for index in range(start, start + count):
        sections = "".join(f"## Part {part}\n\n{paragraph()}{paragraph()}" for part in range(6))
        write(repo, f"docs/page{index:05d}.md", f"# Page {index}\n\n{sections}")


def on_a_terminal(repo: Path, args: tuple[str, ...], env: Mapping[str, str]) -> tuple[bytes, bytes]:
    """``chunkgate ARGS`` with stderr on a pseudo-terminal and stdout in a file: both."""
    leader, follower = pty.openpty()
    out = repo.parent / "stdout"
    with out.open("wb") as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "chunkgate", *args],
            cwd=repo,
            stdout=stdout,
            stderr=follower,
            env={**env, "TERM": "xterm"},
        )
    os.close(follower)
    seen = b""
    try:
        while True:  # read as it comes: a full terminal buffer would block the child
            try:
                data = os.read(leader, 65536)
            except OSError:  # EIO: the child has closed its end
                break
            if not data:
                break
            seen += data
    finally:
        os.close(leader)
    proc.wait(timeout=600)
    return seen, out.read_bytes()


@pytest.mark.slow
def test_a_long_run_on_a_terminal_shows_progress_and_leaves_stdout_alone(git_repo: Path) -> None:
    args = ("check", "--format", "json", "-j", "1")
    env = {k: v for k, v in git_env().items() if k not in ("CI", "GITHUB_ACTIONS")}
    count = 0
    while True:
        add_pages(git_repo, count, count or 500)
        count += count or 500
        started = time.monotonic()
        piped = cli_process(git_repo, *args, env=env)
        if time.monotonic() - started >= LONG_SECONDS or count >= 64_000:
            break
    assert piped.stderr == b""
    report = json.loads(piped.stdout)
    assert report["summary"]["files"] == count

    shown, stdout = on_a_terminal(git_repo, args, env)
    assert stdout == piped.stdout  # the JSON, byte for byte
    assert b"\rchecking [" in shown
    assert f"/{count:,} files".encode() in shown
    assert b" files/s" in shown
    assert b" left" in shown

    assert on_a_terminal(git_repo, args, {**env, "CI": "true"}) == (b"", piped.stdout)
