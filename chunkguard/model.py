"""Immutable records shared by every layer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ChunkKind = Literal["section", "preamble", "function", "class", "method", "module", "text"]
Language = Literal["markdown", "python", "text"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One citable unit of source text (SPEC §1).

    ``text`` is exactly the file's lines ``start_line..end_line`` (line endings
    normalised to ``\\n``, no trailing newline). ``body_line`` is the first line
    after the chunk's own heading or definition line(s); CG402 and ``diff``
    compare bodies so that a renamed heading is recognised as a move.
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
        if metadata:
            out["metadata"] = metadata
        if text:
            out["text"] = self.text
        return out


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with a file found while chunking it (becomes CG001)."""

    path: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Heading:
    """A Markdown heading as ``outline`` reports it."""

    path: str
    level: int
    text: str
    line: int
    id: str
    nested: bool = field(default=False, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "level": self.level,
            "text": self.text,
            "line": self.line,
            "id": self.id,
        }
