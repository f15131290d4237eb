"""Where an oversized unit of code may be cut: the depth of every line break.

A break's depth is the number of nodes open across it; a break inside a
token (a multi-line string or comment) or before a line that only closes
what is open (``}``, ``end``) is closed. ``chunking.parts`` cuts at the
shallowest open breaks, so a function is cut between its top-level
statements where it can be and deeper only where it must.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking.code.units import end_row
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from tree_sitter import Node

# Breaks inside these are never taken, though the grammar gives them children.
_TOKENS = ("string", "comment", "heredoc", "template", "raw")
# A line that only closes what is open above it stays with it: no part of "}".
_CLOSER = lazy(r"[ \t]*(?:[})\]]|(?:end|fi|done|esac)\b)")


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
