"""When a file does not parse: tree-sitter's error nodes, counted by line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking.base import is_blank

if TYPE_CHECKING:
    from tree_sitter import Node

# Tree-sitter recovers from errors, and grammars lag their languages (Kotlin's
# one-line class bodies, Swift's parameter packs, bash's extglobs, Rust's
# `try!`): on real code from package registries 0-17% of a file's lines had
# errors (benchmarks/code_check.py), and prose named .js or .rs had 39-94%. A
# file with more is CG001 and text windows; with fewer, its recovered tree is
# chunked and an error region is module code.
MAX_ERROR_SHARE = 0.25
# In a file of a few lines one unsupported construct is a large share (a
# two-line .d.ts with an `import("...")` type): it takes this many lines.
MIN_ERROR_LINES = 3


def error_rows(root: Node, lines: Sequence[str]) -> tuple[int, float]:
    """The lines on which tree-sitter found an error, and their share of the non-blank."""
    rows: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            rows.add(node.start_point.row)
        if node.has_error:
            stack.extend(node.children)
    return len(rows), len(rows) / max(sum(1 for line in lines if not is_blank(line)), 1)


def first_error(root: Node) -> tuple[int, str]:
    node = root
    while not (node.is_error or node.is_missing):
        inner = next((c for c in node.children if c.has_error or c.is_missing), None)
        if inner is None:
            break
        node = inner
    line = node.start_point.row + 1
    if node.is_missing:
        return line, f"missing {node.type!r}"
    text = (node.text or b"").decode("utf-8", "replace").strip().split("\n", 1)[0]
    return line, f"unexpected {text[:40]!r}" if text else "unexpected input"
