"""One file's export records, as JSON lines (the library's dicts are these, parsed).

The lines are written out directly: building and encoding a dict per chunk took
a sixth of an export's time (FastAPI's docs, 3.2 s). ``tests/test_export.py``
checks each line is ``json.dumps(record, ensure_ascii=False)`` of its record.

``start_char``/``end_char`` place the chunk's text in the file's decoded text
with line endings normalised to ``\\n`` and no BOM (what chunking reads):
``text[start_char:end_char] == record["text"]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from chunkgate.embedtext import EmbedSettings, breadcrumb
from chunkgate.model import Chunk

_string = json.encoder.encode_basestring  # a str as JSON, non-ASCII kept
_dumps = json.JSONEncoder(ensure_ascii=False).encode


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


def _metadata(chunk: Chunk) -> dict[str, object]:
    metadata: dict[str, object] = {}
    if chunk.title is not None:
        metadata["title"] = chunk.title
    if chunk.tags:
        metadata["tags"] = list(chunk.tags)
    if chunk.fields:
        metadata["fields"] = dict(chunk.fields)
    return metadata


def _maybe(value: str | None) -> str:
    return "null" if value is None else _string(value)


def file_lines(
    chunks: Sequence[Chunk],
    text: str,
    embed: EmbedSettings,
    *,
    blob: str | None,
    commit: str | None,
    moves: Sequence[tuple[str, str]] = (),
) -> str:
    """The export records of one file's chunks as JSON lines, each ending in a newline,
    in one string; ``text`` is the file's decoded text, ``moves`` the (chunk ID, old ID)
    pairs its manifest records."""
    place = _Place(text)
    moved = dict(moves)
    tail = f'"blob": {_maybe(blob)}, "commit": {_maybe(commit)}, '
    out = []
    for chunk in chunks:
        crumb = breadcrumb(chunk, embed)
        first, last = place.span(chunk)
        old = moved.get(chunk.id)
        body = _string(chunk.text)
        # The breadcrumb, a newline and the text, as one JSON string: the text is not
        # encoded twice.
        shown = _string(crumb)
        embedded = f"{shown[:-1]}\\n{body[1:]}" if crumb else body
        metadata = (
            _dumps(_metadata(chunk))
            if chunk.title is not None or chunk.tags or chunk.fields
            else "{}"
        )
        out.append(
            f'{{"id": {_string(chunk.id)}, "path": {_string(chunk.path)}, '
            f'"language": {_string(chunk.language)}, "kind": {_string(chunk.kind)}, '
            f'"symbol": {_maybe(chunk.symbol)}, '
            f'"heading_path": [{", ".join(map(_string, chunk.heading_path))}], '
            f'"breadcrumb": {shown}, "level": {chunk.level:d}, '
            f'"lines": [{chunk.start_line:d}, {chunk.end_line:d}], '
            f'"start_char": {first:d}, "end_char": {last:d}, '
            f'"chars": {chunk.chars:d}, "tokens": {chunk.tokens:d}, "hash": {_string(chunk.hash)}, '
            f'"part": {chunk.part:d}, "parts": {chunk.parts:d}, "parent": {_maybe(chunk.parent)}, '
            f'"prev": {_maybe(chunk.prev)}, "next": {_maybe(chunk.next)}, '
            f'"metadata": {metadata}, "moved_from": [{"" if old is None else _string(old)}], '
            f'{tail}"text": {body}, '
            f'"embed_text": {embedded}}}\n'
        )
    return "".join(out)
