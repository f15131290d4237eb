"""VitePress: markdown-it-anchor with ``@mdit-vue/shared``'s ``slugify``, ``{#id}`` by
markdown-it-attrs.

The heading's text is its text and code spans (inline HTML such as a
``<Badge>`` component and markdown-it-emoji's ``:tada:`` are left out; an entity
stays as written, ``&amp;`` is ``amp``), decomposed (NFKD) without combining
marks and control characters; every run of white space and ASCII punctuation
(curly quotes too) becomes one ``-``, none at either end; a leading digit
gets ``_`` before it; then lower case. Other characters (``—``, ``ß``,
CJK) stay. A repeat gets ``-1``, ``-2``: the first not yet used on the page,
counted again from 1 for each heading. An ``{#id}`` takes its place in the same
order (VitePress refuses to build when it repeats an ID already used).
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.identities import numbered
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY
from chunkgate.core.regex import lazy

# markdown-it-attrs' attribute list closing a heading: `{#id .class key=value}`.
_ATTRIBUTES = lazy(r"(?<![ \t])[ \t]*\{([^{}\n]*)\}[ \t]*$")
_ID = lazy(r"(?:^|\s)#([^\s#{}=]+)")  # `{#0.14.2}` keeps its dots
_PUNCTUATION = lazy(r"""[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:"'\u201c\u201d\u2018\u2019<>,.?/]+""")
_CONTROL = lazy(r"[\x00-\x1f]")
_ENTITY = lazy(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_EMOJI = lazy(r"(?<![A-Za-z0-9]):[a-z0-9_+-]+:(?![A-Za-z0-9])")


def slugify(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not "\u0300" <= c <= "\u036f")
    slug = _PUNCTUATION.sub("-", _CONTROL.sub("", kept)).strip("-")
    if slug[:1].isascii() and slug[:1].isdigit():
        slug = f"_{slug}"
    return slug.lower()


def _as_written(text: str, raw: str) -> str:
    """``text`` (entities decoded) with each entity of ``raw`` back as its source."""
    at = 0
    for entity in _ENTITY.findall(raw):
        decoded = html.unescape(entity)
        found = text.find(decoded, at)
        if decoded != entity and found >= 0:
            text = text[:found] + entity + text[found + len(decoded) :]
            at = found + len(entity)
    return text


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    used: set[str] = set()
    out = []
    for heading in headings:
        text = heading.text
        found = _ATTRIBUTES.search(text) if style.attributes else None
        named = _ID.search(found.group(1)) if found else None
        if found is not None:
            text = text[: found.start()]
        if named:
            base = named.group(1)
        else:
            written = _as_written(text, heading.raw) if "&" in heading.raw else text
            base = slugify(_EMOJI.sub("", written) if ":" in written else written)
            base = base or EMPTY_SLUG_IDENTITY
        identity = numbered(base, used) if base in used else base
        used.add(identity)
        out.append(Anchor(text, identity, named is not None))
    return out
