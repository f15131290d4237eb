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

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from chunkgate.manifest.kinds import (
    BLOB,
    CHUNK_ID,
    CHUNK_IDS,
    CODES,
    COUNT,
    FINDINGS,
    HEX,
    INTEGER,
    PATH,
    SPAN,
    STRING,
    Kind,
    Slow,
    Where,
)
from chunkgate.manifest.records import ChunkEntry, FileEntry


class _Plan(NamedTuple):
    """What the writer and the fast reader of a line do, field by field, worked out once."""

    pattern: re.Pattern[str] | None
    values: Callable[[object], tuple[Any, ...]]  # a record's values, in field order
    writers: list[tuple[str, Callable[[Any], str], bool]]  # '"key": ', write, optional
    # attribute, first group, groups, fast, optional, located
    readers: list[tuple[str, int, int, Callable[..., Any], bool, bool]]


def _plan_of(line: Line) -> _Plan:
    text = line.pattern()
    getter = operator.attrgetter(*(f.holds for f in line.fields))
    values = getter if len(line.fields) > 1 else lambda record: (getter(record),)
    writers = [(f'"{f.key}": ', f.kind.write, f.optional) for f in line.fields]
    readers = []
    at = 0
    for item in line.fields:
        kind = item.kind
        if kind.pattern is None or kind.fast is None:
            continue
        count = kind.groups
        readers.append((item.holds, at, count, kind.fast, item.optional, kind.located))
        at += count
    return _Plan(re.compile(text) if text else None, values, writers, readers)


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
    """One kind of line: its fields in order, the record they make, and what is derived
    from them."""

    fields: tuple[Field, ...]
    record: type[Any]  # its values' record (the file line's ``chunks`` are its chunk lines)
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

    def pattern(
        self,
        *,
        capture: frozenset[str] | None = None,
        first: str | None = None,
        run: tuple[str, str] | None = None,
    ) -> str:
        """The regex of a line as written, without its newline: the fields the fast readers
        take, their values captured (``capture``: only those keys'); ``first`` replaces the
        first field's pattern; ``run`` (two keys): only those fields and the ones between,
        unanchored. A field with no pattern: optional, left out (a line holding it is the
        strict reader's); required, no pattern at all (an empty string)."""
        parts = []
        keys = [item.key for item in self.fields]
        start, end = (keys.index(run[0]), keys.index(run[1])) if run else (0, len(keys) - 1)
        for at, item in enumerate(self.fields):
            if not start <= at <= end:
                continue
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
            if at > start:
                text = f", {text}"
            parts.append(f"(?:{text})?" if item.optional else text)
        return "".join(parts) if run else r"\{" + "".join(parts) + r"\}"

    def compiled(self) -> re.Pattern[str] | None:
        """The fast readers' pattern (None: a required field only the strict reader reads)."""
        return self._plan().pattern

    def write(self, record: object) -> str:
        """The line of ``record`` (its newline included)."""
        plan = self._plan()
        parts = [
            key + write(value)
            for (key, write, optional), value in zip(plan.writers, plan.values(record), strict=True)
            if not optional or (value is not None and value != ())
        ]
        return "{" + ", ".join(parts) + "}\n"

    def read_fast(self, text: str, where: Where) -> dict[str, Any] | None:
        """The values of a line as written, read by the pattern; None: the strict reader's."""
        pattern = self._plan().pattern
        match = pattern.fullmatch(text) if pattern is not None else None
        return None if match is None else self.values(match.groups(), where)

    def values(self, groups: tuple[str | None, ...], where: Where) -> dict[str, Any] | None:
        """The values of what the fast pattern captured (first in ``groups``); None: the
        strict reader's."""
        values: dict[str, Any] = {}
        try:
            for holds, start, count, fast, optional, located in self._plan().readers:
                first = groups[start]
                if optional and first is None:
                    continue  # absent
                captured = groups[start : start + count] if count > 1 else (first,)
                values[holds] = fast(where, *captured) if located else fast(*captured)
        except Slow:
            return None
        return values

    def _plan(self) -> _Plan:
        plan = self._derived.get("plan")
        if plan is None:
            plan = self._derived["plan"] = _plan_of(self)
        return plan

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


FILE_LINE = Line(
    (
        Field("file", PATH, "path"),
        Field("blob", BLOB),
        Field("chunks", COUNT),
        Field("settings", HEX, optional=True),
        Field("findings", FINDINGS, optional=True),
    ),
    FileEntry,
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
        Field("merged", CHUNK_IDS, optional=True),
    ),
    ChunkEntry,
)
