"""Tables that fit the terminal: a chunk ID shortened in the middle, a header never broken
inside a word, and long text wrapped by word within its row.

rich gives a table the console's width and, when the cells are wider, narrows the
columns that may wrap, then every column alike: an ID column of fifty characters
left the others a few each, and their headers came out a letter pair a line. So the
columns that must stay whole are measured first and the ID gets the room left.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

ELLIPSIS = "..."
# What a column costs besides its text in a boxed table: a space each side and the rule.
GAP = 3
# The fewest columns an ID is shortened to: the start of its path and the end of its anchor.
LEAST_ID = 16


def middle(text: str, width: int) -> str:
    """``text`` in ``width`` characters at most, its middle replaced by ``...``: a chunk
    ID is told apart by its path's start and its anchor."""
    if len(text) <= width:
        return text
    if width <= len(ELLIPSIS):
        return text[:width]
    keep = width - len(ELLIPSIS)
    head = keep * 2 // 5
    return text[:head] + ELLIPSIS + text[len(text) - (keep - head) :]


def widest(header: str, cells: Iterable[str]) -> int:
    """The width a column needs for ``header`` and ``cells`` on one line each."""
    return max([len(header), *map(len, cells)])


def room(width: int, others: Iterable[int], *, least: int = LEAST_ID) -> int:
    """The columns left, in a table ``width`` wide, to the one column whose cells are
    shortened, once the ``others`` (their widths) have theirs; never under ``least``."""
    taken = list(others)
    return max(least, width - sum(taken) - GAP * (len(taken) + 1))


def whole_headers(table: Table) -> Table:
    """``table`` with each column at least as wide as its header's longest word, so that
    a header wraps between its words, never inside one."""
    for column in table.columns:
        words = str(column.header).split()
        column.min_width = max([column.min_width or 0, *map(len, words)])
    return table
