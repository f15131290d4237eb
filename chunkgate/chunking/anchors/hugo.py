"""Hugo: goldmark's auto heading IDs, in the style ``autoHeadingIDType`` names.

goldmark slugs the heading's last source line as written (markers, the
closing ``#`` sequence and a trailing ``{#id .class}`` attribute removed), not
its rendered text: a link's URL and an entity's name are part of the ID.

- ``github`` (the default): trimmed, each space or ``-`` made ``-``, letters,
  decimal digits and ``_`` kept lower-cased, everything else dropped.
- ``github-ascii``: the same after removing accents (NFD without combining
  marks), keeping ASCII only.
- ``blackfriday``: runs of anything but letters and numbers made one ``-``,
  none at either end.

A heading that slugs to nothing is ``heading``; a repeat gets ``-1``, ``-2``
(the first number not yet used on the page). ``{#id}`` sets the ID when
``markup.goldmark.parser.attribute.title`` is on (the default).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.identities import numbered
from chunkgate.chunking.slugs import attribute_id
from chunkgate.core.regex import lazy

# goldmark's attribute list closing a heading: `{#id .class key=value}`.
_ATTRIBUTES = lazy(r"(?<![ \t])[ \t]*\{([^{}\n]*)\}[ \t]*$")
_ID = lazy(r"(?:^|\s)#([^\s#{}=]+)")  # `{#0.14.2}` and `{#a.b .c}` keep the dots


def _lower(char: str) -> str:
    # Go's unicode.ToLower maps one rune to one rune: "İ" is "i", not "i̇".
    return char.lower()[:1]


def _github(text: str, *, ascii_only: bool) -> str:
    if ascii_only:
        text = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize(
            "NFC", "".join(c for c in text if unicodedata.category(c) != "Mn")
        )
    out = []
    for char in text.strip():
        if ascii_only and not char.isascii():
            continue
        if char in "- ":
            out.append("-")
        elif char == "_" or char.isalpha() or char.isdecimal():
            out.append(_lower(char))
    return "".join(out)


def _blackfriday(text: str) -> str:
    out: list[str] = []
    dash = False
    for char in text:
        if char.isalpha() or unicodedata.category(char)[0] == "N":
            if dash and out:
                out.append("-")
            dash = False
            out.append(_lower(char))
        else:
            dash = True
    return "".join(out)


def slug(raw: str, variant: str) -> str:
    if variant == "blackfriday":
        return _blackfriday(raw)
    return _github(raw, ascii_only=variant == "github-ascii")


def split_attributes(raw: str, *, attributes: bool = True) -> tuple[str, str | None]:
    """The heading's last source line without its attribute list, and the id it sets."""
    line = raw.rpartition("\n")[2].strip()
    found = _ATTRIBUTES.search(line) if attributes else None
    if found is None:
        return line, None
    inner = found.group(1).strip(" \t")
    # goldmark takes ``id=x`` as well as ``#x``, the last one where there are several.
    named = attribute_id(inner)
    if named is None:
        hashed = _ID.search(inner)
        named = hashed.group(1) if hashed else None
    return line[: found.start()].strip(), named


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    used: set[str] = set()
    out = []
    for heading in headings:
        line, explicit = split_attributes(heading.raw, attributes=style.attributes)
        text = heading.text
        shown = _ATTRIBUTES.search(text) if style.attributes else None
        if shown:
            text = text[: shown.start()]
        if explicit:
            used.add(explicit)
            out.append(Anchor(text, explicit, explicit=True))
            continue
        identity = slug(line, style.variant) or "heading"
        if identity in used:
            identity = numbered(identity, used)
        used.add(identity)
        out.append(Anchor(text, identity))
    return out
