"""A chunk's fields as JSON fragments, for the writers that build their lines field by
field instead of encoding a dict (``report.listing.json_line``, ``ingestrecords``):
the same bytes as ``json.dumps(..., ensure_ascii=False)``, without its dispatch."""

from __future__ import annotations

import json

from chunkgate.core.model import Chunk

string = json.encoder.encode_basestring  # a str as JSON, non-ASCII kept
_dumps = json.JSONEncoder(ensure_ascii=False).encode


def value(text: str | None) -> str:
    """A string or null."""
    return "null" if text is None else string(text)


def metadata(chunk: Chunk) -> str | None:
    """``to_dict``'s ``metadata`` of the chunk as JSON; None when it has none."""
    if chunk.title is None and not chunk.tags and not chunk.fields:
        return None
    return _dumps(chunk.to_dict(text=False)["metadata"])
