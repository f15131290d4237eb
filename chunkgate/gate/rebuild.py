"""Rebuild: an update that checks every file and has no committed IDs to compare with (no
manifest yet, one made with other settings, or one being migrated from format 1).

Each file's shard is rendered where the file is checked (in the workers,
with ``--jobs``, which then send bytes rather than objects) and written at
once, without a flush each; one flush ends the run. Only each shard's
summary is kept, for CG501, so memory does not hold the corpus's chunks.
Moves the old manifest acknowledges are kept for the IDs that remain.
"""

from __future__ import annotations

from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.core.errors import ManifestError
from chunkgate.core.model import CheckResult, Violation
from chunkgate.gate.assess import Assessment
from chunkgate.gate.baseline import known_duplicates, split_known
from chunkgate.gate.corpus import corpus_findings, moves_of, stored_findings, with_corpus_findings
from chunkgate.gate.duplicates import copy_folders
from chunkgate.gate.filecheck import Item, render_all
from chunkgate.gate.load import Loaded
from chunkgate.gate.result import inherit_moves, result
from chunkgate.gate.scope import Scope
from chunkgate.gate.write import updated_note
from chunkgate.git.attributes import gitattributes_flags
from chunkgate.manifest import (
    FileEntry,
    Header,
    RevisionManifest,
    WorkTreeManifest,
    parse_block,
    render_block,
    summarise,
)
from chunkgate.rules.duplicates import Row, duplicate_violations


def rebuild(
    config: Config, loaded: Loaded, scope: Scope, state: Assessment, expected: Header, *, jobs: int
) -> CheckResult:
    current = loaded.current
    acknowledged = _acknowledged(loaded)
    attributes: dict[str, set[str]] = {}
    if scope.work and loaded.reader is not None:
        attributes = gitattributes_flags(config.root, [path for path, _ in scope.work])
    items: list[Item] = [
        (path, blob, None, frozenset(attributes.get(path, ()))) for path, blob in scope.work
    ]
    found: list[Violation] = []  # the file-level rules' findings, known or new
    old: dict[str, FileEntry | None] = {}  # the shards being replaced, of files with findings
    now: dict[str, FileEntry | None] = {}  # the new entries of files with an oversized chunk
    first: dict[str, str] = {}  # each hash's first file
    holders: dict[str, list[str]] = {}  # the files of the hashes that repeat
    sizes: dict[str, int] = {}  # each file's chunk count (CG501's copied folders)
    changed = chunks = 0
    with current.staging():  # every shard and the header, old or new as a whole
        for checked in render_all(config, items, jobs, settings=expected.digest()):
            found.extend(checked.violations)
            block = checked.block
            if checked.violations and loaded.record is None and loaded.header is not None:
                old[checked.path] = _entry(current, checked.path)
            if any(violation.rule == "CG201" for violation in checked.violations):
                now[checked.path] = parse_block(block, checked.path)
            prior = acknowledged.get(checked.path)
            if prior is not None:
                block = render_block(inherit_moves(parse_block(block, checked.path), prior))
            changed += current.put(checked.path, block, durable=False)
            summary = summarise(block, checked.path)
            chunks += summary.chunks
            sizes[checked.path] = summary.chunks
            for digest in summary.hashes:
                if digest in holders:
                    holders[digest].append(checked.path)
                elif digest in first:
                    holders[digest] = [first[digest], checked.path]
                else:
                    first[digest] = checked.path
        for path in scope.deleted:
            changed += current.put(path, None, durable=False)
        moved = moves_of(acknowledged.values())
        across = corpus_findings(config, dict(scope.work), whole=True, moved=moved, jobs=jobs)
        found.extend(across.violations)
        unverified = across.unverified
        for path, findings in stored_findings(across.violations).items():
            entry = _entry(current, path)
            if entry is not None:
                changed += current.put(path, render_block(with_corpus_findings(entry, findings)))
        headed = current.write_header(expected)
    migrated = loaded.legacy is not None
    if loaded.legacy is not None:
        loaded.legacy.unlink(missing_ok=True)
    if loaded.record is not None:
        old = _entries(loaded.record, sorted({violation.path for violation in found}))
    split = split_known(found, old, now, tokens=config.chunking.unit == "tokens")
    violations = [*state.violations, *split.new]
    if config.severity("CG501") != "off":
        copies = _duplicates(config, loaded, holders, sizes)
        if loaded.record is not None:
            record = _entries(loaded.record, sorted({row[2] for row in copies.rows}))
            duplicates = known_duplicates(copies.violations, copies.rows, record)
            violations.extend(duplicates.new)
            split.known.extend(duplicates.known)
        else:
            violations.extend(copies.violations)
    notes = list(state.notes)
    written = bool(changed or headed or migrated)
    if written:
        notes.append(updated_note(config, changed))
    return result(
        config,
        violations,
        chunks,
        changed=written,
        notes=notes,
        known=split.known,
        unverified=unverified,
    )


def _entry(manifest: WorkTreeManifest | RevisionManifest, path: str) -> FileEntry | None:
    try:
        return manifest.entry(path)
    except ManifestError:
        return None  # a corrupt shard records nothing


def _entries(record: RevisionManifest, paths: list[str]) -> dict[str, FileEntry | None]:
    record.prefetch(paths)
    return {path: _entry(record, path) for path in paths}


def _acknowledged(loaded: Loaded) -> dict[str, FileEntry]:
    """The old entries that record moves, by path: the format-1 file's, or the shards'."""
    if loaded.legacy is not None:
        return {path: e for path, e in loaded.legacy_entries.items() if _has_moves(e)}
    if loaded.header is None:
        return {}
    found: dict[str, FileEntry] = {}
    for path in loaded.current.listing():
        raw = loaded.current.raw(path)
        if raw is None or b'"moved_from"' not in raw:
            continue
        try:
            entry = loaded.current.entry(path)
        except ManifestError:
            continue
        if entry is not None:
            found[path] = entry
    return found


def _has_moves(entry: FileEntry) -> bool:
    return any(chunk.moved_from is not None for chunk in entry.chunks)


class _Copies(NamedTuple):
    violations: list[Violation]
    rows: list[Row]


def _duplicates(
    config: Config, loaded: Loaded, holders: dict[str, list[str]], sizes: dict[str, int]
) -> _Copies:
    repeated = set(holders)
    paths = sorted({path for files in holders.values() for path in files})
    rows: list[Row] = []
    for path in paths:
        entry = loaded.current.entry(path)
        if entry is not None:
            rows.extend(
                (chunk.hash, chunk.id, path, chunk.lines[0], chunk.suppressed)
                for chunk in entry.chunks
                if chunk.hash in repeated
            )
    folders = copy_folders(config, sizes)
    return _Copies(list(duplicate_violations(config, rows, folders=folders)), rows)
