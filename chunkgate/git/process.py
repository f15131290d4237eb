"""The door every git process goes through: ``popen`` starts them all, ``run`` waits for one.

Output is read with ``-z`` wherever git offers it, paths are decoded as UTF-8
with ``surrogateescape`` (so names that are not UTF-8 survive a round trip).
The caller's environment is kept on purpose: inside a git hook,
``GIT_INDEX_FILE`` points at the index being committed.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from chunkgate.core.errors import GitError

_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "LC_ALL": "C",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
}

_started = {"processes": 0}
_count_lock = threading.Lock()

Process = subprocess.Popen[bytes]


class GitCommandError(GitError):
    """A git command exited non-zero; keeps the exit code and stderr for callers."""

    def __init__(self, args: Sequence[str], returncode: int, stderr: str) -> None:
        shown = " ".join(args)
        if len(shown) > 120:
            shown = shown[:119] + "…"
        super().__init__(f"git {shown}: {stderr or 'failed'} (exit {returncode})")
        self.command = tuple(args)
        self.returncode = returncode
        self.stderr = stderr


def process_count() -> int:
    """How many git processes this interpreter has started (reported in benchmarks)."""
    return _started["processes"]


def decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def encode(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def clean_stderr(raw: bytes) -> str:
    """git's complaint on one line, without its ``fatal:`` and ``error:`` prefixes."""
    lines = []
    for line in decode(raw).splitlines():
        text = line.strip()
        for prefix in ("fatal: ", "error: "):
            text = text.removeprefix(prefix)
        if text:
            lines.append(text)
    return "; ".join(lines)


def popen(
    root: Path,
    args: Sequence[str],
    *,
    stdin: int,
    stdout: int,
    stderr: int,
    env: dict[str, str] | None = None,
) -> Process:
    """Start ``git -C root ARGS``: the one place a git process is made (and counted)."""
    command = ("git", "-C", os.fspath(root), "-c", "core.quotepath=off", *args)
    try:
        proc = subprocess.Popen(
            command,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, **_ENV, **(env or {})},
        )
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    with _count_lock:
        _started["processes"] += 1
    return proc


def run(
    root: Path,
    *args: str,
    input: bytes | None = None,
    check: bool = True,
    env: dict[str, str] | None = None,
) -> bytes:
    """Run one git command to completion and return its stdout."""
    proc = popen(
        root,
        args,
        stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    stdout, stderr = proc.communicate(input)
    if check and proc.returncode:
        raise GitCommandError(args, proc.returncode, clean_stderr(stderr))
    return stdout


def split_z(output: bytes) -> Iterator[str]:
    """The records of ``-z`` output, decoded."""
    for record in decode(output).split("\0"):
        if record:
            yield record


def installed() -> bool:
    """Whether a git executable is on PATH (as ``shutil.which`` tells, without its import)."""
    if os.name == "nt":
        import shutil  # Windows' PATHEXT rules are shutil's; elsewhere the hook skips its import

        return shutil.which("git") is not None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or ".", "git")
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return True
    return False


def find_root(start: Path) -> Path | None:
    """The top of the work tree holding ``start``; None outside one or without git."""
    folder = start if start.is_dir() else start.parent
    try:
        out = run(folder, "rev-parse", "--show-toplevel")
    except GitCommandError as exc:
        if "dubious ownership" in exc.stderr:
            raise
        return None
    except GitError:
        return None
    top = decode(out).rstrip("\n")
    return Path(top) if top else None
