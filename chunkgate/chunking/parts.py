"""A unit over ``size.max`` as parts, cut where a good ingest cuts it (issue 15).

A language chunker hands over the unit as blocks that tile it: each block
starts where the one before it ends, the first at the unit's first line, the
last ending at its end, so that no text between two blocks (blank lines, an
HTML block cmark does not report) falls outside every part. A block over the
limit is replaced by its own finer blocks (a list by its items, a paragraph by
its lines or sentences, a function by its statements), until everything fits
or nothing finer is left. The blocks are then packed greedily: each part takes
blocks for as long as it stays within the limit. A block that cannot be split
and is still over the limit is a part on its own, and its ``unsplittable``
names it for CG201.

A part of nothing but template syntax (a ``{{% /tab %}}`` and a ``{{% tab gRPC %}}``
left between two code blocks that fill parts of their own) is no text to embed:
it joins a neighbouring part, the one before where that one is over the limit
already or still fits it, else the one after where that one does, else the one
before.

The first part keeps the unit's ID, so that the anchor still opens the
section; the others add ``~2``, ``~3``, ... (a suffix no slug and no Python
name produces).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from chunkgate.chunking.base import ChunkContext
from chunkgate.chunking.sizes import estimate_tokens
from chunkgate.core.model import Chunk

PART_SUFFIX = "~"


class Pos(NamedTuple):
    """A place in the file: 0-based line index and 0-based column (code points)."""

    line: int
    column: int


class Block(NamedTuple):
    """A piece of a unit that a part may begin or end with.

    ``start``/``end`` (exclusive) tile the unit; ``first``/``last`` are the
    1-based lines of the block itself, and ``what`` its name ("fenced code
    block", "table row", "sentence", "statement"), both for CG201's message.
    ``node`` is the language's handle for finding the block's own blocks.
    """

    start: Pos
    end: Pos
    what: str
    first: int
    last: int
    node: object = None


# The finer blocks that tile a block, or none when it cannot be split.
Refine = Callable[[Block], Sequence[Block]]
# Whether the lines of a trimmed span are template syntax and nothing else.
OnlySyntax = Callable[[Pos, Pos], bool]


class Piece(NamedTuple):
    start: Pos
    end: Pos
    oversized: Block | None  # the one block it holds, when that is over the limit


class Measure:
    """Sizes of spans of lines ``low..high`` in ``size.unit``, without building their
    text where the unit allows: prefix sums of the lines give characters and
    estimated tokens, and spans of whole lines are trimmed by table lookups."""

    def __init__(self, ctx: ChunkContext, low: int, high: int) -> None:
        self.lines = lines = ctx.lines
        self.ctx = ctx
        self.low = low
        tokens = ctx.options.unit == "tokens"
        self._bytes = tokens and ctx.counter is estimate_tokens
        self._count = tokens and not self._bytes
        self._weight: Callable[[str], int] = _utf8 if self._bytes else len
        weight = self._weight
        prefix = [0]
        total = 0
        content = []
        for index in range(low, high + 1):
            line = lines[index]
            total += weight(line) + 1
            prefix.append(total)
            content.append(bool(line.strip()))
        self._prefix = prefix
        # The first line with content at or below each line, the last at or above it.
        count = len(content)
        following = [count] * (count + 1)
        for index in range(count - 1, -1, -1):
            following[index] = index if content[index] else following[index + 1]
        preceding = [-1] * count
        last = -1
        for index in range(count):
            if content[index]:
                last = index
            preceding[index] = last
        self._following = following
        self._preceding = preceding

    def trim(self, start: Pos, end: Pos) -> tuple[Pos, Pos] | None:
        """The span without leading and trailing blank lines and spaces, or None.

        A span that starts or ends at a line boundary keeps the whole line (its
        indentation, its trailing spaces); only a cut inside a line drops the
        spaces at the cut.
        """
        lines = self.lines
        if end <= start:
            return None
        if start.column == 0 and end.column in (0, len(lines[end.line])):
            low = self.low
            bottom = end.line - 1 if end.column == 0 and end.line > start.line else end.line
            first = self._following[start.line - low] + low
            last = self._preceding[bottom - low] + low
            if first > last:
                return None
            return Pos(first, 0), Pos(last, len(lines[last]))
        return self._trim(start, end)

    def _trim(self, start: Pos, end: Pos) -> tuple[Pos, Pos] | None:
        lines = self.lines
        line, column = start
        while (line, column) < end:
            text = lines[line]
            stop = end.column if line == end.line else len(text)
            rest = text[column:stop]
            content = rest.lstrip()
            if content:
                if column and text[:column].strip():
                    column += len(rest) - len(content)
                else:
                    column = 0
                break
            line, column = line + 1, 0
        else:
            return None
        first = Pos(line, column)
        line, column = end
        while True:
            text = lines[line]
            begin = first.column if line == first.line else 0
            content = text[begin:column].rstrip()
            if content:
                # A cut inside the line drops the spaces before it; at the line's
                # end, the whole line is kept.
                column = begin + len(content) if text[column:].strip() else len(text)
                return first, Pos(line, column)
            line -= 1
            column = len(lines[line])

    def size(self, start: Pos, end: Pos) -> int:
        line, column = start
        end_line, end_column = end
        if end <= start:
            return 0
        if not self._count and column == 0 and end_column in (0, len(self.lines[end_line])):
            # Whole lines (most spans): two lookups and a difference.
            low = self.low
            bottom = end_line - 1 if end_column == 0 and end_line > line else end_line
            top = self._following[line - low]  # relative to low, as the prefix sums are
            last_line = self._preceding[bottom - low]
            if top > last_line:
                return 0
            total = self._prefix[last_line + 1] - self._prefix[top] - 1
            return (total + 3) // 4 if self._bytes else total
        span = self.trim(start, end)
        if span is None:
            return 0
        first, last = span
        if self._count:
            return self.ctx.counter(self.text(first, last))
        prefix, low, lines = self._prefix, self.low, self.lines
        if first.column == 0 and last.column == len(lines[last.line]):
            total = prefix[last.line + 1 - low] - prefix[first.line - low] - 1
        else:
            weight = self._weight
            total = (
                prefix[last.line - low]
                + weight(lines[last.line][: last.column])
                - prefix[first.line - low]
                - weight(lines[first.line][: first.column])
            )
        return (total + 3) // 4 if self._bytes else total

    def text(self, first: Pos, last: Pos) -> str:
        if first.line == last.line:
            return self.lines[first.line][first.column : last.column]
        head = self.lines[first.line][first.column :]
        middle = self.lines[first.line + 1 : last.line]
        return "\n".join((head, *middle, self.lines[last.line][: last.column]))


def _utf8(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def pack(
    blocks: Sequence[Block],
    measure: Measure,
    limit: int,
    refine: Refine,
    only_syntax: OnlySyntax | None = None,
) -> list[Piece]:
    """Blocks refined until they fit, then packed greedily into parts (see the module)."""
    atoms: list[tuple[Block, bool]] = []
    # Depth first, in document order, without recursion: a deeply nested
    # list must not exhaust the stack.
    stack = list(reversed(blocks))
    while stack:
        block = stack.pop()
        if measure.size(block.start, block.end) <= limit:
            atoms.append((block, True))
            continue
        finer = refine(block)
        if finer:
            stack.extend(reversed(finer))
        else:
            atoms.append((block, False))
    pieces: list[Piece] = []
    start = end = None
    oversized: Block | None = None
    for block, fits in atoms:
        if start is not None and end is not None:
            if oversized is None and fits and measure.size(start, block.end) <= limit:
                end = block.end
                continue
            pieces.append(Piece(start, end, oversized))
        start, end, oversized = block.start, block.end, None if fits else block
    if start is not None and end is not None:
        pieces.append(Piece(start, end, oversized))
    pieces = [piece for piece in pieces if measure.trim(piece.start, piece.end) is not None]
    return pieces if only_syntax is None else _join_syntax(pieces, measure, limit, only_syntax)


def _join_syntax(
    pieces: list[Piece], measure: Measure, limit: int, only_syntax: OnlySyntax
) -> list[Piece]:
    """The pieces, each one of template syntax alone joined to a neighbour (see the module)."""

    def takes(piece: Piece, start: Pos, end: Pos) -> bool:
        return piece.oversized is not None or measure.size(start, end) <= limit

    out = list(pieces)
    index = 0
    while index < len(out) and len(out) > 1:
        piece = out[index]
        span = measure.trim(piece.start, piece.end)
        if span is None or not only_syntax(*span):
            index += 1
            continue
        before = out[index - 1] if index else None
        after = out[index + 1] if index + 1 < len(out) else None
        if before is not None and (
            after is None
            or takes(before, before.start, piece.end)
            or not takes(after, piece.start, after.end)
        ):
            out[index - 1] = before._replace(end=piece.end)
        elif after is not None:
            out[index + 1] = after._replace(start=piece.start)
        del out[index]
    return out


def own_size(measure: Measure, block: Block) -> int:
    """The size of the block itself, without what its tile holds above or below it
    (the heading of the section it opens, the comments above a statement)."""
    lines = measure.lines
    start = max(block.start, Pos(block.first - 1, 0))
    end = min(block.end, Pos(block.last - 1, len(lines[block.last - 1])))
    return measure.size(start, end)


def describe(block: Block, size: int, unit: str) -> str:
    where = (
        f"line {block.first}" if block.first == block.last else f"lines {block.first}-{block.last}"
    )
    return f"{block.what} ({where}, {size:,} {unit})"


def split_unit(
    ctx: ChunkContext,
    unit: Chunk,
    blocks: Sequence[Block],
    refine: Refine,
    only_syntax: OnlySyntax | None = None,
) -> list[Chunk]:
    """``unit`` as its parts (itself alone when it does not split)."""
    measure = Measure(ctx, unit.start_line - 1, unit.end_line - 1)
    limit = ctx.limit_for(unit)
    pieces = pack(blocks, measure, limit, refine, only_syntax)
    if len(pieces) <= 1:
        block = pieces[0].oversized if pieces else None
        if block is None:
            return [unit]
        size = own_size(measure, block)
        return [unit._replace(unsplittable=describe(block, size, ctx.options.unit))]
    count = len(pieces)
    chunks = []
    for number, piece in enumerate(pieces, 1):
        span = measure.trim(piece.start, piece.end)
        assert span is not None  # pack drops empty pieces
        first, last = span
        start_line, end_line = first.line + 1, last.line + 1
        unsplittable = ""
        if piece.oversized is not None:
            size = own_size(measure, piece.oversized)
            unsplittable = describe(piece.oversized, size, ctx.options.unit)
        chunks.append(
            ctx.make(
                unit.identity if number == 1 else f"{unit.identity}{PART_SUFFIX}{number}",
                unit.kind,
                unit.language,
                start_line,
                end_line,
                body_line=min(unit.body_line, end_line) if number == 1 else start_line,
                symbol=unit.symbol,
                heading_path=unit.heading_path,
                level=unit.level,
                suppressed=unit.suppressed,
                title=unit.title,
                tags=unit.tags,
                part=number,
                parts=count,
                start_column=first.column + 1 if first.column else 0,
                end_column=last.column if last.column < len(ctx.lines[last.line]) else 0,
                unsplittable=unsplittable,
            )
        )
    return chunks
