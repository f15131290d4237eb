"""Options and the one place where a chunk's sizes, hash and text are made."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from chunkgate.model import Chunk, ChunkKind, Language
from chunkgate.sizes import TokenCounter, measure

SizeUnit = Literal["chars", "tokens"]


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    """The options that change chunking (their fingerprint goes in the manifest header)."""

    unit: SizeUnit = "chars"
    max: int = 2000
    min: int = 40
    overlap: int = 0
    split_level: int = 6
    split_classes: bool = True
    tokenizer: str = "estimate"

    def __post_init__(self) -> None:
        if self.max < 1:
            raise ValueError(f"size.max must be at least 1, got {self.max}")
        if not 0 <= self.min <= self.max:
            raise ValueError(
                f"size.min must be between 0 and size.max ({self.max}), got {self.min}"
            )
        if not 0 <= self.overlap < self.max:
            raise ValueError(
                f"size.overlap must be at least 0 and less than size.max ({self.max}), "
                f"got {self.overlap}"
            )
        if not 1 <= self.split_level <= 6:
            raise ValueError(f"markdown.split_level must be 1-6, got {self.split_level}")

    def fingerprint(self) -> str:
        """A stable string of every option that changes chunk boundaries, sizes or IDs."""
        return (
            f"unit={self.unit};max={self.max};min={self.min};overlap={self.overlap};"
            f"split_level={self.split_level};split_classes={int(self.split_classes)};"
            f"tokenizer={self.tokenizer}"
        )


# The options of a call that names none (made once: a frozen dataclass is slow to build).
DEFAULT_OPTIONS = ChunkOptions()


class ChunkContext(NamedTuple):
    """What every chunker of one file needs: where it is, its lines, how to size."""

    path: str
    text: str
    lines: Sequence[str]
    options: ChunkOptions
    counter: TokenCounter

    def size_of(self, chunk: Chunk) -> int:
        return chunk.chars if self.options.unit == "chars" else chunk.tokens

    def make(
        self,
        identity: str,
        kind: ChunkKind,
        language: Language,
        start: int,
        end: int,
        *,
        body_line: int | None = None,
        symbol: str | None = None,
        heading_path: tuple[str, ...] = (),
        level: int = 0,
        suppressed: frozenset[str] = frozenset(),
        title: str | None = None,
        tags: tuple[str, ...] = (),
        fields: tuple[tuple[str, str], ...] = (),
    ) -> Chunk:
        """Build the chunk spanning 1-based lines ``start..end`` inclusive."""
        text = "\n".join(self.lines[start - 1 : end])
        chars, tokens, digest = measure(text, self.counter)
        return Chunk(
            f"{self.path}#{identity}", self.path, kind, language, symbol, heading_path, level,
            start, end, chars, tokens, digest, text, start if body_line is None else body_line,
            suppressed, title, tags, fields,
        )  # fmt: skip


_SUPPRESSION = re.compile(r"chunkgate:\s*disable=([A-Za-z0-9_, ]+)")


BLANK_CHARS = " \t\f\v"


def is_blank(line: str) -> bool:
    return not line.strip(BLANK_CHARS)


def suppressions(line: str) -> frozenset[str]:
    """Rule codes named by a ``chunkgate: disable=CG201,CG202`` comment on this line."""
    if "chunkgate:" not in line:
        return frozenset()
    found = _SUPPRESSION.search(line)
    if found is None:
        return frozenset()
    return frozenset(code.strip().upper() for code in found.group(1).split(",") if code.strip())
