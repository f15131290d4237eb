"""reStructuredText chunks: one per section, as docutils and Sphinx see them.

docutils parses the file (the ``rst`` extra, imported only here), so the
sections are exactly the ones docutils reports: adornment styles rank in the
order they first appear, and a title inside a directive or literal block is
no title. A section's ID is the anchor Sphinx gives it: its first explicit
target (``.. _install:`` above the title) when it has one, else the ID
docutils makes of the title (``make_id``: "Über Größe" is ``uber-grosze``,
repeats ``id1``, ``id2``, as Sphinx sets ``auto_id_prefix``). Lines come from
the file: a chunk opens with the targets and comments right above its title
and ends where the next one opens, so every non-blank line is in one chunk.
A section over ``size.max`` is cut into parts ``ID~2``, ``ID~3`` between its
top-level blocks, never inside a directive or literal block. A section with
no body of its own (a page title followed by its first subsection) opens the
next chunk, as in Markdown.

Nothing is read or run: file insertion (``include``, ``raw :file:``,
``csv-table :file:``/``:url:``) and ``raw`` are off, docutils config files
are not read, and Sphinx's own directives and roles are unknown to plain
docutils, so their content is left as it is.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from chunkgate.chunking import plain
from chunkgate.chunking.base import ChunkContext, is_blank, suppressions
from chunkgate.chunking.parts import parts, row_sizer
from chunkgate.model import Chunk, Heading, Problem

if TYPE_CHECKING:
    from docutils import nodes

# docutils' levels: a SEVERE report, or an ERROR about titles ("Inconsistent
# title style", "Title overline & underline mismatch"), means the sections are
# not what the author wrote. Other errors are Sphinx's roles and directives,
# which plain docutils does not know, and say nothing about the sections.
SEVERE = 4
ERROR = 3
# Markdown's reserved form (chunking.markdown, not imported: it loads cmark).
PREAMBLE_IDENTITY = "~preamble"

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

# An explicit target (".. _install:") or a one-line comment (".. note to self").
_HEAD = re.compile(r"\.\.[ \t]+(?:_[^:]|[^ \t\[|])[^\n]*")
_ITEM = re.compile(r"(?:[-*+\u2022\u2023\u2043]|\d+[.)]|#\.|\(\d+\))[ \t]")
_DIRECTIVE = re.compile(r"\.\.[ \t]+[^ \t:]+::")
# Sphinx directives that make no node: a target above them labels the next section.
_NO_NODE = re.compile(
    r"\.\.[ \t]+(?:py:)?(?:currentmodule|highlight|default-role|default-domain"
    r"|sectionauthor|moduleauthor|codeauthor)::.*"
)
_TARGET = re.compile(r"\.\.[ \t]+_`?([^`:]+)`?:[ \t]*$")


class _Section(NamedTuple):
    level: int
    start: int  # 0-based, the first row of the targets and comments above its title
    title_row: int  # the first row of its title (its overline, if any)
    underline: int  # the last row of its title
    text: str
    identity: str
    path: tuple[str, ...]


def parse(text: str) -> nodes.document:
    """The doctree, parsed with only the transform that gives targets to sections.

    docutils' full reader applies some thirty transforms (doc title, footnotes,
    smart quotes, ...) that change no section, ID or field; without them a
    file parses 12% faster (Sphinx's 153 doc files, same sections and IDs).
    Default settings are built without reading any docutils.conf.
    """
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.transforms.references import PropagateTargets
    from docutils.utils import new_document

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
    from docutils import nodes
    from docutils.parsers.rst import roles, states

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


def chunk_rst(ctx: ChunkContext) -> tuple[list[Chunk], list[Problem]]:
    try:
        document = parse(ctx.text)
    except ImportError:
        return plain.chunk_plain(ctx, language="rst"), []
    except Exception as exc:  # docutils raises bare exceptions on some broken input
        problem = Problem(ctx.path, 1, f"reStructuredText could not be parsed: {exc}")
        return plain.chunk_plain(ctx, language="rst"), [problem]
    severe = _severe(document)
    if severe is not None:
        return plain.chunk_plain(ctx, language="rst"), [Problem(ctx.path, *severe)]
    sections = _sections(document, ctx.lines)
    return _chunks(ctx, document, sections), []


def outline(ctx: ChunkContext) -> list[Heading]:
    try:
        document = parse(ctx.text)
    except Exception:
        return []
    return [
        Heading(ctx.path, s.level, s.text, s.title_row + 1, f"{ctx.path}#{s.identity}")
        for s in _sections(document, ctx.lines)
    ]


def _severe(document: nodes.document) -> tuple[int, str] | None:
    from docutils import nodes

    for message in document.findall(nodes.system_message):
        level = message["level"]
        text = message.children[0].astext().split("\n", 1)[0] if message.children else ""
        if level >= SEVERE or (level == ERROR and "title" in text.lower()):
            return message.get("line") or 1, f"reStructuredText error: {text}"
    return None


def _sections(document: nodes.document, lines: Sequence[str]) -> list[_Section]:
    from docutils import nodes

    found: list[_Section] = []
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
            _Section(len(path), start, first, underline, path[0], identity, tuple(path[::-1]))
        )
    return found


def _is_overline(line: str, underline: str) -> bool:
    mark = underline.strip()[:1]
    stripped = line.strip()
    return bool(mark) and len(stripped) >= 2 and stripped == mark * len(stripped)


_MODULE = re.compile(r"\.\.[ \t]+(?:py:)?module::[ \t]+(\S+)[ \t]*")
_NO_INDEX = re.compile(r"[ \t]+:no-?index:")
# Sphinx's _make_id: docutils' make_id, keeping case, dots and underscores.
_NON_ID = re.compile(r"[^a-zA-Z0-9._]+")
_NON_ID_AT_ENDS = re.compile(r"^[-0-9._]+|-+$")


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
    import unicodedata

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


def _chunks(ctx: ChunkContext, document: nodes.document, sections: list[_Section]) -> list[Chunk]:
    lines = ctx.lines
    title = sections[0].text if sections else None
    fields = _fields(document)
    tags = tuple(
        tag.strip()
        for key, value in fields
        if key in ("tags", "keywords")
        for tag in value.split(",")
    )
    tags = tuple(tag for tag in tags if tag)
    starts = [section.start for section in sections]
    chunks: list[Chunk] = []
    first_start = starts[0] if starts else len(lines)
    preamble = _trim(lines, 0, first_start - 1)
    if preamble is not None:
        chunks.append(
            ctx.make(
                PREAMBLE_IDENTITY,
                "preamble",
                "rst",
                preamble[0] + 1,
                preamble[1] + 1,
                title=title,
                tags=tags,
                fields=fields,
            )
        )
    opening: int | None = None  # a section with no body opens the next chunk
    for index, section in enumerate(sections):
        end = starts[index + 1] - 1 if index + 1 < len(sections) else len(lines) - 1
        body = _trim(lines, section.underline + 1, end)
        first = starts[index] if opening is None else opening
        if body is None and index + 1 < len(sections):
            opening = first
            continue
        opening = None
        span = _trim(lines, first, end)
        if span is None:
            continue
        chunk = ctx.make(
            section.identity,
            "section",
            "rst",
            span[0] + 1,
            span[1] + 1,
            body_line=min(section.underline + 2, span[1] + 1),
            heading_path=section.path,
            level=section.level,
            suppressed=_suppressed(lines, span[0], section.title_row),
            title=title,
            tags=tags,
            fields=fields,
        )
        if ctx.size_of(chunk) > ctx.options.max:
            chunks.extend(_parts(ctx, chunk, span[0], span[1], section.underline))
        else:
            chunks.append(chunk)
    return chunks


def _parts(ctx: ChunkContext, chunk: Chunk, first: int, last: int, underline: int) -> list[Chunk]:
    """An oversized section cut between its top-level blocks, as an ingest would.

    A block starts at an unindented line after a blank one (or, inside a
    long list, at an item); a directive's body, a literal block and a block
    quote are indented, so they are never cut, as a fenced code block in
    Markdown is not. The title always keeps its first block.
    """
    lines = ctx.lines
    depths: list[int | None] = [None] * (len(lines) + 1)
    # The title stays with the first block: no cut before it.
    body = max(first, underline) + 1
    while body <= last and is_blank(lines[body]):
        body += 1
    for row in range(body + 1, last + 1):
        line = lines[row]
        if line[:1] in ("", " ", "\t") or is_blank(line):
            continue
        if is_blank(lines[row - 1]):
            depths[row] = 0
        elif _ITEM.match(line):
            depths[row] = 1  # between the items of a long list, if it must
    out: list[Chunk] = []
    for start, end in parts(first, last, depths, row_sizer(ctx), ctx.options.max):
        span = _trim(lines, start, end)
        if span is None:
            continue
        out.append(
            ctx.make(
                chunk.identity if not out else f"{chunk.identity}~{len(out) + 1}",
                "section",
                "rst",
                span[0] + 1,
                span[1] + 1,
                body_line=chunk.body_line if not out else span[0] + 1,
                heading_path=chunk.heading_path,
                level=chunk.level,
                suppressed=chunk.suppressed,
                title=chunk.title,
                tags=chunk.tags,
                fields=chunk.fields,
            )
        )
    return out


def _fields(document: nodes.document) -> tuple[tuple[str, str], ...]:
    """The file-wide field list, Sphinx's metadata: the document's first element
    (after comments) when it is a field list: ``:author:``, ``:tags:``, ..."""
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


def _suppressed(lines: Sequence[str], first: int, title: int) -> frozenset[str]:
    codes: frozenset[str] = frozenset()
    for line in lines[first:title]:
        if "chunkgate:" in line:
            codes |= suppressions(line)
    return codes


def _trim(lines: Sequence[str], first: int, last: int) -> tuple[int, int] | None:
    while first <= last and is_blank(lines[first]):
        first += 1
    while last >= first and is_blank(lines[last]):
        last -= 1
    return (first, last) if first <= last else None
