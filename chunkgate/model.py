"""Immutable records shared by every layer.

They are named tuples, not frozen dataclasses: a tuple class is made ten
times faster at import, which a pre-commit hook's start-up feels, and a
tuple is built ten times faster too, which chunking a corpus feels.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

ChunkKind = Literal["section", "preamble", "function", "class", "method", "module", "text"]
Language = Literal[
    "markdown",
    "python",
    "text",
    # issue 22: tree-sitter languages and reStructuredText
    "javascript",
    "typescript",
    "tsx",
    "go",
    "rust",
    "java",
    "c",
    "cpp",
    "csharp",
    "ruby",
    "php",
    "kotlin",
    "swift",
    "shell",
    "rst",
]
Severity = Literal["error", "warning", "off"]


class Chunk(NamedTuple):
    """One citable unit of source text (SPEC §1).

    ``text`` is exactly the file's lines ``start_line..end_line`` (line endings
    normalised to ``\\n``, no trailing newline). ``body_line`` is the first line
    after the chunk's own heading or definition line(s); CG402 and ``diff``
    compare bodies so that a renamed heading is recognised as a move.

    ``chunk._replace(...)`` makes a changed copy.
    """

    id: str
    path: str
    kind: ChunkKind
    language: Language
    symbol: str | None
    heading_path: tuple[str, ...]
    level: int
    start_line: int
    end_line: int
    chars: int
    tokens: int
    hash: str
    text: str
    body_line: int
    suppressed: frozenset[str] = frozenset()
    title: str | None = None
    tags: tuple[str, ...] = ()
    # issue 22: a reStructuredText file's leading field list (":author: Ada").
    fields: tuple[tuple[str, str], ...] = ()

    @property
    def identity(self) -> str:
        return self.id.partition("#")[2]

    @property
    def body(self) -> str:
        skip = self.body_line - self.start_line
        if skip <= 0:
            return self.text
        parts = self.text.split("\n", skip)
        return parts[skip] if len(parts) > skip else ""

    def to_dict(self, *, text: bool = True) -> dict[str, object]:
        out: dict[str, object] = {
            "id": self.id,
            "path": self.path,
            "kind": self.kind,
            "language": self.language,
            "symbol": self.symbol,
            "heading_path": list(self.heading_path),
            "level": self.level,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "chars": self.chars,
            "tokens": self.tokens,
            "hash": self.hash,
        }
        metadata: dict[str, object] = {}
        if self.title is not None:
            metadata["title"] = self.title
        if self.tags:
            metadata["tags"] = list(self.tags)
        if self.fields:
            metadata["fields"] = dict(self.fields)
        if metadata:
            out["metadata"] = metadata
        if text:
            out["text"] = self.text
        return out


class Problem(NamedTuple):
    """Something wrong with a file found while chunking it (becomes CG001)."""

    path: str
    line: int
    message: str


class Heading(NamedTuple):
    """A Markdown heading as ``outline`` reports it."""

    path: str
    level: int
    text: str
    line: int
    id: str

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "level": self.level,
            "text": self.text,
            "line": self.line,
            "id": self.id,
        }


class Summary(NamedTuple):
    files: int
    chunks: int
    errors: int
    warnings: int

    def to_dict(self) -> dict[str, int]:
        return {
            "files": self.files,
            "chunks": self.chunks,
            "errors": self.errors,
            "warnings": self.warnings,
        }


class Violation(NamedTuple):
    """One rule finding with its severity, as reported to the user.

    ``fix`` tells the user exactly what to do about it.
    """

    rule: str
    name: str
    severity: Severity
    path: str
    line: int
    chunk_id: str | None
    message: str
    fix: str = ""

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line, self.rule, self.chunk_id or "")

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "chunk_id": self.chunk_id,
            "message": self.message,
            "fix": self.fix,
        }


class CheckResult(NamedTuple):
    """What ``check``/``update`` found: violations sorted by path and line.

    ``manifest_changed`` is true when this run rewrote the manifest (``--update``
    or ``update``); ``notes`` are one-line remarks for the user (e.g. which
    files' manifest entries were rewritten).
    """

    violations: tuple[Violation, ...]
    summary: Summary
    manifest: str
    manifest_changed: bool = False
    notes: tuple[str, ...] = ()

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == "error")

    def to_dict(self) -> dict[str, object]:
        return {
            "violations": [v.to_dict() for v in self.violations],
            "summary": self.summary.to_dict(),
        }
