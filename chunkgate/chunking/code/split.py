"""Oversized units split between statements: the parts of a long function.

Every line break of the file gets a depth, the number of nodes open across
it, and breaks inside a token (a multi-line string or comment) are closed.
A part ends at the shallowest open break that keeps it within ``size.max``,
preferring the latest of equally shallow ones in the part's second half, so
a function is cut between its top-level statements where it can be and
deeper only where it must. Parts take whole lines and cover the unit: the
first keeps the unit's ID, the others add ``~2``, ``~3``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking.code.units import end_row

if TYPE_CHECKING:
    from tree_sitter import Node

# Breaks inside these are never taken, though the grammar gives them children.
_TOKENS = ("string", "comment", "heredoc", "template", "raw")
# A line that only closes what is open above it stays with it: no part of "}".
_CLOSER = re.compile(r"[ \t]*(?:[})\]]|(?:end|fi|done|esac)\b)")


class Breaks:
    """Depth of the break before each row; None where a token spans it."""

    def __init__(self, root: Node, lines: Sequence[str]) -> None:
        rows = len(lines)
        depth = [0] * (rows + 2)
        closed = [0] * (rows + 2)
        cursor = root.walk()
        while True:
            node = cursor.node
            assert node is not None
            first, last = node.start_point.row + 1, end_row(node)
            if first <= last:
                depth[first] += 1
                depth[last + 1] -= 1
                kind = node.type
                if node.child_count == 0 or any(token in kind for token in _TOKENS):
                    closed[first] += 1
                    closed[last + 1] -= 1
            if cursor.goto_first_child() or cursor.goto_next_sibling():
                continue
            while cursor.goto_parent():
                if cursor.goto_next_sibling():
                    break
            else:
                break
        self.depth: list[int | None] = []
        open_nodes = shut = 0
        for row in range(rows + 1):
            open_nodes += depth[row]
            shut += closed[row]
            closer = row < rows and _CLOSER.match(lines[row]) is not None
            self.depth.append(None if shut or closer else open_nodes)


def parts(
    first: int, last: int, breaks: Breaks, size: Callable[[int, int], int], limit: int
) -> list[tuple[int, int]]:
    """Row spans ``(first, last)`` inclusive that cover ``first..last`` within ``limit``."""
    spans: list[tuple[int, int]] = []
    start = first
    while start < last and size(start, last) > limit:
        cut = _cut(start, last, breaks, size, limit)
        if cut is None:
            break
        spans.append((start, cut - 1))
        start = cut
    spans.append((start, last))
    return spans


def _cut(
    start: int, last: int, breaks: Breaks, size: Callable[[int, int], int], limit: int
) -> int | None:
    """The row that opens the next part, or None when no break is open."""
    fitting: list[tuple[int, int, int]] = []  # (row, depth, size of the part before it)
    for row in range(start + 1, last + 1):
        depth = breaks.depth[row]
        if depth is None:
            continue
        taken = size(start, row - 1)
        if taken > limit:
            if not fitting:
                return row  # no break keeps the part within the limit: the first one
            break
        fitting.append((row, depth, taken))
    if not fitting:
        return None
    # A cut in the first half would leave a small part and many more parts.
    late = [item for item in fitting if item[2] * 2 >= limit] or fitting
    return min(late, key=lambda item: (item[1], -item[0]))[0]
