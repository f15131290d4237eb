"""The doctree of a reStructuredText file, parsed by docutils as Sphinx would, safely.

Nothing is read or run: file insertion (``include``, ``raw :file:``,
``csv-table :file:``/``:url:``) and ``raw`` are off, no docutils.conf is read,
and Sphinx's roles and directives, unknown to plain docutils, are left as
they are. docutils is the ``rst`` extra, imported only when a file is parsed.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes

# docutils' levels: a SEVERE report, or an ERROR about titles ("Inconsistent
# title style", "Title overline & underline mismatch"), means the sections are
# not what the author wrote. Other errors are Sphinx's roles and directives,
# which plain docutils does not know, and say nothing about the sections.
SEVERE = 4
ERROR = 3
# docutils' own settings are the defaults, except these: nothing is read from
# disk or the network, nothing is printed, and ids are made as Sphinx makes them.
SETTINGS: dict[str, Any] = {
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "report_level": 5,
    "halt_level": 5,
    "doctitle_xform": False,
    "sectsubtitle_xform": False,
    "auto_id_prefix": "id",
    "syntax_highlight": "none",
    "character_level_inline_markup": False,
    "input_encoding": "unicode",
}


def parse(text: str) -> nodes.document:
    """The doctree, parsed with only the transform that gives targets to sections.

    docutils' full reader applies some thirty transforms (doc title, footnotes,
    smart quotes, ...) that change no section, ID or field; without them a
    file parses 12% faster (Sphinx's 153 doc files, same sections and IDs).
    Default settings are built without reading any docutils.conf.
    """
    # docutils (the rst extra) loads only when an .rst file is chunked
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser  # docutils: .rst files only
    from docutils.transforms.references import PropagateTargets  # docutils: .rst files only
    from docutils.utils import new_document  # docutils: .rst files only

    parser = Parser(inliner=_inliner())
    settings = get_default_settings(Parser)
    for key, value in SETTINGS.items():
        setattr(settings, key, value)
    settings.warning_stream = io.StringIO()
    document = new_document("<rst>", settings)
    parser.parse(text, document)
    document.transformer.add_transform(PropagateTargets)
    document.transformer.apply_transforms()
    return document


def _inliner() -> Any:
    """docutils' inliner, reading a role it does not know as literal text.

    Sphinx knows ``:ref:``, ``:doc:``, ``:class:``; plain docutils reports each
    as a problem and gives the report and the text two auto IDs, which shifts
    the ``id1``, ``id2`` of every later section with a repeated title. Read as
    Sphinx reads them, they take no IDs, and the section IDs are Sphinx's.
    """
    # docutils (the rst extra) loads only when an .rst file is chunked
    from docutils import nodes
    from docutils.parsers.rst import roles, states  # docutils: .rst files only

    inliner = states.Inliner()
    known = inliner.interpreted  # docutils builds its patterns from the class: no subclass

    def interpreted(
        rawsource: str, text: str, role: str, lineno: int
    ) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        function, _ = roles.role(role, inliner.language, lineno, inliner.reporter)
        if function is None:
            return [nodes.literal(rawsource, text)], []
        return known(rawsource, text, role, lineno)

    inliner.interpreted = interpreted  # type: ignore[method-assign]
    return inliner


def structure_error(document: nodes.document) -> tuple[int, str] | None:
    # docutils (the rst extra) loads only when an .rst file is chunked
    from docutils import nodes

    for message in document.findall(nodes.system_message):
        level = message["level"]
        text = message.children[0].astext().split("\n", 1)[0] if message.children else ""
        if level >= SEVERE or (level == ERROR and "title" in text.lower()):
            return message.get("line") or 1, f"reStructuredText error: {text}"
    return None


def field_list(document: nodes.document) -> tuple[tuple[str, str], ...]:
    """The file-wide field list, Sphinx's metadata: the document's first element
    (after comments) when it is a field list: ``:author:``, ``:tags:``, ..."""
    # docutils (the rst extra) loads only when an .rst file is chunked
    from docutils import nodes

    for element in document.children:
        if isinstance(element, nodes.comment | nodes.target | nodes.system_message):
            continue
        if not isinstance(element, nodes.field_list):
            return ()
        return tuple(
            (field[0].astext().strip().lower(), field[1].astext().strip())
            for field in element.children
            if isinstance(field, nodes.field) and len(field) == 2
        )
    return ()
