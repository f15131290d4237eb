"""CG404's broken links in ``check`` and ``update``: the whole corpus's, or the hook's.

A whole-corpus run checks every Markdown link of the corpus. A run on named
files (the hook) checks the links of those files, and the links elsewhere
into an anchor those files had at the baseline and have no more (a heading
renamed or removed): git's grep finds the files that name the anchor, and
only those are read. A move the manifest records (``moved_from``, this run's
included) keeps a link to the old anchor working.

Each finding belongs to the linking file; the gate records it in its shard
(``chunkgate.gate.corpus``), so that a broken link already committed is a
known problem, matched by its message (the link and the anchor), not its line.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from chunkgate.chunking.frontmatter import parse_front_matter
from chunkgate.core.errors import GitError, UnreadableError
from chunkgate.core.parallel import ordered_map
from chunkgate.corpus.source import decode
from chunkgate.git import objects, search
from chunkgate.links.anchors import anchors_reader, file_anchors, has_includes, include_graph
from chunkgate.links.broken import BrokenLink, LinkSettings, MissingPage, Sites, check_references
from chunkgate.links.cache import FileLinks, LinkCache
from chunkgate.links.corpus import read_text
from chunkgate.links.extract import page_links
from chunkgate.links.openings import PageAnchors
from chunkgate.manifest import FileEntry
from chunkgate.sites.mkdocstrings import Sources
from chunkgate.sites.routes import MARKDOWN_SUFFIXES
from chunkgate.sites.urls import Route, page_urls

if TYPE_CHECKING:
    from chunkgate.config.model import Config


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def whole_corpus(
    config: Config,
    files: Mapping[str, str | None],
    moved: Mapping[str, str],
    sites: Sites,
    *,
    jobs: int = 1,
    settings: LinkSettings,
) -> list[BrokenLink | MissingPage]:
    """The broken links of every Markdown file of the corpus (``files``: path -> git blob,
    None when unknown); each file's links and anchors come from the ``LinkCache`` when
    they can, else from the file, read over ``jobs`` worker processes when there are
    enough."""
    markdown = {path: blob for path, blob in files.items() if is_markdown(path)}
    key = f"{config.chunking.fingerprint()}\0{sites!r}\0{settings.key()}"
    disk = _CorpusFiles(config)
    cache = LinkCache(config.root, key)
    known = {path: cache.get(blob) if blob is not None else None for path, blob in markdown.items()}
    unknown = [path for path, item in known.items() if item is None]
    read = ordered_map(
        # The built site stays here: a worker reads the pages' markup only.
        functools.partial(_links_of, sites=sites, markup=settings._replace(built=None)),
        config,
        unknown,
        jobs,
        path_of=str,
        what="reading links",
    )
    for path, item in zip(unknown, read, strict=True):
        known[path] = item
        blob = markdown[path]
        if item is not None and blob is not None:
            cache.put(blob, item)
    found = {path: item for path, item in known.items() if item is not None}  # CG001: unread
    including = {path: disk.text(path) or "" for path, item in found.items() if item.includes}
    page_anchors = anchors_reader(
        sites, disk.text, options=config.chunking, settings=settings, source=disk.sources()
    )

    def anchors_of(path: str) -> PageAnchors | None:
        item = found.get(path)
        if item is None:
            return None
        if item.anchors is not None:
            # check_references asks once a page, for the pages links point into.
            return PageAnchors(frozenset(item.anchors), item.open)
        return page_anchors(disk.text(path) or "", path)

    broken = check_references(
        {path: list(item.links) for path, item in found.items() if item.links},
        anchors_of,
        found.keys(),
        site=sites,
        moved=moved,
        includers=include_graph(including, sites, found.keys()),
        ignore=settings.ignore,
        built=settings.built,
        urls=page_urls(sites.of, ((path, item.route) for path, item in found.items())),
        absent=functools.partial(_absent, config.root),
    )
    result = list(broken)
    cache.save()
    return result


def _links_of(config: Config, path: str, *, sites: Sites, markup: LinkSettings) -> FileLinks | None:
    """One Markdown file's links and, when it includes no other file, its anchors; None
    when it cannot be read (CG001 reports it). Run in a worker process on a cold corpus."""
    text = read_text(config.root, path) if config.selects(path) else None
    if text is None:
        return None
    links = tuple(page_links(text, path, config.chunking))
    site = sites.of(path)
    if has_includes(text, site):
        return FileLinks(links, None, True, None, route_of(text))
    page = file_anchors(
        text,
        path,
        site,
        options=config.chunking,
        settings=markup,
    )
    return FileLinks(links, tuple(sorted(page.anchors)), False, page.open, route_of(text))


def route_of(text: str) -> Route:
    """The front matter keys of a page that set its URL (``sites.urls``)."""
    if not text.startswith(("---", "+++")):
        return ()
    front = parse_front_matter(text.split("\n", 200)[:200])
    return front.route if front is not None else ()


def _absent(root: Path, path: str) -> bool:
    return not os.path.lexists(root / path)


def committed_files(
    config: Config,
    paths: Iterable[str],
    *,
    before: Mapping[str, FileEntry | None],
    moved: Mapping[str, str],
    sites: Sites,
    reader: objects.BlobReader | None,
    settings: LinkSettings,
) -> list[BrokenLink | MissingPage]:
    """The broken links for a run on named files: the links of ``paths`` (those still
    there), and the links of other files into an anchor that ``paths`` had at the
    baseline (``before``, whose blobs ``reader`` reads) and lost, or into a page of
    ``before`` that is gone (deleted, or moved: git's grep finds the files naming it)."""
    root = config.root
    files = _CorpusFiles(config)
    named = [path for path in paths if is_markdown(path)]
    links = {
        path: page_links(text, path, config.chunking)
        for path in named
        if (text := files.text(path))
    }

    anchors = anchors_reader(
        sites, files.text, options=config.chunking, settings=settings, source=files.sources()
    )

    lost: set[tuple[str, str]] = set()
    for path in named:
        entry = before.get(path)
        old = _old_text(reader, entry)
        if old is None:
            continue
        was = anchors(old, path).anchors
        text = files.text(path)
        now = anchors(text, path).anchors if text is not None else frozenset()
        dropped = was - now
        lost.update((path, anchor) for anchor in dropped)
        # The links a recorded move kept working land on a lost anchor too.
        for chunk in entry.chunks if entry is not None else ():
            if chunk.moved_from is not None and chunk.id[len(path) + 1 :] in dropped:
                old_path, _, old_anchor = chunk.moved_from.partition("#")
                lost.add((old_path, old_anchor))
    # A page of the baseline no longer on disk is one the commit deletes or moves.
    gone = {
        path
        for path, entry in before.items()
        if entry is not None and is_markdown(path) and path not in links and _absent(root, path)
    }
    needles = {f"#{anchor}" for _, anchor in lost} | _names(gone)
    if needles:
        for path in _citing(root, needles):
            if path not in links and is_markdown(path) and config.selects(path):
                text = files.text(path)
                if text is not None:
                    links[path] = page_links(text, path, config.chunking)

    def anchors_of(path: str) -> PageAnchors | None:
        text = files.text(path)
        return None if text is None else anchors(text, path)

    # The URLs of the pages read (the named ones, the ones linking into them) and of the
    # pages gone: a link from one to another written as a site URL finds its page.
    old_routes = [(path, route_of(_old_text(reader, before[path]) or "")) for path in gone]
    routes = [(path, route_of(files.text(path) or "")) for path in links]
    broken = check_references(
        {path: found for path, found in links.items() if found},
        anchors_of,
        files,
        site=sites,
        moved=moved,
        ignore=settings.ignore,
        built=settings.built,
        urls=page_urls(sites.of, [*routes, *old_routes]),
        absent=functools.partial(_absent, root),
        gone=gone,
    )
    mine = set(named)
    return [link for link in broken if link.path in mine or _lands_on(link, lost, gone)]


def _lands_on(link: BrokenLink | MissingPage, lost: set[tuple[str, str]], gone: set[str]) -> bool:
    if isinstance(link, MissingPage):
        return link.target in gone
    return (link.target.path, link.target.fragment) in lost


def _names(pages: Iterable[str]) -> set[str]:
    """What a link to one of ``pages`` holds: its file name, or its published name."""
    found: set[str] = set()
    for page in pages:
        name = page.rpartition("/")[2]
        stem = name.rsplit(".", 1)[0]
        found.add(name)
        if stem.lower() not in ("index", "_index", "readme"):
            found.update((f"{stem}/", f"{stem}#", f"{stem}.html", f"{stem})"))
    return found


class _CorpusFiles:
    """The corpus's Markdown files on disk, read once each, without listing the corpus:
    what ``check_references`` asks of ``paths`` (``in``) is answered by the disk."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._texts: dict[str, str | None] = {}

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = (
                read_text(self._config.root, path)
                if is_markdown(path) and self._config.selects(path)
                else None
            )
        return self._texts[path]

    def sources(self) -> Sources:
        """Every file of the work tree (an autodoc block's Python modules), read when
        asked: few pages have autodoc blocks, and each reads its modules once."""
        root = self._config.root

        def listing(folder: str) -> list[str]:
            try:
                return os.listdir(root / folder)
            except OSError:
                return []

        return Sources(functools.partial(read_text, root), listing)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.text(path) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(())  # no listing: a link's letter case must match (see the README)

    def __len__(self) -> int:
        return 0


def _citing(root: Path, needles: set[str]) -> list[str]:
    anchors = {needle[1:] for needle in needles if needle.startswith("#")}
    needles = needles | {f"#{quote(a, safe='')}" for a in anchors}
    try:
        return search.files_containing(root, sorted(needles))
    except GitError:
        return []  # not a git work tree: the whole-corpus check still finds them


def _old_text(reader: objects.BlobReader | None, entry: FileEntry | None) -> str | None:
    if reader is None or entry is None or entry.blob is None:
        return None
    data = reader.read(entry.blob)
    if data is None:
        return None
    try:
        return decode(data, entry.path)
    except UnreadableError:
        return None


__all__ = ["committed_files", "is_markdown", "whole_corpus"]
