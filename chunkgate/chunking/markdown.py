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
file of comments and headings alone has no chunks). Template and directive
syntax (``syntax``) is not a body either: a heading whose body is only a
``{{< shortcode >}}`` or ``{: .class}`` line opens the next chunk. An MDX
file's import/export statements at the ends of its preamble are code for the
build, not content: they belong to no chunk, like front matter (a preamble of
imports alone gives no chunk, and the first section's starts at its heading).

Heading identities come from the anchor flavour of the site that publishes
the file (``anchors``, ``ChunkOptions.anchors`` and ``sites``). With
``markdown.merge_small``, a section under ``size.min`` joins a neighbour
before long sections are split (``mdmerge``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.chunking import blocks, prescan, syntax
from chunkgate.chunking.anchors import AnchorStyle, HeadingSource, anchors
from chunkgate.chunking.base import BLANK_CHARS as _BLANK
from chunkgate.chunking.base import (
    DEFAULT_OPTIONS,
    ChunkContext,
    Chunked,
    ChunkOptions,
    suppressions,
)
from chunkgate.chunking.frontmatter import FrontMatter, parse_front_matter
from chunkgate.chunking.identities import distinct
from chunkgate.chunking.mdmerge import merge_small_sections
from chunkgate.chunking.syntax import Dialect
from chunkgate.core.model import Chunk, Heading
from chunkgate.core.regex import lazy
from chunkgate.sites.model import style_of

if TYPE_CHECKING:
    from chunkgate.chunking.languages import Language

PREAMBLE_IDENTITY = "~preamble"
_NO_CODES: frozenset[str] = frozenset()
_COMMENTS = lazy(r"(?:[ \t\n]*<!--(?:(?!-->).)*-->)+[ \t\n]*", re.DOTALL)
# CommonMark 4.1: three or more matching -, * or _ characters, spaces and tabs between.
_THEMATIC_BREAK = lazy(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*")
_RULE_MARKS = frozenset("-*_")
_ATX_OPENING = lazy(r" {0,3}#{1,6}(?=[ \t]|$)")
_ATX_CLOSING = lazy(r"(?:^|(?<![ \t])[ \t]+)#+[ \t]*$")
_MYST_TARGET = lazy(r"\(([^()\s][^()]*)\)=")
# The flavours that read a heading's source as well as its rendered text.
_READ_SOURCE = frozenset({"kramdown", "hugo", "vitepress"})


class _Heading(NamedTuple):
    level: int
    first: int  # 0-based line indexes into the whole file
    last: int
    text: str
    identity: str
    nested: bool
    explicit: bool = False  # the author's own ID, not one the site made of the text


def file_style(options: ChunkOptions, path: str) -> tuple[AnchorStyle, Dialect]:
    """The anchor style and template dialect of the Markdown file at ``path``."""
    return style_of(path, options.anchors, options.sites)[0], syntax.dialect_of(path, options)


def headings(ctx: ChunkContext) -> tuple[FrontMatter | None, list[_Heading]]:
    """Every heading of the file with its rendered text and identity, in order."""
    return _headings(ctx, *file_style(ctx.options, ctx.path))[:2]


def _headings(
    ctx: ChunkContext, style: AnchorStyle, dialect: Dialect
) -> tuple[FrontMatter | None, list[_Heading], Sequence[str]]:
    """The front matter, the headings, and the lines as cmark read them (admonition
    bodies moved left, ``blocks``)."""
    front = parse_front_matter(ctx.lines)
    text = ctx.text
    if front:
        # Blank out the front matter so that cmark's line numbers stay the file's.
        text = "\n" * front.lines + text.split("\n", front.lines)[-1]
    lines = ctx.lines
    flat = blocks.flatten(text, dialect.blocks) if dialect.blocks else None
    if flat is None:
        found = prescan.headings(text, lines)
    else:
        # A heading in an admonition's body is an anchor, not a section of the page.
        lines = flat.lines
        found = [
            h._replace(nested=True) if h.first - 1 in flat.inside else h
            for h in prescan.headings(flat.text, lines)
        ]
    read_source = style.flavour in _READ_SOURCE
    sources = []
    for level, first, last, rendered, nested in found:
        raw = (
            _source(lines, first, last, nested, rendered) if read_source or "{" in rendered else ""
        )
        shown = rendered
        if "{" in rendered:
            raw, shown = syntax.strip_inline(raw, rendered)
        below = lines[last] if read_source and last < len(lines) else ""
        above = _label_above(lines, first) if style.flavour == "sphinx" else ""
        sources.append(HeadingSource(shown, raw, below, level, above))
    made = anchors(sources, style)
    return (
        front,
        [
            _Heading(
                level,
                first - 1,
                last - 1,
                _shown(anchor.text),
                anchor.identity,
                nested,
                anchor.explicit,
            )
            for (level, first, last, _, nested), anchor in zip(found, made, strict=True)
        ],
        lines,
    )


def _shown(text: str) -> str:
    # A setext heading's soft line breaks show as spaces.
    return (text.replace("\n", " ") if "\n" in text else text).strip(" ")


def _label_above(lines: Sequence[str], first: int) -> str:
    """The MyST target ``(label)=`` that labels the heading on 1-based line ``first``:
    the nearest line above that is not blank."""
    for line in reversed(lines[: first - 1]):
        if line.strip():
            found = _MYST_TARGET.fullmatch(line.strip())
            return found.group(1) if found else ""
    return ""


def _targets_above(lines: Sequence[str], first: int) -> int:
    """The 0-based line of the topmost MyST target in the run of targets (and blank lines)
    right above the heading on 0-based line ``first``; ``first`` when there is none."""
    opening = index = first
    while index > 0:
        index -= 1
        line = lines[index].strip()
        if _MYST_TARGET.fullmatch(line):
            opening = index
        elif line:
            break
    return opening


def _source(lines: Sequence[str], first: int, last: int, nested: bool, text: str) -> str:
    """A heading's source text: ATX markers or the setext underline removed (1-based lines)."""
    if nested:
        return text  # inside a list or quote: the line holds their markers too
    opening = _ATX_OPENING.match(lines[first - 1]) if first == last else None
    if opening is None:
        return "\n".join(line.strip(" \t") for line in lines[first - 1 : last - 1])
    line = lines[first - 1][opening.end() :].strip(" \t")
    if line.endswith("#"):  # a closing sequence, or text ending in "#"
        line = _ATX_CLOSING.sub("", line)
    return line.strip(" \t")


def outline(ctx: ChunkContext) -> list[Heading]:
    style, dialect = file_style(ctx.options, ctx.path)
    found = _headings(ctx, style, dialect)[1]
    shown = style.describe()
    return [
        Heading(ctx.path, h.level, h.text, h.first + 1, f"{ctx.path}#{h.identity}", shown)
        for h in found
        if not h.nested
    ]


def keep_id(options: ChunkOptions | None, chunk: Chunk) -> str | None:
    """The fix that keeps a section's ID through a rename, in its site's syntax (under
    the default settings when ``options`` is None)."""
    if chunk.kind != "section":
        return None
    return file_style(options or DEFAULT_OPTIONS, chunk.path)[0].explicit(chunk.identity)


def anchors_shown(options: ChunkOptions, path: str) -> str:
    """The anchor flavour of a file and why, as ``outline`` and ``chunks`` show it."""
    return file_style(options, path)[0].describe()


def chunk(ctx: ChunkContext, language: Language) -> Chunked:
    return Chunked(chunk_markdown(ctx))


def chunk_markdown(ctx: ChunkContext) -> list[Chunk]:
    style, dialect = file_style(ctx.options, ctx.path)
    front, found, parsed = _headings(ctx, style, dialect)
    split_level = ctx.options.split_level
    sections = [h for h in found if not h.nested and h.level <= split_level]
    # A MyST target ``(label)=`` names the heading below it: it opens that heading's
    # chunk rather than closing the one before.
    sphinx = style.flavour == "sphinx"
    opens = {h.first: _targets_above(ctx.lines, h.first) for h in sections} if sphinx else {}
    return _chunks(ctx, front, sections, dialect, parsed=parsed, opens=opens)


class _Span(NamedTuple):
    """A chunk to be: its heading and 0-based first and last line."""

    heading: _Heading | None  # None for the preamble
    first: int
    last: int
    path: tuple[str, ...]
    top: int = 0  # the smallest level of the headings that open it (its body-less ones too)


def _spans(
    lines: Sequence[str],
    start: int,
    sections: list[_Heading],
    dialect: Dialect,
    opens: Mapping[int, int],
) -> list[_Span]:
    """Group lines into chunks; headings with no body of their own join the next chunk.
    ``opens`` maps a heading's line to the line its chunk opens at, when above it."""
    spans: list[_Span] = []

    def opens_at(heading: _Heading) -> int:
        return opens.get(heading.first, heading.first)

    preamble = _trim(lines, start, opens_at(sections[0]) if sections else len(lines))
    if preamble and dialect.mdx:
        preamble = syntax.without_esm(lines, *preamble)
    waiting: list[_Heading] = []  # body-less headings, to open the next chunk
    waiting_end = 0  # the last line they hold (a body of syntax only)
    opening: int | None = None  # a preamble of comments or syntax only opens the first chunk
    if preamble and not _has_prose(lines, preamble[0], preamble[1], dialect, comments=True):
        opening = preamble[0]  # with no section at all, there is nothing to embed
    elif preamble:
        spans.append(_Span(None, preamble[0], preamble[1], ()))
    levels: list[int] = []  # the heading path: levels and titles of the open sections
    titles: list[str] = []
    for index, heading in enumerate(sections):
        end = opens_at(sections[index + 1]) if index + 1 < len(sections) else len(lines)
        while levels and levels[-1] >= heading.level:
            levels.pop()
            titles.pop()
        levels.append(heading.level)
        titles.append(heading.text)
        body = _trim(lines, heading.last + 1, end)
        if body is None or not _has_prose(lines, body[0], body[1], dialect):
            waiting.append(heading)
            waiting_end = heading.last if body is None else body[1]
            continue
        first = opens_at(waiting[0] if waiting else heading)
        if opening is not None:
            first, opening = opening, None
        top = min([heading.level, *(h.level for h in waiting)])
        spans.append(_Span(heading, first, body[1], tuple(titles), top))
        waiting = []
    if waiting and spans:
        # Body-less headings at the end close the chunk before them. A file of
        # headings alone has nothing to embed, and no chunks.
        spans[-1] = spans[-1]._replace(last=waiting_end)
    return spans


def _chunks(
    ctx: ChunkContext,
    front: FrontMatter | None,
    sections: list[_Heading],
    dialect: Dialect,
    *,
    parsed: Sequence[str],
    opens: Mapping[int, int],
) -> list[Chunk]:
    lines = ctx.lines
    make = ctx.make
    title = front.title if front else None
    tags = front.tags if front else ()
    # Suppression comments are rare: most files need no look above each chunk.
    comments = "chunkgate:" in ctx.text
    split = ctx.options.split
    limit = ctx.options.max
    made: list[Chunk] = []
    start = front.lines if front else 0
    spans = _spans(lines, start, sections, dialect, opens)
    # Two sections the site gives one anchor still need an ID each (identities.distinct).
    named = [span.heading for span in spans if span.heading is not None]
    reserved = {heading.identity for heading in sections}
    identities = iter(distinct([(h.identity, h.explicit) for h in named], reserved))
    for heading, first, last, path, _ in spans:
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
                next(identities),
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
        made.append(chunk)
    if ctx.options.merge_small:
        made = merge_small_sections(ctx, made, [span.top for span in spans], dialect)
    chunks: list[Chunk] = []
    for chunk in made:
        if split and ctx.size_of(chunk) > limit:
            from chunkgate.chunking.mdparts import markdown_parts  # only for long sections

            chunks.extend(markdown_parts(ctx, chunk, parsed))
        else:
            chunks.append(chunk)
    return chunks


def _has_prose(
    lines: Sequence[str], first: int, last: int, dialect: Dialect, *, comments: bool = False
) -> bool:
    """Whether the 0-based lines ``first..last`` (non-blank at both ends) hold anything to
    embed: not only template syntax, nor (with ``comments``) HTML comments."""
    if comments and _COMMENTS.fullmatch("\n".join(lines[first : last + 1])):
        return False
    if lines[first].lstrip(" ")[:1] in _RULE_MARKS and all(
        _THEMATIC_BREAK.fullmatch(line) or not line.strip(_BLANK)
        for line in lines[first : last + 1]
    ):
        return False  # a horizontal rule under a heading is layout, not a body
    opens_comment = comments and lines[first].lstrip(_BLANK).startswith("<!--")
    if not opens_comment and not syntax.may_be_syntax(lines[first], dialect):
        return True  # the common case: a body that starts with prose
    block = lines[first : last + 1]
    flags = syntax.syntax_lines(block, dialect)
    rest = [line for line, flag in zip(block, flags, strict=True) if not flag]
    text = "\n".join(rest)
    if comments:
        return _COMMENTS.fullmatch(text) is None and bool(text.strip(_BLANK + "\n"))
    return bool(text.strip(_BLANK + "\n"))


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
