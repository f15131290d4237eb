"""One manifest line read into a record, strictly, with line-numbered errors.

Lines exactly as ``render`` writes them without escapes are read by a regular
expression (several times faster); anything else is decoded as JSON and
checked key by key, which also words the errors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import NamedTuple

from chunkgate.core.errors import ManifestError
from chunkgate.core.regex import lazy
from chunkgate.corpus.paths import problem
from chunkgate.manifest.records import (
    HEX16,
    RULE_CODE,
    ChunkEntry,
    StoredFinding,
    belongs,
    path_key,
)

REBUILD = "run `chunkgate update` to rebuild it"
FILE_PREFIX, CHUNK_PREFIX = '{"file": ', '{"id": '

_BLOB = lazy(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 and SHA-256 repositories
_FILE_KEYS, _FILE_OPTIONAL = ("file", "blob", "chunks"), ("settings", "findings")
_CHUNK_KEYS = ("id", "lines", "chars", "tokens", "hash")
_CHUNK_OPTIONAL = ("moved_from", "suppressed")
_FINDING_KEYS = ("rule", "line", "chunk", "message", "fix")
_PLAIN = r'"([^"\\\x00-\x1f]+)"'
# Up to 12 digits (no number a manifest holds needs more): a longer one is left to the
# JSON path, which words the error; int() of thousands of digits raises ValueError.
_NUMBER = "(0|[1-9][0-9]{0,11})"
_POSITIVE = "([1-9][0-9]{0,11})"
_FAST_FILE = lazy(
    rf'\{{"file": {_PLAIN}, "blob": (?:null|"([0-9a-f]{{40}}|[0-9a-f]{{64}})"), '
    rf'"chunks": {_NUMBER}(?:, "settings": "([0-9a-f]{{16}})")?\}}'
)
_FAST_CHUNK = lazy(
    rf'\{{"id": {_PLAIN}, "lines": \[{_POSITIVE}, {_POSITIVE}\], "chars": {_NUMBER}, '
    rf'"tokens": {_NUMBER}, "hash": "([0-9a-f]{{16}})"(?:, "moved_from": {_PLAIN})?'
    rf'(?:, "suppressed": \[("CG[0-9]{{3}}"(?:, "CG[0-9]{{3}}")*)\])?\}}'
)


class ManifestSyntaxError(ManifestError):
    """A corrupt line: ``line`` is its 1-based number in the manifest called ``name``."""

    def __init__(self, name: str, line: int, what: str) -> None:
        super().__init__(f"{name}:{line}: {what}")
        self.name, self.line, self.what = name, line, what


class FileLine(NamedTuple):
    path: str
    blob: str | None
    chunks: int
    findings: tuple[StoredFinding, ...]
    settings: str | None = None  # the digest of the settings it was made under


def file_line(text: str, name: str, line: int) -> FileLine:
    fast = _FAST_FILE.fullmatch(text)
    if fast is not None:
        path, blob, count, settings = fast.groups()
        _check_path(path, name, line)
        return FileLine(path, blob, int(count), (), settings)
    obj = json_object(text, name, line)
    kind = _kind(obj)
    if kind != "file":
        raise ManifestSyntaxError(name, line, f"{kind} line where a file line is expected")
    check_keys(obj, _FILE_KEYS, _FILE_OPTIONAL, name, line)
    if not text.startswith(FILE_PREFIX):
        raise ManifestSyntaxError(name, line, f"not in canonical form (spacing differs); {REBUILD}")
    path = string(obj, "file", name, line)
    try:
        path_key(path)
    except UnicodeEncodeError:
        raise ManifestSyntaxError(name, line, f"path {show(path)} holds a lone surrogate") from None
    _check_path(path, name, line)
    blob = obj["blob"]
    if blob is not None and not (isinstance(blob, str) and _BLOB.fullmatch(blob)):
        raise ManifestSyntaxError(
            name, line, f'"blob" must be a git object id or null, got {show(blob)}'
        )
    count = integer(obj, "chunks", name, line)
    raw = obj.get("settings")
    if "settings" in obj and not (isinstance(raw, str) and HEX16.fullmatch(raw)):
        raise ManifestSyntaxError(name, line, f'"settings" must be 16 hex digits, got {show(raw)}')
    settings = raw if isinstance(raw, str) else None
    findings = _findings(obj["findings"], path, name, line) if "findings" in obj else ()
    return FileLine(path, blob, count, findings, settings)


def _check_path(path: str, name: str, line: int) -> None:
    # A manifest is input: a file line naming ../../etc/passwd must not make chunkgate
    # look there (to decide deletions, or in a SARIF URI).
    unsafe = problem(path)
    if unsafe is not None:
        raise ManifestSyntaxError(name, line, f"path {show(path)} {unsafe}; {REBUILD}")


def _findings(raw: object, path: str, name: str, line: int) -> tuple[StoredFinding, ...]:
    if not isinstance(raw, list) or not raw:
        raise ManifestSyntaxError(
            name, line, f'"findings" must be a non-empty list, got {show(raw)}'
        )
    found = [_finding(item, number, path, name, line) for number, item in enumerate(raw, 1)]
    if found != sorted(set(found), key=StoredFinding.sort_key):
        raise ManifestSyntaxError(
            name,
            line,
            '"findings" must be sorted by line, rule, chunk, message and fix, without repeats',
        )
    return tuple(found)


def _finding(item: object, number: int, path: str, name: str, line: int) -> StoredFinding:
    where = f"finding {number}"
    if not isinstance(item, dict) or tuple(item) != _FINDING_KEYS:
        expected = ", ".join(map(show, _FINDING_KEYS))
        raise ManifestSyntaxError(
            name, line, f"{where} must be an object with the keys {expected}, got {show(item)}"
        )
    rule, at, chunk, message, fix = item.values()
    if not isinstance(rule, str) or not RULE_CODE.fullmatch(rule):
        what = f'"rule" must be a rule code like "CG201", got {show(rule)}'
    elif type(at) is not int or at < 1:
        what = f'"line" must be an integer ≥ 1, got {show(at)}'
    elif chunk is not None and not (isinstance(chunk, str) and belongs(chunk, path)):
        what = f'"chunk" must be null or the ID of a chunk of {show(path)}, got {show(chunk)}'
    elif not isinstance(message, str):
        what = f'"message" must be a string, got {show(message)}'
    elif not isinstance(fix, str):
        what = f'"fix" must be a string, got {show(fix)}'
    else:
        return StoredFinding(rule, at, chunk, message, fix)
    raise ManifestSyntaxError(name, line, f"{where}: {what}")


def chunk_line(text: str, path: str, name: str, line: int) -> ChunkEntry:
    fast = _FAST_CHUNK.fullmatch(text)
    if fast is not None:
        chunk_id, start, end, chars, tokens, digest, moved, listed = fast.groups()
        codes = listed_codes(listed) if listed else ()
        if (
            chunk_id.startswith(path)
            and chunk_id[len(path) : len(path) + 1] == "#"
            and len(chunk_id) > len(path) + 1
            and int(start) <= int(end)
            and codes is not None
        ):
            return ChunkEntry(
                chunk_id, (int(start), int(end)), int(chars), int(tokens), digest, moved, codes
            )
    obj = json_object(text, name, line)
    kind = _kind(obj)
    if kind != "chunk":
        raise ManifestSyntaxError(
            name, line, f"{kind} line where a chunk line of {show(path)} is expected"
        )
    check_keys(obj, _CHUNK_KEYS, _CHUNK_OPTIONAL, name, line)
    if not text.startswith(CHUNK_PREFIX):
        raise ManifestSyntaxError(name, line, f"not in canonical form (spacing differs); {REBUILD}")
    chunk_id = string(obj, "id", name, line)
    if not belongs(chunk_id, path):
        raise ManifestSyntaxError(
            name, line, f"chunk {show(chunk_id)} does not belong to {show(path)}"
        )
    span = obj["lines"]
    if not (
        isinstance(span, list)
        and len(span) == 2
        and all(type(n) is int for n in span)
        and 1 <= span[0] <= span[1]
    ):
        raise ManifestSyntaxError(
            name, line, f'"lines" must be [start, end] with 1 ≤ start ≤ end, got {span}'
        )
    digest = string(obj, "hash", name, line)
    if not HEX16.fullmatch(digest):
        raise ManifestSyntaxError(name, line, f'"hash" must be 16 hex digits, got {show(digest)}')
    moved = string(obj, "moved_from", name, line) if "moved_from" in obj else None
    suppressed = _codes(obj["suppressed"], name, line) if "suppressed" in obj else ()
    return ChunkEntry(
        chunk_id,
        (span[0], span[1]),
        integer(obj, "chars", name, line),
        integer(obj, "tokens", name, line),
        digest,
        moved,
        suppressed,
    )


def _codes(raw: object, name: str, line: int) -> tuple[str, ...]:
    if (
        isinstance(raw, list)
        and raw
        and all(isinstance(code, str) and RULE_CODE.fullmatch(code) for code in raw)
        and tuple(raw) == _canonical(raw)
    ):
        return tuple(raw)
    raise ManifestSyntaxError(
        name, line, f'"suppressed" must be a non-empty sorted list of rule codes, got {show(raw)}'
    )


def _canonical(codes: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(set(codes)))


def listed_codes(listed: str) -> tuple[str, ...] | None:
    """``"CG201", "CG501"`` (as the fast patterns capture them) as a tuple; None
    unless sorted and unique."""
    codes = tuple(listed[1:-1].split('", "'))
    return codes if codes == _canonical(codes) else None


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


def check_keys(
    obj: Mapping[str, object],
    required: tuple[str, ...],
    optional: tuple[str, ...],
    name: str,
    line: int,
) -> None:
    """The required keys in order, then any of the optional ones, in their order."""
    keys = tuple(obj)
    rest = iter(optional)
    if keys[: len(required)] == required and all(key in rest for key in keys[len(required) :]):
        return
    allowed = (*required, *optional)
    for key in keys:
        if key not in allowed:
            raise ManifestSyntaxError(name, line, f"unexpected key {show(key)}")
    for key in required:
        if key not in obj:
            raise ManifestSyntaxError(name, line, f"missing key {show(key)}")
    expected = ", ".join(map(show, allowed))
    raise ManifestSyntaxError(name, line, f"keys out of order (expected {expected})")


def show(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:59] + "…"


def integer(obj: Mapping[str, object], key: str, name: str, line: int) -> int:
    value = obj[key]
    if type(value) is not int or value < 0:
        raise ManifestSyntaxError(name, line, f'"{key}" must be an integer ≥ 0, got {show(value)}')
    return value


def string(obj: Mapping[str, object], key: str, name: str, line: int) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value:
        raise ManifestSyntaxError(
            name, line, f'"{key}" must be a non-empty string, got {show(value)}'
        )
    return value
