"""Classify the chunks of two sides as unchanged, added, removed, modified or moved.

Per chunk, in this order: unchanged (same ID, same hash); then by content,
through ``find_moves``: moved (another ID, the same or similar text) or kept
(same ID, related text: modified); then modified (same ID, new hash); what is
left is added or removed. A move is *acknowledged* when the head side's
manifest records ``moved_from`` for it; the others are *unstable* IDs.

Units are compared, not their parts (``moves.join_parts``): a section split
into ``install`` and ``install~2`` is one unit, so a cut that moves, or a
part that appears or goes as the section grows or shrinks, is a modification
of ``install``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

from chunkgate.core.errors import ManifestError
from chunkgate.core.model import Chunk
from chunkgate.diff.model import Change, ChangeKind, ChunkDiff
from chunkgate.diff.moves import find_moves, join_parts, unit_id
from chunkgate.diff.sides import Side
from chunkgate.git.revisions import WORKING_TREE, Revisions


def classify(
    before: list[Chunk],
    after: list[Chunk],
    unchanged: int,
    *,
    revisions: Revisions,
    new: Side,
    notes: list[str],
) -> ChunkDiff:
    """The changes between the chunks of the two sides' files that differ; ``unchanged``
    counts the chunks of the files that do not."""

    def key(chunk: Chunk) -> tuple[str, str]:
        return (chunk.id, chunk.hash)

    head_parts = tuple(chunk for chunk in after if chunk.id != unit_id(chunk.id) or chunk.parts > 1)
    before, after = join_parts(before), join_parts(after)
    same = Counter(map(key, before)) & Counter(map(key, after))
    unchanged += sum(same.values())
    old_rest = _drop(before, same, key)
    new_rest = _drop(after, same, key)
    modified: list[Change] = []
    moved: list[Change] = []
    paired: set[int] = set()
    acknowledged = _acknowledged(new)
    for move in find_moves(old_rest, new_rest):
        paired.update((id(move.old), id(move.new)))
        if move.old.id == move.new.id:
            modified.append(
                Change(ChangeKind.MODIFIED, move.old, move.new, move.similarity, move.how)
            )
        else:
            ack = acknowledged(move.new) == move.old.id
            moved.append(
                Change(ChangeKind.MOVED, move.old, move.new, move.similarity, move.how, ack)
            )
    by_id: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in old_rest:
        if id(chunk) not in paired:
            by_id[chunk.id].append(chunk)
    added: list[Chunk] = []
    for chunk in new_rest:
        if id(chunk) in paired:
            continue
        if by_id.get(chunk.id):
            modified.append(Change(ChangeKind.MODIFIED, by_id[chunk.id].pop(0), chunk))
        else:
            added.append(chunk)
    removed = [chunk for chunks in by_id.values() for chunk in chunks]
    place = Change.sort_key
    return ChunkDiff(
        base=revisions.base,
        head=revisions.head or WORKING_TREE,
        base_name=revisions.base_name,
        head_name=revisions.head_name,
        added=tuple(sorted(added, key=_place)),
        removed=tuple(sorted(removed, key=_place)),
        modified=tuple(sorted(modified, key=place)),
        moved=tuple(sorted(moved, key=place)),
        unchanged=unchanged,
        unit=new.config.chunking.unit,
        size_max=new.config.chunking.max,
        notes=tuple(dict.fromkeys(notes)),
        head_parts=head_parts,
        options=new.config.chunking,
    )


def _drop(
    chunks: list[Chunk], same: Counter[tuple[str, str]], key: Callable[[Chunk], tuple[str, str]]
) -> list[Chunk]:
    left = Counter(same)
    rest = []
    for chunk in chunks:
        k = key(chunk)
        if left[k] > 0:
            left[k] -= 1
        else:
            rest.append(chunk)
    return rest


def _place(chunk: Chunk) -> tuple[bytes, int, str]:
    return (chunk.path.encode("utf-8", "surrogateescape"), chunk.start_line, chunk.id)


def _acknowledged(side: Side) -> Callable[[Chunk], str | None]:
    """The ``moved_from`` the head manifest records for a chunk, if any."""
    manifest = side.manifest
    cache: dict[str, dict[str, str]] = {}

    def moved_from(chunk: Chunk) -> str | None:
        if manifest is None:
            return None
        if chunk.path not in cache:
            try:
                entry = manifest.entry(chunk.path)
            except ManifestError:
                entry = None
            cache[chunk.path] = {
                c.id: c.moved_from for c in (entry.chunks if entry else ()) if c.moved_from
            }
        return cache[chunk.path].get(chunk.id)

    return moved_from
