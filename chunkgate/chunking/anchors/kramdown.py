"""Jekyll: kramdown's ``auto_ids`` with its GFM parser (Jekyll's default input).

An explicit ID is ``{#id}`` closing the heading, or a block attribute list
``{: #id}`` on the line below it (see ``explicit_below``). Otherwise the ID is
the heading's text lower-cased with every character but Unicode word
characters (letters, marks, decimal digits, ``_``), ``-``, spaces and tabs
dropped, and each space or tab made ``-``. kramdown turns ``--`` and ``---``
into dashes (typographic symbols) and ``'``/``"`` into curly quotes before
that, and drops them; a repeat gets ``-1``, ``-2`` counted per slug, without
checking for a collision with an ID written by hand. A heading that slugs to
nothing gets no ID (chunkgate's fallback, ``~section``).

The non-GFM parser (``kramdown: {input: kramdown}``, variant ``kramdown``)
keeps ASCII letters, digits, spaces and ``-`` only, drops everything before
the first letter, and names an empty slug ``section``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import ClassVar

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY, attribute_id
from chunkgate.chunking.spans import code_spans
from chunkgate.core.regex import lazy

# kramdown's header ID: `{#id}` at the end of the heading text.
_HEADER_ID = lazy(r"(?<![ \t])[ \t]*\{#([A-Za-z][\w:-]*)\}[ \t]*$")
# A block IAL naming an id: `{: #id .class key="v"}` alone on a line.
# The blanks after "{:" are taken whole (a lookahead and its backreference: an atomic
# group), and the line must have the shape of an IAL before the ID is looked for: giving
# blanks back or trying every "#" against a line that cannot match was quadratic.
_IAL_ID = lazy(
    r"[ \t]{0,3}\{:(?=(?P<blanks>[ \t]*))(?P=blanks)(?:[^{}\n]*?[ \t])?"
    r"#(?P<id>[A-Za-z][\w:-]*)(?=[ \t}])[^{}\n]*\}[ \t]*"
)
_IAL_SHAPE = lazy(r"[ \t]{0,3}\{:[^{}\n]*\}[ \t]*")
_DASHES = lazy(r"-{2,3}")
_NOT_BASIC = lazy(r"[^a-zA-Z0-9 -]")
_LEADING_NON_LETTERS = lazy(r"^[^a-zA-Z]+")


class _GfmTable(dict[int, "int | None"]):
    """``str.translate`` table of kramdown-parser-gfm's ``[^\\p{Word}\\- \\t]``, filled lazily."""

    # Onigmo's \p{Word}: Alphabetic (letters and letter numbers such as "Ⅷ"), marks,
    # decimal digits and connector punctuation.
    _KEPT: ClassVar[frozenset[str]] = frozenset(
        {"Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Mn", "Mc", "Me", "Nd", "Pc"}
    )

    def __missing__(self, code: int) -> int | None:
        char = chr(code)
        if char in " \t":
            value: int | None = 0x2D
        elif char == "-" or unicodedata.category(char) in self._KEPT:
            value = code
        else:
            value = None
        self[code] = value
        return value


_TABLE = _GfmTable()


def explicit_below(line: str) -> str | None:
    """The ID a block attribute list on the line below a heading gives it."""
    if not _IAL_SHAPE.fullmatch(line):
        return None
    found = _IAL_ID.fullmatch(line)
    if found is None and "id=" in line:  # the key form, `{: id="x"}`, sets it too
        return attribute_id(line.strip()[2:-1].strip(" \t"))
    return found.group("id") if found else None


def gfm_slug(text: str, raw: str = "") -> str:
    if "--" in text:
        text = _without_dashes(text, raw)
    return text.lower().translate(_TABLE)


def _without_dashes(text: str, raw: str) -> str:
    """``text`` without the ``--`` and ``---`` that kramdown makes typographic dashes:
    all but those inside code spans (found in the heading's source)."""
    codes = [
        raw[start + fence : end - fence]
        for start, fence, end in code_spans(raw, closer_inside=True)
    ]
    kept = [code.strip(" ") for code in codes if "--" in code]
    for index, code in enumerate(kept):
        text = text.replace(code, f"\0{index}\0", 1)
    text = _DASHES.sub("", text)
    for index, code in enumerate(kept):
        text = text.replace(f"\0{index}\0", code, 1)
    return text


def basic_slug(raw: str) -> str:
    text = _LEADING_NON_LETTERS.sub("", raw)
    return _NOT_BASIC.sub("", text).replace(" ", "-").lower() or "section"


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    counts: dict[str, int] = {}
    out = []
    for heading in headings:
        text, raw = heading.text, heading.raw
        found = _HEADER_ID.search(text)
        if found:
            text = text[: found.start()]
        below = explicit_below(heading.below) if heading.below else None
        if below or found:
            out.append(Anchor(text, below or found.group(1), explicit=True))  # type: ignore[union-attr]
            continue
        base = basic_slug(raw) if style.variant == "kramdown" else gfm_slug(text, raw)
        count = counts[base] = counts.get(base, -1) + 1
        identity = f"{base}-{count}" if count else base
        out.append(Anchor(text, identity or EMPTY_SLUG_IDENTITY))
    return out
