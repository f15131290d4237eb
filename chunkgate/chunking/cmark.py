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

import ctypes
import re
import sys
from collections.abc import Callable, Sequence
from typing import NamedTuple

from cmarkgfm._cmark import ffi, lib

from chunkgate.core.regex import lazy

# The HTML is scanned as bytes: decoding all of it would cost more than the
# scan, and only the headings' text is needed as str.
_BLOCKS = lazy(
    rb'<(?:h([1-6])|blockquote|ul|ol) data-sourcepos="(\d+):(\d+)-(\d+):(\d+)">'
    rb"(?(1)(.*?)</h[1-6]>)",
    re.DOTALL,
)
_TAG = lazy(r"<[^>]*>")
# An ATX heading line: up to three spaces, one to six "#", then a space, a tab or the
# end of the line (CommonMark 4.2). "#foo" above "===" is a setext heading's text.
_ATX_LINE = lazy(r" {0,3}#{1,6}(?:[ \t]|$)")
_SETEXT_UNDERLINE = lazy(r" {0,3}(?:=+|-+)[ \t]*$")


class RawHeading(NamedTuple):
    """A heading: 1-based first and last line, rendered text, and whether it is nested."""

    level: int
    first: int
    last: int
    text: str
    nested: bool


def _c_free() -> Callable[[int], None]:
    # cmark allocates with the C library's allocator, so its free releases the HTML.
    libc = ctypes.cdll.ucrtbase if sys.platform == "win32" else ctypes.CDLL(None)
    free = libc.free
    free.argtypes = [ctypes.c_void_p]
    free.restype = None
    return free


_free = _c_free()


def render(text: str) -> bytes:
    """cmark's HTML for ``text``, with source positions.

    ``cmarkgfm.markdown_to_html`` never frees the buffer cmark returns
    (theacodes/cmarkgfm#53): a whole corpus's HTML would stay in memory.
    """
    data = text.encode("utf-8")
    buffer = lib.cmark_markdown_to_html(data, len(data), lib.CMARK_OPT_SOURCEPOS)
    try:
        return ffi.string(buffer)  # type: ignore[no-any-return]
    finally:
        _free(int(ffi.cast("uintptr_t", buffer)))


def texts(text: str) -> list[str]:
    """The rendered text of every line of ``text``, each a top-level ATX heading (the
    pre-scan's), in order. cmark writes each heading's element on a line of its own
    and escapes every ``<`` and ``&`` of the text, so the output's text content, tags
    dropped and entities decoded in one pass, is the headings' texts one a line."""
    return _text(render(text)).split("\n")[:-1]


def _text(inner: bytes) -> str:
    """An element's text content: tags dropped, entities decoded."""
    content = inner.decode("utf-8")
    if "<" in content:
        content = without_tags(content)
    if "&" in content:
        content = _unescape(content)
    return content


def headings(text: str, lines: Sequence[str]) -> list[RawHeading]:
    """Every heading of a CommonMark document (``lines`` is ``text.split("\\n")``), in order."""
    found: list[RawHeading] = []
    container_end = (0, 0)  # where the current top-level block quote or list ends
    for level, line, column, end_line, end_column, inner in _BLOCKS.findall(render(text)):
        if not level:
            start = (int(line), int(column))
            if start > container_end:
                container_end = (int(end_line), int(end_column))
            continue
        first = int(line)
        content = _text(inner)
        if (first, int(column)) > container_end:
            last = first if _ATX_LINE.match(lines[first - 1]) else _setext_end(lines, first)
            found.append(RawHeading(int(level), first, last, content, False))
        else:
            found.append(RawHeading(int(level), first, first, content, True))
    return found


def _setext_end(lines: Sequence[str], first: int) -> int:
    """The 1-based last line of a top-level setext heading starting at line ``first``.

    cmark reports a setext heading as ending where the next block begins, so
    the underline is found here: the first underline-shaped line of the
    paragraph (any earlier one would have ended the paragraph already).
    """
    for index in range(first, len(lines)):
        if _SETEXT_UNDERLINE.match(lines[index]):
            return index + 1
    return first


def _unescape(text: str) -> str:
    import html  # its entity table costs an import that most headings never need

    return html.unescape(text)


def without_tags(text: str) -> str:
    """``text`` without its ``<...>`` tags. A ``<`` with no ``>`` after it starts no tag:
    the pattern is applied only up to the last ``>``, so that a run of unclosed ``<``
    is not scanned to the end once for each."""
    end = text.rfind(">") + 1
    return _TAG.sub("", text[:end]) + text[end:]
