"""Citation stability: chunk IDs that change while their content stays, or go.

CG402 unstable-id
    A chunk's content survives under a different ID: its heading was renamed,
    its file moved, or a same-named section inserted above renumbered it.
    "Survives" means the same text, the same body (the text without its own
    heading line), or text at least 60% similar (word 5-gram Jaccard). The
    baseline is the manifest committed at ``HEAD``; old texts are read from
    git by the blob IDs it records.

    Why: a chunk ID is a promise. Stored citations, eval sets and vector-store
    keys point at the old ID and break silently.

    Fix: keep the old ID with an explicit attribute on the heading
    (``## Installing {#install}``), or, when the change is intended, run
    ``chunkgate update --accept-moves``, which records ``moved_from`` in the
    manifest so that consumers can redirect.

    Passes::

        ## Installing {#install}

    Fires (the heading ``## Install`` was renamed)::

        ## Installing

CG403 removed-id
    An ID in the baseline manifest is gone and its content did not move
    anywhere: the section, function or file was deleted.

    Why: anything that cites the ID now points nowhere.

    Fix: if the removal is intended, update the citations and eval sets that
    use the ID; the warning goes away once the manifest is committed.

    Passes: the section was moved to another file (that is CG402, or nothing
    when acknowledged).

    Fires: ``## Deprecated API`` and its text were deleted.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from chunkgate import languages
from chunkgate.model import Chunk, Violation
from chunkgate.rules.base import Rule, violation

if TYPE_CHECKING:
    from chunkgate.config import Config
    from chunkgate.manifest import FileEntry
    from chunkgate.moves import Move

RULES = (
    Rule(
        "CG402",
        "unstable-id",
        "error",
        "a chunk's content survives under a different ID without the move being recorded",
        priority=30,
    ),
    Rule(
        "CG403",
        "removed-id",
        "warning",
        "an ID in the manifest is gone and its content did not move",
        priority=50,
    ),
)
UNSTABLE, REMOVED = RULES


def moved_violation(config: Config, move: Move) -> Violation | None:
    old, new = move.old, move.new
    how = {
        "identical": "the same text",
        "body": "the same text under a renamed heading",
        "similar": f"{move.similarity:.0%} similar text",
    }[move.how]
    keep = languages.get(new.language).keep_id(old) if old.path == new.path else None
    hint = f"keep the old ID with {keep}" if keep else "keep the old name or path"
    return violation(
        config,
        UNSTABLE,
        new.path,
        new.start_line,
        new.id,
        message=f"ID changed from {old.id}: {how} now lives under {new.id}; "
        "citations of the old ID break",
        fix=f"{hint}, or run `chunkgate update --accept-moves` to record the move",
        end_line=new.end_line,
    )


def removed_violation(config: Config, chunk: Chunk, *, deleted: bool) -> Violation | None:
    where = "its file was deleted" if deleted else f"it was at line {chunk.start_line}"
    return violation(
        config,
        REMOVED,
        chunk.path,
        1 if deleted else chunk.start_line,
        chunk.id,
        message=f"{chunk.id} was removed ({where}) and its content did not move",
        fix="if intended, update the citations and eval sets that use this ID",
        end_line=0 if deleted else chunk.end_line,
    )


class Stability(NamedTuple):
    violations: list[Violation]
    # Entries with the moves ``accept_moves`` recorded, by path.
    accepted: dict[str, FileEntry]
    # The files on either side of a move nothing acknowledges.
    unstable: frozenset[str] = frozenset()


def check_stability(
    config: Config,
    removed: Sequence[Chunk],
    added: Sequence[Chunk],
    entries: Mapping[str, FileEntry | None],
    *,
    known: Collection[str] = (),
    accept_moves: bool = False,
) -> Stability:
    """CG402 and CG403 for the checked files.

    ``removed`` are the baseline's chunks whose unit is gone now (with their
    text, where git still has it), ``added`` the chunks whose IDs the baseline
    does not have, ``known`` every ID the baseline has for these files,
    ``entries`` the checked files' new entries (None: the file is gone). Units
    are compared, not their parts: a part that appears as its section grows is
    an edit. A move the entry records as ``moved_from`` passes.
    """
    if not removed:
        return Stability([], {})
    from chunkgate.moves import find_moves, join_parts, new_units  # only when IDs went missing

    removed = join_parts(removed)
    found: list[Violation | None] = []
    accepted: dict[str, FileEntry] = {}
    unstable: set[str] = set()
    moves = find_moves(list(removed), new_units(added, known))
    for move in moves:
        entry = accepted.get(move.new.path) or entries.get(move.new.path)
        if entry is not None and entry.moved_from(move.new.id) == move.old.id:
            continue
        if accept_moves and entry is not None:
            accepted[move.new.path] = entry.with_moved_from(move.new.id, move.old.id)
        elif "CG402" not in move.new.suppressed:
            found.append(moved_violation(config, move))
            unstable.update((move.old.path, move.new.path))
    moved = {move.old.id for move in moves}
    for chunk in removed:
        if chunk.id not in moved:
            gone = entries.get(chunk.path) is None
            found.append(removed_violation(config, chunk, deleted=gone))
    return Stability([v for v in found if v is not None], accepted, frozenset(unstable))
