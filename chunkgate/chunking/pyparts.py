"""The blocks of a Python chunk over ``size.max``, for ``parts.split_unit``.

A chunk (a function, a method, a class head, module code) is cut between the
statements it holds. A statement over the limit is cut between the
statements of its own bodies: a function's or a class's body, the branches of
an ``if``, the body, handlers, ``else`` and ``finally`` of a ``try``, the
cases of a ``match``, and so on down. So the first part of a function holds
its comments, decorators, signature and docstring (and as many statements as
fit); a clause line (``else:``, ``except ValueError:``) goes with the
statements under it. A simple statement is never cut: a long literal or call
over the limit is a part on its own, named by CG201.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from chunkgate.chunking.base import ChunkContext
from chunkgate.chunking.parts import Block, Pos, split_unit
from chunkgate.core.model import Chunk

# The fields of a compound statement that hold statements (or handlers and
# cases, which hold statements in turn).
_BODIES = ("body", "handlers", "orelse", "finalbody", "cases")
_NAMES: dict[type[ast.AST], str] = {
    ast.Assign: "assignment",
    ast.AnnAssign: "assignment",
    ast.AugAssign: "assignment",
    ast.Expr: "expression",
    ast.Return: "return statement",
    ast.Raise: "raise statement",
    ast.Assert: "assert statement",
    ast.Import: "import",
    ast.ImportFrom: "import",
    ast.FunctionDef: "function definition",
    ast.AsyncFunctionDef: "function definition",
    ast.ClassDef: "class definition",
}


class _Lines(NamedTuple):
    """Lines ``first..last`` (1-based) of comments or of a docstring: cut between
    paragraphs (at blank lines and lone ``#``), then between lines."""

    first: int
    last: int
    paragraphs: bool = True


def python_parts(ctx: ChunkContext, unit: Chunk, tree: ast.Module) -> list[Chunk]:
    statements = _inside(tree.body, unit.start_line, unit.end_line)
    start = Pos(unit.start_line - 1, 0)
    end = Pos(unit.end_line - 1, len(ctx.lines[unit.end_line - 1]))
    if statements:
        blocks = _tile(ctx.lines, statements, start, end)
    else:
        lines = _Lines(unit.start_line, unit.end_line)
        blocks = [Block(start, end, "comment", unit.start_line, unit.end_line, lines)]
    return split_unit(ctx, unit, blocks, lambda block: _refine(ctx.lines, block))


def _inside(body: Sequence[ast.AST], first: int, last: int) -> list[ast.AST]:
    """The outermost statements within lines ``first..last``: those of ``body`` that
    lie within them, and of a statement that reaches past them, its own statements
    that do. A class split into members reaches past every chunk it gave, also past
    one that holds module code too (the code above its head, or below its last
    member, joined to it under ``size.min``): the blocks must not reach past the
    chunk, nor a block's finer ones past the block."""
    found: list[ast.AST] = []
    for node in body:
        top, bottom = _first_line(node), _last_line(node)
        if top > last or bottom < first:
            continue
        if first <= top and bottom <= last:
            found.append(node)
        else:
            found.extend(_inside(list(_children(node)), first, last))
    return found


def _children(node: ast.AST) -> Iterator[ast.AST]:
    for name in _BODIES:
        yield from getattr(node, name, ())


def _first_line(node: ast.AST) -> int:
    """The 1-based line a statement starts on: its first decorator's, a clause's."""
    if isinstance(node, ast.match_case):
        return node.pattern.lineno
    line: int = getattr(node, "lineno", 0)
    for decorator in getattr(node, "decorator_list", ()):
        line = min(line, decorator.lineno)
    return line


def _last_line(node: ast.AST) -> int:
    if isinstance(node, ast.match_case):
        return max(_last_line(child) for child in node.body)
    end: int | None = getattr(node, "end_lineno", None)
    return end if end is not None else getattr(node, "lineno", 0)


def _tile(lines: Sequence[str], nodes: Sequence[ast.AST], start: Pos, end: Pos) -> list[Block]:
    """Blocks for ``nodes`` that tile ``start..end``. A cut falls on the line after a
    statement and the comments indented into it (``# inside the if``), so the other
    comments and the clause line (``else:``) above the next one go with that one;
    statements that share a line (``a = 1; b = 2``) are one block."""
    blocks: list[Block] = []
    begin = start
    group: list[ast.AST] = []
    for index, node in enumerate(nodes):
        group.append(node)
        following = nodes[index + 1] if index + 1 < len(nodes) else None
        last = _last_line(node)
        if following is not None and _first_line(following) <= last:
            continue
        stop = end if following is None else Pos(_indented_comments_end(lines, node, last), 0)
        # A group of several statements on one line is never cut: no node to refine.
        handle = group[0] if len(group) == 1 else None
        blocks.append(Block(begin, stop, _name(group[0]), _first_line(group[0]), last, handle))
        begin, group = stop, []
    return blocks


def _indented_comments_end(lines: Sequence[str], node: ast.AST, last: int) -> int:
    """The 0-based line after ``node`` (ending on 1-based line ``last``) and the comment
    lines right below it that are indented deeper than it: they belong to its body, so
    whether a statement follows them does not move them to another block."""
    column = getattr(node, "col_offset", 0)
    after = last
    while after < len(lines):
        line = lines[after]
        text = line.lstrip(" \t")
        if not text.startswith("#") or len(line) - len(text) <= column:
            break
        after += 1
    return after


def _is_prose(lines: Sequence[str], node: ast.AST) -> bool:
    """A docstring, or a triple-quoted string assigned to a name (``__about__``);
    not a table of implicitly concatenated literals, which is data."""
    if not isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign)):
        return False
    value = node.value
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        return False
    opening = lines[value.lineno - 1][value.col_offset :].lstrip("rRuUbBfF")
    return opening.startswith(('"""', "'''"))


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return "string" if isinstance(node.value.value, str) else "expression"
    if isinstance(node, (ast.ExceptHandler, ast.match_case)):
        return "clause"
    return _NAMES.get(type(node), f"{type(node).__name__.lower()} statement")


def _refine(lines: Sequence[str], block: Block) -> list[Block]:
    """The comments above and below a statement as blocks of their own, and the
    statement as its clauses and body statements (not at all, if simple)."""
    node = block.node
    if isinstance(node, _Lines):
        return _split_lines(lines, block, node)
    if not isinstance(node, ast.AST):
        return []
    first, last = _first_line(node), _last_line(node)
    blocks: list[Block] = []
    begin, stop = block.start, block.end
    above = [n for n in range(block.start.line + 1, first) if lines[n - 1].strip()]
    # Only comments come off: a signature or clause line above stays with its statement.
    if above and all(lines[n - 1].lstrip().startswith("#") for n in above):
        begin = Pos(first - 1, 0)
        blocks.append(_comments(block.start, begin, above[0], above[-1]))
    # The last 1-based line of the block: a block ending at a line's start ends above it.
    bottom = block.end.line + (1 if block.end.column else 0)
    below = [n for n in range(last + 1, bottom + 1) if lines[n - 1].strip()]
    if below:
        stop = Pos(last, 0)
    children = list(_children(node))
    if children:
        # The statement's own lines above its body (a signature, a `for` over a
        # long literal) are a block of their own, named by the statement.
        body = _first_line(children[0])
        if body > first:
            head = Pos(body - 1, 0)
            blocks.append(Block(begin, head, _name(node), first, body - 1))
            begin = head
        blocks.extend(_tile(lines, children, begin, stop))
    elif last > first and _is_prose(lines, node):
        # A docstring is prose: cut between its paragraphs, then its lines.
        blocks.append(Block(begin, stop, "string", first, last, _Lines(first, last)))
    elif blocks or below:
        blocks.append(Block(begin, stop, _name(node), first, last))
    if below:
        blocks.append(_comments(stop, block.end, below[0], below[-1]))
    return blocks


def _comments(start: Pos, end: Pos, first: int, last: int) -> Block:
    return Block(start, end, "comment", first, last, _Lines(first, last))


def _split_lines(lines: Sequence[str], block: Block, node: _Lines) -> list[Block]:
    first, last = node.first, node.last
    if last <= first:
        return []
    starts = list(range(first + 1, last + 1))
    if node.paragraphs:
        # A paragraph starts below a blank line or a lone "#".
        paragraph = [n for n in starts if lines[n - 2].strip(" \t#") == "" and lines[n - 1].strip()]
        starts = paragraph or starts
    bounds = [first, *starts, last + 1]
    blocks = []
    for index in range(len(bounds) - 1):
        top, bottom = bounds[index], bounds[index + 1] - 1
        begin = block.start if index == 0 else Pos(top - 1, 0)
        stop = block.end if bottom == last else Pos(bottom, 0)
        blocks.append(Block(begin, stop, block.what, top, bottom, _Lines(top, bottom, False)))
    return blocks
