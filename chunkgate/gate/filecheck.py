"""One corpus file through the gate: read, chunk, run the file-level rules.

``check_file`` is a pure function of (root, path, blob, config), so a cold
``update`` can fan it out over processes. What it returns is small (the
manifest entry, the violations, and only those chunks whose IDs are new and
may be the far end of a move), so memory does not grow with the corpus.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from chunkgate import rules
from chunkgate.chunking import chunk_document, languages
from chunkgate.chunking.sizes import TokenCounter, make_counter
from chunkgate.config.model import Config
from chunkgate.core.errors import UnreadableError
from chunkgate.core.model import Chunk, Problem, Violation
from chunkgate.core.parallel import ordered_map
from chunkgate.corpus.paths import read_regular
from chunkgate.corpus.source import decode
from chunkgate.git import objects
from chunkgate.manifest import ChunkEntry, FileEntry, StoredFinding
from chunkgate.manifest.codec import render_block
from chunkgate.rules import RULES, FileContext, Finding


class FileOutcome(NamedTuple):
    entry: FileEntry  # with the findings, as the manifest records them
    violations: tuple[Violation, ...]
    # Every chunk, when any differs from the baseline's (an ID or a hash): the file's
    # side of the moves CG402 looks for; empty when nothing changed or no baseline.
    changed: tuple[Chunk, ...]


class RenderedFile(NamedTuple):
    """A checked file as a rebuild keeps it: its manifest block, rendered where it was
    checked, instead of its records (a worker sends bytes, not objects)."""

    path: str
    block: bytes
    chunks: int
    violations: tuple[Violation, ...]

    @classmethod
    def of(cls, outcome: FileOutcome) -> RenderedFile:
        entry = outcome.entry
        return cls(entry.path, render_block(entry), len(entry.chunks), outcome.violations)


def check_file(
    config: Config,
    path: str,
    blob: str | None,
    known: Mapping[str, str] | None,
    *,
    attributes: frozenset[str] = frozenset(),
    settings: str | None = None,
) -> FileOutcome:
    """Chunk and check the file at ``path``; its entry records ``settings`` (the
    ``Header.digest`` of the run's settings).

    ``known`` maps its chunk IDs in the baseline to their hashes; when the chunks
    differ from those, they all come back, for CG402 to compare with the old ones.
    None means there is no baseline (a first or cold update): nothing can have
    moved, and no text comes back.
    """
    absolute = config.root / path
    size = os.stat(absolute).st_size
    data = read_regular(absolute) if size <= config.max_file_bytes else None
    return check_bytes(
        config,
        path,
        size,
        data,
        blob=blob,
        known=known,
        attributes=attributes,
        settings=settings,
    )


def check_bytes(
    config: Config,
    path: str,
    size: int,
    data: bytes | None,
    *,
    blob: str | None,
    known: Mapping[str, str] | None,
    attributes: frozenset[str] = frozenset(),
    counter: TokenCounter | None = None,
    settings: str | None = None,
) -> FileOutcome:
    """``check_file`` of the file's bytes, ``data`` (None: over ``max_file_bytes``, not
    read), wherever they come from (the merge driver's merge of a file git has not
    written yet)."""
    text: str | None = None
    chunks: tuple[Chunk, ...] = ()
    problems: tuple[Problem, ...] = ()
    unreadable: str | None = None
    if data is not None:
        if blob is None:
            blob = objects.hash_bytes(data)
        language = languages.language_for(path)
        try:
            text = decode(data, path, python=language.encoding == "python")
        except UnreadableError as exc:
            unreadable = exc.reason
        else:
            chunked = chunk_document(
                text,
                path,
                language=language.name,
                options=config.chunking,
                counter=counter or make_counter(config.chunking.tokenizer),
            )
            chunks = chunked.chunks
            problems = chunked.problems
    context = FileContext(
        path=path,
        size=size,
        text=text,
        chunks=chunks,
        config=config,
        problems=problems,
        unreadable=unreadable,
        attributes=attributes,
    )
    findings = file_findings(context)
    entry = FileEntry(
        path=path,
        blob=blob,
        chunks=tuple(ChunkEntry.from_chunk(chunk) for chunk in chunks),
        findings=findings,
        settings=settings,
    )
    return FileOutcome(
        entry=entry,
        violations=tuple(to_violations(config, path, entry.findings)),
        changed=chunks if known is not None and _differs(chunks, known) else (),
    )


def _differs(chunks: tuple[Chunk, ...], known: Mapping[str, str]) -> bool:
    return len(chunks) != len(known) or any(known.get(c.id) != c.hash for c in chunks)


def file_findings(context: FileContext) -> tuple[StoredFinding, ...]:
    """What the file-level rules find in one file, as its shard records them: the run
    ``check`` makes (``search`` asks it of the files its results are in)."""
    return tuple(_unsuppressed(_findings(context)))


def _findings(context: FileContext) -> list[Finding]:
    findings = [finding for check in rules.FILE_CHECKS for finding in check(context)]
    if any(f.code in rules.NEVER_EMBED and f.chunk is None for f in findings):
        findings = [f for f in findings if f.chunk is None]
    return sorted(findings, key=lambda f: (f.line, f.code, f.chunk.id if f.chunk else ""))


def _unsuppressed(findings: Iterable[Finding]) -> Iterator[StoredFinding]:
    """The findings no inline ``chunkgate: disable=`` comment turns off, as stored."""
    for finding in findings:
        chunk = finding.chunk
        if chunk is not None and finding.code in chunk.suppressed:
            continue
        yield StoredFinding(
            rule=finding.code,
            line=finding.line,
            chunk_id=chunk.id if chunk is not None else None,
            message=finding.message,
            fix=finding.fix,
        )


def to_violations(
    config: Config, path: str, findings: Iterable[StoredFinding]
) -> Iterator[Violation]:
    """Give stored findings their configured severity; drop the rules that are off (and
    the findings of a rule no longer registered, which a manifest may still record)."""
    for finding in findings:
        rule = RULES.get(finding.rule)
        severity = config.severity(finding.rule) if rule is not None else "off"
        if rule is None or severity == "off":
            continue
        yield Violation(
            rule=finding.rule,
            name=rule.name,
            severity=rule.severity_of(severity, finding.message),
            path=path,
            line=finding.line,
            chunk_id=finding.chunk_id,
            message=finding.message,
            fix=finding.fix,
        )


# -- many files at once: a rebuild fans them out over processes --

Item = tuple[str, str | None, Mapping[str, str] | None, frozenset[str]]


def check_all(
    config: Config, items: Sequence[Item], jobs: int, *, settings: str | None = None
) -> Iterator[FileOutcome]:
    """``check_file`` for each item (path, blob, baseline IDs, git attributes), in order."""
    work = functools.partial(_check_item, settings=settings)
    return ordered_map(work, config, items, jobs, path_of=_path_of, what="checking")


def render_all(
    config: Config, items: Sequence[Item], jobs: int, *, settings: str | None = None
) -> Iterator[RenderedFile]:
    """``check_all``, each file as its rendered manifest block (a rebuild keeps no records)."""
    work = functools.partial(_render_item, settings=settings)
    return ordered_map(work, config, items, jobs, path_of=_path_of, what="checking")


def _path_of(item: Item) -> str:
    return item[0]


def _check_item(config: Config, item: Item, *, settings: str | None = None) -> FileOutcome:
    path, blob, known, attributes = item
    return check_file(config, path, blob, known, attributes=attributes, settings=settings)


def _render_item(config: Config, item: Item, *, settings: str | None = None) -> RenderedFile:
    return RenderedFile.of(_check_item(config, item, settings=settings))
