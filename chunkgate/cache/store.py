"""The cache folder, and the one way every on-disk cache reads and writes a file in it.

The folder is ``$CHUNKGATE_CACHE_DIR``, else ``$XDG_CACHE_HOME/chunkgate`` or
``~/.cache/chunkgate`` (``%LOCALAPPDATA%\\chunkgate`` on Windows);
``CHUNKGATE_NO_CACHE=1`` turns every cache off. A cache is an optimisation: a file
that is missing, unreadable or damaged is a miss, and one that cannot be written is
not written. A file is written whole, through a temporary file and a rename, so a
reader sees the old file or the new one. Damaged means that decoding the bytes failed
(``DECODE_ERRORS``); any other error a decoder raises is a bug, and propagates.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from chunkgate.corpus import paths

_T = TypeVar("_T")

# What decoding damaged bytes raises: marshal (EOFError, ValueError), json and UTF-8
# (ValueError subclasses), zlib; a decoder that checks a record's shape raises ValueError.
DECODE_ERRORS = (EOFError, ValueError, zlib.error)


def folder() -> Path | None:
    """The cache folder; None when caches are off (or no folder is known)."""
    if os.environ.get("CHUNKGATE_NO_CACHE"):
        return None
    explicit = os.environ.get("CHUNKGATE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base, "chunkgate") if base else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "chunkgate")


def cache_file(kind: str, name: str) -> Path | None:
    """The file ``name`` of the cache ``kind`` (a folder of its own); None when caches are off."""
    base = folder()
    return None if base is None else base / kind / name


def load(file: Path | None, decode: Callable[[bytes], _T], missing: _T) -> _T:
    """``decode`` of the file's bytes; ``missing`` when there is no file, it cannot be
    read, or its bytes are damaged."""
    if file is None:
        return missing
    try:
        data = file.read_bytes()
    except OSError:
        return missing
    try:
        return decode(data)
    except DECODE_ERRORS:
        return missing


def save(file: Path, data: bytes) -> None:
    """Write ``data`` as ``file`` atomically, if chunkgate may write there; failing to is
    no error."""
    base = folder()
    if base is None or not paths.cache_file_allowed(base, file):
        return
    temp = file.with_name(f".{file.name}.{os.urandom(6).hex()}.tmp")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(data)
        os.replace(temp, file)
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
