"""The manifest lock names its owner and is taken over at once when the owner is dead."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chunkgate.core.errors import ManifestError
from chunkgate.manifest.lock import EMPTY_LOCK_GRACE, manifest_lock


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_the_lock_records_pid_and_host(tmp_path: Path) -> None:
    manifest = tmp_path / "m"
    with manifest_lock(manifest):
        pid, host, _ = (tmp_path / "m.lock").read_text().split()
    assert int(pid) == os.getpid()
    assert host == socket.gethostname().replace(" ", "_")
    assert not (tmp_path / "m.lock").exists()


@pytest.mark.skipif(os.name == "nt", reason="no signal 0 to probe a process on Windows")
def test_a_dead_owners_lock_is_taken_over_at_once(tmp_path: Path) -> None:
    lock = tmp_path / "m.lock"
    lock.write_text(f"{_dead_pid()} {socket.gethostname().replace(' ', '_')} abcdefgh\n")
    start = time.monotonic()
    with manifest_lock(tmp_path / "m", timeout=5):
        assert str(os.getpid()) == lock.read_text().split()[0]
    assert time.monotonic() - start < 1


def test_a_lock_left_empty_by_a_killed_owner_is_taken_over(tmp_path: Path) -> None:
    # A SIGKILL between creating the lock and writing its owner leaves it empty: once
    # it has been empty for longer than writing a line takes, no one is writing it
    # (the fault-injection test hit it: the next update waited 30 s and failed).
    lock = tmp_path / "m.lock"
    lock.write_bytes(b"")
    old = time.time() - 2 * EMPTY_LOCK_GRACE
    os.utime(lock, (old, old))
    start = time.monotonic()
    with manifest_lock(tmp_path / "m", timeout=5):
        assert str(os.getpid()) == lock.read_text().split()[0]
    assert time.monotonic() - start < 1


@pytest.mark.parametrize(
    "owner",
    [
        pytest.param("{live} {host} abcdefgh\n", id="live-owner"),
        pytest.param("{dead} other-host abcdefgh\n", id="other-host"),
        pytest.param("{dead} abcdefgh\n", id="older-format"),
        pytest.param("", id="being-written"),
    ],
)
def test_other_locks_are_waited_for(tmp_path: Path, owner: str) -> None:
    host = socket.gethostname().replace(" ", "_")
    text = owner.format(live=os.getppid(), dead=_dead_pid(), host=host)
    (tmp_path / "m.lock").write_text(text)
    waiting = manifest_lock(tmp_path / "m", timeout=0.3)
    with pytest.raises(ManifestError, match="has been writing the manifest"), waiting:
        pass
