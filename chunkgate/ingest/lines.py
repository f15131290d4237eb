"""One file's export records, as JSON lines (the library's dicts are these, parsed).

A record is the chunk's own ``Chunk.to_dict`` reshaped for an ingest: the line
span becomes ``lines`` (and the columns ``start_char``/``end_char``),
``breadcrumb`` follows ``heading_path``, ``merged`` (the IDs of the sections
merged into the chunk, ``markdown.merge_small``) follows ``next`` when there
are any, ``metadata`` is always there, and
``moved_from``, ``blob``, ``commit``, ``chunking`` (the chunking version), ``model``
(``embed.model``, the model whose tokens ``tokens`` counts, or null), ``text`` and
``embed_text`` close it. Each
line is written field by field, not built as a dict and encoded (a third of the
export's chunking time less); ``tests/test_export.py`` holds every line to
``json.dumps(record, ensure_ascii=False)`` of the dict reshaped from ``to_dict``,
so a field added there fails it until it is written here too.

``start_char``/``end_char`` place the chunk's text in the file's decoded text
with line endings normalised to ``\\n`` and no BOM (what chunking reads):
``text[start_char:end_char] == record["text"]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkgate.chunking import CHUNKING_VERSION
from chunkgate.chunking.embedtext import EmbedSettings, breadcrumb, embed_text, without_headings
from chunkgate.core.jsonfields import metadata
from chunkgate.core.jsonfields import string as _string
from chunkgate.core.jsonfields import value as _value
from chunkgate.core.model import Chunk


class _Place:
    """The code-point offset of each line's start in the normalised text."""

    def __init__(self, text: str) -> None:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text.startswith("\ufeff"):
            text = text[1:]
        starts = [0]
        total = 0
        for line in text.split("\n"):
            total += len(line) + 1
            starts.append(total)
        self._starts = starts

    def span(self, chunk: Chunk) -> tuple[int, int]:
        starts = self._starts
        first = starts[chunk.start_line - 1] + max(chunk.start_column - 1, 0)
        if chunk.end_column:
            return first, starts[chunk.end_line - 1] + chunk.end_column
        return first, starts[chunk.end_line] - 1


def file_lines(
    chunks: Sequence[Chunk],
    text: str,
    embed: EmbedSettings,
    *,
    blob: str | None,
    commit: str | None,
    model: str | None,
    moves: Sequence[tuple[str, str]] = (),
) -> str:
    """The export records of one file's chunks as JSON lines, each ending in a newline,
    in one string; ``text`` is the file's decoded text, ``moves`` the (chunk ID, old ID)
    pairs its manifest records."""
    place = _Place(text)
    moved = dict(moves)
    tail = (
        f'"blob": {_value(blob)}, "commit": {_value(commit)}, '
        f'"chunking": {CHUNKING_VERSION}, "model": {_value(model)}, "text": '
    )
    out = []
    for chunk in chunks:
        crumb = breadcrumb(chunk, embed)
        start, end = place.span(chunk)
        old = moved.get(chunk.id)
        body = _string(chunk.text)
        # The breadcrumb, a newline and the text, as one JSON string: the text is not
        # encoded twice.
        embedded = f"{_string(crumb)[:-1]}\\n{body[1:]}" if crumb else body
        # Headings the breadcrumb holds, a fence line or the overlap: not the bare text.
        dropped = crumb and not embed.headings and without_headings(chunk) != chunk.text
        if chunk.embed_before or chunk.embed_after or dropped:
            embedded = _string(embed_text(chunk, embed))
        heading_path = ", ".join(map(_string, chunk.heading_path))
        merged = f'"merged": [{", ".join(map(_string, chunk.merged))}], ' if chunk.merged else ""
        out.append(
            f'{{"id": {_string(chunk.id)}, "path": {_string(chunk.path)}, '
            f'"language": {_string(chunk.language)}, "kind": {_string(chunk.kind)}, '
            f'"symbol": {_value(chunk.symbol)}, "heading_path": [{heading_path}], '
            f'"breadcrumb": {_string(crumb)}, "level": {chunk.level}, '
            f'"lines": [{chunk.start_line}, {chunk.end_line}], '
            f'"start_char": {start}, "end_char": {end}, '
            f'"chars": {chunk.chars}, "tokens": {chunk.tokens}, "hash": {_string(chunk.hash)}, '
            f'"part": {chunk.part}, "parts": {chunk.parts}, "parent": {_value(chunk.parent)}, '
            f'"prev": {_value(chunk.prev)}, "next": {_value(chunk.next)}, {merged}'
            f'"metadata": {metadata(chunk) or "{}"}, '
            f'"moved_from": {"[]" if old is None else f"[{_string(old)}]"}, '
            f'{tail}{body}, "embed_text": {embedded}}}\n'
        )
    return "".join(out)
