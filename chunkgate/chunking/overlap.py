"""``size.overlap`` for parts: the end of the part before, as context in the embed text.

Text windows share ``size.overlap`` with the window before in their lines
(``plain``). The parts of a unit (a section, a definition, split into ``ID``,
``ID~2``, ``ID~3``) do not: a part's lines stay its own, so a citation of it
is exact. Instead, the last lines of the part before, as many whole lines as
fit in ``size.overlap``, go before its text in its embed text
(``Chunk.embed_before``); a part that starts inside a code block keeps the
fence line first, unless the overlap holds it already. Sizes stay the text's;
CG201's hard limit counts the embed text whole, overlap included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from chunkgate.chunking.base import ChunkContext
from chunkgate.chunking.parts import PART_SUFFIX
from chunkgate.core.model import Chunk


def with_overlap(ctx: ChunkContext, chunks: Sequence[Chunk]) -> Sequence[Chunk]:
    """``chunks`` (one file's, in order), each part after a unit's first carrying the
    end of the part before it in its embed text."""
    overlap = ctx.options.overlap
    if not overlap or len(chunks) < 2:
        return chunks
    size: Callable[[str], int] = len if ctx.options.unit == "chars" else ctx.counter
    out = [chunks[0]]
    for before, chunk in pairwise(chunks):
        lead = _tail(before.text, size, overlap) if _continues(before, chunk) else []
        if not lead:
            out.append(chunk)
            continue
        fence = chunk.embed_before
        if fence and fence not in lead:
            lead.insert(0, fence)
        out.append(chunk._replace(embed_before="\n".join(lead)))
    return out


def _continues(before: Chunk, chunk: Chunk) -> bool:
    """Whether ``chunk`` is a part (2, 3, ...) of the unit whose part ``before`` is.
    Text windows (``~1``, ``~2``) overlap in their lines already."""
    if chunk.language == "text":
        return False
    base, suffix, number = chunk.identity.rpartition(PART_SUFFIX)
    if not suffix or not number.isdigit() or int(number) < 2:
        return False
    previous = base if number == "2" else f"{base}{PART_SUFFIX}{int(number) - 1}"
    return before.identity == previous


def _tail(text: str, size: Callable[[str], int], overlap: int) -> list[str]:
    """The last lines of ``text`` that together fit in ``overlap``, without blank lines
    at their start."""
    lines = text.split("\n")
    start = len(lines)
    while start > 0 and size("\n".join(lines[start - 1 :])) <= overlap:
        start -= 1
    while start < len(lines) and not lines[start].strip():
        start += 1
    return lines[start:]
