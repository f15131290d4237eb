"""MkDocs: Python-Markdown's ``toc`` extension, or the ``pymdownx.slugs`` it is given.

``toc`` slugs the heading's text (tags stripped, entities decoded): folded to
ASCII by NFKD unless it is ``slugify_unicode``, every character that is not a
word character, a space or ``-`` dropped, trimmed, lower-cased, and each run of
spaces and separators made one separator. Before it numbers anything it
reserves the page's explicit IDs (``{: #id}``, ``{ id=x }``, with ``attr_list``,
which also takes a list of classes or keys alone off the text); a repeat
then gets ``_1``, ``_2`` (a slug already ending in ``_N`` counts on from N),
and a heading that slugs to nothing is ``_1``. A heading ``::: pkg.mod``
(mkdocstrings) is replaced by the object's, whose id is ``pkg.mod``.

``pymdownx.slugs.slugify(case=..., normalize=..., percent_encode=...)`` keeps
Unicode: it normalises (NFC), strips, applies the case (``none``, ``lower``,
``lower-ascii``, ``fold``), drops what is not a word character, a space or
``-``, and turns each space into the separator.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import quote

from chunkgate.chunking.anchors import Anchor, AnchorStyle, HeadingSource
from chunkgate.chunking.slugs import is_attribute_list, split_explicit_id
from chunkgate.core.regex import lazy

_COUNTED = lazy(r"^(.*)_([0-9]+)$")
_NOT_SLUG = lazy(r"[^\w\s-]")
_NOT_PYMDOWNX_SLUG = lazy(r"[^\w\- ]")
_ASCII_UPPER = lazy(r"[A-Z]")
# attr_list's list at the end of a heading (after a space), from its "{".
_TRAILING_LIST = lazy(r"\{:? *([^{}\n ][^{}\n]*)\} *")
_AUTODOC_HEADING = lazy(r"::: ?(\S+)")


def toc_slug(text: str, separator: str = "-", *, unicode: bool = False) -> str:
    if not unicode:
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = _NOT_SLUG.sub("", text).strip().lower()
    return re.sub(rf"[{re.escape(separator)}\s]+", separator, text)


def pymdownx_slug(text: str, separator: str, variant: str) -> str:
    """``variant`` is ``pymdownx:case=lower,normalize=NFC,percent_encode=0``."""
    settings = dict(item.split("=", 1) for item in variant.partition(":")[2].split(",") if item)
    text = unicodedata.normalize(settings.get("normalize", "NFC"), text).strip()  # type: ignore[arg-type]
    case = settings.get("case", "none")
    if case == "lower":
        text = text.lower()
    elif case == "lower-ascii":
        text = _ASCII_UPPER.sub(lambda m: m.group(0).lower(), text)
    elif case == "fold":
        text = text.casefold()
    text = _NOT_PYMDOWNX_SLUG.sub("", text).replace(" ", separator)
    return quote(text.encode("utf-8")) if settings.get("percent_encode") == "1" else text


def slug(text: str, style: AnchorStyle) -> str:
    if style.variant.startswith("pymdownx"):
        return pymdownx_slug(text, style.separator, style.variant)
    return toc_slug(text, style.separator, unicode=style.variant == "toc-unicode")


def unique(identity: str, used: set[str]) -> str:
    """Python-Markdown's ``toc.unique``: ``_1``, ``_2``, ... until unused."""
    while identity in used or not identity:
        counted = _COUNTED.match(identity)
        base, number = (counted.group(1), int(counted.group(2))) if counted else (identity, 0)
        identity = f"{base}_{number + 1}"
    used.add(identity)
    return identity


def split_attributes(text: str) -> tuple[str, str | None]:
    """A heading's text without the attribute list ``attr_list`` takes from its end (also
    one of classes or keys alone, ``{ .new }``), and the id it sets."""
    text, explicit = split_explicit_id(text)
    brace = text.rfind("{") if explicit is None and text.endswith("}") else -1
    if brace > 0 and text[brace - 1] == " ":
        found = _TRAILING_LIST.fullmatch(text, brace)
        if found and is_attribute_list(found[1]):
            return text[:brace].rstrip(" "), None
    return text, explicit


def _autodoc(text: str) -> str | None:
    found = _AUTODOC_HEADING.fullmatch(text)
    return found.group(1) if found else None


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle) -> list[Anchor]:
    # toc reads the text with its whitespace collapsed (toc.strip_tags).
    texts = [" ".join(h.text.split()) for h in headings]
    split = [split_attributes(text) if style.attributes else (text, None) for text in texts]
    # ``## ::: pkg.mod`` is mkdocstrings' heading form: the object's heading takes its place,
    # with the object's path as its id (``links.autodoc``).
    split = [(text, explicit or _autodoc(text)) for text, explicit in split]
    used = {explicit for _, explicit in split if explicit}
    return [
        Anchor(text, explicit, explicit=True)
        if explicit
        else Anchor(text, unique(slug(text, style), used))
        for text, explicit in split
    ]
