"""``check`` and ``update``: chunk the corpus, apply the rules, keep the manifest.

One run, in pieces with one job each, state passed as values:

- ``load``: the current manifest (the work tree's folder) and the baseline
  (the one committed at ``HEAD``, or the revision CI compares against);
- ``assess``: whether the current entries can be trusted as they are;
- ``plan``: which files to check, which are known, which are gone;
- ``chunkgate.filecheck``: each file read, chunked and run through the
  file-level rules (over worker processes when there are many);
- the corpus-level rules (``chunkgate.rules.stability``, ``stale`` and
  ``duplicates``), pure functions of what the pieces above found;
- ``write``: the shards of the checked files, and the header.

A cold update (nothing to compare with) streams: ``rebuild``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import ExitStack

from chunkgate.chunking import missing_extras
from chunkgate.config import Config
from chunkgate.corpus import select_files
from chunkgate.errors import UnreadableError
from chunkgate.filecheck import Item, check_all, to_violations
from chunkgate.gate.assess import Assessment, assess
from chunkgate.gate.duplicates import duplicate_rows
from chunkgate.gate.load import Loaded, expected_header, load
from chunkgate.gate.plan import Plan, plan_files, plan_whole
from chunkgate.gate.write import write_manifest
from chunkgate.manifest import (
    FileEntry,
    Header,
    ManifestSyntaxError,
    RevisionManifest,
    SummaryCache,
    WorkTreeManifest,
    manifest_lock,
)
from chunkgate.model import CheckResult, Chunk, Summary, Violation
from chunkgate.moves import gone_units
from chunkgate.rules.duplicates import duplicate_violations
from chunkgate.rules.stability import check_stability
from chunkgate.rules.stale import check_staleness

__all__ = ["expected_header", "run_check"]


def run_check(
    config: Config,
    paths: Sequence[str] | None = None,
    *,
    update: bool = False,
    accept_moves: bool = False,
    jobs: int = 1,
    baseline: str = "HEAD",
    hold_moves: bool = False,
) -> CheckResult:
    """Check the corpus (or the named files) against the rules and the manifest.

    With ``update``, rewrite the shards of the files checked (all, when no
    paths are given) under a lock, so that concurrent invocations never lose
    each other's entries. ``baseline`` is the revision whose committed
    manifest holds the IDs to keep stable. ``hold_moves`` (the hook) leaves the
    entries of files with an unacknowledged move as they were, so that no
    commit of the rewritten manifest (an autofix bot's) can make the move pass.
    """
    writing = update or accept_moves
    with ExitStack() as stack:
        if writing:
            stack.enter_context(manifest_lock(config.root / config.manifest))
        loaded = load(config, stack, baseline=baseline)
        expected = expected_header(config)
        state = assess(config, loaded, expected, writing=writing)
        explicit = paths is not None and not state.rebuild
        selection = select_files(config, paths if explicit else None)
        cache = SummaryCache(config.root, config.manifest)
        if explicit:
            plan = plan_files(config, loaded, selection)
        else:
            summaries = loaded.current.summaries(cache, loaded.reader)
            plan = plan_whole(
                config, loaded, selection, summaries, cache=state.findings_ok and not loaded.legacy
            )
        if writing and not explicit and loaded.baseline is None and not plan.cached:
            from chunkgate.gate.rebuild import rebuild

            result = rebuild(config, loaded, plan, state, expected, jobs=jobs)
        else:
            result = _run(
                config,
                loaded,
                plan,
                state,
                expected,
                writing=writing,
                accept_moves=accept_moves,
                explicit=explicit,
                jobs=jobs,
                hold_moves=hold_moves,
            )
        if not explicit:
            cache.save()
        # One note per optional extra the corpus needs and this installation lacks.
        extras = missing_extras(file.path for file in selection.files)
        return result._replace(
            summary=result.summary._replace(files=len(selection.files)),
            notes=(*result.notes, *extras),
        )


def _run(
    config: Config,
    loaded: Loaded,
    plan: Plan,
    state: Assessment,
    expected: Header,
    *,
    writing: bool,
    accept_moves: bool,
    explicit: bool,
    jobs: int,
    hold_moves: bool = False,
) -> CheckResult:
    current, baseline = loaded.current, loaded.baseline
    broken = dict(plan.broken)
    checked = [path for path, _ in plan.work]
    recorded = _entries(current, [*checked, *plan.deleted], broken)
    if loaded.legacy is not None:  # being migrated: the old file says what was recorded
        recorded = {path: loaded.legacy_entries.get(path) for path in recorded}
    committed: dict[str, FileEntry | None] = {}
    if baseline is not None:
        baseline.prefetch([*checked, *plan.deleted])
        committed = _entries(baseline, [*checked, *plan.deleted], {})
    outcomes = list(check_all(config, _items(config, loaded, plan, committed), jobs))
    violations = list(state.violations)
    entries: dict[str, FileEntry | None] = {}
    added: list[Chunk] = []
    for outcome in outcomes:
        violations.extend(outcome.violations)
        added.extend(outcome.new_chunks)
        entries[outcome.entry.path] = _inherit_moves(
            outcome.entry, recorded.get(outcome.entry.path)
        )
    entries.update(dict.fromkeys(plan.deleted))
    for path in plan.cached:
        if plan.summaries[path].findings:
            recorded_entry = current.entry(path)
            findings = recorded_entry.findings if recorded_entry else ()
            violations.extend(to_violations(config, path, findings))
    removed = _removed(config, loaded, committed, entries)
    before = {chunk_id for old in committed.values() if old for chunk_id in _ids(old)}
    stability = check_stability(
        config, removed, added, entries, known=before, accept_moves=accept_moves
    )
    violations.extend(stability.violations)
    entries.update(stability.accepted)
    if not writing and state.chunks_ok:
        violations.extend(
            check_staleness(config, recorded, entries, deleted=plan.gone, broken=broken)
        )
    if config.severity("CG501") != "off":
        rows = duplicate_rows(current, entries, plan, explicit=explicit)
        only = set(entries) if explicit else None
        violations.extend(duplicate_violations(config, rows, only=only))
    notes = list(state.notes)
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
        written = write_manifest(config, loaded, entries, expected, whole=not explicit)
        changed, notes = written.changed, notes + written.notes
    chunks = sum(len(e.chunks) for e in entries.values() if e is not None)
    chunks += sum(plan.summaries[path].chunks for path in plan.cached)
    return result(config, violations, chunks, changed=changed, notes=notes)


def result(
    config: Config,
    violations: Iterable[Violation],
    chunks: int,
    *,
    changed: bool,
    notes: list[str],
) -> CheckResult:
    ordered = tuple(sorted(violations, key=Violation.sort_key))
    return CheckResult(
        violations=ordered,
        summary=Summary(
            files=0,  # the caller knows how many files the corpus selected
            chunks=chunks,
            errors=sum(v.severity == "error" for v in ordered),
            warnings=sum(v.severity == "warning" for v in ordered),
        ),
        manifest=config.manifest,
        manifest_changed=changed,
        notes=tuple(notes),
    )


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
    config: Config, loaded: Loaded, plan: Plan, committed: dict[str, FileEntry | None]
) -> list[Item]:
    """What ``check_file`` takes for each file: path, blob, baseline IDs, git attributes."""
    from chunkgate import git

    attributes: dict[str, set[str]] = {}
    if plan.work and loaded.reader is not None:
        attributes = git.gitattributes_flags(config.root, [path for path, _ in plan.work])
    with_baseline = loaded.baseline is not None
    return [
        (
            path,
            blob,
            _ids(committed.get(path)) if with_baseline else None,
            frozenset(attributes.get(path, ())),
        )
        for path, blob in plan.work
    ]


def _ids(entry: FileEntry | None) -> frozenset[str]:
    return frozenset(chunk.id for chunk in entry.chunks) if entry is not None else frozenset()


def _removed(
    config: Config,
    loaded: Loaded,
    committed: dict[str, FileEntry | None],
    entries: dict[str, FileEntry | None],
) -> list[Chunk]:
    """The baseline's chunks of the checked files whose IDs are gone, read back from git."""
    from chunkgate.chunking import chunk_bytes

    removed: list[Chunk] = []
    for path, entry in entries.items():
        old = committed.get(path)
        if old is None:
            continue
        # A unit's parts come and go as it grows and shrinks: only a unit with no part
        # left is gone (moves.gone_units).
        gone = gone_units(_ids(old), _ids(entry))
        if not gone:
            continue
        data = loaded.reader.read(old.blob) if loaded.reader is not None and old.blob else None
        if data is not None:
            try:
                chunks = chunk_bytes(data, path, options=config.chunking).chunks
            except UnreadableError:
                chunks = ()
            found = [chunk for chunk in chunks if chunk.id in gone]
            if len(found) == len(gone):
                removed.extend(found)
                continue
        # Without the old text only identical content can be recognised.
        removed.extend(chunk.placeholder(path) for chunk in old.chunks if chunk.id in gone)
    return removed


def _inherit_moves(entry: FileEntry, recorded: FileEntry | None) -> FileEntry:
    """Keep the ``moved_from`` acknowledgements the current manifest has for these IDs."""
    if recorded is None:
        return entry
    for chunk in recorded.chunks:
        if chunk.moved_from is not None:
            entry = entry.with_moved_from(chunk.id, chunk.moved_from)
    return entry
