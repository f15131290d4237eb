"""The lock that makes the manifest's writers take turns, and what it says about its owner."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from chunkgate.core.errors import ManifestError
from chunkgate.manifest.confined import Confined
from chunkgate.manifest.journal import roll_forward
from chunkgate.manifest.storage import random_hex

LOCK_TIMEOUT = 30.0
STALE_LOCK_AGE = 600.0
EMPTY_LOCK_GRACE = 5.0  # seconds an empty lock may be one still being written


@contextlib.contextmanager
def manifest_lock(
    path: Path, *, timeout: float = LOCK_TIMEOUT, stale_after: float = STALE_LOCK_AGE
) -> Iterator[None]:
    """Hold ``<manifest>.lock`` so that concurrent writers take turns.

    Read the manifest, change it and write it back all inside the lock: a read
    made before taking it may miss another writer's entries, and writing it
    back would drop them. Keep slow work (chunking) outside. A lock file is a
    plain file created exclusively, so it works on every OS and file system;
    one older than ``stale_after`` seconds is left from a crash and is broken.
    Not reentrant: taking it again inside itself waits for ``timeout`` and fails.
    """
    lock = path.with_name(path.name + ".lock")
    token = _acquire(lock, timeout, stale_after)
    try:
        if path.is_dir():
            roll_forward(Confined(path, path.name))  # what a killed writer's journal left to rename
        yield
    finally:
        _release(lock, token)


def _acquire(lock: Path, timeout: float, stale_after: float) -> bytes:
    # Owner first (pid and host), so that a waiter can tell a dead owner's lock.
    token = f"{os.getpid()} {_host()} {random_hex(8)}\n".encode()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            fd = os.open(lock, flags, 0o644)
        except FileExistsError:
            pass
        except OSError as exc:
            # Windows refuses to create a file that is still being deleted: a busy lock.
            if not (isinstance(exc, PermissionError) and os.name == "nt"):
                raise ManifestError(f"{lock}: cannot create the lock: {exc.strerror}") from None
        else:
            try:
                os.write(fd, token)
            except BaseException:
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(lock)
                raise
            os.close(fd)
            return token
        if _break_stale(lock, stale_after):
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            raise ManifestError(
                f"{lock}: another chunkgate{_holder(lock)} has been writing the manifest "
                f"for over {timeout:g} s; if no chunkgate is running, delete {lock}"
            )
        time.sleep(min(delay, left))
        delay = min(delay * 2, 0.25)


def _holder(lock: Path) -> str:
    try:
        pid = lock.read_bytes().split(b" ", 1)[0]
    except OSError:
        return ""
    return f" (process {pid.decode()})" if pid.isdigit() else ""


def _break_stale(lock: Path, stale_after: float) -> bool:
    """Remove a lock older than ``stale_after``; True when the caller should retry at once."""
    try:
        seen = os.stat(lock)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if time.time() - seen.st_mtime < stale_after and not _owner_dead(lock):
        return False
    # Rename rather than delete: of several waiters that all found the lock stale,
    # only one moves it, and one that moved a fresh lock taken meanwhile puts it back.
    grave = lock.with_name(f"{lock.name}.{random_hex(6)}.stale")
    try:
        os.rename(lock, grave)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        moved = os.stat(grave)
        if (moved.st_ino, moved.st_mtime_ns) != (seen.st_ino, seen.st_mtime_ns):
            with contextlib.suppress(OSError):
                os.link(grave, lock)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(grave)
    return True


def lock_held(path: Path) -> bool:
    """Whether a writer that is alive (or on another host) holds the lock of ``path``."""
    lock = path.with_name(path.name + ".lock")
    return lock.exists() and not _owner_dead(lock)


def _host() -> str:
    return socket.gethostname().replace(" ", "_") or "-"


def _owner_dead(lock: Path) -> bool:
    """True when the lock names a process of this host that no longer runs."""
    try:
        fields = lock.read_bytes().split()
    except OSError:
        return False
    if not fields:
        # Being written (the owner writes it right after creating it), or its owner
        # was killed in between: once it has been empty for a while, no one owns it.
        try:
            return time.time() - os.stat(lock).st_mtime >= EMPTY_LOCK_GRACE
        except OSError:
            return False
    if os.name == "nt":  # os.kill(pid, 0) would send CTRL_C_EVENT there
        return False
    # A two-field lock is an older chunkgate's.
    if len(fields) != 3 or not fields[0].isdigit() or fields[1].decode(errors="replace") != _host():
        return False
    pid = int(fields[0])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _release(lock: Path, token: bytes) -> None:
    try:
        ours = lock.read_bytes() == token
    except FileNotFoundError:
        return
    except OSError:
        ours = True  # unreadable yet there: most likely ours, and a left lock blocks everyone
    if ours:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock)
