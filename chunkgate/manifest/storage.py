"""Writing the manifest's files: atomic replacement, flushes, and the temporaries a crash left."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from chunkgate.core.regex import lazy


def random_hex(size: int) -> str:
    """A random hex string (what ``secrets.token_hex`` gives, without importing it)."""
    return os.urandom(size).hex()


def write_atomic(path: Path, data: bytes | Iterable[bytes], *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` (bytes, or parts to write one after the other) all at
    once: readers and crashes (Ctrl-C included) see the old file or the new one, never a
    mix. Permission bits are kept. ``durable`` also flushes it to disk before the rename
    (a caller writing many files may flush them all at once instead)."""
    temp = write_temporary(path, data, durable=durable)
    try:
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise naming(exc, path) from None
    if durable:
        sync_folder(path.parent)


def write_temporary(path: Path, data: bytes | Iterable[bytes], *, durable: bool = True) -> Path:
    """The temporary file beside ``path`` that holds ``data`` (with ``path``'s permission
    bits), to be renamed over it; nothing is left when writing it fails."""
    try:
        found = os.lstat(path).st_mode  # a symlink's target is not ours to copy from
    except FileNotFoundError:
        found = 0
    mode = stat.S_IMODE(found) if stat.S_ISREG(found) else None
    temp = path.with_name(f".{path.name}.{random_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        # Inside the try: a Ctrl-C that lands as open returns still removes the file.
        fd = os.open(temp, flags, 0o666)  # a new manifest gets the umask's usual bits
        try:
            for part in [data] if isinstance(data, bytes) else data:
                view = memoryview(part)
                while view:
                    view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(temp, mode)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise naming(exc, path) from None
    return temp


def naming(exc: BaseException, path: Path) -> BaseException:
    if isinstance(exc, OSError) and exc.errno is not None:
        # Name the file being written, not the temporary one beside it.
        return OSError(exc.errno, exc.strerror, os.fspath(path))
    return exc


# What write_atomic names its temporary file: ".NAME.<12 hex digits>.tmp".
_TEMPORARY = lazy(r"\..+\.[0-9a-f]{12}\.tmp")


def temporary_of(name: str) -> str | None:
    """The NAME whose temporary file ``name`` is, if it is one (".NAME.<12 hex>.tmp")."""
    return name[1:-17] if _TEMPORARY.fullmatch(name) else None


def remove_temporaries(folders: Iterable[Path], *, recursive: bool = False) -> int:
    """Remove the temporary files a killed writer left in ``folders`` (and, ``recursive``,
    their subfolders); how many. Call it holding the manifest lock: no other writer is
    then between writing a temporary file and renaming it."""
    removed = 0
    for folder in folders:
        walk = os.walk(folder) if recursive else [(str(folder), [], _names(folder))]
        for parent, _, names in walk:
            for name in names:
                if _TEMPORARY.fullmatch(name):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(os.path.join(parent, name))
                        removed += 1
    return removed


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def sync_all() -> None:
    """Flush what was written without ``durable`` to disk, all at once."""
    if hasattr(os, "sync"):
        os.sync()


def sync_folder(folder: Path) -> None:
    # The rename itself is durable only once the directory entry is; Windows has no such fsync.
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
