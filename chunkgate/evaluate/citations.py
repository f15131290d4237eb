"""``refs FILES``: chunk IDs cited by other files (eval sets, stored citations, notes).

IDs are found by their shape, ``path#identity`` with a path ending in a
corpus file's extension, anywhere in the text (JSON, JSON lines, YAML, CSV,
Markdown or anything else); or, with ``field``, as the values of that key
(JSON, JSON lines, YAML, at any depth; a CSV column), whatever their shape.
An ID of a section merged into a neighbour (``markdown.merge_small``) is
found: it is named with the chunk that holds it, and left as it is. An ID that
is no chunk of the corpus is reported, with the ID a recorded move
(``moved_from`` in the manifest, followed to its end) redirects it to, and
``fix`` rewrites those in place: only the bytes of the ID change, the file
is written atomically.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import ChunkgateError
from chunkgate.diff.sides import working_tree
from chunkgate.manifest import write_atomic

_SUFFIXES = ("md", "markdown", "mdx", "py", "pyi", "txt", "rst")
_JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")


class Citation(NamedTuple):
    path: str  # the citing file, as given
    line: int
    start: int  # character offsets of the ID as written in the file
    end: int
    id: str  # the ID as it reads (JSON escapes resolved)
    redirect: str | None = None  # where a recorded move sends it, if it exists there

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "id": self.id, "moved_to": self.redirect}


class RefsResult(NamedTuple):
    broken: tuple[Citation, ...]  # IDs that are not chunks (left as they are)
    fixed: tuple[Citation, ...]  # IDs rewritten through a recorded move
    checked: int  # IDs looked at
    # IDs of sections merged into a neighbour (``markdown.merge_small``), which resolve
    # to the chunk that holds them (``redirect``): found, and left as they are.
    merged: tuple[Citation, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "broken": [c.to_dict() for c in self.broken],
            "fixed": [c.to_dict() for c in self.fixed],
            "merged": [
                {"path": c.path, "line": c.line, "id": c.id, "chunk": c.redirect}
                for c in self.merged
            ],
            "checked": self.checked,
        }


class CorpusIds(NamedTuple):
    """What a citation may name: the corpus's chunk IDs, its recorded moves (old ->
    new), its files' extensions, and the IDs merged into a chunk (ID -> the chunk's)."""

    known: set[str]
    moved: dict[str, str]
    suffixes: set[str]
    merged: dict[str, str]


def id_pattern(suffixes: Collection[str] = _SUFFIXES) -> re.Pattern[str]:
    ends = "|".join(sorted({re.escape(s.lstrip(".")) for s in suffixes}, key=len, reverse=True))
    name = r"(?:[\w.-]|\\u[0-9A-Fa-f]{4})+"  # \u escapes: JSON written with ensure_ascii
    return re.compile(
        rf"(?<![\w./:@\\-])((?:{name}/)*{name}\.(?:{ends})#[^\s\"'`<>()\[\]{{}}|,;]+)"
    )


def find_citations(path: str, text: str, pattern: re.Pattern[str]) -> Iterator[Citation]:
    """Every ID-shaped string in ``text``, with its line and exact span."""
    escaped = path.lower().endswith(_JSON_SUFFIXES)
    for match in pattern.finditer(text):
        written = match.group(1).rstrip(".:!?")
        if written.endswith("#"):
            continue
        start = match.start(1)
        yield Citation(path, text.count("\n", 0, start) + 1, start, start + len(written),
                       _unescape(written) if escaped else written)  # fmt: skip


def field_citations(path: str, text: str, field: str) -> Iterator[Citation]:
    """The values of ``field`` in a JSON, JSON-lines, YAML or CSV file, located in its text."""
    values = _field_values(path, text, field)
    escaped = path.lower().endswith(_JSON_SUFFIXES)
    cursor: dict[str, int] = {}
    for value in values:
        written = json.dumps(value, ensure_ascii=False)[1:-1] if escaped else value
        at = text.find(written, cursor.get(written, 0))
        if at < 0 and escaped:
            written = json.dumps(value)[1:-1]  # written with \\u escapes
            at = text.find(written, cursor.get(written, 0))
        if at < 0:
            raise ChunkgateError(f"{path}: cannot find {value!r} as written; fix it by hand")
        cursor[written] = at + len(written)
        yield Citation(path, text.count("\n", 0, at) + 1, at, at + len(written), value)


def _field_values(path: str, text: str, field: str) -> list[str]:
    lower = path.lower()
    found: list[str] = []
    if lower.endswith(".csv"):
        reader = csv.DictReader(io.StringIO(text))
        if reader.fieldnames is None or field not in reader.fieldnames:
            raise ChunkgateError(f"{path}: no column {field!r}")
        return [row[field] for row in reader if row.get(field)]
    try:
        if lower.endswith((".jsonl", ".ndjson")):
            documents = [json.loads(line) for line in text.splitlines() if line.strip()]
        elif lower.endswith(".json"):
            documents = [json.loads(text)]
        else:
            import yaml  # type: ignore[import-untyped, unused-ignore]

            documents = [yaml.safe_load(text)]
    except (ValueError, Exception) as exc:  # json and yaml raise their own error types
        raise ChunkgateError(f"{path}: cannot read {field!r} values: {exc}") from None
    for document in documents:
        _collect(document, field, found)
    return found


def _collect(node: object, field: str, found: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == field:
                found.extend(
                    v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)
                )
            else:
                _collect(value, field, found)
    elif isinstance(node, list):
        for item in node:
            _collect(item, field, found)


def _unescape(written: str) -> str:
    if "\\" not in written:
        return written
    try:
        value = json.loads(f'"{written}"')
    except json.JSONDecodeError:
        return written
    return value if isinstance(value, str) else written


def follow(moved: Mapping[str, str], chunk_id: str, known: Collection[str]) -> str | None:
    """Where the recorded moves send ``chunk_id``, if that is a chunk now."""
    seen = {chunk_id}
    current = moved.get(chunk_id)
    while current is not None and current not in known and current not in seen:
        seen.add(current)
        current = moved.get(current)
    return current if current is not None and current in known else None


def check_files(
    files: Sequence[Path],
    known: Collection[str],
    moved: Mapping[str, str],
    *,
    field: str | None = None,
    fix: bool = False,
    suffixes: Collection[str] = _SUFFIXES,
    merged: Mapping[str, str] | None = None,
) -> RefsResult:
    """Check (and with ``fix`` rewrite) the IDs cited in ``files``; ``moved`` maps an old
    ID to the ID it moved to, ``merged`` a merged section's ID to its chunk's."""

    merged = merged or {}
    pattern = id_pattern(suffixes)
    broken: list[Citation] = []
    fixed: list[Citation] = []
    joined: list[Citation] = []
    checked = 0
    for file in files:
        name = str(file)
        try:
            text = file.read_bytes().decode("utf-8")
        except OSError as exc:
            raise ChunkgateError(f"{name}: cannot read: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ChunkgateError(f"{name}: not UTF-8") from None
        found = list(
            field_citations(name, text, field) if field else find_citations(name, text, pattern)
        )
        checked += len(found)
        joined.extend(c._replace(redirect=merged[c.id]) for c in found if c.id in merged)
        bad = [
            c._replace(redirect=follow(moved, c.id, known))
            for c in found
            if c.id not in known and c.id not in merged
        ]
        movable = [c for c in bad if c.redirect is not None] if fix else []
        broken.extend(c for c in bad if c not in movable)
        if movable:
            write_atomic(file, _rewritten(name, text, movable).encode("utf-8"))
            fixed.extend(movable)
    return RefsResult(tuple(broken), tuple(fixed), checked, tuple(joined))


def _rewritten(path: str, text: str, citations: Sequence[Citation]) -> str:
    escaped = path.lower().endswith(_JSON_SUFFIXES)
    parts: list[str] = []
    last = 0
    for citation in sorted(citations, key=lambda c: c.start):
        assert citation.redirect is not None
        parts.append(text[last : citation.start])
        parts.append(
            json.dumps(citation.redirect, ensure_ascii=False)[1:-1]
            if escaped
            else citation.redirect
        )
        last = citation.end
    parts.append(text[last:])
    return "".join(parts)


def corpus_ids(root: Path, *, config_path: Path | None = None) -> CorpusIds:
    """The IDs a citation of the working tree's corpus may name (``CorpusIds``)."""

    snapshot = working_tree(root, config_path=config_path)
    known = {chunk.id for chunk in snapshot.chunks}
    moved = {old: new for new, old in snapshot.moves}
    suffixes = {p.rpartition(".")[2] for p in {c.path for c in snapshot.chunks} if "." in p}
    merged = {alias: chunk.id for chunk in snapshot.chunks for alias in chunk.merged}
    return CorpusIds(known, moved, set(_SUFFIXES) | suffixes, merged)
