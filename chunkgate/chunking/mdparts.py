"""The blocks of a Markdown section over ``size.max``, for ``parts.split_unit``.

The section's lines (an admonition's body moved left where the site has them,
``blocks``) are rendered by cmark on their own (a section starts at
a top-level heading, where every block is closed, so its lines parse as they
do in the whole file) and its block tree is read back from the
``data-sourcepos`` of every block element. The cuts, coarsest first:

- between the section's top-level blocks (a heading always stays with the
  block after it, so the first part holds the heading and some body);
- between the items of a list and the blocks of an item or a block quote;
- between the rows of a table (the header and delimiter rows stay with the
  first row);
- in a paragraph, between lines that end a sentence, then between any lines,
  then, in a line too long on its own, between sentences (those parts carry
  columns).

- in a run of HTML blocks, between the blocks; in one HTML block that is an
  element with its children on their own lines (MDX's ``<CardGrid>`` of
  ``<LinkCard>``s, a ``<table>`` of rows), between those children (its opening
  line goes with the first, its closing line with the last).

- in fenced and indented code, as code (``fenceparts``): by the info string's
  language, else between runs of lines, else between lines.

An HTML element with nothing on lines of its own inside, and thematic breaks
are never cut.
Plain CommonMark has no tables: a table is a paragraph whose second line is a
delimiter row, as GitHub's table extension reads it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from chunkgate.chunking import cmark, fenceparts
from chunkgate.chunking.base import ChunkContext
from chunkgate.chunking.parts import Block, OnlySyntax, Pos, split_unit
from chunkgate.chunking.spans import code_spans
from chunkgate.chunking.syntax import dialect_of, may_be_syntax, syntax_lines
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy

_ELEMENT = lazy(
    rb'<(p|h[1-6]|pre|hr|blockquote|ul|ol|li)\b[^>]*? data-sourcepos="(\d+):(\d+)-(\d+):(\d+)"'
)
_CONTAINERS = frozenset(("blockquote", "ul", "ol", "li"))
_HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
_NAMES = {
    "p": "paragraph",
    "pre": "code block",
    "hr": "thematic break",
    "blockquote": "block quote",
    "ul": "list",
    "ol": "list",
    "li": "list item",
}
# ``[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+]|\d{1,9}[.)])?[ \t]*(?:```|~~~)``, written so that no
# two adjacent quantifiers take the same blanks (that was cubic on a line of blanks).
_FENCE = lazy(r"[ \t]*(?:(?:>[ \t]?)*>[ \t]*)?(?:(?:[-*+]|\d{1,9}[.)])[ \t]*)?(?:```|~~~)")
# GitHub's table extension: a delimiter row of cells like ---, :--, --: or :-:.
# Each run of blanks has one place it can go (a pipe comes with the blanks after
# it), so a long row that is no delimiter row fails in one pass.
_DELIMITER_ROW = lazy(r"[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?")
_LINK_DEFINITION = lazy(r" {0,3}\[[^\]]+\]:")
# Elements whose content is kept as written (CommonMark's HTML blocks 1 and 2): no
# cut inside them.
_RAW_OPENING = lazy(r"<(?:(?i:pre|script|style|textarea)(?=[\s>]|$)|(!--))")
_RAW_CLOSING = {
    "element": re.compile(r"(?i)</(?:pre|script|style|textarea)>"),
    "comment": re.compile(r"-->"),
}
_ELEMENT_START = lazy(r"[ \t]*<[A-Za-z!]")  # an element or a comment, not a closing tag
# An HTML or JSX opening tag alone on its line (not self-closing): the element may
# hold children on lines of their own.
_OPENING_LINE = lazy(r"[ \t]*<([A-Za-z][\w.:-]*)(?:\s[^<>]*)?(?<!/)>[ \t]*")
# A sentence ends at . ! ? or an ellipsis, with closing quotes, brackets or
# emphasis after it, before a space and something that is not a lower-case
# letter ("e.g. this" goes on); CJK full stops need no space.
_SENTENCE_END = lazy(r"[.!?…][\"')\]*_’”»]*[ \t]+(?![a-z])(?=\S)|[。！？]+(?=\S)")
_LINE_END = lazy(r"[.!?…:。！？][\"')\]*_’”»]*[ \t]*\Z")


class _Node(NamedTuple):
    tag: str
    first: int  # 0-based first and last line in the file
    last: int
    children: tuple[_Node, ...]


class _Paragraph(NamedTuple):
    """Lines ``first..last`` (0-based) of a paragraph, or a cut-out of its one line."""

    first: int
    last: int
    lines_ended: bool  # already cut between lines that end sentences


def markdown_parts(ctx: ChunkContext, unit: Chunk, parsed: Sequence[str]) -> list[Chunk]:
    """``parsed``: the file's lines as cmark reads them (admonition bodies moved left)."""
    first, last = unit.start_line - 1, unit.end_line - 1
    nodes = _tree(parsed, first, last)
    top = _top_blocks(ctx, nodes, first, last)
    chunks = split_unit(ctx, unit, top, partial(_refine, ctx), _only_syntax(ctx, first, last))
    return fenceparts.refence(chunks, _fences(ctx.lines, nodes))


def _fences(lines: Sequence[str], nodes: Sequence[_Node]) -> list[fenceparts.Fence]:
    found = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.tag == "pre":
            found.append(fenceparts.fence_of(lines, node.first, node.last))
    return found


def _only_syntax(ctx: ChunkContext, first: int, last: int) -> OnlySyntax:
    """Whether a span of whole lines of the unit ``first..last`` holds template syntax
    lines and blank lines alone; the unit's syntax lines are found on the first ask."""
    lines = ctx.lines
    dialect = dialect_of(ctx.path, ctx.options)
    flags: list[bool] = []

    def only(start: Pos, end: Pos) -> bool:
        if start.column or end.column != len(lines[end.line]):
            return False
        rows = range(start.line, end.line + 1)
        if not all(may_be_syntax(lines[row], dialect) or not lines[row].strip() for row in rows):
            return False
        if not flags:
            flags.extend(syntax_lines(lines[first : last + 1], dialect))
        return all(flags[row - first] or not lines[row].strip() for row in rows)

    return only


def _tree(lines: Sequence[str], first: int, last: int) -> list[_Node]:
    """The block tree of lines ``first..last``, with 0-based file line numbers."""
    html = cmark.render("\n".join(lines[first : last + 1]))
    # Children follow their parent in the output; a stack of open containers
    # and where they end (cmark's positions) rebuilds the tree.
    roots: list[_Node] = []
    open_: list[tuple[tuple[int, int], str, int, int, list[_Node]]] = []
    for tag, line, column, end_line, end_column in _ELEMENT.findall(html):
        start = (int(line), int(column))
        while open_ and start > open_[-1][0]:
            _close(open_, roots)
        # A block ending at column 0 ends with the line before (a list's blank line).
        stop = int(end_line) - (1 if int(end_column) == 0 else 0)
        name = tag.decode()
        top, bottom = int(line) - 1 + first, max(int(line), stop) - 1 + first
        if name in _CONTAINERS:
            open_.append(((int(end_line), int(end_column)), name, top, bottom, []))
        else:
            node = _Node(name, top, bottom, ())
            (open_[-1][4] if open_ else roots).append(node)
    while open_:
        _close(open_, roots)
    return roots


def _close(
    open_: list[tuple[tuple[int, int], str, int, int, list[_Node]]], roots: list[_Node]
) -> None:
    _, name, top, bottom, children = open_.pop()
    node = _Node(name, top, bottom, tuple(children))
    (open_[-1][4] if open_ else roots).append(node)


def _top_blocks(ctx: ChunkContext, nodes: list[_Node], first: int, last: int) -> list[Block]:
    """The section's top-level blocks, tiling its lines; HTML blocks and link
    definitions (which cmark renders without positions) are blocks of their own."""
    lines = ctx.lines
    items: list[_Node] = []
    below = first
    for node in nodes:
        gap = [n for n in range(below, node.first) if lines[n].strip()]
        if gap and items:  # above the first block, it opens the first part
            items.append(_gap(lines, gap[0], gap[-1]))
        items.append(node)
        below = node.last + 1
    tail = [n for n in range(below, last + 1) if lines[n].strip()]
    if tail:
        items.append(_gap(lines, tail[0], tail[-1]))
    # A heading stays with the block after it: no cut directly below a heading,
    # nor above headings that end the section with no body of their own.
    bare_tail = len(items)
    while bare_tail > 0 and items[bare_tail - 1].tag in _HEADINGS:
        bare_tail -= 1
    cuts = [
        index
        for index in range(1, bare_tail)
        if items[index - 1].tag not in _HEADINGS and items[index].first > items[index - 1].last
    ]
    return _tile(ctx, items, cuts, Pos(first, 0), Pos(last, len(lines[last])))


def _gap(lines: Sequence[str], top: int, bottom: int) -> _Node:
    tag = "links" if _LINK_DEFINITION.match(lines[top]) else "html"
    return _Node(tag, top, bottom, ())


def _tile(
    ctx: ChunkContext, items: Sequence[_Node], cuts: Sequence[int], start: Pos, end: Pos
) -> list[Block]:
    """Blocks for ``items``, cut only before the item indexes in ``cuts``."""
    blocks: list[Block] = []
    bounds = [0, *cuts, len(items)]
    for index in range(len(bounds) - 1):
        group = items[bounds[index] : bounds[index + 1]]
        begin = start if index == 0 else Pos(group[0].first, 0)
        stop = end if index == len(bounds) - 2 else Pos(items[bounds[index + 1]].first, 0)
        # A group is a heading and its block: it is named, and split, as that block.
        main = next((item for item in group if item.tag not in _HEADINGS), group[-1])
        blocks.append(Block(begin, stop, _name(ctx, main), main.first + 1, main.last + 1, main))
    return blocks


def _name(ctx: ChunkContext, node: _Node) -> str:
    if node.tag == "pre":
        fenced = _FENCE.match(ctx.lines[node.first])
        return "fenced code block" if fenced else "indented code block"
    if node.tag == "p" and _is_table(ctx.lines, node.first, node.last):
        return "table"
    if node.tag == "html":
        return "HTML block"
    if node.tag == "links":
        return "link reference definitions"
    if node.tag in _HEADINGS:
        return "heading"
    return _NAMES[node.tag]


def _is_table(lines: Sequence[str], first: int, last: int) -> bool:
    return last > first and "|" in lines[first] and bool(_DELIMITER_ROW.fullmatch(lines[first + 1]))


def _refine(ctx: ChunkContext, block: Block) -> list[Block]:
    node = block.node
    if isinstance(node, _Paragraph):
        return _split_paragraph(ctx, block, node)
    if not isinstance(node, _Node):
        return fenceparts.refine_code(block)  # lines of code, a table row or a sentence
    if node.children:
        children = list(node.children)
        cuts = [i for i in range(1, len(children)) if children[i].first > children[i - 1].last]
        return _tile(ctx, children, cuts, block.start, block.end)
    if node.tag == "p" and _is_table(ctx.lines, node.first, node.last):
        return _table_rows(block, node, node.first + 2, "table row")
    if node.tag == "links":
        return _table_rows(block, node, node.first + 1, "link reference definition")
    if node.tag in ("p", "li"):
        # A tight list item has its text directly, without a paragraph.
        return _split_paragraph(ctx, block, _Paragraph(node.first, node.last, False))
    if node.tag == "html":
        return _html_pieces(ctx, block, node)
    if node.tag == "pre":
        return fenceparts.code_blocks(ctx, block, node.first, node.last)
    return []  # a thematic break, a heading: never cut


def _html_pieces(ctx: ChunkContext, block: Block, node: _Node) -> list[Block]:
    """A run of HTML blocks cut between them (at blank lines), else one block cut before
    the lines that open its top-level elements (the children of an element whose
    opening and closing tags are alone on the first and last lines); never inside a
    ``<pre>``, ``<script>``, ``<style>``, ``<textarea>`` or comment."""
    lines = ctx.lines
    top, bottom = node.first, node.last
    raw = _inside_raw(lines, top, bottom)
    cuts = [
        n
        for n in range(top + 1, bottom + 1)
        if lines[n].strip() and not lines[n - 1].strip() and n not in raw
    ]
    what = "HTML block"
    if not cuts:
        cuts = [n for n in _element_starts(lines, top, bottom) if n not in raw]
        what = "HTML element"
    if not cuts:
        return []
    bounds = [top, *cuts, bottom + 1]
    blocks = []
    for index in range(len(bounds) - 1):
        first, last = bounds[index], bounds[index + 1] - 1
        while not lines[last].strip():
            last -= 1
        begin = block.start if index == 0 else Pos(first, 0)
        stop = block.end if index == len(bounds) - 2 else Pos(bounds[index + 1], 0)
        blocks.append(Block(begin, stop, what, first + 1, last + 1, _Node("html", first, last, ())))
    return blocks


def _inside_raw(lines: Sequence[str], top: int, bottom: int) -> set[int]:
    """The lines of ``top..bottom`` that begin inside a ``<pre>``, ``<script>``,
    ``<style>``, ``<textarea>`` or comment opened on a line above them."""
    inside = set()
    ending: re.Pattern[str] | None = None  # what closes the element the scan is in
    for n in range(top, bottom + 1):
        line, position = lines[n], 0
        if ending is not None:
            inside.add(n)
            closed = ending.search(line)
            if closed is None:
                continue
            position, ending = closed.end(), None
        while (opened := _RAW_OPENING.search(line, position)) is not None:
            ending = _RAW_CLOSING["element" if opened[1] is None else "comment"]
            closed = ending.search(line, opened.end())
            if closed is None:
                break
            position, ending = closed.end(), None
    return inside


def _element_starts(lines: Sequence[str], top: int, bottom: int) -> list[int]:
    """The lines after the first that open a top-level element of the block on lines
    ``top..bottom``: element-opening lines at the least indentation such lines have,
    inside the element when its opening and closing tags are alone on the outer lines
    (the first child then stays with the opening line)."""
    low, high = top, bottom
    opening = _OPENING_LINE.fullmatch(lines[top])
    if opening is not None and lines[bottom].strip() == f"</{opening[1]}>":
        low, high = top + 1, bottom - 1
    opens = [n for n in range(low, high + 1) if _ELEMENT_START.match(lines[n])]
    if not opens:
        return []
    depth = min(_indent(lines[n]) for n in opens)
    return [n for n in opens if _indent(lines[n]) == depth and n > low]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _table_rows(block: Block, node: _Node, second: int, what: str) -> list[Block]:
    """One block a line from line ``second`` on; the lines above it (a table's header
    and delimiter rows) go with the first."""
    rows = range(second, node.last + 1)
    blocks = []
    for row in rows:
        begin = block.start if row == rows.start else Pos(row, 0)
        stop = block.end if row == node.last else Pos(row + 1, 0)
        first = node.first if row == rows.start else row
        blocks.append(Block(begin, stop, what, first + 1, row + 1))
    return blocks


def _split_paragraph(ctx: ChunkContext, block: Block, paragraph: _Paragraph) -> list[Block]:
    """Lines ending sentences, then every line, then sentences within the one line."""
    lines = ctx.lines
    first, last = paragraph.first, paragraph.last
    if first < last:
        cuts = [
            n
            for n in range(first + 1, last + 1)
            if not paragraph.lines_ended and _LINE_END.search(lines[n - 1])
        ]
        ended = bool(cuts)
        if not cuts:
            cuts = list(range(first + 1, last + 1))
        bounds = [first, *cuts, last + 1]
        blocks = []
        for index in range(len(bounds) - 1):
            top, bottom = bounds[index], bounds[index + 1] - 1
            begin = block.start if index == 0 else Pos(top, 0)
            stop = block.end if bottom == last else Pos(bottom + 1, 0)
            # A line that cannot be cut holds no sentence break: one sentence.
            what = "paragraph" if top < bottom else "sentence"
            blocks.append(
                Block(begin, stop, what, top + 1, bottom + 1, _Paragraph(top, bottom, ended))
            )
        return blocks
    return _sentences(ctx, block, first)


def _sentences(ctx: ChunkContext, block: Block, line: int) -> list[Block]:
    text = ctx.lines[line]
    low = block.start.column if block.start.line == line else 0
    high = block.end.column if block.end.line == line else len(text)
    code = [(start, end) for start, _, end in code_spans(text, closer_inside=False)]
    cuts = [
        found.end()
        for found in _SENTENCE_END.finditer(text, low, high)
        if not any(a < found.start() < b for a, b in code)
    ]
    if not cuts:
        # No sentence break: the line is one sentence (named so for CG201).
        return [] if block.what == "sentence" else [block._replace(what="sentence", node=None)]
    starts = [block.start, *(Pos(line, column) for column in cuts)]
    ends = [*starts[1:], block.end]
    return [Block(a, b, "sentence", line + 1, line + 1) for a, b in zip(starts, ends, strict=True)]
