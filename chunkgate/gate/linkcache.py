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

from pathlib import Path
from typing import NamedTuple

from chunkgate.blobcache import BlobCache
from chunkgate.links import Link

_VERSION = "chunkgate-links-2"  # 2: "includes" means an include line, not the word


class FileLinks(NamedTuple):
    links: tuple[Link, ...]  # the links that may name a corpus anchor
    anchors: frozenset[str] | None  # None: made by the template, not checkable
    includes: bool  # it includes other files: its anchors are not kept


class LinkCache(BlobCache[FileLinks]):
    def __init__(self, root: Path, settings: str) -> None:
        super().__init__("links", f"{_VERSION}\0{root}\0{settings}", _entry, _stored)


def _stored(found: FileLinks) -> object:
    return [
        [list(link) for link in found.links],
        None if found.anchors is None else sorted(found.anchors),
        found.includes,
    ]


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
