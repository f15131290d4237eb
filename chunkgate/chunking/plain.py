"""Text windows: whole paragraphs packed up to ``size.max``, with optional overlap (SPEC §1).

Sizes come from per-line weights summed into prefix sums, so the size of any
line range costs O(1). In characters and with the default token estimate the
size is exact; with another tokenizer a window's size is the sum of its lines'
token counts plus one per line break, which is close but may differ from the
count of the joined text by a few tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking.base import ChunkContext, Chunked, is_blank
from chunkgate.chunking.sizes import estimate_tokens
from chunkgate.core.model import Chunk

if TYPE_CHECKING:
    from chunkgate.chunking.languages import Language

# A half-open range of 0-based line indexes.
_Span = tuple[int, int]


def chunk(ctx: ChunkContext, language: Language) -> Chunked:
    return Chunked(chunk_plain(ctx, language=language.name))


def chunk_plain(ctx: ChunkContext, *, language: str = "text") -> list[Chunk]:
    size = line_sizer(ctx)
    # A Python file that does not parse is windows with the module's breadcrumb.
    limit = max(ctx.limit_of(language), ctx.options.overlap + 1)
    pieces = _pieces(ctx.lines, size, limit)
    windows = _windows(ctx.lines, pieces, size, limit, ctx.options.overlap)
    return [
        ctx.make(f"~{number}", "text", language, start + 1, end)
        for number, (start, end) in enumerate(windows, 1)
    ]


def line_sizer(ctx: ChunkContext) -> Callable[[int, int], int]:
    """``size(start, end)``: the size of lines ``start..end-1`` joined by newlines."""
    weight: Callable[[str], int]
    if ctx.options.unit == "chars":
        weight = len
    elif ctx.counter is estimate_tokens:
        weight = _utf8_length
    else:
        weight = ctx.counter
    # Every line weighs one more for its line break; a range has one break
    # fewer than lines.
    prefix = [0]
    total = 0
    for line in ctx.lines:
        total += weight(line) + 1
        prefix.append(total)
    if weight is _utf8_length:
        return lambda start, end: (prefix[end] - prefix[start] - 1 + 3) // 4
    return lambda start, end: prefix[end] - prefix[start] - 1


def _utf8_length(line: str) -> int:
    return len(line) if line.isascii() else len(line.encode("utf-8"))


def _pieces(lines: Sequence[str], size: Callable[[int, int], int], limit: int) -> list[_Span]:
    """Paragraphs that fit in a window, and the single lines of those that do not."""
    pieces: list[_Span] = []
    index, count = 0, len(lines)
    while index < count:
        if is_blank(lines[index]):
            index += 1
            continue
        start = index
        while index < count and not is_blank(lines[index]):
            index += 1
        if size(start, index) <= limit:
            pieces.append((start, index))
        else:
            pieces.extend((line, line + 1) for line in range(start, index))
    return pieces


def _windows(
    lines: Sequence[str],
    pieces: list[_Span],
    size: Callable[[int, int], int],
    limit: int,
    overlap: int,
) -> list[_Span]:
    windows: list[_Span] = []
    index = 0
    while index < len(pieces):
        first, end = pieces[index]
        start = first
        if windows and overlap:
            start = _next_text_line(lines, _overlap_start(windows[-1], size, overlap), first)
            # The new piece must fit beside the overlap: drop overlap lines
            # from the front until it does (all of them for an over-long piece).
            while start < first and size(start, end) > limit:
                start = _next_text_line(lines, start + 1, first)
        index += 1
        while index < len(pieces) and size(start, pieces[index][1]) <= limit:
            end = pieces[index][1]
            index += 1
        windows.append((start, end))
    return windows


def _overlap_start(previous: _Span, size: Callable[[int, int], int], overlap: int) -> int:
    """The first of the previous window's trailing lines that together fit in ``overlap``.

    Returns the previous window's end when not even its last line fits.
    """
    first, end = previous
    start = end
    while start > first and size(start - 1, end) <= overlap:
        start -= 1
    return start


def _next_text_line(lines: Sequence[str], index: int, stop: int) -> int:
    while index < stop and is_blank(lines[index]):
        index += 1
    return index
