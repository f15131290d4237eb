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

``tree`` parses the file safely, ``sections`` finds the sections and their
anchors, and this module makes the chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking import plain
from chunkgate.chunking.base import ChunkContext, Chunked, is_blank, suppressions
from chunkgate.chunking.linecuts import parts, row_sizer
from chunkgate.chunking.rst.sections import Section, sections_of
from chunkgate.chunking.rst.tree import field_list, parse, structure_error
from chunkgate.core.model import Chunk, Heading, Problem
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from docutils import nodes

    from chunkgate.chunking.languages import Language

__all__ = ["chunk_rst", "outline", "parse"]

# Markdown's reserved form (chunking.markdown, not imported: it loads cmark).
PREAMBLE_IDENTITY = "~preamble"
_ITEM = lazy(r"(?:[-*+\u2022\u2023\u2043]|\d+[.)]|#\.|\(\d+\))[ \t]")


SPHINX = "sphinx (docutils' make_id, explicit targets)"  # the anchors outline shows


def chunk(ctx: ChunkContext, language: Language) -> Chunked:
    return Chunked(*chunk_rst(ctx))


def chunk_rst(ctx: ChunkContext) -> tuple[list[Chunk], list[Problem]]:
    try:
        document = parse(ctx.text)
    except ImportError:
        return plain.chunk_plain(ctx, language="rst"), []
    except Exception as exc:  # docutils raises bare exceptions on some broken input
        problem = Problem(ctx.path, 1, f"reStructuredText could not be parsed: {exc}")
        return plain.chunk_plain(ctx, language="rst"), [problem]
    severe = structure_error(document)
    if severe is not None:
        return plain.chunk_plain(ctx, language="rst"), [Problem(ctx.path, *severe)]
    found = sections_of(document, ctx.lines)
    return _chunks(ctx, document, found), []


def outline(ctx: ChunkContext) -> list[Heading]:
    try:
        document = parse(ctx.text)
    except Exception:
        return []
    return [
        Heading(ctx.path, s.level, s.text, s.title_row + 1, f"{ctx.path}#{s.identity}", SPHINX)
        for s in sections_of(document, ctx.lines)
    ]


def _chunks(ctx: ChunkContext, document: nodes.document, sections: list[Section]) -> list[Chunk]:
    lines = ctx.lines
    title = sections[0].text if sections else None
    fields = field_list(document)
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
    for start, end in parts(first, last, depths, row_sizer(ctx), ctx.limit_for(chunk)):
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
