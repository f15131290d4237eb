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
from typing import Any, NamedTuple

from chunkgate.cache.blobs import MarshalCache
from chunkgate.links.extract import Link
from chunkgate.sites.urls import Route

# 9: a link is placed on the line that writes it where an earlier occurrence of its
# destination was not one (143 of 26,689 corpus links had their block's first line);
# 8: front matter routes; 7: why a page is open; 6: attribute-list and footnote anchors,
# admonition bodies' links; 5: anchors as tuples; 4: columns; 3: anchors in the site's flavour
_VERSION = "chunkgate-links-9"


class FileLinks(NamedTuple):
    links: tuple[Link, ...]  # the links that may name a corpus anchor
    # Every anchor chunkgate reads, sorted; None: not kept (it includes other files).
    # A tuple, not a set: at 100,000 files, marshal reads 750,000 anchors in 0.11 s as
    # tuples and 0.33 s as sets (and writes them in 0.07 s, not 0.31 s), and only the
    # pages that links point into are looked up.
    anchors: tuple[str, ...] | None
    includes: bool  # it includes other files: its anchors are not kept
    open: str | None = None  # why the page may have anchors it does not show (openings)
    route: Route = ()  # the front matter keys that set its URL (``sites.urls``)


class LinkCache(MarshalCache[FileLinks]):
    """Columns: the blobs, each file's links (plain tuples), anchors, ``includes``,
    ``open`` and ``route``."""

    def __init__(self, root: Path, settings: str) -> None:
        super().__init__("links", f"{_VERSION}\0{root}\0{settings}")

    def _record(self, entries: dict[str, FileLinks]) -> tuple[Any, ...]:
        values = entries.values()
        links = [tuple(map(tuple, found.links)) for found in values]
        anchors, includes = [f.anchors for f in values], [f.includes for f in values]
        opened, routes = [f.open for f in values], [f.route for f in values]
        return (list(entries), links, anchors, includes, opened, routes)

    def _entries(self, record: object) -> dict[str, FileLinks]:
        if not (isinstance(record, tuple) and len(record) == 6):
            raise ValueError("a damaged cache file")
        blobs, links, anchors, includes, opened, routes = record
        columns = zip(links, anchors, includes, opened, routes, strict=True)
        found = (FileLinks(tuple(map(Link._make, e)), a, i, o, r) for e, a, i, o, r in columns)
        return dict(zip(blobs, found, strict=True))
