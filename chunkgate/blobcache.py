"""Values by git blob ID, kept between runs in one JSON file under the user's cache folder.

Content-addressed: an entry is never stale, deleting the cache is always
safe, and any failure to read or write it is ignored (a file that cannot be
read as the entries it should hold is read as no entries). A run keeps what it
used: ``save`` writes those entries, and only when they are not the ones it
read, through a temporary file and a rename, so a reader sees the old file or
the new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from typing import Generic, TypeVar

from chunkgate import configcache, paths

T = TypeVar("T")


class BlobCache(Generic[T]):
    """One cache file: ``folder`` under the cache folder, named by ``key`` (which holds
    the format version, so that a chunkgate that stores other values starts afresh).
    ``decode`` raises ``ValueError``, ``TypeError`` or ``KeyError`` on a damaged entry."""

    def __init__(
        self,
        folder: str,
        key: str,
        decode: Callable[[object], T],
        encode: Callable[[T], object],
    ) -> None:
        base = configcache.folder()
        name = hashlib.sha256(key.encode()).hexdigest()[:24]
        self._file = None if base is None else base / folder / f"{name}.json"
        self._decode, self._encode = decode, encode
        self._known: dict[str, T] = {}
        self._used: dict[str, T] = {}
        self._loaded = False

    def get(self, blob: str) -> T | None:
        if not self._loaded:
            self._load()
        found = self._known.get(blob)
        if found is not None:
            self._used[blob] = found
        return found

    def put(self, blob: str, value: T) -> None:
        self._used[blob] = value

    def _load(self) -> None:
        self._loaded = True
        if self._file is None:
            return
        try:
            raw = json.loads(self._file.read_bytes())
            if not isinstance(raw, dict):
                raise TypeError("not an object")
            self._known = {blob: self._decode(item) for blob, item in raw.items()}
        except (OSError, ValueError, TypeError, KeyError):
            self._known = {}  # missing or damaged: an optimisation only

    def save(self) -> None:
        """Keep what this run used, if it is not what the file holds."""
        if self._file is None or self._used.keys() == self._known.keys():
            return
        base = configcache.folder()
        if base is None or not paths.cache_file_allowed(base, self._file):
            return
        entries = {blob: self._encode(value) for blob, value in sorted(self._used.items())}
        data = json.dumps(entries).encode("ascii")  # escapes even an undecodable path's bytes
        temp = self._file.with_name(f".{self._file.name}.{os.urandom(6).hex()}.tmp")
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(data)
            os.replace(temp, self._file)
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)
