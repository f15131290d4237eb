"""Values by git blob ID, kept between runs in one file under the user's cache folder.

Content-addressed: an entry is never stale, and deleting the cache is always
safe. The file is read and written through ``chunkgate.cache.store``: one that
is missing or damaged is read as no entries. A run keeps what it used: ``save``
writes those entries, and only when they are not the ones it read.

How the entries become bytes is the subclass's: ``JsonCache`` holds one JSON
object, entry by entry; ``MarshalCache`` one ``marshal`` record, which the
shard summaries and the files' links make of columns, a column a field (at
100,000 files: 0.3-0.4 s to load, against 1.0-1.2 s of JSON, and about as
much less to write).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import sys
import zlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from chunkgate.cache import store

T = TypeVar("T")


class BlobCache(Generic[T]):
    """One cache file: ``folder`` under the cache folder, named by ``key`` (which holds
    the format version, so that a chunkgate that stores other values starts afresh)."""

    suffix = ".json"

    def __init__(self, folder: str, key: str) -> None:
        name = hashlib.sha256(key.encode()).hexdigest()[:24]
        self._file = store.cache_file(folder, f"{name}{self.suffix}")
        self._known: dict[str, T] = {}
        self._used: dict[str, T] = {}
        self._loaded = False

    def _unpack(self, data: bytes) -> dict[str, T]:
        """The entries of the file's bytes; raises one of ``store.DECODE_ERRORS`` (a
        ``ValueError`` for a record of the wrong shape) when they are damaged."""
        raise NotImplementedError

    def _pack(self, entries: dict[str, T]) -> bytes:
        """The bytes of ``entries`` (in blob order)."""
        raise NotImplementedError

    def get(self, blob: str) -> T | None:
        if not self._loaded:
            self._load()
        found = self._known.get(blob)
        if found is not None:
            self._used[blob] = found
        return found

    def put(self, blob: str, value: T) -> None:
        self._used[blob] = value

    def clear(self) -> None:
        """Keep nothing of this run: ``save`` then writes no entries."""
        self._used.clear()

    def _load(self) -> None:
        self._loaded = True
        self._known = store.load(self._file, self._unpack, {})

    def _unchanged(self) -> bool:
        """Whether what this run used is what the file holds (by blob: the same values)."""
        return self._used.keys() == self._known.keys()

    def save(self) -> None:
        """Keep what this run used, if it is not what the file holds."""
        if self._file is None or self._unchanged():
            return
        store.save(self._file, self._pack(dict(sorted(self._used.items()))))


class JsonCache(BlobCache[T]):
    """Entries as one JSON object by blob; ``decode`` raises ``ValueError`` on a damaged
    entry."""

    def __init__(
        self,
        folder: str,
        key: str,
        decode: Callable[[object], T],
        encode: Callable[[T], object],
    ) -> None:
        super().__init__(folder, key)
        self._decode, self._encode = decode, encode

    def _unpack(self, data: bytes) -> dict[str, T]:
        raw = json.loads(data)
        if not isinstance(raw, dict):
            raise ValueError("not an object")
        return {blob: self._decode(item) for blob, item in raw.items()}

    def _pack(self, entries: dict[str, T]) -> bytes:
        encoded = {blob: self._encode(value) for blob, value in entries.items()}
        return json.dumps(encoded).encode("ascii")  # escapes even an undecodable path's bytes


class MarshalCache(BlobCache[T]):
    """Entries as one ``marshal`` record (``_record`` makes it, ``_entries`` reads it),
    behind a CRC-32 of it, so that a damaged file is refused before it is unmarshalled.
    marshal's format is the running Python's: the key holds its version, so another
    Python starts afresh."""

    suffix = ".bin"

    def __init__(self, folder: str, key: str) -> None:
        python = ".".join(map(str, sys.version_info[:2]))
        super().__init__(folder, f"{key}\0python {python}")

    def _record(self, entries: dict[str, T]) -> tuple[Any, ...]:
        """The record of ``entries``: a tuple of what marshal writes (no subclasses)."""
        raise NotImplementedError

    def _entries(self, record: object) -> dict[str, T]:
        """The entries of a record; raises ``ValueError`` when it is not one."""
        raise NotImplementedError

    def _unpack(self, data: bytes) -> dict[str, T]:
        check, payload = data[:4], data[4:]
        if len(check) != 4 or int.from_bytes(check, "big") != zlib.crc32(payload):
            raise ValueError("a damaged cache file")
        return self._entries(marshal.loads(payload))

    def _pack(self, entries: dict[str, T]) -> bytes:
        return sealed(self._record(entries))


def sealed(record: Any) -> bytes:
    """A ``MarshalCache`` file's bytes: the CRC-32 of the marshalled record, then it."""
    payload = marshal.dumps(record, 4)
    return zlib.crc32(payload).to_bytes(4, "big") + payload
