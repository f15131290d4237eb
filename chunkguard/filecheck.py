"""One corpus file through the gate: read, chunk, run the file-level rules.

``check_file`` is a pure function of (root, path, blob, config), so a cold
``update`` can fan it out over processes. What it returns is small (the
manifest entry, the violations, and only those chunks whose IDs are new and
may be the far end of a move), so memory does not grow with the corpus.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple, TypeVar

from chunkguard import git, rules
from chunkguard.chunking import chunk_document, language_of
from chunkguard.config import Config
from chunkguard.errors import UnreadableError
from chunkguard.manifest import ChunkEntry, FileEntry, StoredFinding
from chunkguard.manifest.codec import render_block
from chunkguard.model import Chunk, Problem, Violation
from chunkguard.rules import RULES, FileContext, Finding
from chunkguard.sizes import TokenCounter, make_counter
from chunkguard.source import decode

# Findings that say "this file should not be in the corpus at all": when one
# fires, the chunk-level findings of the file are noise and are dropped.
NEVER_EMBED = frozenset({"CG301", "CG302", "CG303", "CG305"})

_Result = TypeVar("_Result")


class FileOutcome(NamedTuple):
    entry: FileEntry  # with the findings, as the manifest records them
    violations: tuple[Violation, ...]
    # Chunks whose IDs the baseline does not have: candidates for moves (CG402).
    new_chunks: tuple[Chunk, ...]


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
    known_ids: frozenset[str] | None,
    *,
    attributes: frozenset[str] = frozenset(),
    counter: TokenCounter | None = None,
) -> FileOutcome:
    """Chunk and check the file at ``path``.

    ``known_ids`` are its IDs in the baseline; the chunks with other IDs come
    back whole, as candidates for moves. None means there is no baseline (a
    first or cold update): nothing can have moved, and no text comes back.
    """
    absolute = config.root / path
    size = os.stat(absolute).st_size
    text: str | None = None
    chunks: tuple[Chunk, ...] = ()
    problems: tuple[Problem, ...] = ()
    unreadable: str | None = None
    if size <= config.max_file_bytes:
        data = Path(absolute).read_bytes()
        if blob is None:
            blob = git.hash_bytes(data)
        language = language_of(path)
        try:
            text = decode(data, path, python=language == "python")
        except UnreadableError as exc:
            unreadable = exc.reason
        else:
            chunked = chunk_document(
                text,
                path,
                language=language,
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
    findings = tuple(_unsuppressed(_findings(context)))
    entry = FileEntry(
        path=path,
        blob=blob,
        chunks=tuple(ChunkEntry.from_chunk(chunk) for chunk in chunks),
        findings=findings,
    )
    return FileOutcome(
        entry=entry,
        violations=tuple(to_violations(config, path, entry.findings)),
        new_chunks=()
        if known_ids is None
        else tuple(chunk for chunk in chunks if chunk.id not in known_ids),
    )


def _findings(context: FileContext) -> list[Finding]:
    findings = [finding for check in rules.FILE_CHECKS for finding in check(context)]
    if any(f.code in NEVER_EMBED and f.chunk is None for f in findings):
        findings = [f for f in findings if f.chunk is None]
    return sorted(findings, key=lambda f: (f.line, f.code, f.chunk.id if f.chunk else ""))


def _unsuppressed(findings: Iterable[Finding]) -> Iterator[StoredFinding]:
    """The findings no inline ``chunkguard: disable=`` comment turns off, as stored."""
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
    """Give stored findings their configured severity; drop the rules that are off."""
    for finding in findings:
        severity = config.severity(finding.rule)
        if severity == "off":
            continue
        yield Violation(
            rule=finding.rule,
            name=RULES[finding.rule].name,
            severity=severity,
            path=path,
            line=finding.line,
            chunk_id=finding.chunk_id,
            message=finding.message,
            fix=finding.fix,
        )


# -- many files at once: a cold update fans out over processes --

_worker_config: Config | None = None


def _init_worker(config: Config) -> None:
    global _worker_config  # noqa: PLW0603 - one config per worker process
    _worker_config = config
    # Ctrl-C is the parent's to handle: it stops handing out work and waits for
    # the files in hand. A worker that died of its own KeyboardInterrupt would
    # break the pool, and a broken pool can hang the parent's exit. The worker
    # was started with SIGINT blocked (see _sigint_held); ignoring it drops one
    # that came meanwhile.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


Item = tuple[str, str | None, frozenset[str] | None, frozenset[str]]


def _work(item: Item) -> FileOutcome:
    assert _worker_config is not None
    path, blob, known, attributes = item
    return check_file(_worker_config, path, blob, known, attributes=attributes)


def _work_rendered(item: Item) -> RenderedFile:
    return RenderedFile.of(_work(item))


def check_in_parallel(config: Config, items: list[Item], jobs: int) -> Iterator[FileOutcome]:
    return _in_parallel(_work, config, items, jobs)


def render_in_parallel(config: Config, items: list[Item], jobs: int) -> Iterator[RenderedFile]:
    return _in_parallel(_work_rendered, config, items, jobs)


def _in_parallel(
    work: Callable[[Item], _Result], config: Config, items: list[Item], jobs: int
) -> Iterator[_Result]:
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(config,))
    try:
        # map keeps the input order, so the output is the same as with one job.
        # It starts the workers, which must not see a Ctrl-C before they ignore it.
        with _sigint_held():
            results = pool.map(work, items, chunksize=max(1, min(64, len(items) // (jobs * 8))))
        yield from results
    finally:
        # After Ctrl-C or an error the files not handed out yet are dropped, not checked.
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Block SIGINT in this thread for a while: processes started meanwhile start with it
    blocked, and this process gets a Ctrl-C that came meanwhile when the block ends.
    (No signal masks on Windows.)"""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
