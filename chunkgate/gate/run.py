"""One ``check`` or ``update`` run that reads the corpus: ``run_check`` calls it when no
kept answer will do. In pieces with one job each, state passed as values:

- ``load``: the current manifest (the work tree's folder) and the baseline
  (the one committed at ``HEAD``, or the revision CI compares against);
- ``assess``: whether the current entries can be trusted as they are;
- ``plan``: which files to check, which are known, which are gone;
- ``chunkgate.gate.filecheck``: each file read, chunked and run through the
  file-level rules (over worker processes when there are many);
- the corpus-level rules (``chunkgate.rules.stability``, ``stale`` and
  ``duplicates``), pure functions of what the pieces above found;
- ``write``: the shards of the checked files, and the header.

A cold update (nothing to compare with) streams: ``rebuild``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.chunking.extras import missing_extras
from chunkgate.config.model import Config
from chunkgate.core.errors import UnreadableError
from chunkgate.core.model import CheckResult, Chunk, Summary, Violation
from chunkgate.core.parallel import in_background
from chunkgate.corpus.paths import manifest_folder
from chunkgate.corpus.select import select_with_tree
from chunkgate.diff.moves import join_parts
from chunkgate.gate.assess import Assessment, assess
from chunkgate.gate.baseline import known_duplicates, split_known
from chunkgate.gate.duplicates import duplicate_rows
from chunkgate.gate.filecheck import Item, check_all, to_violations
from chunkgate.gate.load import Loaded, expected_header, load
from chunkgate.gate.scope import Plan, plan_files, plan_whole
from chunkgate.gate.write import write_manifest
from chunkgate.git import hookfiles, listings
from chunkgate.git.attributes import gitattributes_flags
from chunkgate.manifest import (
    FileEntry,
    Header,
    ManifestSyntaxError,
    RevisionManifest,
    SummaryCache,
    WorkTreeManifest,
    manifest_lock,
)
from chunkgate.rules.duplicates import duplicate_violations
from chunkgate.rules.stability import check_stability
from chunkgate.rules.stale import check_staleness

if TYPE_CHECKING:
    from chunkgate.links.gate import Links

__all__ = ["checked", "result"]


def checked(
    config: Config,
    paths: Sequence[str] | None,
    *,
    writing: bool,
    accept_moves: bool,
    jobs: int,
    baseline: str,
    hold_moves: bool,
    known_from: str | None,
    listing: hookfiles.NamedListing | None,
    whole: listings.WorkTreeListing | None,
) -> tuple[CheckResult, bool]:
    """``run_check``'s work, and whether its result may be kept (``_run``)."""
    with ExitStack() as stack:
        if writing:
            folder = manifest_folder(config.root, config.manifest, writing=True)
            folder.parent.mkdir(parents=True, exist_ok=True)  # the lock sits beside it
            stack.enter_context(manifest_lock(folder))
        loaded = load(config, stack, baseline=baseline, known_from=known_from)
        expected = expected_header(config)
        state = assess(config, loaded, expected, writing=writing)
        explicit = paths is not None and not state.rebuild
        # Each of the hook's git processes reads the whole index (0.05-0.08 s at 100,000
        # files): what the commit deletes and the files' attributes are asked for beside
        # the listing, not after it (or were, before the run: ``listing``).
        in_git = explicit and loaded.reader is not None
        if not in_git or (listing is not None and listing.root != config.root):
            listing = None
        deletions = None
        if listing is not None:
            deletions = listing.deletions
        elif in_git:
            deletions = in_background(listings.staged_deletions, config.root)
        # A whole-corpus run takes the baseline's listing from the work tree's when the
        # index holds the baseline's folder as it is (no `ls-tree` of every shard).
        as_staged = None
        if not explicit and loaded.baseline is not None:
            as_staged = in_background(
                listings.index_matches, config.root, loaded.baseline.rev, config.manifest
            )
        selection, tree = select_with_tree(
            config, paths if explicit else None, listing=listing if explicit else whole
        )
        cache = SummaryCache(config.root, config.manifest)
        attributes = None
        if in_git and selection.files:
            named = [file.path for file in selection.files]
            if listing is not None and set(named) <= set(listing.paths):
                attributes = listing.attributes
            else:
                attributes = in_background(gitattributes_flags, config.root, named)
        if explicit:
            plan = plan_files(config, loaded, selection, deletions() if deletions else [])
        else:
            if tree is not None and loaded.current.in_git:
                loaded.current.list_from(tree)
                if loaded.baseline is not None and as_staged is not None and as_staged():
                    loaded.baseline.list_from_index(loaded.current, tree)
            summaries = loaded.current.summaries(cache, loaded.reader)
            plan = plan_whole(
                config,
                loaded,
                selection,
                summaries,
                cache=state.findings_ok and not loaded.legacy,
                settings=expected.digest(),
                hashes=cache.hash_index(),
            )
        if writing and not explicit and loaded.baseline is None and not plan.cached:
            from chunkgate.gate.rebuild import rebuild

            result = rebuild(config, loaded, plan, state, expected, jobs=jobs)
            of_the_corpus = False  # written: never kept
        else:
            result, of_the_corpus = _run(
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
                attributes=attributes,
            )
        if not explicit:
            cache.save()
        # One note per optional extra the corpus needs and this installation lacks.
        extras = missing_extras(file.path for file in selection.files)
        if writing and loaded.record is None and result.violations and not config.strict:
            extras.insert(0, ADOPTING)
        result = result._replace(
            summary=result.summary._replace(files=len(selection.files)),
            notes=(*result.notes, *extras),
        )
        return result, of_the_corpus


ADOPTING = (
    "no manifest is committed yet: once this one is, the problems it records are known "
    "(listed in one line, failing nothing until fixed; `--strict` fails on them), and only "
    "new ones fail"
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
    attributes: Callable[[], dict[str, set[str]]] | None = None,
) -> tuple[CheckResult, bool]:
    """The run's result, and whether it is a function of the corpus files' bytes (see
    ``references.Links``)."""
    current, baseline = loaded.current, loaded.baseline
    broken = dict(plan.broken)
    paths = [*(path for path, _ in plan.work), *plan.deleted]
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
        plan,
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
    with_findings = [path for path in plan.cached if plan.summaries[path].findings]
    cached: dict[str, FileEntry | None] = {path: current.entry(path) for path in with_findings}
    cached_findings = [
        violation
        for path, entry in cached.items()
        for violation in to_violations(config, path, entry.findings if entry else ())
        if violation.rule != "CG404"  # checked again below: it depends on other files
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
                config, recorded, entries, deleted=plan.gone, broken=broken, settings=made
            )
        )
    links, of_the_corpus = _references(
        config, loaded, plan, entries, committed, explicit=explicit, jobs=jobs
    )
    tokens = config.chunking.unit == "tokens"
    found = [*checked.violations, *cached_findings, *links]
    split = split_known(found, record, entries, tokens=tokens)
    if config.severity("CG501") != "off":
        rows = duplicate_rows(current, entries, plan, explicit=explicit)
        copies = list(duplicate_violations(config, rows, only=set(entries) if explicit else None))
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
        relinked = _record_references(loaded, plan, entries, cached, links, explicit=explicit)
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
        unstamped = [path for path in plan.cached if plan.summaries[path].settings is None]
        stamped = {path: _stamped(current, path, expected) for path in unstamped}
        for path, entry in relinked.items():
            if entry is not None and entry.settings is None:
                relinked[path] = dataclasses.replace(entry, settings=expected.digest())
        written = write_manifest(
            config, loaded, {**stamped, **relinked, **entries}, expected, whole=not explicit
        )
        changed, notes = written.changed, notes + written.notes
    chunks = sum(len(e.chunks) for e in entries.values() if e is not None)
    chunks += sum(plan.summaries[path].chunks for path in plan.cached)
    answer = result(
        config, [*split.new, *corpus], chunks, changed=changed, notes=notes, known=split.known
    )
    return answer, of_the_corpus


class _Checked(NamedTuple):
    entries: dict[str, FileEntry | None]  # the checked files' new entries; None: gone
    violations: list[Violation]  # what the file-level rules found in them
    differing: dict[str, tuple[Chunk, ...]]  # the chunks of files that are not the baseline's


def _check_files(
    config: Config,
    loaded: Loaded,
    plan: Plan,
    recorded: dict[str, FileEntry | None],
    committed: dict[str, FileEntry | None],
    *,
    jobs: int,
    settings: str,
    attributes: Callable[[], dict[str, set[str]]] | None,
) -> _Checked:
    """Every file of the plan's work read, chunked and checked (over workers when many);
    ``attributes`` waits for the git attributes of the named files, asked for already."""
    checked = _Checked({}, [], {})
    items = _items(config, loaded, plan, committed, attributes)
    for outcome in check_all(config, items, jobs, settings=settings):
        path = outcome.entry.path
        checked.violations.extend(outcome.violations)
        if outcome.changed:
            checked.differing[path] = outcome.changed
        checked.entries[path] = _inherit_moves(outcome.entry, recorded.get(path))
    checked.entries.update(dict.fromkeys(plan.deleted))
    return checked


def result(
    config: Config,
    violations: Iterable[Violation],
    chunks: int,
    *,
    changed: bool,
    notes: list[str],
    known: Iterable[Violation] = (),
) -> CheckResult:
    """The run's result; ``known`` are the problems the baseline already records, which fail
    nothing unless the configuration is strict."""
    known = sorted(known, key=Violation.sort_key)
    if config.strict:
        violations, known = [*violations, *known], []
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
        known=tuple(known),
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
    config: Config,
    loaded: Loaded,
    plan: Plan,
    committed: dict[str, FileEntry | None],
    prefetched: Callable[[], dict[str, set[str]]] | None,
) -> list[Item]:
    """What ``check_file`` takes for each file: path, blob, baseline IDs, git attributes."""
    attributes: dict[str, set[str]] = {}
    if prefetched is not None:
        attributes = prefetched()
    elif plan.work and loaded.reader is not None:
        attributes = gitattributes_flags(config.root, [path for path, _ in plan.work])
    with_baseline = loaded.baseline is not None
    return [
        (
            path,
            blob,
            _hashes(committed.get(path)) if with_baseline else None,
            frozenset(attributes.get(path, ())),
        )
        for path, blob in plan.work
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
    from chunkgate.chunking import chunk_bytes

    data = loaded.reader.read(old.blob) if loaded.reader is not None and old.blob else None
    if data is not None:
        try:
            chunks = chunk_bytes(data, path, options=config.chunking).chunks
        except UnreadableError:
            chunks = ()
        if {c.id for c in chunks} == _ids(old):
            return list(chunks)
    return [chunk.placeholder(path) for chunk in old.chunks]


def _references(
    config: Config,
    loaded: Loaded,
    plan: Plan,
    entries: dict[str, FileEntry | None],
    committed: dict[str, FileEntry | None],
    *,
    explicit: bool,
    jobs: int,
) -> Links:
    """CG404: over the whole corpus, or (named files) their links and the links into the
    anchors they lost; a move recorded in the manifest or accepted now keeps a link."""
    from chunkgate.links import gate as references

    if config.severity("CG404") == "off":
        return references.Links([])
    from chunkgate.links.corpus import site_of

    site = site_of(config.root, config.generator_files)
    if explicit:
        present = [path for path, entry in entries.items() if entry is not None]
        found = references.committed_files(
            config,
            present,
            before=committed,
            moved=references.moves_of(entries.values()),
            site=site,
            reader=loaded.reader,
        )
        return references.Links(found)
    with_moves = [path for path in plan.cached if plan.summaries[path].moves]
    moving = [*entries.values(), *(_entry_or_none(loaded.current, path) for path in with_moves)]
    files = {**dict(plan.work), **{path: plan.summaries[path].blob for path in plan.cached}}
    return references.whole_corpus(config, files, references.moves_of(moving), site, jobs=jobs)


def _record_references(
    loaded: Loaded,
    plan: Plan,
    entries: dict[str, FileEntry | None],
    cached: dict[str, FileEntry | None],
    links: list[Violation],
    *,
    explicit: bool,
) -> dict[str, FileEntry | None]:
    """Record each file's CG404 findings in its shard: in the entries this run wrote (in
    place), and (whole-corpus runs) the cached files' whose findings changed, returned."""
    from chunkgate.links.gate import recorded, with_references

    by_path = recorded(links)
    for path, entry in entries.items():
        if entry is not None:
            entries[path] = with_references(entry, by_path.get(path, ()))
    changed: dict[str, FileEntry | None] = {}
    if explicit:
        return changed
    for path in plan.cached:
        entry = cached.get(path)
        if entry is None and path in by_path:
            entry = _entry_or_none(loaded.current, path)
        if entry is not None:
            now = with_references(entry, by_path.get(path, ()))
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


def _inherit_moves(entry: FileEntry, recorded: FileEntry | None) -> FileEntry:
    """Keep the ``moved_from`` acknowledgements the current manifest has for these IDs."""
    if recorded is None:
        return entry
    for chunk in recorded.chunks:
        if chunk.moved_from is not None:
            entry = entry.with_moved_from(chunk.id, chunk.moved_from)
    return entry
