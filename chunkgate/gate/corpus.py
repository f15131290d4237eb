"""The corpus rules in ``check`` and ``update``: every family that declares
``check_corpus`` (``chunkgate.rules.CORPUS_CHECKS``), called with what the run knows,
and its findings recorded in the shards of the files they are in.

A finding recorded in its file's shard is a known problem once the manifest is
committed (``baseline.split_known`` matches it by rule and message), as a
file rule's is; a whole-corpus run checks every corpus rule again, so the
findings a cached file's shard records for them are not reported from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.core.model import Unverified, Violation
from chunkgate.git import objects
from chunkgate.manifest import FileEntry, StoredFinding
from chunkgate.rules import CORPUS_CHECKS, CORPUS_RULES, CorpusContext


def corpus_findings(
    config: Config,
    files: Mapping[str, str | None],
    *,
    whole: bool,
    moved: Mapping[str, str],
    before: Mapping[str, FileEntry | None] | None = None,
    reader: objects.BlobReader | None = None,
    jobs: int = 1,
) -> CorpusFound:
    """What the corpus rules that are on find: over ``files`` (path -> blob), the whole
    corpus or (``whole`` False) the files a commit names."""
    context = CorpusContext(config, files, whole, moved, before or {}, reader, jobs)
    found: list[Violation] = []
    unverified: list[Unverified] = []
    for codes, check in CORPUS_CHECKS:
        if any(config.severity(code) != "off" for code in codes):
            for item in check(context):
                if isinstance(item, Unverified):
                    unverified.append(item)
                elif config.severity(item.rule) != "off":
                    found.append(item)
    return CorpusFound(found, unverified)


class CorpusFound(NamedTuple):
    violations: list[Violation]
    unverified: list[Unverified]  # links the rules could not judge: they fail nothing


def moves_of(entries: Iterable[FileEntry | None]) -> dict[str, str]:
    """Old chunk ID -> the ID it moved to, as the entries record it."""
    return {
        chunk.moved_from: chunk.id
        for entry in entries
        if entry is not None
        for chunk in entry.chunks
        if chunk.moved_from is not None
    }


class PageMoves(Mapping[str, str]):
    """Old chunk ID -> new ID: ``known`` (this run's moves, and those its entries record),
    and, asked for an old ID, the moves the manifest records for that ID's page
    (``recorded(path)``), read once a page. A run on named files checks links into pages
    it did not name: a link into a renamed heading names the same section whichever
    command sees it."""

    def __init__(self, known: Mapping[str, str], recorded: Callable[[str], Mapping[str, str]]):
        self._known = dict(known)
        self._recorded = recorded
        self._read: set[str] = set()

    def _load(self, chunk_id: str) -> None:
        page = chunk_id.partition("#")[0]
        if page not in self._read:
            self._read.add(page)
            for old, new in self._recorded(page).items():
                self._known.setdefault(old, new)

    def __getitem__(self, chunk_id: str) -> str:
        if chunk_id not in self._known:
            self._load(chunk_id)
        return self._known[chunk_id]

    def __iter__(self) -> Iterator[str]:
        return iter(dict(self._known))

    def __len__(self) -> int:
        return len(self._known)


def stored_findings(violations: Iterable[Violation]) -> dict[str, tuple[StoredFinding, ...]]:
    """The corpus rules' findings as the shards of their files record them, by path."""
    found: dict[str, list[StoredFinding]] = {}
    for violation in violations:
        if violation.rule in CORPUS_RULES:
            v = violation
            finding = StoredFinding(v.rule, v.line, v.chunk_id, v.message, v.fix)
            found.setdefault(v.path, []).append(finding)
    return {path: tuple(items) for path, items in found.items()}


def with_corpus_findings(entry: FileEntry, findings: Iterable[StoredFinding]) -> FileEntry:
    """``entry`` recording ``findings`` as its corpus rules' findings (and no others)."""
    others = tuple(finding for finding in entry.findings if finding.rule not in CORPUS_RULES)
    merged = FileEntry(entry.path, entry.blob, entry.chunks, (*others, *findings), entry.settings)
    return entry if merged == entry else dataclasses.replace(entry, findings=merged.findings)
