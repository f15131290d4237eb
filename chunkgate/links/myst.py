"""The anchors of a MyST page published by Sphinx, and how a link there resolves.

Sphinx gives an element the ids of its names, normalised by docutils
(``docutils_id``: ``(my_label)=`` gives ``my-label``), and MyST resolves a
link to a name as written, to the element's first id: so a page has, besides
its headings' ids (``chunking.anchors.sphinx``), their MyST slugs (GitHub's)
and docutils' ids of their titles:

- each target ``(label)=``, as written and normalised;
- each ``{#id}`` attribute (``attrs_block``, ``attrs_inline``), directive
  ``:name:`` option and ``{figure-md}`` name; each footnote, by its label;
- each object a domain directive declares (```` ```{py:class} pkg.Class ````);
- each glossary term, as ``term-<id>``; each reST label ``.. _label:`` of an
  ``{eval-rst}`` block.

A page whose directives write what is not in its text (``{include}``,
``autodoc``'s ``{automodule}`` and the like) is open: its anchors are not all
known. A link that is only a fragment (``[text](#label)``) is a Sphinx
cross-reference: MyST looks for the target on the page, then in the whole
project, then in other projects' inventories (intersphinx), then any id of
the page, so it is checked against the page alone only where Sphinx would
find nothing else (``broken.check_references`` leaves the rest unverified).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from chunkgate.chunking.anchors.sphinx import docutils_id
from chunkgate.chunking.slugs import Slugger
from chunkgate.core.regex import lazy

_LABEL = lazy(r"^[ \t]*\((?P<label>[^()\s][^()]*)\)=[ \t]*$", re.M)
_ATTRIBUTE_ID = lazy(r"\{[^{}\n]*?#(?P<id>[^\s{}#]+)[^{}\n]*\}")
_NAME_OPTION = lazy(r"^[ \t]*:name:[ \t]*(?P<name>\S[^\n]*?)[ \t]*$", re.M)
_DOMAIN_OBJECT = lazy(
    r"^[ \t]*[`:~]{3,}\{(?:py|js|c|cpp|rst|std):\w+\}[ \t]+(?P<name>[^\s(]+)", re.M
)
_FIGURE = lazy(r"^[ \t]*[`:~]{3,}\{figure-md\}[ \t]+(?P<name>\S+)", re.M)
_FOOTNOTE = lazy(r"^\[\^(?P<label>[^\]\s]+)\]:", re.M)
_REST_LABEL = lazy(r"^[ \t]*\.\. _(?P<label>[^:\n]+):[ \t]*$", re.M)
_TERM = lazy(r"^(?P<term>[^\s:][^\n]*)\n(?:[ \t]*\n)?:[ \t]", re.M)
# A ``{glossary}`` directive: its terms are the lines its definitions are indented under.
_GLOSSARY = lazy(r"^(?P<fence>[`:~]{3,})\{glossary\}[^\n]*\n(?P<body>.*?)^(?P=fence)", re.M | re.S)
# Directives that write content the page's text does not hold.
_OPEN = lazy(r"\{(?:include|auto\w*|autodoc2-\w+|literalinclude-md)\}|^[ \t]*\.\. auto\w+::", re.M)


# docutils' transliterations before it drops what is not ASCII (``ß`` is ``sz``).
def myst_anchors(text: str, headings: Iterable[str]) -> set[str] | None:
    """The anchors the page ``text`` has beyond its headings' slugs; ``headings`` are
    their rendered texts. None when the page is open (module docstring)."""
    if "{" in text and _OPEN.search(text):
        return None
    slug = Slugger().slug  # MyST's slugs, every heading's: more than the depth is harmless
    found = {anchor for heading in headings for anchor in (docutils_id(heading), slug(heading))}
    for match in _LABEL.finditer(text):
        found.update(_name_ids(match.group("label")))
    if "{" in text:
        found.update(match.group("id") for match in _ATTRIBUTE_ID.finditer(text))
        found.update(match.group("name") for match in _DOMAIN_OBJECT.finditer(text))
        for match in _FIGURE.finditer(text):
            found.update(_name_ids(match.group("name")))
    if "[^" in text:
        found.update(docutils_id(match.group("label")) for match in _FOOTNOTE.finditer(text))
    for match in _NAME_OPTION.finditer(text):
        found.update(_name_ids(match.group("name")))
    if ".. _" in text:
        for match in _REST_LABEL.finditer(text):
            found.update(_name_ids(match.group("label")))
    if "glossary" in text:
        found.update(f"term-{docutils_id(m.group('term'))}" for m in _TERM.finditer(text))
        for match in _GLOSSARY.finditer(text):
            terms = match.group("body").split("\n")
            found.update(f"term-{docutils_id(t)}" for t in terms if t[:1] not in ("", " ", ":"))
    found.discard("")
    return found


def _name_ids(name: str) -> tuple[str, str]:
    """A name as MyST resolves it (as written) and as its element's id (normalised)."""
    return name, docutils_id(name)
