"""Temporary git repositories of real Markdown, and timed ``chunkgate`` runs in them.

A repository of N files holds copies of the corpus in folders ``copy1/``,
``copy2/``, ... (as many as it takes; the last one partial), committed with
a pinned identity together with the manifest of a cold ``chunkgate update``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ENV = {
    **{key: value for key, value in os.environ.items() if not key.startswith("GIT_")},
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@chunkgate.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@chunkgate.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
MANIFEST = "chunkgate.manifest"  # a folder: the header and one shard per corpus file


def chunkgate_command() -> list[str]:
    """The console script next to this interpreter (what the hook runs), else ``-m``."""
    script = Path(sys.executable).with_name("chunkgate")
    return [os.fspath(script)] if script.exists() else [sys.executable, "-m", "chunkgate"]


@dataclass(frozen=True, slots=True)
class Run:
    wall: float
    cpu: float  # user + system of the process and the children it waited for
    max_rss_kb: int
    status: int
    stderr: str


def run(
    command: Sequence[str], cwd: Path, *, env: dict[str, str] | None = None, capture: bool = False
) -> Run:
    """Run a command with stdout to /dev/null; its wall time, CPU time and peak RSS."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        env=env or ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if capture else subprocess.DEVNULL,
    )
    stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr is not None else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.stderr is not None:
        proc.stderr.close()
    return Run(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        max_rss_kb=usage.ru_maxrss,
        status=proc.returncode,
        stderr=stderr,
    )


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", os.fspath(repo), *args], capture_output=True, text=True, env=ENV, check=True
    )
    return proc.stdout


def corpus_files(corpus: Path) -> list[Path]:
    return sorted(path for path in corpus.rglob("*.md") if path.is_file())


# A corpus that passes its own gate, as one behind a pre-commit hook does:
# FastAPI's longest section has 25,000 characters, and a few of its pages are
# link lists.
CLEAN_CONFIG = "size: {max: 30000, min: 0}\nrules: {CG304: off}\n"
_ATX = re.compile(rb"^(#{1,6} .*?)((?: *\{[^}\n]*\})?[ \t]*)$", re.MULTILINE)


def build(repo: Path, corpus: Path, count: int, *, config: str | None = CLEAN_CONFIG) -> list[str]:
    """A committed repository of ``count`` Markdown files and no manifest yet.

    The second and later copies of a page get their copy number in every
    heading (and the first line), so that they are not duplicates of the first.
    """
    files = corpus_files(corpus)
    repo.mkdir(parents=True)
    written: list[str] = []
    for index in range(count):
        source = files[index % len(files)]
        copy = index // len(files) + 1
        relative = f"copy{copy}/{source.relative_to(corpus).as_posix()}"
        target = repo / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        data = source.read_bytes()
        if copy > 1:
            data = _distinct(data, copy)
        target.write_bytes(data)
        written.append(relative)
    if config is not None:
        (repo / ".chunkgate.yaml").write_text(config, encoding="utf-8")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "corpus")
    return written


def _distinct(data: bytes, copy: int) -> bytes:
    mark = f" ({copy})".encode()
    first, newline, rest = data.partition(b"\n")
    if first.strip() and not first.startswith((b"#", b"---")):
        first += mark
    return _ATX.sub(lambda m: m.group(1) + mark + m.group(2), first + newline + rest)


def update_and_commit(repo: Path) -> Run:
    result = run([*chunkgate_command(), "update", "-q"], repo)
    if result.status != 0:
        raise RuntimeError(f"chunkgate update failed in {repo} (exit {result.status})")
    git(repo, "add", MANIFEST)
    git(repo, "commit", "-q", "-m", "manifest")
    settle(repo)
    return result


def settle(repo: Path) -> None:
    """Leave the index as ``git status`` leaves it: no "racily clean" entries.

    Files written in the same second as the index cannot be trusted by their
    stat data, so git re-reads and hashes them on every ``diff-files`` until
    the index is refreshed (as a fresh checkout is, by the first ``git
    status``). How many files that is depends on how the seconds fell while
    the repository was built, which made the whole-corpus check's time vary
    from run to run; see "A fresh checkout is slower to list" in the README.
    """
    time.sleep(1.1)  # later than every file's mtime, so that the refresh can trust them
    git(repo, "update-index", "-q", "--refresh")


def manifest_files(repo: Path) -> dict[str, bytes]:
    """The manifest folder's files by their path inside it."""
    folder = repo / MANIFEST
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def manifest_bytes(repo: Path) -> bytes:
    """Every file of the manifest folder with its name: equal when the manifests are."""
    return b"".join(name.encode() + b"\0" + data for name, data in manifest_files(repo).items())


class EditedFiles:
    """Edit files and stage them as a commit would; ``restore`` puts HEAD back."""

    def __init__(self, repo: Path, paths: Sequence[str]) -> None:
        self.repo = repo
        self.paths = list(paths)
        self.originals = {path: (repo / path).read_bytes() for path in self.paths}
        self.manifest = manifest_files(repo)

    def edit(self, round_number: int) -> None:
        for path in self.paths:
            text = self.originals[path] + f"\nAn edited paragraph, round {round_number}.\n".encode()
            (self.repo / path).write_bytes(text)
        git(self.repo, "add", "--", *self.paths)

    def restore(self) -> None:
        for path, data in self.originals.items():
            (self.repo / path).write_bytes(data)
        folder = self.repo / MANIFEST
        for path in folder.rglob("*"):
            if path.is_file() and path.relative_to(folder).as_posix() not in self.manifest:
                path.unlink()
        for name, data in self.manifest.items():
            (folder / name).write_bytes(data)
        git(self.repo, "add", "--", *self.paths, MANIFEST)
        git(self.repo, "update-index", "-q", "--refresh")
