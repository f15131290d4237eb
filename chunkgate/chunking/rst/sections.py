"""The sections of a doctree, their lines in the file, and the anchors Sphinx gives them.

A section's ID is its first explicit target written right above the title
(``.. _install:``), else ``module-NAME`` when it opens with ``.. module::``,
else the ID docutils made of the title (``make_id``: "Über Größe" is
``uber-grosze``; repeats ``id1``, ``id2``, as Sphinx sets ``auto_id_prefix``).
docutils' ``title.line`` is the underline's line; the overline, targets and
comments above are found in the file's lines.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.chunking.base import is_blank
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from docutils import nodes

# An explicit target (".. _install:") or a one-line comment (".. note to self").
_HEAD = lazy(r"\.\.[ \t]+(?:_[^:]|[^ \t\[|])[^\n]*")
_DIRECTIVE = lazy(r"\.\.[ \t]+[^ \t:]+::")
# Sphinx directives that make no node: a target above them labels the next section.
_NO_NODE = lazy(
    r"\.\.[ \t]+(?:py:)?(?:currentmodule|highlight|default-role|default-domain"
    r"|sectionauthor|moduleauthor|codeauthor)::.*"
)
_TARGET = lazy(r"\.\.[ \t]+_`?([^`:]+)`?:[ \t]*$")


class Section(NamedTuple):
    level: int
    start: int  # 0-based, the first row of the targets and comments above its title
    title_row: int  # the first row of its title (its overline, if any)
    underline: int  # the last row of its title
    text: str
    identity: str
    path: tuple[str, ...]


def sections_of(document: nodes.document, lines: Sequence[str]) -> list[Section]:
    # docutils (the rst extra) loads only when an .rst file is chunked
    from docutils import nodes

    found: list[Section] = []
    floor = -1
    for section in document.findall(nodes.section):
        title = section[0] if len(section) and isinstance(section[0], nodes.title) else None
        if title is None or not title.line:
            continue
        underline = title.line - 1
        if not 1 <= underline < len(lines):
            continue
        first = underline - 1
        if first >= 1 and _is_overline(lines[first - 1], lines[underline]):
            first -= 1
        path: list[str] = []
        parent: nodes.Node | None = section
        while isinstance(parent, nodes.section):
            path.append(parent[0].astext())
            parent = parent.parent
        start = _head(lines, first, floor)
        floor = underline
        identity = _identity(document, section, lines[start:first])
        if identity is None:
            identity = _module_anchor(lines, underline) or _own_id(section)
        found.append(
            Section(len(path), start, first, underline, path[0], identity, tuple(path[::-1]))
        )
    return found


def _is_overline(line: str, underline: str) -> bool:
    mark = underline.strip()[:1]
    stripped = line.strip()
    return bool(mark) and len(stripped) >= 2 and stripped == mark * len(stripped)


_MODULE = lazy(r"\.\.[ \t]+(?:py:)?module::[ \t]+(\S+)[ \t]*")
_NO_INDEX = lazy(r"[ \t]+:no-?index:")
# Sphinx's _make_id: docutils' make_id, keeping case, dots and underscores.
_NON_ID = lazy(r"[^a-zA-Z0-9._]+")
_NON_ID_AT_ENDS = lazy(r"^[-0-9._]+|-+$")


def _module_anchor(lines: Sequence[str], underline: int) -> str | None:
    """Sphinx's anchor of a section that opens with ``.. module:: NAME``: ``module-NAME``.

    Sphinx's module directive makes a target that becomes the section's first
    ID, and so its permalink; plain docutils does not know the directive.
    """
    row = underline + 1
    while row < len(lines) and is_blank(lines[row]):
        row += 1
    found = _MODULE.fullmatch(lines[row]) if row < len(lines) else None
    if found is None:
        return None
    row += 1
    while row < len(lines) and lines[row][:1] in (" ", "\t") and lines[row].strip():
        if _NO_INDEX.match(lines[row]):
            return None
        row += 1
    return _sphinx_id(f"module-{found.group(1)}")


def _sphinx_id(term: str) -> str:

    # docutils (the rst extra) loads only when an .rst file is chunked
    from docutils import nodes

    digraphs: dict[int, str] = nodes._non_id_translate_digraphs  # type: ignore[attr-defined]
    singles: dict[int, str] = nodes._non_id_translate  # type: ignore[attr-defined]
    text = term.translate(digraphs).translate(singles)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NON_ID_AT_ENDS.sub("", _NON_ID.sub("-", " ".join(text.split())))


def _identity(document: nodes.document, section: nodes.section, head: Sequence[str]) -> str | None:
    """The ID of the first explicit target written right above the title.

    docutils also hands a section the targets that Sphinx gives to the
    directive below them (``.. _x:`` above a ``.. confval::`` that docutils
    does not know), so a target counts only where it stands.
    """
    written = {_TARGET.sub(r"\1", line.strip()).lower() for line in head if _TARGET.match(line)}
    for name in section["names"]:
        if document.nametypes.get(name) and " ".join(name.split()) in written:
            target = document.nameids.get(name)
            if target:
                return str(target)
    return None


def _own_id(section: nodes.section) -> str:
    """The ID docutils made of the title (``make_id``, repeats ``id1``, ``id2``)."""
    ids = section["ids"]
    return str(ids[0]) if ids else "~section"


def _head(lines: Sequence[str], row: int, floor: int) -> int:
    """The first row of the targets and comments directly above a title."""
    start = row
    index = row - 1
    while index > floor:
        line = lines[index]
        if is_blank(line):
            index -= 1
            continue
        text = line.rstrip()
        if (_HEAD.fullmatch(text) and not _DIRECTIVE.match(text)) or _NO_NODE.fullmatch(text):
            start = index
            index -= 1
            continue
        break
    return start
