"""``lint EXPORT``: chunkgate's rules on chunks another pipeline made.

An export is JSON lines (one chunk per line) or a JSON array (or an object
with a ``chunks`` array, as ChunkLint writes). Each row's fields are found
under the names the common pipelines write (``--field NAME=KEY`` overrides
one; ``KEY`` may be dotted, ``metadata.source``):

- text: ``text`` (LlamaIndex, chonkie, ChunkLint, chunkgate), ``page_content``
  (LangChain), ``content``, ``chunk``;
- id: ``id`` (LangChain, chonkie, ChunkLint, chunkgate), ``id_`` (LlamaIndex),
  ``chunk_id``, ``node_id``;
- source: ``source``, ``path``, ``file_path``, then in ``metadata``: ``source``
  (LangChain's loaders), ``file_path``, ``file_name`` (LlamaIndex's readers),
  ``filename``, ``path``, ``document_id``;
- heading: ``heading_path`` (chunkgate), ``metadata.header_path``
  (LlamaIndex's MarkdownNodeParser, ``/A/B/``), ``metadata["Header 1"]`` to
  ``["Header 6"]`` (LangChain's MarkdownHeaderTextSplitter),
  ``metadata.heading``, ``section``, ``title``.

Findings point at the export: ``line`` is the row's line in a JSON-lines
file (its position in a JSON array), the chunk ID is the row's ID.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from chunkgate.chunking.sizes import make_counter, measure
from chunkgate.config.model import Config
from chunkgate.core.errors import ChunkgateError
from chunkgate.core.model import CheckResult, Chunk, Summary, Violation
from chunkgate.rules import RULES
from chunkgate.rules.base import FileContext, Finding
from chunkgate.rules.duplicates import duplicate_violations
from chunkgate.rules.exports import ExportRow, check_rows, id_changes
from chunkgate.rules.nearduplicates import near_duplicate_violations

FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("text", "page_content", "content", "chunk"),
    "id": ("id", "id_", "chunk_id", "node_id"),
    "source": (
        "source",
        "path",
        "file_path",
        "metadata.source",
        "metadata.file_path",
        "metadata.file_name",
        "metadata.filename",
        "metadata.path",
        "metadata.document_id",
    ),
    "heading": (
        "heading_path",
        "metadata.heading_path",
        "metadata.header_path",
        "metadata.heading",
        "metadata.section",
        "metadata.title",
        "section",
        "title",
    ),
}
_HEADER_KEYS = tuple(f"Header {level}" for level in range(1, 7))
# The families that judge a chunk by its text alone; the rest need the source file.
_FAMILIES = ("size", "denylist", "linkfarm", "datadump")
# What to do about a finding is the splitter's business, not the author's.
_EXPORT_FIXES = {
    "CG201": "lower the splitter's chunk size, or split at headings first",
    "CG202": "merge small pieces into their neighbours (keep headings with their text)",
    "CG101": "give every chunk a unique, stable ID (source path plus section, not a counter)",
    "CG501": "drop the copy, or keep chunk overlap below the chunk size",
}


def read_export(path: Path, fields: Mapping[str, str] | None = None) -> list[ExportRow]:
    """The rows of an export, each with its line, ID, source, headings and text."""
    try:
        raw = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ChunkgateError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ChunkgateError(f"{path}: not UTF-8") from None
    rows: list[tuple[int, object]] = []
    if path.suffix.lower() == ".json":
        try:
            document = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ChunkgateError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
        if isinstance(document, dict) and isinstance(document.get("chunks"), list):
            document = document["chunks"]
        if not isinstance(document, list):
            raise ChunkgateError(f"{path}: expected a list of chunks (or a 'chunks' list)")
        rows = list(enumerate(document, 1))
    else:
        for number, line in enumerate(raw.split("\n"), 1):
            if line.strip():
                try:
                    rows.append((number, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise ChunkgateError(f"{path}:{number}: invalid JSON: {exc.msg}") from None
    keys = {
        name: ((fields[name],) if fields and name in fields else keys)
        for name, keys in FIELDS.items()
    }
    return [_row(path, number, item, keys) for number, item in rows]


def _row(path: Path, number: int, item: object, keys: Mapping[str, tuple[str, ...]]) -> ExportRow:
    if not isinstance(item, dict):
        raise ChunkgateError(f"{path}:{number}: expected a JSON object for each chunk")
    text = _first(item, keys["text"])
    chunk_id = _first(item, keys["id"])
    source = _first(item, keys["source"])
    return ExportRow(
        number,
        None if chunk_id is None else str(chunk_id),
        None if source is None else str(source),
        _headings(item, keys["heading"]),
        text if isinstance(text, str) else None,
    )


def _first(item: Mapping[str, object], keys: Sequence[str]) -> object:
    for key in keys:
        value: object = item
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is not None and value not in ("", []):
            return value
    return None


def _headings(item: Mapping[str, object], keys: Sequence[str]) -> tuple[str, ...]:
    metadata = item.get("metadata")
    if isinstance(metadata, dict) and any(k in metadata for k in _HEADER_KEYS):
        return tuple(str(metadata[k]) for k in _HEADER_KEYS if metadata.get(k))
    value = _first(item, keys)
    if isinstance(value, list):
        return tuple(str(v) for v in value if v)
    if isinstance(value, str):
        parts = value.strip("/").split("/") if value.startswith("/") else value.split(" > ")
        return tuple(p for p in parts if p.strip())
    return ()


def as_chunk(row: ExportRow, export: str) -> Chunk:
    """A ``Chunk`` for the rules: the export's line as its line, the source as its path."""
    text = row.text or ""
    chars, tokens, digest = measure(text, make_counter("estimate"))
    source = row.source or export
    language: str = "text"
    if source.lower().endswith((".md", ".markdown", ".mdx")):
        language = "markdown"
    chunk_id = row.id or f"{export}#row-{row.line}"
    return Chunk(
        chunk_id, source, "text", language, None, row.headings, 0, row.line, row.line,
        chars, tokens, digest, text, row.line,
    )  # fmt: skip


def lint_export(
    config: Config,
    export: Path,
    *,
    against: Path | None = None,
    fields: Mapping[str, str] | None = None,
) -> CheckResult:
    rows = read_export(export, fields)
    name = export.name
    chunks = [as_chunk(row, name) for row in rows if row.text is not None and row.text.strip()]
    findings: list[tuple[str | None, Finding]] = []
    by_source: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk.path, []).append(chunk)
    checks = [importlib.import_module(f"chunkgate.rules.{f}").check for f in _FAMILIES]
    for source, group in by_source.items():
        context = FileContext(source, sum(c.chars for c in group), None, tuple(group), config)
        for check in checks:
            findings.extend((source, finding) for finding in check(context))
    identity = importlib.import_module("chunkgate.rules.identity").check
    everything = FileContext(
        name, 0, None, tuple(c for c in chunks if not c.id.startswith(f"{name}#row-")), config
    )
    findings.extend((name, finding) for finding in identity(everything))
    # The export-only rules report rows by their line: no chunk to point at.
    findings.extend((None, finding) for finding in check_rows(rows))
    if against is not None:
        findings.extend(
            (None, finding)
            for finding in id_changes(rows, read_export(against, fields), against.name)
        )
    ids = {row.line: row.id for row in rows}
    violations = list(_violations(config, name, findings, by_source, ids))
    rows_for_duplicates = [(c.hash, c.id, name, c.start_line, ()) for c in chunks]
    violations.extend(
        v._replace(fix=_EXPORT_FIXES["CG501"])
        for v in duplicate_violations(config, rows_for_duplicates)
    )
    violations.extend(_near_duplicates(config, name, chunks))
    violations.sort(key=Violation.sort_key)
    summary = Summary(
        files=len(by_source),
        chunks=len(rows),
        errors=sum(v.severity == "error" for v in violations),
        warnings=sum(v.severity == "warning" for v in violations),
    )
    return CheckResult(tuple(violations), summary, manifest="")


def _violations(
    config: Config,
    export: str,
    findings: Sequence[tuple[str | None, Finding]],
    by_source: Mapping[str, list[Chunk]],
    ids: Mapping[int, str | None],
) -> Iterator[Violation]:
    for source, finding in findings:
        severity = config.severity(finding.code)
        if severity == "off":
            continue
        chunk = finding.chunk
        if chunk is None and source is not None and by_source.get(source):
            chunk = by_source[source][0]  # a finding about the source: its first row
        line = chunk.start_line if chunk is not None else finding.line
        chunk_id = chunk.id if chunk is not None else ids.get(line)
        shown = source in (None, export)
        message = finding.message if shown else f"{source}: {finding.message}"
        fix = _EXPORT_FIXES.get(finding.code, finding.fix)
        rule = RULES[finding.code]
        severity = rule.severity_of(severity, finding.message)
        yield Violation(finding.code, rule.name, severity, export, line, chunk_id, message, fix)


def _near_duplicates(config: Config, export: str, chunks: Sequence[Chunk]) -> list[Violation]:
    if config.severity("CG502") == "off":
        return []
    return [v._replace(path=export) for v in near_duplicate_violations(config, chunks)]
