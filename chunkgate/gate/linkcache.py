"""Each Markdown file's links and anchors, kept between whole-corpus runs by its git blob.

CG404 needs every file's links and anchors; parsing every page on each
whole-corpus check would cost more than the rest of the check (fastapi's
docs: 1.2 s of CPU against 0.6 s). A file's links, and its anchors when it
includes no other file, depend only on its bytes and the chunking settings
(the anchor flavour), so they are kept under the user's cache folder by
blob ID, in one file per repository, site and settings. Content-addressed:
an entry is never stale, deleting the cache is always safe, and any failure
to read or write it is ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import NamedTuple

from chunkgate import configcache, paths
from chunkgate.links import Link

_VERSION = "chunkgate-links-1"


class FileLinks(NamedTuple):
    links: tuple[Link, ...]  # the links that may name a corpus anchor
    anchors: frozenset[str] | None  # None: made by the template, not checkable
    includes: bool  # it includes other files: its anchors are not kept


class LinkCache:
    def __init__(self, root: Path, settings: str) -> None:
        base = configcache.folder()
        key = hashlib.sha256(f"{_VERSION}\0{root}\0{settings}".encode()).hexdigest()[:24]
        self._file = None if base is None else base / "links" / f"{key}.json"
        self._known: dict[str, FileLinks] = {}
        self._used: dict[str, FileLinks] = {}
        self._loaded = False

    def get(self, blob: str) -> FileLinks | None:
        if not self._loaded:
            self._load()
        found = self._known.get(blob)
        if found is not None:
            self._used[blob] = found
        return found

    def put(self, blob: str, found: FileLinks) -> None:
        self._used[blob] = found

    def _load(self) -> None:
        self._loaded = True
        if self._file is None:
            return
        try:
            raw = json.loads(self._file.read_bytes())
            if not isinstance(raw, dict):
                raise TypeError("not an object")
            self._known = {blob: _entry(item) for blob, item in raw.items()}
        except (OSError, ValueError, TypeError, KeyError):
            self._known = {}

    def save(self) -> None:
        """Keep what this run used (every Markdown file of the corpus), if it changed."""
        if self._file is None or self._used.keys() == self._known.keys():
            return
        base = configcache.folder()
        if base is None or not paths.cache_file_allowed(base, self._file):
            return
        entries = {
            blob: [
                [list(link) for link in found.links],
                None if found.anchors is None else sorted(found.anchors),
                found.includes,
            ]
            for blob, found in sorted(self._used.items())
        }
        data = json.dumps(entries, ensure_ascii=True).encode("ascii")
        temp = self._file.with_name(f".{self._file.name}.{os.urandom(6).hex()}.tmp")
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(data)
            os.replace(temp, self._file)
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)


def _entry(item: object) -> FileLinks:
    if not isinstance(item, list) or len(item) != 3:
        raise ValueError("a damaged cache entry")
    links, anchors, includes = item
    if not isinstance(links, list) or not isinstance(includes, bool):
        raise ValueError("a damaged cache entry")
    found: list[Link] = []
    for link in links:
        destination, line, written = link
        if not (isinstance(destination, str) and type(line) is int and isinstance(written, str)):
            raise ValueError("a damaged cache entry")
        found.append(Link(destination, line, written))
    if anchors is not None and not (
        isinstance(anchors, list) and all(isinstance(a, str) for a in anchors)
    ):
        raise ValueError("a damaged cache entry")
    return FileLinks(tuple(found), None if anchors is None else frozenset(anchors), includes)
