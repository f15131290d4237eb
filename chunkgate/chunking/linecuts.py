"""Oversized chunks cut into parts at the best line breaks (code and reStructuredText).

The caller rates each line break: ``depths[row]`` is the depth of the break
before ``row`` (smaller is better), None where it must not be cut. A part
ends at the shallowest open break that keeps it within ``size.max``,
preferring the latest of equally shallow ones in the part's second half.
Parts take whole lines and cover the span: the first keeps the chunk's ID,
the others add ``~2``, ``~3`` (SPEC §2), which no name or anchor contains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunkgate.chunking import plain
from chunkgate.chunking.base import ChunkContext


def row_sizer(ctx: ChunkContext) -> Callable[[int, int], int]:
    """``size(first, last)`` of rows ``first..last`` inclusive, as text windows count."""
    size = plain.line_sizer(ctx)
    return lambda first, last: size(first, last + 1)


def parts(
    first: int, last: int, depths: Sequence[int | None], size: Callable[[int, int], int], limit: int
) -> list[tuple[int, int]]:
    """Row spans ``(first, last)`` inclusive that cover ``first..last`` within ``limit``."""
    spans: list[tuple[int, int]] = []
    start = first
    while start < last and size(start, last) > limit:
        cut = _cut(start, last, depths, size, limit)
        if cut is None:
            break
        spans.append((start, cut - 1))
        start = cut
    spans.append((start, last))
    return spans


def _cut(
    start: int, last: int, depths: Sequence[int | None], size: Callable[[int, int], int], limit: int
) -> int | None:
    """The row that opens the next part, or None when no break is open."""
    fitting: list[tuple[int, int, int]] = []  # (row, depth, size of the part before it)
    for row in range(start + 1, last + 1):
        depth = depths[row]
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
