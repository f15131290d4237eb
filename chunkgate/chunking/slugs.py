"""Heading identities: explicit ``{#id}`` attributes and GitHub's anchors.

``Slugger`` reproduces github-slugger (the algorithm behind GitHub's heading
anchors): lower-case the rendered text, drop every character of the removed
Unicode categories (``_slug_table``), turn each space into ``-``, and number
repeats ``-1``, ``-2``, ... in document order.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import ClassVar

from chunkgate.chunking._slug_table import REMOVED_RANGES
from chunkgate.core.regex import lazy

# The identity of a heading that GitHub gives no anchor (its text slugs to "").
# "~" is removed by the slugger, so no slug can collide with it.
EMPTY_SLUG_IDENTITY = "~section"

# `{#id}`, `{ #id }`, `{: #id .class key=value }` at the very end of a heading.
# The common case, `{#id}` or `{: #id }`, matched from the last "{" in one step.
_SIMPLE_ID = lazy(r"\{:?[ \t]*#([^\s#.{}=]+)[ \t]*\}")
_ATTRIBUTE_TOKEN = lazy(
    r"""#[^\s#{}=]+|\.[^\s#.{}=]+|(?<![^\s#.{}="'])[^\s#.{}=]+=(?:"[^"]*"|'[^']*'|\S+)"""
)


class _SlugTable(dict[int, "int | None"]):
    """A ``str.translate`` table filled on first sight of each character."""

    _starts: ClassVar[list[int]] = [lo for lo, _ in REMOVED_RANGES]

    def __missing__(self, code: int) -> int | None:
        index = bisect_right(self._starts, code) - 1
        removed = index >= 0 and code <= REMOVED_RANGES[index][1]
        value = None if removed else (0x2D if code == 0x20 else code)
        self[code] = value
        return value


_TABLE = _SlugTable()
# The same table for ASCII text, applied by bytes.translate in one C call.
_ASCII_MAP = bytes(0x2D if code == 0x20 else code for code in range(256))
_ASCII_REMOVED = bytes(code for code in range(128) if _TABLE[code] is None)


def github_slug(text: str) -> str:
    """GitHub's anchor for a heading whose rendered text is ``text`` (before numbering)."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered.encode("ascii").translate(_ASCII_MAP, _ASCII_REMOVED).decode("ascii")
    return lowered.translate(_TABLE)


class Slugger:
    """Numbers repeated slugs within one document, exactly as github-slugger does."""

    __slots__ = ("_occurrences",)

    def __init__(self) -> None:
        self._occurrences: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = github_slug(text)
        result = base
        occurrences = self._occurrences
        while result in occurrences:
            occurrences[base] += 1
            result = f"{base}-{occurrences[base]}"
        occurrences[result] = 0
        return result


def split_explicit_id(text: str) -> tuple[str, str | None]:
    """Split ``Install {#install}`` into ``("Install", "install")``.

    Only an attribute list whose every item is ``#id``, ``.class`` or
    ``key=value``, and which sets an id (``#id`` or ``id=x``, ``id="9.7.0"``),
    counts; anything else is heading text.
    """
    if not text.endswith("}"):
        return text, None
    brace = text.rfind("{")
    if brace < 0:
        return text, None
    only_id = _SIMPLE_ID.fullmatch(text, brace)
    if only_id:
        return text[:brace].rstrip(" \t"), only_id.group(1)
    inner = text[brace + 1 : -1].strip(" \t")
    if inner.startswith(":"):
        inner = inner[1:]
    tokens = inner.split()
    if tokens and all(token.startswith("#") and len(token) > 1 for token in tokens):
        simple = len(tokens) == 1 and _ATTRIBUTE_TOKEN.fullmatch(tokens[0])
        if not simple:
            return text, None
        return text[:brace].rstrip(" \t"), tokens[0][1:]
    inner = text[brace + 1 : -1]
    if "}" in inner or "\n" in inner:
        return text, None
    identity = attribute_id(inner[1:] if inner.startswith(":") else inner)
    if identity is None:
        return text, None
    # One blank before the brace belongs to the attribute list, as it always has.
    start = brace - 1 if brace and text[brace - 1] in " \t" else brace
    return text[:start], identity


def attribute_id(inner: str) -> str | None:
    """The ID an attribute list (``inner``: what is between the braces, without a
    leading ``:``) sets: its ``#id`` or ``id=...`` item, the last one where there are
    several (as Python-Markdown's ``attr_list`` assigns them); None when it sets none
    or holds anything but attributes."""
    items = _attribute_items(inner)
    identity = None
    for item in items or ():
        if item.startswith("#"):
            identity = item[1:]
        elif item.startswith("id="):
            value = item[3:]
            identity = value[1:-1] if value[:1] in "\"'" and len(value) > 1 else value
    return identity or None


def is_attribute_list(inner: str) -> bool:
    """Whether ``inner`` (between the braces, no leading ``:``) is attributes alone."""
    return _attribute_items(inner) is not None


def _attribute_items(inner: str) -> list[str] | None:
    """The items of an attribute list, or None if anything else is in it.

    Matched token by token from where the last one ended, so each character is
    read once or twice (a regex search or ``findall`` would retry the token
    pattern at every position of a long run that is no token: quadratic).
    """
    items: list[str] = []
    position, end = 0, len(inner)
    while position < end:
        if inner[position].isspace():
            position += 1
            continue
        token = _ATTRIBUTE_TOKEN.match(inner, position)
        if token is None:
            return None
        items.append(token.group())
        position = token.end()
    return items or None
