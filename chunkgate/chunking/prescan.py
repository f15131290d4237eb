"""Headings of a Markdown document without parsing all of it, where a line scan can prove them.

Most documentation pages put every heading on an ATX line at column 0 (``## Install``)
outside code blocks. Such a line is a top-level heading wherever it is: it interrupts
a paragraph and closes every open block quote and list item (CommonMark 4.2, 5.1,
5.2: it is not a lazy continuation line). So when a scan can show that

- every other heading-shaped line (``#`` after indentation or container markers, a
  setext underline below a non-blank line) lies inside a top-level fenced code block
  or HTML block, followed to its real CommonMark end condition (4.5, 4.6), and
- no column-0 ``#`` line lies inside one,

the headings are exactly those column-0 lines, and only their inline syntax needs a
parser: one cmark call per document on just those lines. Whatever the scan cannot
prove sends the document to the full parser (``cmark.headings``):

- a fence or HTML block opened with 1-3 spaces of indentation may belong to a list
  item instead of the top level; it is taken only when every line up to its end is
  indented at least as far (then it is the same block either way), and never after a
  fence or HTML line inside a container, which could still be open;
- a line starting with ``<`` that opens no block of types 1-6 is an HTML block of
  type 7 or paragraph text; it is taken only when the lines up to the next blank
  line are plain text either way;
- a heading with a ``[`` in a document with ``]:`` (a link reference definition
  could make it a link, and definitions are document-wide), and a bare carriage
  return (a line ending to CommonMark, not to ``str.split("\\n")``).

The regular expressions are anchored on a literal ``"\\n"`` rather than ``^`` with
``re.MULTILINE``: the literal lets the engine skip to candidate lines at memchr speed.
``tests/test_prescan.py`` checks the result against the full parser.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from chunkgate.chunking import cmark
from chunkgate.chunking.cmark import RawHeading
from chunkgate.core.regex import lazy

# A line that can open something or be (part of) a heading; others are paragraph text.
# A setext underline of dashes is found at its last dash (the prefix takes the others,
# as it did when the pattern said ``-+``, which made every shorter prefix scan the run
# again: quadratic on a line of dashes).
_LINE = lazy(
    r"\n(?:"
    r"(?P<atx>\#{1,6})(?=[ \t\n])"
    r"|(?P<indent>[ ]{0,3})(?:(?P<fence>`{3,}|~{3,})|(?P<html><))"
    r"|(?P<prefix>[ \t>*+\-0-9.)]*)"
    r"(?:(?P<hash>\#{1,6}(?=[ \t\n]))|(?:=+|-)[ \t]*(?=\n)|`{3}|~{3}|<)"
    r")"
)
# A non-blank line indented less than 1, 2 or 3 spaces.
_LESS_INDENTED = {n: re.compile(rf"\n {{0,{n - 1}}}[^ \t\n]") for n in (1, 2, 3)}
_BLANK_LINE = lazy(r"\n[ \t]*(?=\n)")
_ATX_CLOSING = lazy(r"(?:^|(?<![ \t])[ \t]+)#+[ \t]*$")
# Heading text that renders as itself: no escapes, code, emphasis, links, HTML,
# entities, NUL (replaced) or whitespace that cmark strips and str.strip(" \t") keeps.
_INLINE = lazy(r"[\\`*_\[\]<&!\x00\x0b\x0c]")

# HTML block start conditions 1-6 (CommonMark 4.6) and the end of types 1-5.
_HTML_RAW = lazy(r"<(?:script|pre|style|textarea)(?=[ \t>\n]|$)", re.IGNORECASE)
_HTML_RAW_END = lazy(r"</(?:script|pre|style|textarea)>", re.IGNORECASE)
_HTML_BLOCK_TAG = lazy(
    r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup"
    r"|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset"
    r"|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol"
    r"|optgroup|option|p|param|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track"
    r"|ul)(?=[ \t>]|/>|$)",
    re.IGNORECASE,
)
_HTML_ENDS = (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"))
# Type 4 opens with an uppercase letter up to spec 0.30 and any letter since 0.31.
_DECLARATION = lazy(r"<![A-Z]")
_DECLARATION_LOWER = lazy(r"<![a-z]")


class _Unproven(Exception):
    """The scan cannot prove the document's headings: parse it whole."""


def headings(text: str, lines: Sequence[str]) -> list[RawHeading]:
    """The same as ``cmark.headings(text, lines)``, by the line scan where it proves them."""
    try:
        found = _scan("\n" + text + "\n")
    except _Unproven:
        return cmark.headings(text, lines)
    if "]:" in text and any("[" in line for _, _, line in found):
        return cmark.headings(text, lines)
    return _rendered(found)


def _rendered(found: list[tuple[int, int, str]]) -> list[RawHeading]:
    plain: list[str | None] = []
    marked: list[str] = []
    for level, _, line in found:
        content = line[level:].strip(" \t")
        if content.endswith("#"):  # a closing sequence, or text ending in "#"
            content = _ATX_CLOSING.sub("", content).rstrip(" \t")
        if _INLINE.search(content):
            plain.append(None)
            marked.append(line)
        else:
            plain.append(content)
    texts = iter(cmark.texts("\n".join(marked)) if marked else ())
    return [
        RawHeading(level, number, number, next(texts) if shown is None else shown, False)
        for (level, number, _), shown in zip(found, plain, strict=True)
    ]


def _scan(s: str) -> list[tuple[int, int, str]]:
    """(level, 1-based line, line) of every heading of ``s`` ("\\n" + document + "\\n")."""
    if "\r" in s:
        raise _Unproven
    found: list[tuple[int, int, str]] = []
    number = 0  # the line number of the line starting after s[counted]
    counted = 0
    pos = 0
    contained = False  # a fence or HTML line inside a container was seen
    end_of_text = len(s) - 1
    while (m := _LINE.search(s, pos)) is not None:
        start = m.start()
        number += s.count("\n", counted, start)
        counted = start
        eol = s.find("\n", m.end())
        if m["atx"]:
            found.append((len(m["atx"]), number + 1, s[start + 1 : eol]))
            pos = eol
        elif m["fence"] or m["html"]:
            indent = len(m["indent"])
            if indent and contained:
                raise _Unproven
            block_end = (
                _fence_end(s, m["fence"], s[m.end() : eol], eol, indent)
                if m["fence"]
                else _html_end(s, s[start + 1 + indent : eol], eol)
            )
            if block_end is None:  # not a fence after all: paragraph text
                pos = eol
                continue
            if indent and _LESS_INDENTED[indent].search(s, eol, block_end):
                raise _Unproven  # a list item could end inside it, and the block with it
            pos = min(block_end, end_of_text)
        elif m["hash"]:
            raise _Unproven  # indented, or in a block quote or list item
        elif m["prefix"] is not None and s[m.end() - 1] in "`~<":
            contained = True
            pos = eol
        else:  # a setext underline, or a thematic break below a blank line
            previous = s[s.rfind("\n", 0, start) + 1 : start]
            if previous.strip(" \t"):
                raise _Unproven
            pos = eol
    return found


def _fence_end(s: str, fence: str, info: str, eol: int, indent: int) -> int | None:
    """Where a fenced code block opened on the line ending at ``eol`` ends: the "\\n"
    after its closing fence, or the end of ``s``; None when the line opens none."""
    if fence[0] == "`" and "`" in info:
        return None  # CommonMark 4.5: a backtick fence's info string has no backtick
    closing = _closing(fence[0], len(fence))
    at = eol
    while (c := closing.search(s, at)) is not None:
        columns = len(c[1].expandtabs(4))
        if columns <= 3:
            if columns < indent:
                raise _Unproven  # in a list item this line could end the item instead
            return c.end()
        if indent and columns <= indent + 3:
            raise _Unproven  # it closes the fence if the fence is in a list item
        at = c.end()
    return len(s) - 1


@functools.cache
def _closing(char: str, length: int) -> re.Pattern[str]:
    return re.compile(rf"\n([ \t]*){re.escape(char)}{{{length},}}[ \t]*(?=\n)")


def _html_end(s: str, line: str, eol: int) -> int:
    """Where an HTML block that starts with ``line`` (ending at ``eol``) ends."""
    for opening, closing in _HTML_ENDS:
        if line.startswith(opening):
            return _line_with(s, line, len(opening), closing, eol)
    if _DECLARATION.match(line):
        return _line_with(s, line, 2, ">", eol)
    if _DECLARATION_LOWER.match(line):
        raise _Unproven  # an HTML block or not, by the version of cmark
    if _HTML_RAW.match(line):
        if _HTML_RAW_END.search(line):
            return eol
        found = _HTML_RAW_END.search(s, eol)
        return s.find("\n", found.end()) if found else len(s) - 1
    blank = _BLANK_LINE.search(s, eol)
    block_end = blank.start() if blank else len(s) - 1
    if not _HTML_BLOCK_TAG.match(line) and _LINE.search(s, eol, block_end + 1):
        # Type 7 or paragraph text (cmark decides by what is above): either way it runs
        # to the blank line, unless a line of it can interrupt a paragraph.
        raise _Unproven
    return block_end


def _line_with(s: str, line: str, skip: int, closing: str, eol: int) -> int:
    """The end of the first line, from this one on, that holds ``closing``."""
    if closing in line[skip:]:
        return eol
    if closing in line:
        raise _Unproven  # only where it overlaps the opening (``<!-->``)
    found = s.find(closing, eol)
    return s.find("\n", found) if found >= 0 else len(s) - 1
