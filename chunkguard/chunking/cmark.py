"""Headings of a Markdown document, found by cmark (CommonMark's reference C parser).

cmark-gfm (through ``cmarkgfm``) is the parser GitHub renders Markdown with,
so the headings it finds, and their rendered text, are the ones GitHub
anchors. cmarkgfm exposes HTML rendering only, so the document is rendered
with source positions (``data-sourcepos="line:col-line:col"`` on every block)
and read back:

- Raw HTML is never passed through (cmark's default safe mode replaces it
  with a comment), so every ``data-sourcepos`` attribute in the output was
  written by cmark and no document can forge a heading.
- A heading is nested when it lies inside a top-level block quote or list;
  those containers come before their contents in the output, so one pass
  that remembers where the current top-level container ends suffices.
- A heading's text is its element's text content: tags dropped, entities
  decoded (images contribute nothing, as in the DOM).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import cmarkgfm
from cmarkgfm.cmark import Options

_BLOCKS = re.compile(
    r'<(?:(h[1-6])|blockquote|ul|ol) data-sourcepos="(\d+):(\d+)-(\d+):(\d+)">'
    r"(?(1)(.*?)</h[1-6]>)",
    re.DOTALL,
)
_TAG = re.compile(r"<[^>]*>")
_ATX_LINE = re.compile(r" {0,3}#")
_SETEXT_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")


@dataclass(frozen=True, slots=True)
class RawHeading:
    """A heading: 1-based first and last line, rendered text, and whether it is nested."""

    level: int
    first: int
    last: int
    text: str
    nested: bool


def headings(text: str, lines: Sequence[str]) -> list[RawHeading]:
    """Every heading of a CommonMark document (``lines`` is ``text.split("\\n")``), in order."""
    rendered = cmarkgfm.markdown_to_html(text, Options.CMARK_OPT_SOURCEPOS)
    found: list[RawHeading] = []
    container_end = (0, 0)  # where the current top-level block quote or list ends
    for block in _BLOCKS.finditer(rendered):
        tag, line, column, end_line, end_column, inner = block.groups()
        start = (int(line), int(column))
        if tag is None:
            if start > container_end:
                container_end = (int(end_line), int(end_column))
            continue
        nested = start <= container_end
        last = start[0] if nested else _last_line(lines, start[0])
        found.append(RawHeading(int(tag[1]), start[0], last, _text_content(inner), nested))
    return found


def _last_line(lines: Sequence[str], first: int) -> int:
    """The 1-based last line of a top-level heading starting at line ``first``.

    cmark reports a setext heading as ending where the next block begins, so
    the underline is found here: the first underline-shaped line of the
    paragraph (any earlier one would have ended the paragraph already).
    """
    if _ATX_LINE.match(lines[first - 1]):
        return first
    for index in range(first, len(lines)):
        if _SETEXT_UNDERLINE.match(lines[index]):
            return index + 1
    return first


def _text_content(inner: str) -> str:
    if "<" in inner:
        inner = _TAG.sub("", inner)
    return html.unescape(inner) if "&" in inner else inner
