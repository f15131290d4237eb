"""SIGKILL and SIGINT at random points of `update`: old or new manifest, no orphan, no wait.

Issue 18, defect 11: a killed parent left pool workers that held the caller's
pipes forever, and its lock made every writer wait and fail although its
owner was dead. Issue 16: the folder is old or new as a whole, or a journal
says which shards belong together; a reader reports it, the next writer
finishes it.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import MANIFEST, commit_all, git_env, make_repo, manifest_snapshot, write

from chunkgate.manifest.journal import location

RUNS = 50
SEED = 18


def _corpus(repo: Path, version: str) -> None:
    for n in range(160):
        body = "\n\n".join(
            f"## Part {k}\n\n{version} text of part {k} in page {n}, long enough."
            for k in range(12)
        )
        write(repo, f"docs/page{n:03}.md", f"# Page {n}\n\n{body}\n")


def _update(repo: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, **git_env()}
    command = [sys.executable, "-m", "chunkgate", "update", "--jobs", "2"]
    return subprocess.Popen(
        command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _succeeds(repo: Path) -> bool:
    process = _update(repo)
    _, stderr = process.communicate(timeout=120)
    if process.returncode != 0:
        print(f"update in {repo} exited {process.returncode}:\n{stderr.decode(errors='replace')}")
    return process.returncode == 0


def _wait_for(path: Path, *, until: float) -> None:
    while not path.exists() and time.monotonic() < until:
        time.sleep(0.0005)


def _reported(repo: Path) -> None:
    """``check`` names the interrupted write and its fix, and changes nothing."""
    before = manifest_snapshot(repo)
    env = {**os.environ, **git_env()}
    command = [sys.executable, "-m", "chunkgate", "check"]
    done = subprocess.run(command, check=False, cwd=repo, env=env, capture_output=True, timeout=120)
    assert done.returncode == 1, done  # CG401: the manifest is not what it should be
    assert b"CG401" in done.stdout
    assert b"was interrupted" in done.stdout
    assert b"run `chunkgate update` to finish it" in done.stdout
    assert manifest_snapshot(repo) == before


def _in(repo: Path) -> list[int]:
    """Processes whose working directory is ``repo``: the chunkgate and its workers."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(entry / "cwd") == str(repo):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc to find orphans")
def test_killed_updates_leave_old_or_new_manifest_and_no_orphan(tmp_path: Path) -> None:
    (tmp_path / "base").mkdir()
    repo = make_repo(tmp_path / "base").resolve()
    _corpus(repo, "old")
    commit_all(repo)
    assert _succeeds(repo)
    commit_all(repo, "manifest")
    old = manifest_snapshot(repo)
    _corpus(repo, "new")
    probe = tmp_path / "probe"
    shutil.copytree(repo, probe, symlinks=True)
    start = time.monotonic()
    assert _succeeds(probe)
    full = time.monotonic() - start
    new = manifest_snapshot(probe)
    assert new != old
    chance = random.Random(SEED)
    outcomes: dict[str, int] = {}
    for run in range(RUNS):
        work = tmp_path / f"run{run}"
        shutil.copytree(repo, work, symlinks=True)
        sig = signal.SIGKILL if run % 2 == 0 else signal.SIGINT
        process = _update(work)
        if run % 5 in (0, 1):
            # Aimed at the renames: as soon as the journal is there.
            _wait_for(location(work / MANIFEST), until=time.monotonic() + full + 10)
        else:
            time.sleep(chance.uniform(0.05, full))
        process.send_signal(sig)
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"run {run}: chunkgate still running 30 s after {sig.name}")
        deadline = time.monotonic() + 5
        while _in(work) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _in(work) == [], f"run {run}: orphans after {sig.name}"
        # A SIGKILL between writing a shard's temporary file and renaming it leaves the
        # file; the next write under the lock removes it (checked below: the snapshot
        # after the next update equals the new one, every file compared).
        state = {
            name: data
            for name, data in manifest_snapshot(work).items()
            if not name.rpartition("/")[2].startswith(".") or not name.endswith(".tmp")
        }
        # The folder is old or new as a whole; a kill between the renames leaves the
        # journal naming the temporary files still to rename, which a reader reports.
        journal = location(work / MANIFEST).exists() or None  # in .git, never in the folder
        assert set(state) == set(old), f"run {run}: files left or lost: {set(state) ^ set(old)}"
        torn = [name for name, data in state.items() if data not in (old[name], new[name])]
        assert torn == [], f"run {run}: shards neither old nor new: {torn}"
        if journal is None:
            assert state in (old, new), f"run {run}: a mix of old and new shards, no journal"
        else:
            assert sig == signal.SIGKILL, f"run {run}: a Ctrl-C left the journal"
            _reported(work)
        leftovers = [p.name for p in (work / "chunkgate.manifest").rglob("*") if ".tmp" in p.name]
        start = time.monotonic()
        assert _succeeds(work), f"run {run}: the next update failed"
        assert time.monotonic() - start < 10 + full
        assert manifest_snapshot(work) == new
        kind = "journal" if journal else "new" if state == new else "old"
        key = f"{sig.name} {kind}{' tmp' if leftovers else ''}"
        outcomes[key] = outcomes.get(key, 0) + 1
        shutil.rmtree(work)
    print("fault outcomes:", dict(sorted(outcomes.items())))
