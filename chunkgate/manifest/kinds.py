"""The kinds of value a manifest field holds: how each is written, the pattern of its
JSON text for the fast readers, and how the strict reader checks it (wording the error).
``fields`` puts them in the tables of a shard's lines."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from chunkgate.core.errors import ManifestError
from chunkgate.core.regex import lazy
from chunkgate.corpus.paths import problem
from chunkgate.manifest.records import HEX16, RULE_CODE, StoredFinding, belongs, path_key

REBUILD = "run `chunkgate update` to rebuild it"
_BLOB = lazy(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 and SHA-256 repositories
_FINDING_KEYS = ("rule", "line", "chunk", "message", "fix")
# What JSONEncoder(ensure_ascii=False).encode does with a string, without its
# Python-level dispatch: rendering calls it for every chunk's ID and hash.
_string = json.encoder.encode_basestring
# A string that needs no escape, captured.
PLAIN = r'"([^"\\\x00-\x1f]+)"'
# Up to 12 digits (no number a manifest holds needs more): a longer one is left to the
# JSON path, which words the error; int() of thousands of digits raises ValueError.
_NUMBER = "(0|[1-9][0-9]{0,11})"
_POSITIVE = "([1-9][0-9]{0,11})"


class ManifestSyntaxError(ManifestError):
    """A corrupt line: ``line`` is its 1-based number in the manifest called ``name``."""

    def __init__(self, name: str, line: int, what: str) -> None:
        super().__init__(f"{name}:{line}: {what}")
        self.name, self.line, self.what = name, line, what


class Where(NamedTuple):
    """Where a value was read: the manifest's name, the line's number, the shard's path."""

    name: str
    line: int
    path: str

    def error(self, what: str) -> ManifestSyntaxError:
        return ManifestSyntaxError(self.name, self.line, what)


class Slow(Exception):
    """The fast reader leaves this line to the strict one (which words what is wrong)."""


@dataclass(frozen=True)
class Kind:
    write: Callable[[Any], str]  # the value's JSON text
    strict: Callable[[str, object, Where], Any]  # (key, decoded JSON, where) -> the value
    # Its JSON text, the value's parts captured (the first one always, when present).
    pattern: str | None = None
    fast: Callable[..., Any] | None = None  # (*captured) -> the value; may raise Slow
    name: str = ""
    located: bool = False  # ``fast`` takes the ``Where`` first (to check, or word an error)

    @property
    def groups(self) -> int:
        return 0 if self.pattern is None else re.compile(self.pattern).groups


def show(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:59] + "…"


def check_keys(
    obj: Mapping[str, object],
    required: tuple[str, ...],
    optional: tuple[str, ...],
    name: str,
    line: int,
) -> None:
    """The required keys in order, then any of the optional ones, in their order."""
    where = Where(name, line, "")
    keys = tuple(obj)
    rest = iter(optional)
    if keys[: len(required)] == required and all(key in rest for key in keys[len(required) :]):
        return
    allowed = (*required, *optional)
    for key in keys:
        if key not in allowed:
            raise where.error(f"unexpected key {show(key)}")
    for key in required:
        if key not in obj:
            raise where.error(f"missing key {show(key)}")
    expected = ", ".join(map(show, allowed))
    raise where.error(f"keys out of order (expected {expected})")


def integer(key: str, value: object, where: Where) -> int:
    if type(value) is not int or value < 0:
        raise where.error(f'"{key}" must be an integer ≥ 0, got {show(value)}')
    return value


def string(key: str, value: object, where: Where) -> str:
    if not isinstance(value, str) or not value:
        raise where.error(f'"{key}" must be a non-empty string, got {show(value)}')
    return value


# -- the kinds of value ---------------------------------------------------------------------


def _check_path(path: str, where: Where) -> str:
    # A manifest is input: a file line naming ../../etc/passwd must not make chunkgate
    # look there (to decide deletions, or in a SARIF URI).
    unsafe = problem(path)
    if unsafe is not None:
        raise where.error(f"path {show(path)} {unsafe}; {REBUILD}")
    return path


def _strict_path(key: str, value: object, where: Where) -> str:
    path = string(key, value, where)
    try:
        path_key(path)
    except UnicodeEncodeError:
        raise where.error(f"path {show(path)} holds a lone surrogate") from None
    return _check_path(path, where)


def _strict_blob(key: str, value: object, where: Where) -> str | None:
    if value is not None and not (isinstance(value, str) and _BLOB.fullmatch(value)):
        raise where.error(f'"{key}" must be a git object id or null, got {show(value)}')
    return value


def _strict_hex(key: str, value: object, where: Where) -> str:
    if not (isinstance(value, str) and HEX16.fullmatch(value)):
        raise where.error(f'"{key}" must be 16 hex digits, got {show(value)}')
    return value


def _strict_id(key: str, value: object, where: Where) -> str:
    chunk_id = string(key, value, where)
    if not belongs(chunk_id, where.path):
        raise where.error(f"chunk {show(chunk_id)} does not belong to {show(where.path)}")
    return chunk_id


def _fast_id(where: Where, chunk_id: str) -> str:  # located
    if not belongs(chunk_id, where.path):
        raise Slow
    return chunk_id


def _strict_span(key: str, value: object, where: Where) -> tuple[int, int]:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(type(n) is int for n in value)
        and 1 <= value[0] <= value[1]
    ):
        raise where.error(f'"{key}" must be [start, end] with 1 ≤ start ≤ end, got {value}')
    return value[0], value[1]


def _fast_span(start: str, end: str) -> tuple[int, int]:
    span = int(start), int(end)
    if span[0] > span[1]:
        raise Slow
    return span


def listed_codes(listed: str) -> tuple[str, ...] | None:
    """``"CG201", "CG501"`` (as the fast patterns capture them) as a tuple; None
    unless sorted and unique."""
    codes = tuple(listed[1:-1].split('", "'))
    return codes if codes == tuple(sorted(set(codes))) else None


def _fast_codes(listed: str) -> tuple[str, ...]:
    codes = listed_codes(listed)
    if codes is None:
        raise Slow
    return codes


def _strict_codes(key: str, raw: object, where: Where) -> tuple[str, ...]:
    if (
        isinstance(raw, list)
        and raw
        and all(isinstance(code, str) and RULE_CODE.fullmatch(code) for code in raw)
        and tuple(raw) == tuple(sorted(set(raw)))
    ):
        return tuple(raw)
    raise where.error(f'"{key}" must be a non-empty sorted list of rule codes, got {show(raw)}')


def _fast_ids(where: Where, listed: str) -> tuple[str, ...]:  # located
    ids = tuple(listed[1:-1].split('", "'))
    if len(set(ids)) != len(ids) or not all(belongs(chunk_id, where.path) for chunk_id in ids):
        raise Slow
    return ids


def _strict_ids(key: str, raw: object, where: Where) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw or len(set(map(str, raw))) != len(raw):
        what = "a non-empty list of distinct chunk IDs"
        raise where.error(f'"{key}" must be {what}, got {show(raw)}')
    return tuple(_strict_id(key, item, where) for item in raw)


def _write_findings(findings: tuple[StoredFinding, ...]) -> str:
    return (
        "["
        + ", ".join(
            f'{{"rule": {_string(f.rule)}, "line": {f.line:d}, '
            f'"chunk": {"null" if f.chunk_id is None else _string(f.chunk_id)}, '
            f'"message": {_string(f.message)}, "fix": {_string(f.fix)}}}'
            for f in findings
        )
        + "]"
    )


def _strict_findings(key: str, raw: object, where: Where) -> tuple[StoredFinding, ...]:
    if not isinstance(raw, list) or not raw:
        raise where.error(f'"{key}" must be a non-empty list, got {show(raw)}')
    found = [_finding(item, number, where) for number, item in enumerate(raw, 1)]
    if found != sorted(found, key=StoredFinding.sort_key):
        raise where.error(f'"{key}" must be sorted by line, rule, chunk, message and fix')
    return tuple(found)


def _finding(item: object, number: int, where: Where) -> StoredFinding:
    if not isinstance(item, dict) or tuple(item) != _FINDING_KEYS:
        expected = ", ".join(map(show, _FINDING_KEYS))
        raise where.error(
            f"finding {number} must be an object with the keys {expected}, got {show(item)}"
        )
    rule, at, chunk, message, fix = item.values()
    path = where.path
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
    raise where.error(f"finding {number}: {what}")


def _same(value: str) -> str:
    return value


def _fast_path(where: Where, path: str) -> str:  # located
    return _check_path(path, where)


PATH = Kind(_string, _strict_path, PLAIN, _fast_path, "path", located=True)
BLOB = Kind(
    lambda blob: "null" if blob is None else _string(blob),
    _strict_blob,
    r'(?:null|"([0-9a-f]{40}|[0-9a-f]{64})")',
    _same,
    "blob",
)
COUNT = Kind(lambda items: str(len(items)), integer, _NUMBER, int, "count")
INTEGER = Kind(str, integer, _NUMBER, int, "integer")
HEX = Kind(_string, _strict_hex, r'"([0-9a-f]{16})"', _same, "hex16")
STRING = Kind(_string, string, PLAIN, _same, "string")
CHUNK_ID = Kind(_string, _strict_id, PLAIN, _fast_id, "chunk-id", located=True)
SPAN = Kind(
    lambda span: f"[{span[0]:d}, {span[1]:d}]",
    _strict_span,
    rf"\[{_POSITIVE}, {_POSITIVE}\]",
    _fast_span,
    "span",
)
CODES = Kind(
    lambda codes: f"[{', '.join(map(_string, codes))}]",
    _strict_codes,
    r'\[("CG[0-9]{3}"(?:, "CG[0-9]{3}")*)\]',
    _fast_codes,
    "codes",
)
FINDINGS = Kind(_write_findings, _strict_findings, name="findings")
# Chunk IDs of the line's file, in their order (``ChunkEntry.merged``).
_QUOTED = r'"[^"\\\x00-\x1f]+"'
CHUNK_IDS = Kind(
    lambda ids: f"[{', '.join(map(_string, ids))}]",
    _strict_ids,
    rf"\[({_QUOTED}(?:, {_QUOTED})*)\]",
    _fast_ids,
    "chunk-ids",
    located=True,
)
# The file line: its "chunks" holds how many chunk lines follow (``FileEntry.chunks``).
