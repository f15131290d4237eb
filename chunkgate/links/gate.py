"""CG404 in the gate: the corpus's own links, in the whole-corpus check and in the hook.

A whole-corpus run checks every Markdown link of the corpus. A run on named
files (the hook) checks the links of those files, and the links elsewhere
into an anchor those files had at the baseline and have no more (a heading
renamed or removed): git's grep finds the files that name the anchor, and
only those are read. A move the manifest records (``moved_from``, this run's
included) keeps a link to the old anchor working.

Each finding belongs to the linking file; its shard records it, so that a
broken link already committed is a known problem (``baseline.py``), matched
by its message (the link and the anchor), not its line.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.config.model import Config
from chunkgate.core.errors import GitError, UnreadableError
from chunkgate.core.model import Violation
from chunkgate.corpus.source import decode
from chunkgate.git import objects, search
from chunkgate.manifest import FileEntry, StoredFinding
from chunkgate.rules.references import CODE, BrokenLink, check_references, to_violation
from chunkgate.sites.routes import MARKDOWN_SUFFIXES, Routes

if TYPE_CHECKING:
    from chunkgate.links.cache import FileLinks


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def moves_of(entries: Iterable[FileEntry | None]) -> dict[str, str]:
    """Old chunk ID -> the ID it moved to, as the entries record it."""
    return {
        chunk.moved_from: chunk.id
        for entry in entries
        if entry is not None
        for chunk in entry.chunks
        if chunk.moved_from is not None
    }


class Links(NamedTuple):
    violations: list[Violation]
    # The findings are a function of the corpus files' bytes: no file includes another
    # (an include may name a file git ignores) and every file could be read.
    of_the_corpus: bool = True


def whole_corpus(
    config: Config,
    files: Mapping[str, str | None],
    moved: Mapping[str, str],
    site: Routes,
    *,
    jobs: int = 1,
) -> Links:
    """CG404 over every Markdown file of the corpus (``files``: path -> git blob, None
    when unknown); each file's links and anchors come from ``linkcache`` when they can,
    else from the file, read over ``jobs`` worker processes when there are enough."""
    from chunkgate.links.cache import BrokenLinks, corpus_key

    if config.severity(CODE) == "off":
        return Links([])
    settings = f"{config.chunking.fingerprint()}\0{site!r}"
    markdown = {path: blob for path, blob in files.items() if is_markdown(path)}
    memo = BrokenLinks(config.root, settings)
    key = corpus_key(markdown, moved)
    broken = memo.get(key) if key is not None else None
    by_blobs = True
    if broken is None:
        broken, by_blobs = _broken_links(config, markdown, moved, site, settings, jobs=jobs)
        key = key if by_blobs else None
    if key is not None:
        memo.put(key, broken)
        memo.save()
    return Links([v for link in broken if (v := to_violation(config, link)) is not None], by_blobs)


def _broken_links(
    config: Config,
    files: Mapping[str, str | None],
    moved: Mapping[str, str],
    site: Routes,
    settings: str,
    *,
    jobs: int,
) -> tuple[tuple[BrokenLink, ...], bool]:
    """The broken links of the corpus's Markdown ``files``, and whether they are a
    function of the files' blobs alone: every file read, none including another."""
    from chunkgate.core.parallel import ordered_map
    from chunkgate.links.anchors import file_anchors, include_graph
    from chunkgate.links.cache import LinkCache

    disk = _CorpusFiles(config)
    cache = LinkCache(config.root, settings)
    known = {path: cache.get(blob) if blob is not None else None for path, blob in files.items()}
    unknown = [path for path, item in known.items() if item is None]
    read = ordered_map(functools.partial(_links_of, site=site), config, unknown, jobs, path_of=str)
    for path, item in zip(unknown, read, strict=True):
        known[path] = item
        blob = files[path]
        if item is not None and blob is not None:
            cache.put(blob, item)
    found = {path: item for path, item in known.items() if item is not None}  # CG001: unread
    including = {path: disk.text(path) or "" for path, item in found.items() if item.includes}

    def anchors_of(path: str) -> Collection[str] | None:
        item = found.get(path)
        if item is None or not item.includes:
            # check_references asks once a page, for the pages links point into.
            return None if item is None or item.anchors is None else frozenset(item.anchors)
        return file_anchors(disk.text(path) or "", path, site, disk.text, options=config.chunking)

    broken = check_references(
        {path: list(item.links) for path, item in found.items() if item.links},
        anchors_of,
        found.keys(),
        site=site,
        moved=moved,
        includers=include_graph(including, site, found.keys()),
    )
    result = tuple(broken)
    cache.save()
    return result, not including and len(found) == len(files)


def _links_of(config: Config, path: str, *, site: Routes) -> FileLinks | None:
    """One Markdown file's links and, when it includes no other file, its anchors; None
    when it cannot be read (CG001 reports it). Run in a worker process on a cold corpus."""
    from chunkgate.links.anchors import file_anchors, has_includes
    from chunkgate.links.cache import FileLinks
    from chunkgate.links.extract import extract_links

    text = _read(config.root, path) if config.selects(path) else None
    if text is None:
        return None
    includes = has_includes(text)
    anchors = None if includes else file_anchors(text, path, site, options=config.chunking)
    return FileLinks(
        tuple(extract_links(text, local_only=True)),
        None if anchors is None else tuple(sorted(anchors)),
        includes,
    )


def committed_files(
    config: Config,
    paths: Iterable[str],
    *,
    before: Mapping[str, FileEntry | None],
    moved: Mapping[str, str],
    site: Routes,
    reader: objects.BlobReader | None,
) -> list[Violation]:
    """CG404 for a run on named files: the links of ``paths`` (those still there), and
    the links of other files into an anchor that ``paths`` had at the baseline
    (``before``, whose blobs ``reader`` reads) and lost."""
    from chunkgate.links.anchors import file_anchors
    from chunkgate.links.extract import extract_links

    if config.severity(CODE) == "off":
        return []
    root = config.root
    files = _CorpusFiles(config)
    named = [path for path in paths if is_markdown(path)]
    links = {
        path: extract_links(text, local_only=True) for path in named if (text := files.text(path))
    }
    anchors = functools.partial(file_anchors, site=site, read=files.text, options=config.chunking)
    lost: set[tuple[str, str]] = set()
    for path in named:
        entry = before.get(path)
        old = _old_text(reader, entry)
        if old is None:
            continue
        was = anchors(old, path) or set()
        text = files.text(path)
        now = (anchors(text, path) or set()) if text is not None else set()
        gone = was - now
        lost.update((path, anchor) for anchor in gone)
        # The links a recorded move kept working land on a lost anchor too.
        for chunk in entry.chunks if entry is not None else ():
            if chunk.moved_from is not None and chunk.id[len(path) + 1 :] in gone:
                old_path, _, old_anchor = chunk.moved_from.partition("#")
                lost.add((old_path, old_anchor))
    if lost:
        for path in _citing(root, {anchor for _, anchor in lost}):
            if path not in links and is_markdown(path) and config.selects(path):
                text = files.text(path)
                if text is not None:
                    links[path] = extract_links(text, local_only=True)

    def anchors_of(path: str) -> set[str] | None:
        text = files.text(path)
        return None if text is None else anchors(text, path)

    broken = check_references(
        {path: found for path, found in links.items() if found},
        anchors_of,
        files,
        site=site,
        moved=moved,
    )
    mine = set(named)
    kept = (
        link
        for link in broken
        if link.path in mine or (link.target.path, link.target.fragment) in lost
    )
    return [found for link in kept if (found := to_violation(config, link)) is not None]


def recorded(violations: Iterable[Violation]) -> dict[str, tuple[StoredFinding, ...]]:
    """The CG404 findings as the linking files' shards record them, by path."""
    found: dict[str, list[StoredFinding]] = {}
    for violation in violations:
        if violation.rule == CODE:
            found.setdefault(violation.path, []).append(
                StoredFinding(CODE, violation.line, None, violation.message, violation.fix)
            )
    return {path: tuple(items) for path, items in found.items()}


def with_references(entry: FileEntry, findings: Iterable[StoredFinding]) -> FileEntry:
    """``entry`` recording ``findings`` as its CG404 findings (and no others)."""
    import dataclasses

    others = tuple(finding for finding in entry.findings if finding.rule != CODE)
    merged = FileEntry(entry.path, entry.blob, entry.chunks, (*others, *findings), entry.settings)
    return entry if merged == entry else dataclasses.replace(entry, findings=merged.findings)


class _CorpusFiles:
    """The corpus's Markdown files on disk, read once each, without listing the corpus:
    what ``check_references`` asks of ``paths`` (``in``) is answered by the disk."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._texts: dict[str, str | None] = {}

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = (
                _read(self._config.root, path)
                if is_markdown(path) and self._config.selects(path)
                else None
            )
        return self._texts[path]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.text(path) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(())  # no listing: a link's letter case must match (see the README)

    def __len__(self) -> int:
        return 0


def _citing(root: Path, anchors: set[str]) -> list[str]:
    from urllib.parse import quote

    needles = sorted({f"#{a}" for a in anchors} | {f"#{quote(a, safe='')}" for a in anchors})
    try:
        return search.files_containing(root, needles)
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


def _read(root: Path, path: str) -> str | None:
    try:
        return decode((root / path).read_bytes(), path)
    except (OSError, UnreadableError):
        return None  # CG001 reports it


__all__ = [
    "Links",
    "committed_files",
    "is_markdown",
    "moves_of",
    "recorded",
    "whole_corpus",
    "with_references",
]
