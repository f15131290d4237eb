"""What ``diff`` finds: the changes between two sides' chunks, and when they fail a run.

The chunks reported are units (``part`` 0 and ``parts`` N when there are
several: see ``moves.join_parts``); ``oversized`` looks at their parts.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from chunkgate.chunking import ChunkOptions
from chunkgate.core.model import Chunk
from chunkgate.diff.moves import MoveHow, unit_id


class ChangeKind(str, enum.Enum):
    ADDED = "added"
    REMOVED = "removed"
    MODIFIED = "modified"
    MOVED = "moved"


@dataclass(frozen=True, slots=True)
class Change:
    kind: ChangeKind
    before: Chunk | None
    after: Chunk | None
    similarity: float | None = None
    how: MoveHow | None = None
    acknowledged: bool = False

    @property
    def chunk(self) -> Chunk:
        """The chunk as it is now (as it was, for a removal)."""
        chunk = self.after or self.before
        assert chunk is not None
        return chunk

    def sort_key(self) -> tuple[bytes, int, str, str]:
        chunk = self.chunk
        old = self.before.id if self.before else ""
        return (chunk.path.encode("utf-8", "surrogateescape"), chunk.start_line, chunk.id, old)


@dataclass(frozen=True, slots=True)
class ChunkDiff:
    base: str  # the base commit's sha
    head: str  # the head commit's sha, or "working tree"
    base_name: str  # as the user named them, for display
    head_name: str
    added: tuple[Chunk, ...]
    removed: tuple[Chunk, ...]
    modified: tuple[Change, ...]
    moved: tuple[Change, ...]
    unchanged: int
    unit: str = "chars"  # the head side's size unit and limit
    size_max: int = 2000
    notes: tuple[str, ...] = ()
    # The head side's parts of the units above that have several.
    head_parts: tuple[Chunk, ...] = ()
    options: ChunkOptions | None = None  # the head side's chunking settings, for fixes

    def changes(self) -> list[Change]:
        """Every change, sorted by path and line on the side where the chunk is now."""
        everything = [
            *(Change(ChangeKind.ADDED, None, chunk) for chunk in self.added),
            *(Change(ChangeKind.REMOVED, chunk, None) for chunk in self.removed),
            *self.modified,
            *self.moved,
        ]
        return sorted(everything, key=Change.sort_key)

    @property
    def unstable(self) -> tuple[Change, ...]:
        return tuple(change for change in self.moved if not change.acknowledged)

    def size(self, chunk: Chunk) -> int:
        return chunk.tokens if self.unit == "tokens" else chunk.chars

    def oversized(self) -> list[Chunk]:
        """Chunks new or changed on the head side that are over ``size.max``."""
        now = [*self.added, *(c.chunk for c in self.modified), *(c.chunk for c in self.moved)]
        units = {(c.path, c.id) for c in now if c.parts > 1}
        parts = [p for p in self.head_parts if (p.path, unit_id(p.id)) in units]
        chunks = [*(c for c in now if c.parts <= 1), *parts]
        return sorted(
            (c for c in chunks if self.size(c) > self.size_max),
            key=lambda c: (c.path, c.start_line),
        )

    def to_dict(self) -> dict[str, object]:
        """The JSON of SPEC §6 (moved entries also carry ``how`` and ``acknowledged``)."""
        return {
            "base": self.base,
            "head": self.head,
            "added": [chunk.to_dict(text=False) for chunk in self.added],
            "removed": [chunk.to_dict(text=False) for chunk in self.removed],
            "modified": [
                {
                    "id": change.chunk.id,
                    "before": _dict(change.before),
                    "after": _dict(change.after),
                }
                for change in self.modified
            ],
            "moved": [
                {
                    "from": change.before.id if change.before else None,
                    "to": change.chunk.id,
                    "similarity": change.similarity,
                    "how": change.how,
                    "acknowledged": change.acknowledged,
                    "before": _dict(change.before),
                    "after": _dict(change.after),
                }
                for change in self.moved
            ],
            "unchanged": self.unchanged,
        }


def _dict(chunk: Chunk | None) -> dict[str, object] | None:
    return None if chunk is None else chunk.to_dict(text=False)
