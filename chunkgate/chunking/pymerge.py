"""Python code between definitions under ``size.min`` joins a neighbouring chunk.

A good ingest merges small pieces: ``T = TypeVar("T")`` or ``import os`` alone
has too little to be retrieved for anything. Module code joins the definition
below it (the code above a definition is usually what it uses), or, at the end
of the file, the chunk above it (``main()``); class-level code between methods
joins the member above it. Module code that is only imports joins a
neighbour whatever its size (issue 41): a block of imports is what the code
below it uses, never an answer of its own. Definitions are never merged: each
is a citation target with an ID of its own.
"""

from __future__ import annotations

from chunkgate.chunking.base import ChunkContext
from chunkgate.core.model import Chunk


def merge_small_code(ctx: ChunkContext, chunks: list[Chunk]) -> list[Chunk]:
    """``chunks`` with the code chunks under ``size.min`` merged into a neighbour."""
    limit = ctx.options.min
    out = list(chunks)
    index = 0
    while index < len(out):
        chunk = out[index]
        between = chunk.kind == "module" or (chunk.kind == "class" and ".after-" in chunk.id)
        small = ctx.size_of(chunk) < limit or _only_imports(chunk)
        if not between or len(out) == 1 or not small:
            index += 1
            continue
        if chunk.kind == "module" and index + 1 < len(out):
            after = out[index + 1]
            out[index + 1] = _respan(ctx, after, chunk.start_line, after.end_line)
        elif index > 0:
            before = out[index - 1]
            out[index - 1] = _respan(ctx, before, before.start_line, chunk.end_line)
        else:
            index += 1
            continue
        del out[index]
    return out


def _only_imports(chunk: Chunk) -> bool:
    """Whether a module chunk holds import statements, comments and blank lines alone.
    A line scan, not ``ast``: parsing every file's import block again cost 8% of
    chunking asyncio; what the scan cannot read (a backslash continuation) is kept."""
    if chunk.kind != "module":
        return False
    found = inside = False
    for line in chunk.text.split("\n"):
        stripped = line.strip()
        if inside:  # the names of ``from x import (`` up to its ``)``
            inside = ")" not in stripped
        elif stripped and not stripped.startswith("#"):
            if not line.startswith(("import ", "from ")) or stripped.endswith("\\"):
                return False
            found = True
            inside = "(" in stripped and ")" not in stripped
    return found


def _respan(ctx: ChunkContext, chunk: Chunk, start: int, end: int) -> Chunk:
    return ctx.make(
        chunk.identity,
        chunk.kind,
        chunk.language,
        start,
        end,
        body_line=chunk.body_line,
        symbol=chunk.symbol,
        suppressed=chunk.suppressed,
    )
