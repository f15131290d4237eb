"""GitHub: github-slugger on the rendered text, any explicit ``{#id}`` honoured (SPEC §2)."""

from __future__ import annotations

from collections.abc import Sequence

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY, Slugger, split_explicit_id


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    slug = Slugger().slug
    out = []
    for heading in headings:
        text, explicit = split_explicit_id(heading.text)
        # Every heading takes its place in GitHub's numbering, also the ones with
        # an explicit id, whose `{#id}` GitHub shows as text.
        github = slug(heading.text)
        out.append(Anchor(text, explicit or github or EMPTY_SLUG_IDENTITY, bool(explicit)))
    return out
