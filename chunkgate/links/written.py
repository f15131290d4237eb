"""Where a link's destination is written in the lines of its block: cmark positions
blocks, not inlines, so a link's line is found by looking for its destination.

A block's links come in the order they are written, so each search starts
where the previous link's destination ended (the cursor), and the work stays
linear in the block on a paragraph of 18,750 links (issue 44): the next
destination is looked for first just after the cursor (``WINDOW``); a
further search for one way of writing it stops where another was found;
where a form is next written is remembered while the cursor has not passed
it, "not written" for good; and the characters read for destinations the
block does not hold (reference links, entity-encoded ones) are capped
(``MISSED``), past which a new destination counts as not written (its link is
then placed on the block's first line).
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import unquote

# Characters after the cursor where the next destination is looked for first: a
# link's text and title are short, so the next destination is mostly there.
WINDOW = 512
# Characters a block may read looking for destinations it does not hold: this
# many times its size, and a million more (a few ms) that no real block needs.
MISSED = (16, 1_000_000)

Position = tuple[int, int]  # 1-based line, 0-based column


def written_forms(destination: str) -> list[str]:
    """The ways ``destination`` (as cmark renders it) may be written in the source."""
    forms = [destination]
    decoded = unquote(destination)
    if decoded != destination:
        forms.append(decoded)
    escaped = destination.replace("#", "\\#")
    if escaped != destination:
        forms.append(escaped)
    return forms


class Block:
    """The lines ``first``..``last`` of one rendered block, searched for its links'
    destinations in the order they come."""

    def __init__(self, lines: Sequence[str], first: int, last: int) -> None:
        self.lines = lines
        self.first = first
        self.last = min(last, len(lines))
        self.cursor: Position = (first, 0)
        self._next: dict[str, Position | None] = {}
        size = sum(len(lines[number - 1]) + 1 for number in range(first, self.last + 1))
        self._missable = MISSED[0] * size + MISSED[1]
        self._read = 0  # characters read by the searches

    def place(self, destination: str) -> int | None:
        """The line ``destination`` is next written on, at or after the cursor, which then
        moves past it; None when the block does not write it there."""
        if not self.first:
            return None
        forms = written_forms(destination)
        found = self._near(forms) or self._far(forms)
        if found is None:
            return None
        self.cursor = found
        return found[0]

    def _near(self, forms: Sequence[str]) -> Position | None:
        """The end of the earliest form written within ``WINDOW`` of the cursor, on its line."""
        number, start = self.cursor
        if number > self.last:
            return None
        line = self.lines[number - 1]
        best: tuple[int, int] | None = None  # column, end
        for form in forms:
            stop = start + WINDOW if best is None else best[0] + len(form)
            at = _find(line, form, start, stop)
            if at >= 0 and (best is None or at < best[0]):
                best = (at, at + len(form))
        return None if best is None else (number, best[1])

    def _far(self, forms: Sequence[str]) -> Position | None:
        """The end of the earliest form written anywhere after the cursor."""
        best: tuple[Position, int] | None = None  # where, its form's length
        for form in forms:
            at = self._remembered(form) if best is None else self._before(form, best[0])
            if at is not None and (best is None or at < best[0]):
                best = (at, len(form))
        return None if best is None else (best[0][0], best[0][1] + best[1])

    def _remembered(self, form: str) -> Position | None:
        """Where ``form`` is next written from the cursor, remembered while it stays ahead."""
        if form in self._next:
            known = self._next[form]
            if known is None or known >= self.cursor:
                return known
        if self._missable <= 0:
            return None  # over the cap: taken as not written, without reading
        read = self._read
        found = self._before(form, (self.last + 1, 0))
        if found is None:
            self._missable -= self._read - read
        self._next[form] = found
        return found

    def _before(self, form: str, bound: Position) -> Position | None:
        """Where ``form`` is first written as a destination from the cursor, before ``bound``."""
        number, start = self.cursor
        while number <= min(bound[0], self.last):
            line = self.lines[number - 1]
            stop = bound[1] + len(form) if number == bound[0] else len(line)
            at = _find(line, form, start, stop)
            self._read += stop - start
            if at >= 0 and (number, at) < bound:
                return (number, at)
            number, start = number + 1, 0
        return None


def _find(line: str, form: str, start: int, stop: int) -> int:
    """The first column in ``line[start:stop]`` where ``form`` is written as a destination."""
    at = line.find(form, start, stop)
    while at >= 0 and not is_destination(line, at):
        at = line.find(form, at + 1, stop)
    return at


def is_destination(line: str, at: int) -> bool:
    """Whether text at ``at`` follows ``(``, ``<`` or ``]:`` (a destination, not link text)."""
    end = at
    while end and line[end - 1] in " \t":
        end -= 1  # not ``line[:at].rstrip()``: a copy of the line before each link
    return line.endswith(("(", "<", "]:"), 0, end)
