"""Output of ``refs``: each ID that does not exist (or was rewritten), and the totals."""

from __future__ import annotations

import json
from typing import IO

from chunkgate.evaluate.citations import RefsResult
from chunkgate.report.formats import REFS, RefsWriter


def write_citations(result: RefsResult, fmt: str, stream: IO[str]) -> None:
    """Write ``result`` in one of ``formats.REFS``'s formats (not ``auto``)."""
    writer: RefsWriter = REFS.writer(fmt)
    writer(result, stream)


def write_json(result: RefsResult, stream: IO[str]) -> None:
    stream.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")


def write_text(result: RefsResult, stream: IO[str]) -> None:
    for citation in result.merged:
        stream.write(
            f"{citation.path}:{citation.line}: {citation.id}: merged into {citation.redirect}\n"
        )
    for citation in result.fixed:
        stream.write(f"{citation.path}:{citation.line}: {citation.id} -> {citation.redirect}\n")
    for citation in result.broken:
        where = (
            f"moved to {citation.redirect} (`chunkgate refs --fix` rewrites it)"
            if citation.redirect
            else "no such chunk"
        )
        stream.write(f"{citation.path}:{citation.line}: {citation.id}: {where}\n")
    stream.write(
        f"{result.checked} IDs checked, {len(result.broken)} not found, "
        f"{len(result.fixed)} rewritten"
        + (f", {len(result.merged)} merged into another chunk" if result.merged else "")
        + "\n"
    )
