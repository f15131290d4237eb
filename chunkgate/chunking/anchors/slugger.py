"""Docusaurus and Astro Starlight: github-slugger, as on GitHub, with their own explicit IDs.

Both slug the heading's text content with github-slugger, so the anchor is
GitHub's. They differ from the ``github`` flavour in explicit IDs:
Docusaurus honours only ``{#id}`` at the end of a heading (not
``{: #id}`` or ``{#id .class}``); Starlight (Astro's ``rehypeHeadingIds``) has no
heading attribute syntax, so ``{#id}`` is heading text, slugged with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY, Slugger
from chunkgate.core.regex import lazy

# Docusaurus' own pattern (utils/markdownUtils): `{#` id `}` closing the heading.
_DOCUSAURUS_ID = lazy(r"(?<!\s)\s*\{#([^{}]+?)\}\s*$")


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    slug = Slugger().slug
    out = []
    for heading in headings:
        text = heading.text
        found = _DOCUSAURUS_ID.search(text) if style.attributes else None
        if found:
            out.append(Anchor(text[: found.start()], found.group(1), explicit=True))
            continue
        out.append(Anchor(text, slug(text) or EMPTY_SLUG_IDENTITY))
    return out
