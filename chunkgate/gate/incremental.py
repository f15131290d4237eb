"""An incremental run: the files of the scope's work read, chunked and checked; the
rest known from the current manifest's shards (their findings recorded there); then
the manifest rules (CG401-CG403, CG501), the corpus rules, and the shards written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import NamedTuple

from chunkgate.chunking import chunk_bytes
from chunkgate.config.model import Config
from chunkgate.core.errors import UnreadableError
from chunkgate.core.model import CheckResult, Chunk, Violation
from chunkgate.diff.moves import join_parts
from chunkgate.gate.assess import Assessment
from chunkgate.gate.baseline import known_duplicates, moved_units, split_known
from chunkgate.gate.corpus import (
    CorpusFound,
    PageMoves,
    corpus_findings,
    moves_of,
    stored_findings,
    with_corpus_findings,
)
from chunkgate.gate.duplicates import copy_folders, duplicate_rows
from chunkgate.gate.filecheck import Item, check_all, to_violations
from chunkgate.gate.load import Loaded
from chunkgate.gate.result import inherit_moves, result
from chunkgate.gate.scope import Scope
from chunkgate.gate.write import write_manifest
from chunkgate.git.attributes import gitattributes_flags
from chunkgate.manifest import (
    FileEntry,
    Header,
    ManifestSyntaxError,
    RevisionManifest,
    WorkTreeManifest,
)
from chunkgate.rules import CORPUS_RULES
from chunkgate.rules.duplicates import duplicate_violations
from chunkgate.rules.stability import check_stability
from chunkgate.rules.stale import check_staleness


def incremental(
    config: Config,
    loaded: Loaded,
    scope: Scope,
    state: Assessment,
    expected: Header,
    *,
    writing: bool,
    accept_moves: bool,
    explicit: bool,
    jobs: int,
    hold_moves: bool = False,
    attributes: Callable[[], dict[str, set[str]]] | None = None,
) -> CheckResult:
    """The run's result: the scope's work checked, the rest known from the manifest."""
    current, baseline = loaded.current, loaded.baseline
    broken = dict(scope.broken)
    paths = [*(path for path, _ in scope.work), *scope.deleted]
    recorded = _entries(current, paths, broken)
    if loaded.legacy is not None:  # being migrated: the old file says what was recorded
        recorded = {path: loaded.legacy_entries.get(path) for path in recorded}
    committed: dict[str, FileEntry | None] = {}
    if baseline is not None:
        baseline.prefetch(paths)
        committed = _entries(baseline, paths, {})
    checked = _check_files(
        config,
        loaded,
        scope,
        recorded,
        committed,
        jobs=jobs,
        settings=expected.digest(),
        attributes=attributes,
    )
    entries = checked.entries
    # The record known problems are told by: the committed manifest's shards; with none
    # (adopting) the manifest being committed, as it was before this run wrote anything.
    source = loaded.record
    with_findings = [path for path in scope.cached if scope.summaries[path].findings]
    cached: dict[str, FileEntry | None] = {path: current.entry(path) for path in with_findings}
    cached_findings = [
        violation
        for path, entry in cached.items()
        for violation in to_violations(config, path, entry.findings if entry else ())
        if violation.rule not in CORPUS_RULES  # checked again below: they span files
    ]
    if source is None:
        record = {**recorded, **cached}
    else:
        wanted = with_findings if source is baseline else [*paths, *with_findings]
        source.prefetch(wanted)
        record = {**committed, **_entries(source, wanted, {})}
    before, after = _changed_units(config, loaded, committed, entries, checked.differing)
    stability = check_stability(config, before, after, entries, accept_moves=accept_moves)
    entries.update(stability.accepted)
    corpus: list[Violation] = [*state.violations, *stability.violations]
    if not writing and state.chunks_ok:
        made = loaded.header.digest() if loaded.header is not None else None
        corpus.extend(
            check_staleness(
                config, recorded, entries, deleted=scope.gone, broken=broken, settings=made
            )
        )
    across = _corpus_rules(
        config,
        loaded,
        scope,
        entries,
        committed,
        detected=stability.moves,
        explicit=explicit,
        jobs=jobs,
    )
    tokens = config.chunking.unit == "tokens"
    found = [*checked.violations, *cached_findings, *across.violations]
    # A known problem follows its unit or file: moved now, or by a move the manifest records.
    recorded_moves = moves_of([*entries.values(), *cached.values()]).items()
    moved = moved_units([*stability.moves, *recorded_moves])
    origins = sorted(moved.old_paths() - record.keys())
    if origins:
        if source is not None:
            source.prefetch(origins)
        record.update(_entries(source if source is not None else current, origins, {}))
    split = split_known(found, record, entries, tokens=tokens, moved=moved)
    if config.severity("CG501") != "off":
        rows = duplicate_rows(current, entries, scope, explicit=explicit)
        sizes = {path: len(entry.chunks) for path, entry in entries.items() if entry}
        sizes.update((path, scope.summaries[path].chunks) for path in scope.cached)
        only = set(entries) if explicit else None
        folders = copy_folders(config, sizes)
        copies = list(duplicate_violations(config, rows, only=only, folders=folders))
        if copies:
            members = sorted({row[2] for row in rows} - set(record))
            if source is not None:
                source.prefetch(members)
            record.update(_entries(source if source is not None else current, members, {}))
            duplicates = known_duplicates(copies, rows, record)
            corpus.extend(duplicates.new)
            split.known.extend(duplicates.known)
    notes = list(state.notes)
    relinked: dict[str, FileEntry | None] = {}
    if writing:
        relinked = _record_corpus(
            loaded, scope, entries, cached, across.violations, explicit=explicit
        )
    held = sorted(stability.unstable) if writing and hold_moves else []
    for path in held:
        entries[path] = recorded.get(path)
    if held:
        notes.append(
            f"kept the manifest entries of {', '.join(held)}: a chunk ID changed without "
            "`moved_from` (CG402); keep the old ID, or run `chunkgate update --accept-moves`"
        )
    changed = False
    if writing:
        # Format-2 shards known as they are gain the settings they were made under.
        unstamped = [path for path in scope.cached if scope.summaries[path].settings is None]
        stamped = {path: _stamped(current, path, expected) for path in unstamped}
        for path, entry in relinked.items():
            if entry is not None and entry.settings is None:
                relinked[path] = dataclasses.replace(entry, settings=expected.digest())
        written = write_manifest(
            config, loaded, {**stamped, **relinked, **entries}, expected, whole=not explicit
        )
        changed, notes = written.changed, notes + written.notes
    chunks = sum(len(e.chunks) for e in entries.values() if e is not None)
    chunks += sum(scope.summaries[path].chunks for path in scope.cached)
    return result(
        config,
        [*split.new, *corpus],
        chunks,
        changed=changed,
        notes=notes,
        known=split.known,
        unverified=across.unverified,
    )


class _Checked(NamedTuple):
    entries: dict[str, FileEntry | None]  # the checked files' new entries; None: gone
    violations: list[Violation]  # what the file-level rules found in them
    differing: dict[str, tuple[Chunk, ...]]  # the chunks of files that are not the baseline's


def _check_files(
    config: Config,
    loaded: Loaded,
    scope: Scope,
    recorded: dict[str, FileEntry | None],
    committed: dict[str, FileEntry | None],
    *,
    jobs: int,
    settings: str,
    attributes: Callable[[], dict[str, set[str]]] | None,
) -> _Checked:
    """Every file of the scope's work read, chunked and checked (over workers when many);
    ``attributes`` waits for the git attributes of the named files, asked for already."""
    checked = _Checked({}, [], {})
    items = _items(config, loaded, scope, committed, attributes)
    for outcome in check_all(config, items, jobs, settings=settings):
        path = outcome.entry.path
        checked.violations.extend(outcome.violations)
        if outcome.changed:
            checked.differing[path] = outcome.changed
        checked.entries[path] = inherit_moves(outcome.entry, recorded.get(path))
    checked.entries.update(dict.fromkeys(scope.deleted))
    return checked


def _entries(
    manifest: WorkTreeManifest | RevisionManifest,
    paths: Iterable[str],
    broken: dict[str, ManifestSyntaxError],
) -> dict[str, FileEntry | None]:
    """The recorded entry of each path; a corrupt shard is noted in ``broken`` and has none."""
    found: dict[str, FileEntry | None] = {}
    for path in paths:
        try:
            found[path] = manifest.entry(path)
        except ManifestSyntaxError as exc:
            broken.setdefault(path, exc)
            found[path] = None
    return found


def _items(
    config: Config,
    loaded: Loaded,
    scope: Scope,
    committed: dict[str, FileEntry | None],
    prefetched: Callable[[], dict[str, set[str]]] | None,
) -> list[Item]:
    """What ``check_file`` takes for each file: path, blob, baseline IDs, git attributes."""
    attributes: dict[str, set[str]] = {}
    if prefetched is not None:
        attributes = prefetched()
    elif scope.work and loaded.reader is not None:
        attributes = gitattributes_flags(config.root, [path for path, _ in scope.work])
    with_baseline = loaded.baseline is not None
    return [
        (
            path,
            blob,
            _hashes(committed.get(path)) if with_baseline else None,
            frozenset(attributes.get(path, ())),
        )
        for path, blob in scope.work
    ]


def _hashes(entry: FileEntry | None) -> dict[str, str]:
    return {chunk.id: chunk.hash for chunk in entry.chunks} if entry is not None else {}


def _ids(entry: FileEntry | None) -> frozenset[str]:
    return frozenset(chunk.id for chunk in entry.chunks) if entry is not None else frozenset()


def _changed_units(
    config: Config,
    loaded: Loaded,
    committed: dict[str, FileEntry | None],
    entries: dict[str, FileEntry | None],
    changed: dict[str, tuple[Chunk, ...]],
) -> tuple[list[Chunk], list[Chunk]]:
    """The units of the checked files that are not as the baseline has them: the
    baseline's (read back from git) and today's, each side without the units whose ID
    and text are unchanged. Units, not parts: a cut that moves is not a change."""
    before: list[Chunk] = []
    after: list[Chunk] = []
    for path, entry in entries.items():
        old = committed.get(path)
        if old is None and path not in changed:
            continue
        now = join_parts(list(changed.get(path, ())))
        if old is not None and (path in changed or entry is None):
            then = join_parts(_old_chunks(config, loaded, path, old))
        else:
            then = []
        kept = {(c.id, c.hash) for c in now} & {(c.id, c.hash) for c in then}
        before.extend(c for c in then if (c.id, c.hash) not in kept)
        after.extend(c for c in now if (c.id, c.hash) not in kept)
    return before, after


def _old_chunks(config: Config, loaded: Loaded, path: str, old: FileEntry) -> list[Chunk]:
    """The baseline's chunks of a file, from its blob in git; without it, what the
    manifest knows (then only identical content can be recognised)."""
    data = loaded.reader.read(old.blob) if loaded.reader is not None and old.blob else None
    if data is not None:
        try:
            chunks = chunk_bytes(data, path, options=config.chunking).chunks
        except UnreadableError:
            chunks = ()
        if {c.id for c in chunks} == _ids(old):
            return list(chunks)
    return [chunk.placeholder(path) for chunk in old.chunks]


def _corpus_rules(
    config: Config,
    loaded: Loaded,
    scope: Scope,
    entries: dict[str, FileEntry | None],
    committed: dict[str, FileEntry | None],
    *,
    detected: Iterable[tuple[str, str]],
    explicit: bool,
    jobs: int,
) -> CorpusFound:
    """The corpus rules over the whole corpus, or (named files) over those. The moves
    this run detects and those the manifest records (accepted now or before) name where
    a broken link's section went (CG404's fix)."""
    found_now = dict(detected)
    if explicit:
        present = {path: entry.blob for path, entry in entries.items() if entry is not None}
        known = {**found_now, **moves_of(entries.values())}
        moved = PageMoves(known, lambda page: moves_of([_entry_or_none(loaded.current, page)]))
        return corpus_findings(
            config, present, whole=False, moved=moved, before=committed, reader=loaded.reader
        )
    with_moves = [path for path in scope.cached if scope.summaries[path].moves]
    moving = [*entries.values(), *(_entry_or_none(loaded.current, path) for path in with_moves)]
    files = {**dict(scope.work), **{path: scope.summaries[path].blob for path in scope.cached}}
    moved_all = {**found_now, **moves_of(moving)}
    return corpus_findings(config, files, whole=True, moved=moved_all, jobs=jobs)


def _record_corpus(
    loaded: Loaded,
    scope: Scope,
    entries: dict[str, FileEntry | None],
    cached: dict[str, FileEntry | None],
    found: list[Violation],
    *,
    explicit: bool,
) -> dict[str, FileEntry | None]:
    """Record each file's corpus-rule findings in its shard: in the entries this run
    wrote (in place), and (whole-corpus runs) the cached files' whose findings changed,
    returned."""
    by_path = stored_findings(found)
    for path, entry in entries.items():
        if entry is not None:
            entries[path] = with_corpus_findings(entry, by_path.get(path, ()))
    changed: dict[str, FileEntry | None] = {}
    if explicit:
        return changed
    for path in scope.cached:
        entry = cached.get(path)
        if entry is None and path in by_path:
            entry = _entry_or_none(loaded.current, path)
        if entry is not None:
            now = with_corpus_findings(entry, by_path.get(path, ()))
            if now != entry:
                changed[path] = now
    return changed


def _entry_or_none(manifest: WorkTreeManifest, path: str) -> FileEntry | None:
    try:
        return manifest.entry(path)
    except ManifestSyntaxError:
        return None


def _stamped(current: WorkTreeManifest, path: str, expected: Header) -> FileEntry | None:
    entry = current.entry(path)
    return None if entry is None else dataclasses.replace(entry, settings=expected.digest())
