"""Markdown sections under ``size.min`` merged into a neighbour (``markdown.merge_small``).

A section of a heading and a line ("## Options", "See below.") has too little
to be retrieved for anything (CG202, which measures it without its template
syntax, and never counts a section that includes a file). With
``markdown.merge_small: true`` (off by default: it changes chunks and IDs)
such a section joins a neighbour, as Unstructured's ``chunk_by_title``
combines a section under ``combine_text_under_n_chars`` with the sections
after it (LangChain's ``MarkdownHeaderTextSplitter`` merges nothing):

- down, into the section after it when that one is its subsection: a parent's
  line of introduction goes with its first child, as a heading with no body of
  its own already does;
- else up, into the chunk before it, when it is that chunk's subsection or
  sibling (the end of a page, a short last item of a list of siblings);
- else down, into its next sibling.

A merge never crosses a heading shallower than the first section's (no
section of the merged chunk closes a section its heading path names): the
merged chunk's heading path and level are its first section's, and the other
sections' headings stay in its text. A merge that would take the chunk over
``size.max`` is not made, and a section whose CG202 an inline comment disables
stays as it is. The merged chunk keeps its first section's ID and lists the
others' in ``Chunk.merged`` (the manifest's and the export's ``merged``), so a
citation of one of them still resolves; the page keeps their headings, and
their anchors. A merged chunk spans its sections' lines, which are
contiguous: its text is still its lines.

The preamble (the text above the first heading) is the exception:
``~preamble`` is no name to cite a page's first section by. A small preamble
opens the first section's chunk, which keeps the section's ID and lists the
preamble's, as a preamble of comments alone already opens it; and no section
merges up into a preamble.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.chunking.base import ChunkContext
from chunkgate.chunking.syntax import Dialect, included_files, may_hold_syntax, prose
from chunkgate.core.model import Chunk


class _Unit(NamedTuple):
    chunk: Chunk
    top: int  # the smallest level of the headings that open it (0: the preamble)


def merge_small_sections(
    ctx: ChunkContext, chunks: Sequence[Chunk], tops: Sequence[int], dialect: Dialect
) -> list[Chunk]:
    """``chunks`` (one file's sections, not yet split into parts) with those under
    ``size.min`` merged into a neighbour; ``tops`` holds each one's ``_Unit.top``,
    ``dialect`` the file's template syntax."""
    units = [_Unit(chunk, top) for chunk, top in zip(chunks, tops, strict=True)]
    index = 0
    while index < len(units):
        unit = units[index]
        if not _small(ctx, unit.chunk, dialect):
            index += 1
            continue
        level = unit.chunk.level
        after = units[index + 1] if index + 1 < len(units) else None
        before = units[index - 1] if index else None
        if unit.chunk.kind == "preamble":
            # Text above the first heading opens the first section's chunk, as a preamble
            # of comments alone does: the section's name is the one to cite.
            if after is not None and (joined := _joined(ctx, unit, after, named=after)):
                units[index : index + 2] = [joined]
            else:
                index += 1
        elif after is not None and after.top > level and (joined := _joined(ctx, unit, after)):
            units[index : index + 2] = [joined]
        elif (
            before is not None
            and before.chunk.kind != "preamble"
            and unit.top >= before.chunk.level
            and (joined := _joined(ctx, before, unit))
        ):
            index -= 1  # the chunk before, grown, may still be small
            units[index : index + 2] = [joined]
        elif after is not None and after.top == level and (joined := _joined(ctx, unit, after)):
            units[index : index + 2] = [joined]
        else:
            index += 1
    return [unit.chunk for unit in units]


def _small(ctx: ChunkContext, chunk: Chunk, dialect: Dialect) -> bool:
    """Under ``size.min`` as CG202 measures it: without its template syntax, and never
    a section that includes a file (on the site, its text is the file's)."""
    minimum = ctx.options.min
    if "CG202" in chunk.suppressed or included_files(chunk.text):
        return False
    if ctx.size_of(chunk) < minimum:
        return True
    if not may_hold_syntax(chunk.text, dialect):
        return False
    kept = prose(chunk.text, dialect)
    return (len(kept) if ctx.options.unit == "chars" else ctx.counter(kept)) < minimum


def _joined(
    ctx: ChunkContext, first: _Unit, second: _Unit, *, named: _Unit | None = None
) -> _Unit | None:
    """One chunk of both, under the ID and heading path of ``named`` (default: the
    first); None when it would be over ``size.max``."""
    one, two = first.chunk, second.chunk
    name = (named or first).chunk
    ids = (one.id, *one.merged, two.id, *two.merged)
    chunk = ctx.make(
        name.identity,
        name.kind,
        name.language,
        one.start_line,
        two.end_line,
        body_line=name.body_line,
        heading_path=name.heading_path,
        level=name.level,
        suppressed=one.suppressed | two.suppressed,
        title=name.title,
        tags=name.tags,
        merged=tuple(chunk_id for chunk_id in ids if chunk_id != name.id),
    )
    return _Unit(chunk, first.top) if ctx.size_of(chunk) <= ctx.options.max else None
