"""A backtracking denylist.content pattern stops with a clear error, not a hang (issue 18)."""

from __future__ import annotations

import time
from pathlib import Path

from helpers import cli_process, commit_all, write


def _check(repo: Path) -> tuple[int, str, str]:
    """``chunkgate check`` as a subprocess: its exit code, stdout and stderr."""
    done = cli_process(repo, "check")
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def test_a_backtracking_pattern_stops_with_exit_2(git_repo: Path) -> None:
    write(git_repo, ".chunkgate.yaml", "denylist: {content: ['(a+)+$']}\n")
    write(git_repo, "doc.md", "# Title\n\n" + "a" * 40 + "b and some more words.\n")
    commit_all(git_repo)
    start = time.perf_counter()
    code, stdout, stderr = _check(git_repo)
    assert time.perf_counter() - start < 30
    message = stdout + stderr
    assert code == 2, message
    assert "Traceback" not in stderr
    assert "denylist.content pattern '(a+)+$' searched doc.md for over 2 s" in message
    assert "rewrite it in .chunkgate.yaml" in message


def test_a_quick_pattern_still_fires(git_repo: Path) -> None:
    write(git_repo, ".chunkgate.yaml", "denylist: {content: ['(?i)internal use only']}\n")
    write(git_repo, "doc.md", "# Title\n\nFor INTERNAL use only, this text is.\n")
    commit_all(git_repo)
    code, stdout, stderr = _check(git_repo)
    assert code == 1
    assert "denylist.content pattern '(?i)internal use only'" in stdout + stderr
