"""One shard line read into a record, strictly, with line-numbered errors.

Lines exactly as ``codec`` writes them without escapes are read by the
pattern ``fields`` derives from the line's table (several times faster);
anything else is decoded as JSON and checked field by field, which also
words the errors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chunkgate.manifest import fields
from chunkgate.manifest.kinds import PATH, REBUILD, ManifestSyntaxError, Where, check_keys, show
from chunkgate.manifest.records import ChunkEntry

__all__ = ["REBUILD", "ManifestSyntaxError", "chunk_line", "file_line", "json_object", "show"]


def file_line(text: str, name: str, line: int) -> dict[str, Any]:
    """A file line's values by ``FileEntry`` attribute; ``chunks`` is how many chunk lines
    follow."""
    table = fields.FILE_LINE
    where = Where(name, line, "")
    fast = table.read_fast(text, where)
    if fast is not None:
        return fast
    return _strict(text, table, "file", where, "a file line is expected")


def chunk_line(text: str, path: str, name: str, line: int) -> ChunkEntry:
    """A chunk line of the shard of ``path``."""
    table = fields.CHUNK_LINE
    where = Where(name, line, path)
    values = table.read_fast(text, where)
    if values is None:
        expected = f"a chunk line of {show(path)} is expected"
        values = _strict(text, table, "chunk", where, expected)
    return table.record(**values)  # type: ignore[no-any-return]


def _strict(
    text: str, table: fields.Line, kind: str, where: Where, expected: str
) -> dict[str, Any]:
    obj = json_object(text, where.name, where.line)
    found = _kind(obj)
    if found != kind:
        raise where.error(f"{found} line where {expected}")
    check_keys(obj, table.required, table.optional, where.name, where.line)
    if not text.startswith(table.prefix):
        raise where.error(f"not in canonical form (spacing differs); {REBUILD}")
    if kind == "file":  # its path is what the rest is checked against
        path = PATH.strict(table.fields[0].key, obj[table.fields[0].key], where)
        where = where._replace(path=path)
    return table.read_strict(obj, where)


# -- JSON objects, keys and values ------------------------------------------------------------


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("duplicate key")
    return obj


_MAX_DIGITS = 4300  # Python's own limit, whose error says to call sys.set_int_max_str_digits()


def _integer(text: str) -> int:
    if len(text) > _MAX_DIGITS:
        raise ValueError(f"a number of {len(text):,} digits")
    return int(text)


_decoder = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_integer)


def json_object(text: str, name: str, line: int) -> dict[str, object]:
    if not text:
        raise ManifestSyntaxError(name, line, "empty line")
    try:
        obj = _decoder.decode(text)
    except json.JSONDecodeError as exc:  # text may span lines (the header)
        raise ManifestSyntaxError(
            name, line + exc.lineno - 1, f"invalid JSON: {exc.msg} (column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise ManifestSyntaxError(name, line, f"invalid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ManifestSyntaxError(name, line, "expected a JSON object")
    return obj


def _kind(obj: Mapping[str, object]) -> str:
    for key, kind in (("chunkgate_manifest", "header"), ("file", "file"), ("id", "chunk")):
        if key in obj:
            return kind
    return "unknown"
