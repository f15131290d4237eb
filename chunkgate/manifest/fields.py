"""A shard's two kinds of line as tables of fields, from which the writer, the strict
reader, the fast readers and the summary pattern are all derived.

A field is a JSON key, the record attribute it holds, and its kind: how a
value is written, the pattern of its JSON text (for the fast readers, None
when only the strict reader reads it), how the captured text becomes the
value, and how the strict reader checks a decoded value (wording the error).
Keys are written in table order; an optional field only when it holds
something (not None, not empty). Adding a field is one ``Field`` in
``FILE_LINE`` or ``CHUNK_LINE`` and the attribute on the record; the
summary cache's key holds the table's ``signature``, so summaries made
before the change are made again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from chunkgate.core.errors import ManifestError
from chunkgate.core.regex import lazy
from chunkgate.corpus.paths import problem
from chunkgate.manifest.records import (
    HEX16,
    RULE_CODE,
    StoredFinding,
    belongs,
    path_key,
)

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
    pattern: str | None = None  # its JSON text, the value's parts captured
    fast: Callable[..., Any] | None = None  # (where, *captured) -> the value; may raise Slow
    name: str = ""

    @property
    def groups(self) -> int:
        return 0 if self.pattern is None else re.compile(self.pattern).groups


@dataclass(frozen=True)
class Field:
    key: str
    kind: Kind
    attribute: str = ""  # the record's attribute (default: the key)
    optional: bool = False  # written only when it holds something

    @property
    def holds(self) -> str:
        return self.attribute or self.key


@dataclass(frozen=True)
class Line:
    """One kind of line: its fields in order, and the patterns derived from them."""

    fields: tuple[Field, ...]
    _derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def prefix(self) -> str:
        return f'{{"{self.fields[0].key}": '

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields if not f.optional)

    @property
    def optional(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields if f.optional)

    def signature(self) -> str:
        return ",".join(f"{f.key}:{f.kind.name}{'?' if f.optional else ''}" for f in self.fields)

    def pattern(self, *, capture: frozenset[str] | None = None, first: str | None = None) -> str:
        """The regex of a line as written, without its newline: the fields the fast readers
        take, their values captured (``capture``: only those keys'); ``first`` replaces the
        first field's pattern. A field with no pattern: optional, left out (a line holding
        it is the strict reader's); required, no pattern at all (an empty string)."""
        parts = []
        for at, item in enumerate(self.fields):
            pattern = item.kind.pattern
            if at == 0 and first is not None:
                pattern = first
            if pattern is None:
                if not item.optional:
                    return ""
                continue
            if capture is not None and item.key not in capture:
                pattern = _quiet(pattern)
            text = f'"{item.key}": {pattern}'
            if at:
                text = f", {text}"
            parts.append(f"(?:{text})?" if item.optional else text)
        return r"\{" + "".join(parts) + r"\}"

    def compiled(self) -> re.Pattern[str] | None:
        found = self._derived.get("fast")
        if found is None:
            text = self.pattern()
            found = self._derived["fast"] = re.compile(text) if text else None
        return found  # type: ignore[no-any-return]

    def write(self, record: object) -> str:
        parts = []
        for item in self.fields:
            value = getattr(record, item.holds)
            if item.optional and (value is None or value == ()):
                continue
            parts.append(f'"{item.key}": {item.kind.write(value)}')
        return "{" + ", ".join(parts) + "}\n"

    def read_fast(self, text: str, where: Where) -> dict[str, Any] | None:
        """The values of a line as written, read by the pattern; None: the strict reader's."""
        pattern = self.compiled()
        match = pattern.fullmatch(text) if pattern is not None else None
        if match is None:
            return None
        groups = match.groups()
        values: dict[str, Any] = {}
        at = 0
        try:
            for item in self.fields:
                kind = item.kind
                if kind.pattern is None:
                    continue
                count = kind.groups
                captured = groups[at : at + count]
                at += count
                if item.optional and all(part is None for part in captured):
                    continue
                assert kind.fast is not None
                values[item.holds] = kind.fast(where, *captured)
        except Slow:
            return None
        return values

    def read_strict(self, obj: Mapping[str, object], where: Where) -> dict[str, Any]:
        """The values of a decoded line whose keys are checked, each value checked."""
        return {
            item.holds: item.kind.strict(item.key, obj[item.key], where)
            for item in self.fields
            if item.key in obj
        }


def _quiet(pattern: str) -> str:
    """``pattern`` with its groups made non-capturing (none of ours escapes a paren)."""
    return re.sub(r"\((?!\?)", "(?:", pattern)


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


def _fast_id(where: Where, chunk_id: str) -> str:
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


def _fast_span(where: Where, start: str, end: str) -> tuple[int, int]:
    span = int(start), int(end)
    if span[0] > span[1]:
        raise Slow
    return span


def listed_codes(listed: str) -> tuple[str, ...] | None:
    """``"CG201", "CG501"`` (as the fast patterns capture them) as a tuple; None
    unless sorted and unique."""
    codes = tuple(listed[1:-1].split('", "'))
    return codes if codes == tuple(sorted(set(codes))) else None


def _fast_codes(where: Where, listed: str) -> tuple[str, ...]:
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
    if found != sorted(set(found), key=StoredFinding.sort_key):
        raise where.error(
            f'"{key}" must be sorted by line, rule, chunk, message and fix, without repeats'
        )
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


def _same(where: Where, value: str) -> str:
    return value


def _number(where: Where, value: str) -> int:
    return int(value)


PATH = Kind(_string, _strict_path, PLAIN, lambda where, path: _check_path(path, where), "path")
BLOB = Kind(
    lambda blob: "null" if blob is None else _string(blob),
    _strict_blob,
    r'(?:null|"([0-9a-f]{40}|[0-9a-f]{64})")',
    _same,
    "blob",
)
COUNT = Kind(lambda items: f"{len(items):d}", integer, _NUMBER, _number, "count")
INTEGER = Kind(lambda value: f"{value:d}", integer, _NUMBER, _number, "integer")
HEX = Kind(_string, _strict_hex, r'"([0-9a-f]{16})"', _same, "hex16")
STRING = Kind(_string, string, PLAIN, _same, "string")
CHUNK_ID = Kind(_string, _strict_id, PLAIN, _fast_id, "chunk-id")
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

# The file line: its "chunks" holds how many chunk lines follow (``FileEntry.chunks``).
FILE_LINE = Line(
    (
        Field("file", PATH, "path"),
        Field("blob", BLOB),
        Field("chunks", COUNT),
        Field("settings", HEX, optional=True),
        Field("findings", FINDINGS, optional=True),
    )
)
CHUNK_LINE = Line(
    (
        Field("id", CHUNK_ID),
        Field("lines", SPAN),
        Field("chars", INTEGER),
        Field("tokens", INTEGER),
        Field("hash", HEX),
        Field("moved_from", STRING, optional=True),
        Field("suppressed", CODES, optional=True),
    )
)
