"""A file's chunks linked to each other: ``parent``, ``prev`` and ``next`` (issue 20).

Filled once, where a file's chunk list is final (IDs given, parts split), for
every language alike:

- a section (a chunk with a heading level) has for parent the nearest section
  above it whose heading path encloses its own and that is a chunk of its
  own; a heading whose section has no body of its own makes no chunk, so its
  children's parent is the next one up, or None;
- a definition whose symbol is dotted (``Class.method``) has for parent the
  first chunk of its owner (``Class``), when the file has one;
- the parts of a unit share the unit's parent; ``prev``/``next`` follow the
  file's order, parts included.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkgate.core.model import Chunk

# Chunk's last three fields are the relations: a chunk is rebuilt from its other
# fields and them, which is three times faster than ``_replace``.
_KEPT = Chunk._fields.index("parent")
assert Chunk._fields[_KEPT:] == ("parent", "prev", "next")


def relate(chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    """The chunks with their relations filled in, in the same order."""
    count = len(chunks)
    if count == 0:
        return ()
    parents = _parents(chunks)
    ids = [chunk.id for chunk in chunks]
    make = tuple.__new__
    return tuple(
        make(
            Chunk,
            (
                *chunk[:_KEPT],
                parents[index],
                ids[index - 1] if index else None,
                ids[index + 1] if index + 1 < count else None,
            ),
        )
        for index, chunk in enumerate(chunks)
    )


def _parents(chunks: Sequence[Chunk]) -> list[str | None]:
    parents: list[str | None] = []
    # The open sections above the current chunk, outermost first: (heading path, ID).
    open_sections: list[tuple[tuple[str, ...], str]] = []
    owners: dict[str, str] = {}  # a symbol and the ID of its first chunk
    for chunk in chunks:
        symbol = chunk.symbol
        if symbol is not None and symbol not in owners:
            owners[symbol] = chunk.id
        if chunk.level > 0:
            if chunk.part > 1:
                parents.append(parents[-1] if parents else None)
                continue
            # By heading path, not level: a section with no body of its own is part of
            # its first child's chunk, which has the child's level.
            path = chunk.heading_path
            while open_sections and not _encloses(open_sections[-1][0], path):
                open_sections.pop()
            parents.append(open_sections[-1][1] if open_sections else None)
            open_sections.append((path, chunk.id))
        elif symbol is not None and "." in symbol:
            parents.append(_owner(symbol, owners))
        else:
            parents.append(None)
    return parents


def _encloses(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    return len(outer) < len(inner) and inner[: len(outer)] == outer


def _owner(symbol: str, owners: dict[str, str]) -> str | None:
    owner = symbol.rpartition(".")[0]
    while owner:
        found = owners.get(owner)
        if found is not None:
            return found
        owner = owner.rpartition(".")[0]
    return None
