"""The adoption baseline: the problems the committed manifest already records are known.

Every shard records what the file-level rules found in its file when it was
written (its ``findings``), so a repository with hundreds of problems adopts
chunkgate in one commit: ``update``, commit, and from then on ``check`` and
the hook fail only on what is new or got worse, compared with the manifest of
the baseline revision (``HEAD``, or what CI compares against):

- a finding is known when the baseline records one of the same rule on the
  same unit (for a whole-file finding, the same file), as many times; a
  broken link (CG404) when the file's shard records the same link to the
  same missing anchor;
- an oversized chunk that grew since is worse, so it is new again;
- the corpus-level rules have no record: an unstable ID is always new;
- a problem follows its unit and its file when they move (a renamed heading, a
  moved page: ``Moved``, from the moves the run detects and those the manifest
  records): known at the old place, it is known at the new one.

A fixed problem leaves the record the next time the file's shard is written.
``--strict`` (or ``strict: true``) makes every known problem count again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from chunkgate.core.model import Violation
from chunkgate.diff.moves import unit_id
from chunkgate.links.extract import readable
from chunkgate.manifest import FileEntry


class Split(NamedTuple):
    new: list[Violation]
    known: list[Violation]


class Moved(NamedTuple):
    """Where the baseline's units and files went: new unit ID -> old unit ID, and new
    path -> old path for a file whose units all came from one other file."""

    ids: Mapping[str, str]
    paths: Mapping[str, str]

    def origin(self, path: str, chunk_id: str | None) -> tuple[str, str | None] | None:
        """The path and unit ID a finding at ``path`` (about ``chunk_id``) had at the
        baseline, when its unit or its file moved; None when neither did."""
        unit = _unit(chunk_id)
        part = (chunk_id or "")[len(unit) :]  # a part's "~2" follows its unit
        old = self.ids.get(unit) if unit else None
        if old is not None:
            return old.partition("#")[0], old + part
        old_path = self.paths.get(path)
        if old_path is None:
            return None
        return old_path, f"{old_path}#{unit.partition('#')[2]}{part}" if unit else None

    def old_paths(self) -> set[str]:
        return {old.partition("#")[0] for old in self.ids.values()} | set(self.paths.values())


NO_MOVES = Moved({}, {})


def moved_units(pairs: Iterable[tuple[str, str]]) -> Moved:
    """``Moved`` from ``(old ID, new ID)`` pairs: each unit's own, and a file's when every
    unit that moved into it came from the same other file."""
    ids: dict[str, str] = {}
    sources: dict[str, set[str]] = {}
    for old_id, new_id in pairs:
        old, new = unit_id(old_id), unit_id(new_id)
        if old == new:
            continue
        ids.setdefault(new, old)
        sources.setdefault(new.partition("#")[0], set()).add(old.partition("#")[0])
    paths = {
        path: next(iter(olds))
        for path, olds in sources.items()
        if len(olds) == 1 and path not in olds
    }
    return Moved(ids, paths)


def split_known(
    violations: Iterable[Violation],
    baseline: Mapping[str, FileEntry | None],
    now: Mapping[str, FileEntry | None],
    *,
    tokens: bool = False,
    moved: Moved = NO_MOVES,
) -> Split:
    """Which of ``violations`` the baseline's entries already record.

    ``baseline`` holds the committed entry of each file the violations may be
    about (a file it lacks has no record; for a moved file or unit, the entry of
    the file it came from, as ``moved`` says), ``now`` the entries made in this
    run, for the sizes a grown chunk is told by. Rules that record nothing (the
    manifest and corpus rules) are always new.
    """
    recorded: dict[str, Counter[tuple[str, str]]] = {}

    def counts(path: str) -> Counter[tuple[str, str]]:
        if path not in recorded:
            entry = baseline.get(path)
            findings = entry.findings if entry is not None else ()
            recorded[path] = Counter(_key(f.rule, f.chunk_id, f.message) for f in findings)
        return recorded[path]

    new: list[Violation] = []
    known: list[Violation] = []
    for violation in sorted(violations, key=Violation.sort_key):
        after = now.get(violation.path)
        places = [(violation.path, violation.chunk_id)]
        origin = moved.origin(violation.path, violation.chunk_id)
        if origin is not None:
            places.append(origin)
        for path, chunk_id in places:
            key = _key(violation.rule, chunk_id, violation.message)
            found = counts(path)
            entry = baseline.get(path)
            grew = entry is not None and _grew(violation, chunk_id, entry, after, tokens)
            if found[key] > 0 and entry is not None and not grew:
                found[key] -= 1
                known.append(violation)
                break
        else:
            new.append(violation)
    return Split(new, known)


def _key(rule: str, chunk_id: str | None, message: str) -> tuple[str, str]:
    # A broken link is told by the link and the anchor it names (its message), wherever
    # the lines above it move; a message recorded with the link percent-encoded (before
    # messages showed it as written) is the same one.
    return (rule, readable(message)) if rule == "CG404" else (rule, _unit(chunk_id))


def _unit(chunk_id: str | None) -> str:
    return unit_id(chunk_id) if chunk_id else ""


def _grew(
    violation: Violation,
    old_id: str | None,
    before: FileEntry,
    after: FileEntry | None,
    tokens: bool,
) -> bool:
    """An oversized chunk that is larger than the baseline recorded it (as ``old_id``)."""
    if violation.rule != "CG201" or after is None or violation.chunk_id is None:
        return False
    old = {chunk.id: chunk for chunk in before.chunks}.get(old_id or "")
    new = {chunk.id: chunk for chunk in after.chunks}.get(violation.chunk_id)
    if old is None or new is None:
        return False
    return (new.tokens > old.tokens) if tokens else (new.chars > old.chars)


def known_duplicates(
    violations: Iterable[Violation],
    rows: Iterable[tuple[str, str, str, int, tuple[str, ...]]],
    baseline: Mapping[str, FileEntry | None],
) -> Split:
    """Which CG501 copies the baseline already had: every chunk of the copy's group (the
    chunks of its hash, ``rows`` as CG501 compares them) was there, with the same ID and
    text. A new copy of an old chunk makes its whole group new, whichever copy is named."""
    by_hash: dict[str, list[tuple[str, str]]] = {}
    hash_of: dict[tuple[str, str], str] = {}
    for chunk_hash, chunk_id, path, _line, _disabled in rows:
        by_hash.setdefault(chunk_hash, []).append((path, chunk_id))
        hash_of[(path, chunk_id)] = chunk_hash
    had: dict[str, set[tuple[str, str]]] = {}

    def recorded(path: str, chunk_id: str, chunk_hash: str) -> bool:
        if path not in had:
            entry = baseline.get(path)
            had[path] = {(c.id, c.hash) for c in entry.chunks} if entry is not None else set()
        return (chunk_id, chunk_hash) in had[path]

    split = Split([], [])
    for violation in violations:
        digest = hash_of.get((violation.path, violation.chunk_id or ""), "")
        group = by_hash.get(digest, [])
        old = bool(group) and all(recorded(path, cid, digest) for path, cid in group)
        (split.known if old else split.new).append(violation)
    return split
