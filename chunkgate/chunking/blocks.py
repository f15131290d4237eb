"""MkDocs' indented blocks: admonitions, collapsibles and tabs, their bodies read as Markdown.

Python-Markdown's ``admonition`` (``!!! note "Title"``), ``pymdownx.details``
(``??? info``, ``???+ tip``) and ``pymdownx.tabbed`` (``=== "Tab"``) open a block
whose body is the lines indented four spaces below the opening line (blank
lines included, while what follows them is indented too); bodies nest. CommonMark
reads such a body as an indented code block, so where the site turns an extension
on, the document is given to cmark with each body moved four spaces left per
block it is in (``flatten``): its prose, lists, links and headings are then what
they are on the site. Lines are never added or removed, so every line number cmark
reports is the file's; only columns differ, and nothing here uses them.

An opening line is indented by a multiple of four (a block in a list item or in
another block); one inside a fenced code block opens nothing. A heading in a body
is on the page's table of contents (Python-Markdown's ``toc`` walks the whole
page) but inside the block, not a section of the page: ``inside`` says which lines
are in a body.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from typing import NamedTuple

from chunkgate.core.regex import lazy

# The opening line of each kind, after its indentation (pymdownx: ``???+`` opens
# expanded, ``===+`` starts a new tab set, ``===!`` selects the tab).
_OPENERS = {
    "admonition": r"!!![ \t]*[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"[^\"\n]*\")?[ \t]*",
    "details": r"\?\?\?\+?[ \t]*[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"[^\"\n]*\")?[ \t]*",
    "tabbed": r"===[+!]{0,2}[ \t]+\"[^\"\n]*\"(?:[ \t]+[^\n]*)?",
}
KINDS = frozenset(_OPENERS)
_FIRST = {"admonition": "!", "details": "?", "tabbed": "="}
_FENCE = lazy(r"(?<![ \t])[ \t]*(`{3,}|~{3,})")  # matched at a line start
_INDENT = 4


class Flattened(NamedTuple):
    """The document as cmark should read it, and which 0-based lines are in a body."""

    text: str
    lines: list[str]
    inside: frozenset[int]


def may_have_blocks(text: str, kinds: Collection[str]) -> bool:
    """Whether ``text`` could hold an opening line of one of ``kinds`` (a quick test)."""
    return any(_FIRST[kind] * 3 in text for kind in kinds)


def flatten(text: str, kinds: Collection[str]) -> Flattened | None:
    """``text`` with the bodies of the blocks of ``kinds`` moved left, or None when it
    has no such block."""
    if not kinds or not may_have_blocks(text, kinds):
        return None
    opener = _opener(frozenset(kinds))
    lines = text.split("\n")
    out = list(lines)
    inside: set[int] = set()
    bodies: list[int] = []  # the indentation each open body needs, innermost last
    fence: str | None = None  # the fence of the code block the scan is in
    for index, line in enumerate(lines):
        if not line.strip():
            continue  # a blank line ends no body, and needs no moving
        width = len(line) - len(line.lstrip(" \t"))
        indent = len(line[:width].expandtabs(_INDENT))
        while bodies and indent < bodies[-1]:
            bodies.pop()
            fence = None  # a fence in a body ends with the body
        if bodies:
            inside.add(index)
            out[index] = " " * (indent - _INDENT * len(bodies)) + line[width:]
        fence, code = fence_step(fence, line)
        if not code and indent % _INDENT == 0 and opener.fullmatch(line, width):
            bodies.append(indent + _INDENT)
    if not inside:
        return None
    return Flattened("\n".join(out), out, frozenset(inside))


def fence_step(fence: str | None, line: str) -> tuple[str | None, bool]:
    """The fence open after ``line`` (None: none) given the one open before it
    (``fence``), and whether ``line`` is code: a fence line or inside a fenced block."""
    found = _FENCE.match(line)
    if fence is not None:
        closes = found and found[1][0] == fence[0] and len(found[1]) >= len(fence)
        return (None if closes else fence), True
    return (found[1], True) if found else (None, False)


@functools.cache
def _opener(kinds: frozenset[str]) -> re.Pattern[str]:
    return re.compile("|".join(_OPENERS[kind] for kind in sorted(kinds)))
