"""A short passage of a chunk around the query's terms, with where each term is.

The words are the index's (``index.TOKEN``, lowercased), so a marked word is one
that scored. The passage is the chunk's text on one line (runs of whitespace one
space), cut to the window of ``width`` characters that holds the most matches;
a cut end shows ``...``. Marks are spans of the passage; the report draws them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from chunkgate.evaluate.index import TOKEN

ELLIPSIS = "..."
LEAD = 24  # characters of context kept before the first match of the window


class Snippet(NamedTuple):
    text: str
    marks: tuple[tuple[int, int], ...]  # [start, end) of each matched word, in order

    def marked(self, before: str, after: str) -> str:
        """The passage with each matched word between ``before`` and ``after``."""
        out, last = [], 0
        for start, end in self.marks:
            out += [self.text[last:start], before, self.text[start:end], after]
            last = end
        out.append(self.text[last:])
        return "".join(out)


def snippet(text: str, terms: Collection[str], width: int = 160) -> Snippet:
    """The passage of ``text`` (``width`` characters at most, ellipses beside) around
    the most of ``terms`` (index tokens) that one window holds."""
    flat = " ".join(text.split())
    spans = [m.span() for m in TOKEN.finditer(flat) if m[0].lower() in terms]
    start = _best_start(spans, width)
    start = max(0, start - LEAD) if spans else 0
    if start:
        space = flat.find(" ", start, start + LEAD)  # begin at a word
        start = space + 1 if space != -1 else start
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.rfind(" ", start + width // 2, end)
        end = space if space != -1 else end
    head = ELLIPSIS if start else ""
    tail = ELLIPSIS if end < len(flat) else ""
    shift = len(head) - start
    marks = tuple((a + shift, b + shift) for a, b in spans if a >= start and b <= end)
    return Snippet(head + flat[start:end] + tail, marks)


def _best_start(spans: list[tuple[int, int]], width: int) -> int:
    """Where the window with the most matches begins (the first such, two pointers)."""
    best, best_count, last = 0, 0, 0
    for first, (start, _) in enumerate(spans):
        while last < len(spans) and spans[last][1] - start <= width - LEAD:
            last += 1
        if last - first > best_count:
            best, best_count = start, last - first
    return best
