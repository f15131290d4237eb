"""A backtracking denylist.content pattern stops with a clear error, not a hang (issue 18)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from helpers import commit_all, write


def _check(repo: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "chunkgate", "check"]
    return subprocess.run(
        command, cwd=repo, env=os.environ.copy(), capture_output=True, text=True, check=False
    )


def test_a_backtracking_pattern_stops_with_exit_2(git_repo: Path) -> None:
    write(git_repo, ".chunkgate.yaml", "denylist: {content: ['(a+)+$']}\n")
    write(git_repo, "doc.md", "# Title\n\n" + "a" * 40 + "b and some more words.\n")
    commit_all(git_repo)
    start = time.perf_counter()
    result = _check(git_repo)
    assert time.perf_counter() - start < 30
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    message = result.stdout + result.stderr
    assert "denylist.content pattern '(a+)+$' searched doc.md for over 2 s" in message
    assert "rewrite it in .chunkgate.yaml" in message


def test_a_quick_pattern_still_fires(git_repo: Path) -> None:
    write(git_repo, ".chunkgate.yaml", "denylist: {content: ['(?i)internal use only']}\n")
    write(git_repo, "doc.md", "# Title\n\nFor INTERNAL use only, this text is.\n")
    commit_all(git_repo)
    result = _check(git_repo)
    assert result.returncode == 1
    assert "denylist.content pattern '(?i)internal use only'" in result.stdout + result.stderr
