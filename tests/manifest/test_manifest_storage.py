"""Writing the manifest: atomic replacement, and the lock that makes writers take turns."""

from __future__ import annotations

import multiprocessing
import os
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from manifest_samples import GOLDEN_SHARD, chunk, entry

from chunkgate.core.errors import ManifestError
from chunkgate.manifest import FileEntry, WorkTreeManifest, manifest_lock, write_atomic

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")


def only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_write_atomic_writes_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "a.md.jsonl"
    write_atomic(path, b"one\n")
    assert path.read_bytes() == b"one\n"
    write_atomic(path, GOLDEN_SHARD)
    assert path.read_bytes() == GOLDEN_SHARD
    assert only(tmp_path) == ["a.md.jsonl"]
    # Parts are written one after the other.
    write_atomic(path, [b"head\n", b"", b"block one\n", b"block two\n"])
    assert path.read_bytes() == b"head\nblock one\nblock two\n"
    assert only(tmp_path) == ["a.md.jsonl"]


@posix_only
def test_write_atomic_keeps_permission_bits(tmp_path: Path) -> None:
    path = tmp_path / "a.md.jsonl"
    path.write_bytes(b"old\n")
    path.chmod(0o640)
    write_atomic(path, b"new\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@posix_only
def test_write_atomic_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "m.jsonl", b"x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "m.jsonl").stat().st_mode) == 0o640


def _raise(error: BaseException) -> Callable[..., None]:
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    return fail


@pytest.mark.parametrize(
    ("target", "error"),
    [
        pytest.param("replace", OSError(28, "No space left on device"), id="replace-oserror"),
        pytest.param("replace", KeyboardInterrupt(), id="replace-ctrl-c"),
        pytest.param("fsync", KeyboardInterrupt(), id="fsync-ctrl-c"),
        pytest.param("chmod", PermissionError(1, "Operation not permitted"), id="chmod-fails"),
    ],
)
def test_write_atomic_failure_leaves_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, error: BaseException
) -> None:
    path = tmp_path / "a.md.jsonl"
    path.write_bytes(GOLDEN_SHARD)
    monkeypatch.setattr(os, target, _raise(error))
    with pytest.raises(type(error)):
        write_atomic(path, b"half" * 1000)
    monkeypatch.undo()
    assert path.read_bytes() == GOLDEN_SHARD
    assert only(tmp_path) == ["a.md.jsonl"]


def test_write_atomic_interrupted_while_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.md.jsonl"
    path.write_bytes(GOLDEN_SHARD)

    real_write = os.write
    calls = []

    def write_a_little_then_interrupt(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real_write(fd, bytes(data)[:10])

    monkeypatch.setattr(os, "write", write_a_little_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"new" * 100)
    monkeypatch.undo()
    assert calls == [300, 290]
    assert path.read_bytes() == GOLDEN_SHARD
    assert only(tmp_path) == ["a.md.jsonl"]


# -- the lock ----------------------------------------------------------------------------------


SHARED = "shared.md"


def add_entries(root: Path, prefix: str, rounds: int) -> None:
    """Read-modify-write one shard ``rounds`` times, adding a chunk to it each time, and
    write a shard of one's own, as a hook batch writes its files' shards."""
    for number in range(rounds):
        with manifest_lock(root / "chunkgate.manifest"):
            manifest = WorkTreeManifest(root, "chunkgate.manifest", in_git=False)
            shared = manifest.entry(SHARED) or FileEntry(SHARED, None, ())
            added = chunk(SHARED, f"{prefix}-{number:02d}")
            time.sleep(0.001)  # widen the window a lost update would need
            mine = entry(f"{prefix}/{number:02d}.md", "x")
            manifest.write(
                {SHARED: replace(shared, chunks=(*shared.chunks, added)), mine.path: mine}
            )


def check_no_update_was_lost(root: Path) -> None:
    manifest = WorkTreeManifest(root, "chunkgate.manifest", in_git=False)
    shared = manifest.entry(SHARED)
    assert shared is not None
    assert sorted(c.id for c in shared.chunks) == sorted(
        f"{SHARED}#{name}-{number:02d}" for name in ("one", "two") for number in range(20)
    )
    assert len(manifest.listing()) == 41
    assert only(root) == ["chunkgate.manifest"]  # no lock left
    assert [p.name for p in (root / "chunkgate.manifest").rglob(".*")] == []  # no temp file


def test_lock_serialises_threads(tmp_path: Path) -> None:
    workers = [
        threading.Thread(target=add_entries, args=(tmp_path, name, 20)) for name in ("one", "two")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    check_no_update_was_lost(tmp_path)


def test_lock_serialises_processes(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=add_entries, args=(tmp_path, name, 20)) for name in ("one", "two")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    check_no_update_was_lost(tmp_path)


def test_lock_is_released_on_error(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    inside = []

    def fail_while_locked() -> None:
        with manifest_lock(path):
            inside.extend(only(tmp_path))
            raise RuntimeError

    with pytest.raises(RuntimeError):
        fail_while_locked()
    assert inside == ["m.jsonl.lock"]
    assert only(tmp_path) == []


def test_stale_lock_is_broken(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lock = tmp_path / "m.jsonl.lock"
    lock.write_bytes(b"99999 leftover\n")
    eleven_minutes_ago = time.time() - 660
    os.utime(lock, (eleven_minutes_ago, eleven_minutes_ago))
    started = time.monotonic()
    with manifest_lock(path, timeout=5):
        assert lock.read_bytes() != b"99999 leftover\n"
    assert time.monotonic() - started < 2
    assert only(tmp_path) == []


def test_busy_lock_times_out_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lock = tmp_path / "m.jsonl.lock"
    lock.write_bytes(b"4242 someone\n")
    started = time.monotonic()
    with pytest.raises(ManifestError) as caught, manifest_lock(path, timeout=0.3):
        pytest.fail("the lock was taken")
    assert 0.3 <= time.monotonic() - started < 3
    message = str(caught.value)
    assert message.startswith(f"{lock}: another chunkgate (process 4242) ")
    assert f"if no chunkgate is running, delete {lock}" in message
    assert lock.read_bytes() == b"4242 someone\n"


def test_waiter_gets_the_lock_when_it_is_released(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    taken = threading.Event()

    def hold() -> None:
        with manifest_lock(path):
            taken.set()
            time.sleep(0.3)

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    started = time.monotonic()
    with manifest_lock(path, timeout=10):
        waited = time.monotonic() - started
    holder.join()
    assert 0.1 < waited < 5


def test_release_leaves_a_lock_that_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lock = tmp_path / "m.jsonl.lock"
    with manifest_lock(path):
        # As if ours had been broken as stale and someone else took the lock since.
        lock.write_bytes(b"1 somebody-else\n")
    assert lock.read_bytes() == b"1 somebody-else\n"


def test_lock_in_a_missing_folder_is_a_manifest_error(tmp_path: Path) -> None:
    with (
        pytest.raises(ManifestError, match="cannot create the lock"),
        manifest_lock(tmp_path / "missing" / "m.jsonl"),
    ):
        pass
