"""reStructuredText chunks: one per section, as docutils and Sphinx see them.

docutils parses the file (the ``rst`` extra, imported only here), so the
sections are exactly the ones docutils reports: adornment styles rank in the
order they first appear, and a title inside a directive or literal block is
no title. A section's ID is the anchor Sphinx gives it: its first explicit
target (``.. _install:`` above the title) when it has one, else the ID
docutils makes of the title (``make_id``: "Über Größe" is ``uber-grosze``,
repeats ``id1``, ``id2``, as Sphinx sets ``auto_id_prefix``). Lines come from
the file: a chunk opens with the targets and comments right above its title
and ends where the next one opens, so directives stay whole and every
non-blank line is in one chunk. A section with no body of its own (a page
title followed by its first subsection) opens the next chunk, as in Markdown.

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
from chunkgate.chunking.markdown import PREAMBLE_IDENTITY
from chunkgate.model import Chunk, Heading, Problem

if TYPE_CHECKING:
    from docutils import nodes

SEVERE = 4  # docutils' level of a broken document ("Title level inconsistent")

# docutils' own settings are the defaults, except these: nothing is read from
# disk or the network, nothing is printed, and ids are made as Sphinx makes them.
SETTINGS: dict[str, Any] = {
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "_disable_config": True,
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
_DIRECTIVE = re.compile(r"\.\.[ \t]+[^ \t:]+::")


class _Section(NamedTuple):
    level: int
    title_row: int  # 0-based, the first row of its title (its overline, if any)
    underline: int  # the last row of its title
    text: str
    identity: str
    path: tuple[str, ...]


def parse(text: str) -> nodes.document:
    from docutils.core import publish_doctree

    settings = dict(SETTINGS, warning_stream=io.StringIO())
    return publish_doctree(text, settings_overrides=settings)


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
        Heading(ctx.path, s.level, s.text, s.underline, f"{ctx.path}#{s.identity}")
        for s in _sections(document, ctx.lines)
    ]


def _severe(document: nodes.document) -> tuple[int, str] | None:
    from docutils import nodes

    for message in document.findall(nodes.system_message):
        if message["level"] >= SEVERE:
            line = message.get("line") or 1
            text = message.astext().split("\n", 1)[0]
            return line, f"reStructuredText error: {text}"
    return None


def _sections(document: nodes.document, lines: Sequence[str]) -> list[_Section]:
    from docutils import nodes

    found: list[_Section] = []
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
        found.append(
            _Section(
                len(path),
                first,
                underline,
                path[0],
                _identity(document, section),
                tuple(path[::-1]),
            )
        )
    return found


def _is_overline(line: str, underline: str) -> bool:
    mark = underline.strip()[:1]
    stripped = line.strip()
    return bool(mark) and len(stripped) >= 2 and stripped == mark * len(stripped)


def _identity(document: nodes.document, section: nodes.section) -> str:
    """The first explicit target's ID, else the ID docutils made of the title."""
    for name in section["names"]:
        if document.nametypes.get(name):
            target = document.nameids.get(name)
            if target:
                return str(target)
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
        if _HEAD.fullmatch(line.rstrip()) and not _DIRECTIVE.match(line):
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
    starts: list[int] = []
    floor = -1
    for section in sections:
        start = _head(lines, section.title_row, floor)
        starts.append(start)
        floor = section.underline
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
        chunks.append(
            ctx.make(
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
        )
    return chunks


def _fields(document: nodes.document) -> tuple[tuple[str, str], ...]:
    """The file-wide field list (docutils' docinfo): ``:author:``, ``:tags:``, ..."""
    from docutils import nodes

    out: list[tuple[str, str]] = []
    for docinfo in document.findall(nodes.docinfo):
        for item in docinfo.children:
            if isinstance(item, nodes.field) and len(item) == 2:
                out.append((item[0].astext().strip().lower(), item[1].astext().strip()))
            elif isinstance(item, nodes.Element):
                out.append((item.tagname, item.astext().strip()))
        break
    return tuple(out)


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
