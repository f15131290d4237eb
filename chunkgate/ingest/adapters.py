"""Adapters from chunkgate's export records to other libraries' types (issue 20).

``chunkgate.ingest.langchain`` (the ``langchain`` extra) and
``chunkgate.ingest.llama_index`` (the ``llama-index`` extra); each is
imported only when asked for, and says which extra to install when its
library is missing. Both take export records (``chunkgate.ingest``) or the
``upsert``, ``update`` and ``rekey`` rows of a plan (``chunkgate.plan``), and
store the same flat metadata: what vector stores accept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from chunkgate.core.errors import ChunkgateError

Scalar = str | int | float | bool
# Fields that are the content, or the plan's verbs, rather than metadata.
_CONTENT = frozenset({"text", "embed_text", "op", "from", "embed_changed"})


class MissingExtra(ChunkgateError, ImportError):
    def __init__(self, module: str, extra: str, package: str) -> None:
        super().__init__(
            f"{module} needs {package}: pip install 'chunkgate[{extra}]' (or {package})"
        )


def flat_metadata(record: Mapping[str, object]) -> dict[str, Scalar]:
    """A record's fields as one level of strings, numbers and booleans, the values every
    vector store takes: ``lines`` as ``start_line``/``end_line``, ``heading_path`` and
    ``tags`` joined (" > ", ", "), ``moved_from`` as its ID, ``merged`` as its IDs
    (space-separated), front-matter ``metadata`` lifted to the top (``fields`` as
    ``field.NAME``), None and empty values left out."""
    flat: dict[str, Scalar] = {}
    for key, value in record.items():
        if key in _CONTENT:
            continue
        if key == "lines" and isinstance(value, list) and len(value) == 2:
            flat["start_line"], flat["end_line"] = value
        elif key == "metadata" and isinstance(value, Mapping):
            for name, item in value.items():
                if name == "fields" and isinstance(item, Mapping):
                    for field, text in item.items():
                        _put(flat, f"field.{field}", text)
                else:
                    _put(flat, str(name), item)
        else:
            _put(flat, key, value)
    return flat


_JOINERS = {"heading_path": " > ", "tags": ", ", "moved_from": " ", "merged": " "}


def _put(flat: dict[str, Scalar], key: str, value: object) -> None:
    if value is None or (isinstance(value, (list, dict)) and not value):
        return
    if isinstance(value, (str, int, float, bool)):
        flat[key] = value
    elif isinstance(value, list) and key in _JOINERS:
        flat[key] = _JOINERS[key].join(str(item) for item in value)
    else:
        flat[key] = json.dumps(value, ensure_ascii=False, sort_keys=True)
