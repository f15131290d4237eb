"""Sphinx with MyST: the HTML id a heading's permalink and table of contents use (SPEC §2).

A heading labelled by a MyST target ``(label)=`` has the label's id
(docutils normalises it: ``(my_label)=`` is ``my-label``); any other has the
id docutils makes of its title (``A/B test`` is ``a-b-test``). A repeated
title's id is docutils' ``id1``, ``id2``, numbered in the order of every
unnamed element of the page, which the headings alone do not tell: such a
heading takes MyST's slug instead (GitHub's, numbered across the headings
within ``myst_heading_anchors`` levels, the flavour's variant), which the
page has as a second id, or past those levels the title's id with ``-1``.
The variant is the depth, and ``+smartquotes`` when MyST's extension is on.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY, Slugger
from chunkgate.core.regex import lazy

# Letters with a stroke or hook have no decomposition to drop it: docutils maps them.
_DIGRAPHS = str.maketrans({"ß": "sz", "æ": "ae", "œ": "oe", "ȸ": "db", "ȹ": "qp"})
_SINGLES = str.maketrans("øđħıłŧƀƃƈƌƒƙƚƞƥƫƭƴƶǥȥȴȵȶȷȼȿɀɇɉɋɍɏ", "odhiltbbcdfklnpttyzgzlntjcszejqry")
_NON_ID = lazy(r"[^a-z0-9]+")
_NON_ID_AT_ENDS = lazy(r"^[-0-9]+|-+$")


def docutils_id(name: str) -> str:
    """The id docutils makes of a name: lowercase ASCII letters and digits joined by
    single hyphens, starting with a letter (``2nd try`` is ``nd-try``)."""
    text = name.lower().translate(_DIGRAPHS).translate(_SINGLES)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = _NON_ID.sub("-", " ".join(text.split()))
    return _NON_ID_AT_ENDS.sub("", text)


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    levels, _, quotes = style.variant.partition("+")
    depth = int(levels) if levels.isdigit() else 0
    # MyST's smartquotes turn quotes into curly ones as it parses, before docutils makes
    # the title's id, and docutils drops those: "doesn't" is "doesnt", not "doesn-t".
    unquoted = str.maketrans("", "", "'\"") if quotes == "smartquotes" else {}
    slug = Slugger().slug
    seen: dict[str, int] = {}
    out = []
    for heading in headings:
        slugged = slug(heading.text) if heading.level <= depth else ""
        titled = docutils_id(heading.text.translate(unquoted))
        count = seen.get(titled, 0)
        seen[titled] = count + 1
        if heading.above:
            identity = docutils_id(heading.above)
        elif titled and not count:
            identity = titled
        else:
            identity = slugged or (f"{titled}-{count}" if titled else "")
        out.append(Anchor(heading.text, identity or EMPTY_SLUG_IDENTITY, bool(heading.above)))
    return out
