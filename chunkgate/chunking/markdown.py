"""Markdown sections: one chunk per heading, per SPEC §1-§2.

A section is a heading and the text up to the next section heading (a
top-level heading at level <= ``split_level``); headings inside block quotes
and list items are not boundaries. Text before the first section is the
preamble. A heading with no body of its own (directly followed by another
section heading) yields no chunk: its lines open the next chunk, so every
line belongs to exactly one chunk, a parent's title travels with its first
child, and adding text or a subsection under a bare heading changes no chunk
ID. (A file of headings alone, like an empty file, has no chunks.) Likewise a
preamble of HTML comments only (a ``chunkgate: disable`` or linter comment)
opens the first section's chunk instead of making a chunk of its own (and a
file of comments and headings alone has no chunks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.chunking import cmark
from chunkgate.chunking.base import BLANK_CHARS as _BLANK
from chunkgate.chunking.base import ChunkContext, suppressions
from chunkgate.chunking.frontmatter import FrontMatter, parse_front_matter
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY, Slugger, split_explicit_id
from chunkgate.model import Chunk, Heading

PREAMBLE_IDENTITY = "~preamble"
_NO_CODES: frozenset[str] = frozenset()
_COMMENTS = re.compile(r"(?:[ \t\n]*<!--(?:(?!-->).)*-->)+[ \t\n]*", re.DOTALL)


class _Heading(NamedTuple):
    level: int
    first: int  # 0-based line indexes into the whole file
    last: int
    text: str
    identity: str
    nested: bool


def headings(ctx: ChunkContext) -> tuple[FrontMatter | None, list[_Heading]]:
    """Every heading of the file with its rendered text and identity, in order."""
    front = parse_front_matter(ctx.lines)
    text = ctx.text
    if front:
        # Blank out the front matter so that cmark's line numbers stay the file's.
        text = "\n" * front.lines + text.split("\n", front.lines)[-1]
    slug = Slugger().slug
    out: list[_Heading] = []
    for level, first, last, content, nested in cmark.headings(text, ctx.lines):
        rendered, explicit = split_explicit_id(content)
        # Every heading takes its place in GitHub's numbering, also the ones
        # with an explicit id, whose `{#id}` GitHub shows as text.
        github = slug(content)
        if "\n" in rendered:
            rendered = rendered.replace("\n", " ")
        identity = explicit or github or EMPTY_SLUG_IDENTITY
        out.append(_Heading(level, first - 1, last - 1, rendered.strip(" "), identity, nested))
    return front, out


def outline(ctx: ChunkContext) -> list[Heading]:
    _, found = headings(ctx)
    return [
        Heading(ctx.path, h.level, h.text, h.first + 1, f"{ctx.path}#{h.identity}")
        for h in found
        if not h.nested
    ]


def chunk_markdown(ctx: ChunkContext) -> list[Chunk]:
    front, found = headings(ctx)
    split_level = ctx.options.split_level
    sections = [h for h in found if not h.nested and h.level <= split_level]
    return _chunks(ctx, front, sections)


class _Span(NamedTuple):
    """A chunk to be: its heading and 0-based first and last line."""

    heading: _Heading | None  # None for the preamble
    first: int
    last: int
    path: tuple[str, ...]


def _spans(lines: Sequence[str], start: int, sections: list[_Heading]) -> list[_Span]:
    """Group lines into chunks; headings with no body of their own join the next chunk."""
    spans: list[_Span] = []
    preamble = _trim(lines, start, sections[0].first if sections else len(lines))
    waiting: list[_Heading] = []  # body-less headings, to open the next chunk
    opening: int | None = None  # a preamble of HTML comments only opens the first chunk
    if preamble and _only_comments(lines[preamble[0] : preamble[1] + 1]):
        opening = preamble[0]  # with no section at all, there is nothing to embed
    elif preamble:
        spans.append(_Span(None, preamble[0], preamble[1], ()))
    levels: list[int] = []  # the heading path: levels and titles of the open sections
    titles: list[str] = []
    for index, heading in enumerate(sections):
        end = sections[index + 1].first if index + 1 < len(sections) else len(lines)
        while levels and levels[-1] >= heading.level:
            levels.pop()
            titles.pop()
        levels.append(heading.level)
        titles.append(heading.text)
        body = _trim(lines, heading.last + 1, end)
        if body is None:
            waiting.append(heading)
            continue
        first = waiting[0].first if waiting else heading.first
        if opening is not None:
            first, opening = opening, None
        spans.append(_Span(heading, first, body[1], tuple(titles)))
        waiting = []
    if waiting and spans:
        # Body-less headings at the end close the chunk before them. A file of
        # headings alone has nothing to embed, and no chunks.
        spans[-1] = spans[-1]._replace(last=waiting[-1].last)
    return spans


def _chunks(ctx: ChunkContext, front: FrontMatter | None, sections: list[_Heading]) -> list[Chunk]:
    lines = ctx.lines
    make = ctx.make
    title = front.title if front else None
    tags = front.tags if front else ()
    # Suppression comments are rare: most files need no look above each chunk.
    comments = "chunkgate:" in ctx.text
    split = ctx.options.split
    limit = ctx.options.max
    chunks: list[Chunk] = []
    for heading, first, last, path in _spans(lines, front.lines if front else 0, sections):
        if heading is None:
            chunk = make(
                PREAMBLE_IDENTITY,
                "preamble",
                "markdown",
                first + 1,
                last + 1,
                title=title,
                tags=tags,
            )
        else:
            chunk = make(
                heading.identity,
                "section",
                "markdown",
                first + 1,
                last + 1,
                body_line=min(heading.last + 2, last + 1),
                heading_path=path,
                level=heading.level,
                suppressed=_suppressed(lines, first, heading.first) if comments else _NO_CODES,
                title=title,
                tags=tags,
            )
        if split and ctx.size_of(chunk) > limit:
            from chunkgate.chunking.mdparts import markdown_parts  # only for long sections

            chunks.extend(markdown_parts(ctx, chunk))
        else:
            chunks.append(chunk)
    return chunks


def _only_comments(lines: Sequence[str]) -> bool:
    """Whether these lines hold nothing but HTML comments (nothing to embed)."""
    return _COMMENTS.fullmatch("\n".join(lines)) is not None


def _trim(lines: Sequence[str], start: int, end: int) -> tuple[int, int] | None:
    """The first and last non-blank line in ``lines[start:end]``, or None."""
    while start < end and not lines[start].strip(_BLANK):
        start += 1
    while end > start and not lines[end - 1].strip(_BLANK):
        end -= 1
    return (start, end - 1) if start < end else None


def _suppressed(lines: Sequence[str], first: int, heading: int) -> frozenset[str]:
    """Codes disabled by a ``<!-- chunkgate: disable=... -->`` line right above the
    chunk's first line or above its heading (below the body-less headings that open it)."""
    codes = _disabled_above(lines, first)
    if heading != first:
        codes |= _disabled_above(lines, heading)
    return codes


def _disabled_above(lines: Sequence[str], index: int) -> frozenset[str]:
    index -= 1
    while index >= 0 and not lines[index].strip(_BLANK):
        index -= 1
    if index >= 0 and "chunkgate:" in lines[index]:
        return suppressions(lines[index])
    return frozenset()
