"""One file's export records, as JSON lines (the library's dicts are these, parsed).

A record is the chunk's own ``Chunk.to_dict`` reshaped for an ingest, so a field
added there reaches the export too: the line span becomes ``lines`` (and the
columns ``start_char``/``end_char``), ``breadcrumb`` follows ``heading_path``,
``metadata`` is always there, and ``moved_from``, ``blob``, ``commit``, ``text``
and ``embed_text`` close it. ``tests/test_export.py`` checks each line is
``json.dumps(record, ensure_ascii=False)`` of its record.

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
# The fields that open a record, in this order; the rest of ``to_dict``'s follow in its.
_HEAD = ("id", "path", "language", "kind", "symbol", "heading_path")
# ``to_dict``'s place of the chunk in lines and columns: a record says ``lines`` and
# character offsets instead.
_SPAN = ("start_line", "end_line", "start_column", "end_column")


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
    moves: Sequence[tuple[str, str]] = (),
) -> str:
    """The export records of one file's chunks as JSON lines, each ending in a newline,
    in one string; ``text`` is the file's decoded text, ``moves`` the (chunk ID, old ID)
    pairs its manifest records."""
    place = _Place(text)
    moved = dict(moves)
    out = []
    for chunk in chunks:
        fields = chunk.to_dict(text=False)
        record = {key: fields.pop(key) for key in _HEAD}
        crumb = breadcrumb(chunk, embed)
        record["breadcrumb"] = crumb
        record["level"] = fields.pop("level")
        record["lines"] = [chunk.start_line, chunk.end_line]
        for key in _SPAN:
            fields.pop(key, None)
        record["start_char"], record["end_char"] = place.span(chunk)
        metadata = fields.pop("metadata", {})
        record.update(fields)
        old = moved.get(chunk.id)
        record.update(metadata=metadata, moved_from=[] if old is None else [old])
        record.update(blob=blob, commit=commit)
        body = _string(chunk.text)
        # The breadcrumb, a newline and the text, as one JSON string: the text is not
        # encoded twice.
        embedded = f"{_string(crumb)[:-1]}\\n{body[1:]}" if crumb else body
        out.append(f'{_dumps(record)[:-1]}, "text": {body}, "embed_text": {embedded}}}\n')
    return "".join(out)
