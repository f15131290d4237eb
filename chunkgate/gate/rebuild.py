"""Rebuild: an update that checks every file and has no committed IDs to compare with (no
manifest yet, one made with other settings, or one being migrated from format 1).

Each file's shard is rendered where the file is checked (in the workers,
with ``--jobs``, which then send bytes rather than objects) and written at
once, without a flush each; one flush ends the run. Only each shard's
summary is kept, for CG501, so memory does not hold the corpus's chunks.
Moves the old manifest acknowledges are kept for the IDs that remain.
"""

from __future__ import annotations

from chunkgate.config import Config
from chunkgate.errors import ManifestError
from chunkgate.filecheck import Item, render_all
from chunkgate.gate.assess import Assessment
from chunkgate.gate.load import Loaded
from chunkgate.gate.plan import Plan
from chunkgate.gate.write import updated_note
from chunkgate.manifest import FileEntry, Header, parse_block, render_block, summarise
from chunkgate.manifest.folder import sync
from chunkgate.model import CheckResult, Violation
from chunkgate.rules.duplicates import duplicate_violations


def rebuild(
    config: Config, loaded: Loaded, plan: Plan, state: Assessment, expected: Header, *, jobs: int
) -> CheckResult:
    from chunkgate import git
    from chunkgate.gate import _inherit_moves, result

    current = loaded.current
    acknowledged = _acknowledged(loaded)
    attributes: dict[str, set[str]] = {}
    if plan.work and loaded.reader is not None:
        attributes = git.gitattributes_flags(config.root, [path for path, _ in plan.work])
    items: list[Item] = [
        (path, blob, None, frozenset(attributes.get(path, ()))) for path, blob in plan.work
    ]
    violations: list[Violation] = list(state.violations)
    first: dict[str, str] = {}  # each hash's first file
    holders: dict[str, list[str]] = {}  # the files of the hashes that repeat
    changed = chunks = 0
    for checked in render_all(config, items, jobs):
        violations.extend(checked.violations)
        block = checked.block
        prior = acknowledged.get(checked.path)
        if prior is not None:
            block = render_block(_inherit_moves(parse_block(block, checked.path), prior))
        changed += current.put(checked.path, block, durable=False)
        summary = summarise(block, checked.path)
        chunks += summary.chunks
        for digest in summary.hashes:
            if digest in holders:
                holders[digest].append(checked.path)
            elif digest in first:
                holders[digest] = [first[digest], checked.path]
            else:
                first[digest] = checked.path
    for path in plan.deleted:
        changed += current.put(path, None, durable=False)
    sync()
    headed = current.write_header(expected)
    migrated = loaded.legacy is not None
    if loaded.legacy is not None:
        loaded.legacy.unlink(missing_ok=True)
    if config.severity("CG501") != "off":
        violations.extend(_duplicates(config, loaded, holders))
    notes = list(state.notes)
    written = bool(changed or headed or migrated)
    if written:
        notes.append(updated_note(config, changed))
    return result(config, violations, chunks, changed=written, notes=notes)


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


def _duplicates(config: Config, loaded: Loaded, holders: dict[str, list[str]]) -> list[Violation]:
    repeated = set(holders)
    paths = sorted({path for files in holders.values() for path in files})
    rows: list[tuple[str, str, str, int, tuple[str, ...]]] = []
    for path in paths:
        entry = loaded.current.entry(path)
        if entry is not None:
            rows.extend(
                (chunk.hash, chunk.id, path, chunk.lines[0], chunk.suppressed)
                for chunk in entry.chunks
                if chunk.hash in repeated
            )
    return list(duplicate_violations(config, rows))
