"""The report page's two pictures as inline SVG: the size histogram against the limits,
and the corpus as a treemap of its folders.

Coordinates are written with two decimals and everything is drawn in a fixed order,
so the same corpus gives the same bytes. Each bar and tile carries its figures as
``data-`` attributes and a ``<title>`` (the browser's tooltip), which the tests read.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import NamedTuple

from chunkgate.report.treemap import squarify
from chunkgate.stats import BucketKind

STEPS = 10  # bins from 0 to size.max
OVER_STEPS = 10  # bins past size.max, the last one open

WIDTH, HEIGHT = 960, 260
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 16, 28, 40
MAP_WIDTH, MAP_HEIGHT = 960, 360
CHAR_WIDTH = 6.5  # pixels a character of the tiles' 11px labels takes, at most
LINE = 13  # pixels between the lines of a label


@dataclass(frozen=True, slots=True)
class Bin:
    low: int
    high: int | None  # inclusive; None: no upper bound
    count: int
    kind: BucketKind


def size_bins(sizes: Sequence[int], *, min_size: int, max_size: int) -> list[Bin]:
    """Tenths of ``size.max`` (the first starting at ``size.min``), a bin below
    ``size.min``, and bins of the same width past ``size.max`` up to the largest size."""
    ordered = sorted(sizes)
    step = max(1, -(-max_size // STEPS))
    edges: list[tuple[int, int | None, BucketKind]] = []
    if min_size > 0:
        edges.append((0, min_size - 1, "under"))
    starts = [min_size, *(k * step for k in range(1, STEPS) if min_size < k * step < max_size)]
    ends = [start - 1 for start in starts[1:]] + [max_size]
    edges += [(low, high, "within") for low, high in zip(starts, ends, strict=True)]
    largest = ordered[-1] if ordered else 0
    for k in range(OVER_STEPS):
        low = max_size + k * step + 1
        if k and low > largest:
            break
        edges.append((low, None if k == OVER_STEPS - 1 else low + step - 1, "over"))
    return [Bin(low, high, _count(ordered, low, high), kind) for low, high, kind in edges]


def _count(ordered: Sequence[int], low: int, high: int | None) -> int:
    end = len(ordered) if high is None else bisect.bisect_right(ordered, high)
    return end - bisect.bisect_left(ordered, low)


def axis_end(bins: Sequence[Bin], max_size: int) -> int:
    """The size at the right end of the histogram's axis (the open bin drawn one step wide)."""
    step = max(1, -(-max_size // STEPS))
    last = bins[-1]
    return (last.high if last.high is not None else last.low + step - 1) + 1


def _f(value: float) -> str:
    return f"{value:.2f}"


def histogram_svg(
    bins: Sequence[Bin], *, min_size: int, max_size: int, limit: int | None, unit: str
) -> str:
    """Bars of the bins, with the limits as lines: ``size.min``, ``size.max`` and the
    hard limit (``limit``; None when the sizes are not in its tokens)."""
    step = max(1, -(-max_size // STEPS))
    end = axis_end(bins, max_size)
    plot_width, plot_height = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    scale = plot_width / end
    peak = max((b.count for b in bins), default=0) or 1
    base = _TOP + plot_height
    out = [
        f'<svg class="histogram" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-label="chunk sizes in {escape(unit)}">',
        f'<line class="axis" x1="{_LEFT}" y1="{base}" x2="{WIDTH - _RIGHT}" y2="{base}"/>',
    ]
    for b in bins:
        high = b.high if b.high is not None else b.low + step - 1
        x = _LEFT + b.low * scale
        width = max((high + 1 - b.low) * scale - 1, 0.5)
        height = b.count / peak * plot_height
        label = f"{b.low:,}–{high:,}" if b.high is not None else f"≥ {b.low:,}"
        upper = "" if b.high is None else b.high
        out.append(
            f'<rect class="bar {b.kind}" data-low="{b.low}" data-high="{upper}"'
            f' data-count="{b.count}" x="{_f(x)}" y="{_f(base - height)}" width="{_f(width)}"'
            f' height="{_f(height)}"><title>{label} {escape(unit)}: {b.count:,} chunks</title>'
            "</rect>"
        )
        if b.count:
            out.append(
                f'<text class="count" x="{_f(x + width / 2)}" y="{_f(base - height - 3)}">'
                f"{b.count:,}</text>"
            )
    marks = [
        ("min", min_size, f"size.min {min_size:,}"),
        ("max", max_size, f"size.max {max_size:,}"),
    ]
    if limit is not None and limit < end:
        marks.append(("limit", limit, f"hard limit {limit:,}"))
    for kind, size, text in marks:
        if kind == "min" and size <= 0:
            continue
        at = _f(_LEFT + (size + (1 if kind != "min" else 0)) * scale)
        out.append(
            f'<line class="mark {kind}" data-size="{size}" x1="{at}" y1="{_TOP - 14}" x2="{at}"'
            f' y2="{base}"/><text class="mark {kind}" x="{at}" y="{_TOP - 17}">{text}</text>'
        )
    placed: list[float] = []
    for tick in sorted({min_size, max_size, end, 0}, key=lambda t: (t in (0, end), t)):
        x = _LEFT + tick * scale
        if all(abs(x - other) >= 36 for other in placed):  # labels that do not overlap
            placed.append(x)
            out.append(f'<text class="tick" x="{_f(x)}" y="{base + 16}">{tick:,}</text>')
    out.append(
        f'<text class="unit" x="{WIDTH - _RIGHT}" y="{base + 34}">{escape(unit)}</text></svg>'
    )
    return "\n".join(out)


class Folder(NamedTuple):
    name: str
    size: int
    chunks: int
    findings: int


def heat(findings: int, chunks: int) -> str:
    """The tile's class: findings per chunk, in four steps."""
    rate = findings / chunks if chunks else (1.0 if findings else 0.0)
    if rate == 0:
        return "clean"
    return "few" if rate < 0.1 else "some" if rate < 0.5 else "many"


def treemap_svg(folders: Sequence[Folder], unit: str) -> str:
    """One tile per folder, its area its chunks' size."""
    by_name = {folder.name: folder for folder in folders}
    tiles = squarify([(f.name, f.size) for f in folders], MAP_WIDTH, MAP_HEIGHT)
    out = [
        f'<svg class="treemap" viewBox="0 0 {MAP_WIDTH} {MAP_HEIGHT}" width="{MAP_WIDTH}"'
        f' height="{MAP_HEIGHT}" role="img" aria-label="the corpus by folder">'
    ]
    for tile in tiles:
        folder = by_name[tile.key]
        name = escape(folder.name)
        out.append(
            f'<g><rect class="folder {heat(folder.findings, folder.chunks)}"'
            f' data-folder="{name}" data-size="{folder.size}" data-chunks="{folder.chunks}"'
            f' x="{_f(tile.x)}" y="{_f(tile.y)}" width="{_f(tile.width)}"'
            f' height="{_f(tile.height)}"><title>{name}: {folder.size:,} {escape(unit)},'
            f" {folder.chunks:,} chunks, {folder.findings:,} findings</title></rect>"
        )
        lines = label_lines(folder.name, tile.width, tile.height)
        if lines:
            spans = "".join(
                f'<tspan x="{_f(tile.x + 4)}" dy="{LINE if i else 14}">{escape(line)}</tspan>'
                for i, line in enumerate(lines)
            )
            out.append(f'<text class="label" y="{_f(tile.y)}">{spans}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def label_lines(name: str, width: float, height: float) -> list[str]:
    """The folder's path in lines that fit the tile, broken after a ``/`` (a deep path
    reads whole: ``docs/es/`` over ``docs/tutorial/``); else its longest tail that fits
    (``…/glossary/``); else none."""
    columns = int((width - 8) // CHAR_WIDTH)
    rows = int((height - 14) // LINE)
    parts = [f"{piece}/" for piece in name.split("/") if piece]
    if parts and not name.endswith("/"):
        parts[-1] = parts[-1].removesuffix("/")
    for start in range(len(parts)):
        lines: list[str] = []
        for part in ["…/"] * bool(start) + parts[start:]:
            if lines and len(lines[-1]) + len(part) <= columns:
                lines[-1] += part
            else:
                lines.append(part)
        if len(lines) <= rows and all(len(line) <= columns for line in lines):
            return lines
    return []
