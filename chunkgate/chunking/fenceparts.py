"""A Markdown code block over ``size.max``, cut as code (issue 41).

A fence is code, and is split as its language is: the info string's first
word names the language (``python``, ``py``, ``ts``, ``rust``, ...). Python
is cut between its top-level statements, then between the statements of
their bodies (a clause line, ``else:`` or ``except KeyError:``, goes with the
statements under it); a tree-sitter language at its shallowest line breaks
(``code.split.Breaks``). Code of no known language, or that does not parse
(a shell session, a snippet with ``...``), is cut between its runs of lines
separated by blank lines, and any code, as a last resort, between lines. The
opening fence line stays with the first part and the closing one with the
last; a part that starts or ends inside the fence has its embed text
re-fenced with the same fence line (``refence``), so a model still reads it
as code of that language while the part's text stays its lines.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.chunking import languages
from chunkgate.chunking.base import ChunkContext
from chunkgate.chunking.parts import Block, Pos
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy

# mdparts._FENCE's prefix (no two adjacent quantifiers take the same blanks), then the
# fence and the info string.
_OPENER = lazy(r"([ \t]*(?:(?:>[ \t]?)*>[ \t]*)?(?:(?:[-*+]|\d{1,9}[.)])[ \t]*)?)(`{3,}|~{3,})(.*)")
_ALIASES = {"py": "python", "py3": "python", "python3": "python", "sh": "shell", "bash": "shell"}
_ALIASES |= {"zsh": "shell", "js": "javascript", "ts": "typescript", "rs": "rust"}
# Cuts by the language are shallower than cuts between runs, which are shallower
# than cuts between any two lines.
_RUN = 10_000
_LINE = 20_000


class Fence(NamedTuple):
    """A code block's rows (0-based): the content ``first..last``, the opening and
    closing fence lines where there are any, and the lines the embed text adds."""

    first: int
    last: int
    opener: str  # "" for indented code
    closer: str  # "" for an unclosed fence too


class _Code(NamedTuple):
    """Rows ``first..last`` of a code block, cut at the rows of ``depths``."""

    first: int
    last: int
    depths: dict[int, int]  # row -> the depth of a cut before it


def fence_of(lines: Sequence[str], top: int, bottom: int) -> Fence:
    """The code block whose element spans rows ``top..bottom``."""
    opened = _OPENER.fullmatch(lines[top])
    if opened is None:
        return Fence(top, bottom, "", "")
    marker = opened[2]
    closing = lines[bottom].strip(" \t>")
    closed = bottom > top and closing.startswith(marker) and not closing.strip(marker[0])
    closer = lines[bottom] if closed else ""
    return Fence(top + 1, bottom - 1 if closed else bottom, lines[top], closer)


def code_blocks(ctx: ChunkContext, block: Block, top: int, bottom: int) -> list[Block]:
    """The blocks of the code block on rows ``top..bottom``, cut at its shallowest cuts."""
    lines = ctx.lines
    fence = fence_of(lines, top, bottom)
    if fence.first > fence.last:
        return []
    depths = _depths(lines, fence)
    return _cut(block, _Code(top, bottom, depths))


def refine_code(block: Block) -> list[Block]:
    node = block.node
    return _cut(block, node) if isinstance(node, _Code) else []


def _cut(block: Block, code: _Code) -> list[Block]:
    rows = [row for row in range(block.first, block.last) if row in code.depths]
    if not rows:
        return []
    shallowest = min(code.depths[row] for row in rows)
    cuts = [row for row in rows if code.depths[row] == shallowest]
    bounds = [block.first - 1, *cuts, block.last]
    out = []
    for index in range(len(bounds) - 1):
        first, last = bounds[index], bounds[index + 1] - 1
        begin = block.start if index == 0 else Pos(first, 0)
        stop = block.end if index == len(bounds) - 2 else Pos(last + 1, 0)
        # Rows with no cut between them hold one line of code (and blank or fence lines).
        atom = not any(row in code.depths for row in range(first + 1, last + 1))
        what = "code line" if atom else "code"
        out.append(Block(begin, stop, what, first + 1, last + 1, code))
    return out


def _depths(lines: Sequence[str], fence: Fence) -> dict[int, int]:
    """The depth of a cut before each content row but the first (see the module)."""
    depths: dict[int, int] = {}
    first, last = fence.first, fence.last
    for row in range(first + 1, last + 1):
        if lines[row].strip(" \t>"):
            depths[row] = _RUN if not lines[row - 1].strip(" \t>") else _LINE
    language = _language(fence.opener)
    prefix = _prefix(lines, fence)
    if language is None or prefix is None:
        return depths
    content = [line[prefix:] for line in lines[first : last + 1]]
    found = _python(content) if language == "python" else _tree_sitter(language, content)
    for row, depth in found.items():
        if 0 < row <= last - first:
            depths[first + row] = min(depth, depths.get(first + row, _LINE))
    return depths


def _language(opener: str) -> str | None:
    opened = _OPENER.fullmatch(opener)
    words = opened[3].strip(" \t{.").split() if opened else []
    if not words:
        return None
    word = words[0].lower().strip("{}.,")
    name = _ALIASES.get(word, word)
    if name in languages.LANGUAGES:
        found = languages.LANGUAGES[name]
    else:
        found = languages.language_for(f"fence.{name}")
    return found.name if found.code else None


def _prefix(lines: Sequence[str], fence: Fence) -> int | None:
    """How many columns of the content rows are the block's indentation (None inside a
    block quote, whose markers the code cannot be parsed with)."""
    rows = [lines[row] for row in range(fence.first, fence.last + 1) if lines[row].strip()]
    if any(line.lstrip(" ").startswith(">") for line in rows) or "\t" in "".join(rows):
        return None
    return min((len(line) - len(line.lstrip(" ")) for line in rows), default=0)


def _python(content: Sequence[str]) -> dict[int, int]:
    """Cuts between the statements of Python code: row (0-based in ``content``) -> depth."""
    try:
        tree = ast.parse("\n".join(content))
    except (SyntaxError, ValueError):
        return {}
    found: dict[int, int] = {}
    stack: list[tuple[Sequence[ast.AST], int]] = [(tree.body, 0)]
    while stack:
        body, depth = stack.pop()
        for index, node in enumerate(body):
            row = getattr(body[index - 1], "end_lineno", 0) if index else 0
            # After the statement before (comments and a clause line go with this one),
            # unless the two share a line.
            if row and _first_row(node) >= row:
                found[row] = min(depth, found.get(row, depth))
            inner = [
                child for name in ("body", "handlers", "orelse", "finalbody", "cases")
                for child in getattr(node, name, ())
            ]  # fmt: skip
            if inner:
                stack.append((inner, depth + 1))
    return found


def _first_row(node: ast.AST) -> int:
    """The 0-based row a statement, a handler or a case starts on."""
    if isinstance(node, ast.match_case):
        return node.pattern.lineno - 1
    line: int = getattr(node, "lineno", 1)
    for decorator in getattr(node, "decorator_list", ()):
        line = min(line, decorator.lineno)
    return line - 1


def _tree_sitter(language: str, content: Sequence[str]) -> dict[int, int]:
    from chunkgate.chunking.code.grammars import parser  # native grammars: only when used
    from chunkgate.chunking.code.split import Breaks  # with tree-sitter, as above

    found = parser(language)
    if found is None:
        return {}
    root = found.parse("\n".join(content).encode("utf-8")).root_node
    if root.has_error:
        return {}
    rows = Breaks(root, content).depth
    return {row: depth for row, depth in enumerate(rows) if depth is not None}


def refence(chunks: list[Chunk], fences: Sequence[Fence]) -> list[Chunk]:
    """The parts, each that starts or ends inside a fence with the fence line added to
    its embed text there."""
    if len(chunks) < 2:
        return chunks
    out = []
    for chunk in chunks:
        start, end = chunk.start_line - 1, chunk.end_line - 1
        before = after = ""
        for fence in fences:
            if fence.opener and fence.first <= start <= fence.last:
                before = fence.opener
            if fence.closer and fence.first - 1 <= end <= fence.last:
                after = fence.closer
        out.append(chunk._replace(embed_before=before, embed_after=after))
    return out
