"""Citation stability: chunk IDs that change while their content stays, or go.

CG402 unstable-id
    A chunk's content survives under a different ID: its heading was renamed,
    its file moved, or a same-named section inserted above renumbered it.
    "Survives" means the same text, the same body (the text without its own
    heading line), or text at least 50% similar (word 5-gram Jaccard). The
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

    A section that shrank under ``size.min`` and joined a neighbour
    (``markdown.merge_small``) is not removed: the chunk it joined lists its ID
    (``merged``), and citations of it resolve there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.chunking import languages
from chunkgate.core.model import Chunk, Violation
from chunkgate.rules.base import Rule, violation
from chunkgate.rules.stale import DROPPED

if TYPE_CHECKING:
    from chunkgate.chunking.base import ChunkOptions
    from chunkgate.config.model import Config
    from chunkgate.diff.moves import Move
    from chunkgate.manifest import FileEntry

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


def keep_advice(old: Chunk, new: Chunk, options: ChunkOptions | None) -> str:
    """How to keep ``old``'s ID where ``new`` took it: the site's explicit-ID syntax,
    where it has one, else the old path or heading."""
    if old.path != new.path:
        return f"keep the old path ({old.path})"
    keep = languages.get(new.language).keep_id(old, options)
    if keep:
        return f"keep the old ID with {keep}"
    if old.heading_path and old.heading_path != new.heading_path:
        return f"keep the old heading ({old.heading_path[-1]})"
    if old.heading_path:  # the same heading, renumbered: a repeat was added or removed above
        return (
            f"give the repeated headings ({old.heading_path[-1]}) distinct names: the site "
            "numbers repeats by their order"
        )
    if old.symbol and old.symbol != new.symbol:
        return f"keep the old name ({old.symbol})"
    return "keep the old ID"


def moved_violation(config: Config, move: Move) -> Violation | None:
    old, new = move.old, move.new
    how = {
        "identical": "the same text",
        "body": "the same text under a renamed heading",
        "similar": f"{move.similarity:.0%} similar text",
    }[move.how]
    hint = keep_advice(old, new, config.chunking)
    return violation(
        config,
        UNSTABLE,
        new.path,
        new.start_line,
        new.id,
        message=f"ID changed from {old.id}: {how} now lives under {new.id}; "
        "citations of the old ID break",
        fix=f"{hint}, or record the move: `chunkgate update --accept-moves` (installed through "
        "pre-commit only: `pre-commit run chunkgate-accept-moves --hook-stage manual`)",
        end_line=new.end_line,
        cause=moved_cause(old.id, new.id),
    )


def moved_cause(old: str, new: str) -> str:
    """``Violation.cause`` of what a move explains: a page's (all its sections and the
    links into it, one cause) when it changed page, else the section's."""
    old_page, new_page = old.partition("#")[0], new.partition("#")[0]
    if old_page != new_page:
        return f"moved:{old_page}>{new_page}"
    return f"moved:{old}>{new}"


def removed_violation(config: Config, chunk: Chunk, *, deleted: bool) -> Violation | None:
    """CG403 for ``chunk``; ``deleted``: its whole file left the corpus (deleted, or
    excluded by the configuration)."""
    cause = None
    if not deleted:
        where = f"it was at line {chunk.start_line}"
    elif config.selects(chunk.path):
        where = "its file was deleted"
    else:
        where = "the configuration now leaves its file out"
        cause = DROPPED
    return violation(
        config,
        REMOVED,
        chunk.path,
        1 if deleted else chunk.start_line,
        chunk.id,
        message=f"{chunk.id} was removed ({where}) and its content did not move",
        fix="if intended, update the citations and eval sets that use this ID",
        end_line=0 if deleted else chunk.end_line,
        cause=cause,
    )


class Stability(NamedTuple):
    violations: list[Violation]
    # Entries with the moves ``accept_moves`` recorded, by path.
    accepted: dict[str, FileEntry]
    # The files on either side of a move nothing acknowledges.
    unstable: frozenset[str] = frozenset()
    # Every move seen, acknowledged or not: (old ID, new ID).
    moves: tuple[tuple[str, str], ...] = ()


def check_stability(
    config: Config,
    before: Sequence[Chunk],
    after: Sequence[Chunk],
    entries: Mapping[str, FileEntry | None],
    *,
    accept_moves: bool = False,
) -> Stability:
    """CG402 and CG403 for the checked files.

    ``before`` are the baseline's units of these files that are not as they are
    now (with their text, where git still has it), ``after`` their units now that
    were not so before, ``entries`` the files' new entries (None: the file is
    gone). Content that survives under another ID is a move, as ``diff`` pairs
    them: a renamed heading, a moved file, and also a same-named heading inserted
    above its namesakes, which keeps every old ID but shifts their content. A
    move the entry records as ``moved_from`` passes; a unit of ``before`` that
    went nowhere and whose ID is gone is a removal.
    """
    if not before:
        return Stability([], {})
    from chunkgate.diff.moves import find_moves, unit_id  # only when something changed

    found: list[Violation | None] = []
    accepted: dict[str, FileEntry] = {}
    unstable: set[str] = set()
    # A section that joined a neighbour is not a move: the neighbour lists its ID.
    moves = [
        move
        for move in find_moves(before, after)
        if move.old.id != move.new.id and move.old.id not in move.new.merged
    ]
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
    present: dict[str, set[str]] = {}  # the unit IDs of each file's entry, made once a file
    for chunk in before:
        entry = entries.get(chunk.path)
        if chunk.path not in present:
            # A section merged into a neighbour (``markdown.merge_small``) is still cited.
            present[chunk.path] = (
                {unit_id(c.id) for c in entry.chunks} | {m for c in entry.chunks for m in c.merged}
                if entry
                else set()
            )
        if chunk.id not in moved and chunk.id not in present[chunk.path]:
            found.append(removed_violation(config, chunk, deleted=entry is None))
    pairs = tuple((move.old.id, move.new.id) for move in moves)
    return Stability([v for v in found if v is not None], accepted, frozenset(unstable), pairs)
