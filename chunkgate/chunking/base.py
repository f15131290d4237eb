"""Options and the one place where a chunk's sizes, hash and text are made."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from chunkgate.chunking.embedtext import (
    DEFAULT_EMBED,
    EmbedSettings,
    crumbs,
    headings_dropped,
    join,
)
from chunkgate.chunking.models import DEFAULT_LIMIT
from chunkgate.chunking.sizes import TokenCounter, estimate_tokens, measure
from chunkgate.core.model import Chunk, Problem
from chunkgate.core.regex import lazy
from chunkgate.sites.model import SETTINGS, Site, describe_settings, settings_key

SizeUnit = Literal["chars", "tokens"]


def valid_text(text: str) -> str:
    """``text``, given to the library as a ``str``: a lone surrogate (what decoding with
    ``surrogateescape`` makes of a byte that is not UTF-8) is no text that chunks can
    hold, and is refused here with a ``ValueError`` rather than deep in a parser."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            line = text.count("\n", 0, exc.start) + 1
            raise ValueError(
                f"the text holds a lone surrogate (U+{ord(text[exc.start]):04X}) on line "
                f"{line}, which is not Unicode text: decode the file's bytes strictly, or "
                "give them to chunk_file"
            ) from None
    return text


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
    anchors: str = "auto"  # markdown.anchors: "auto" or a key of sites.model.SETTINGS
    sites: tuple[
        Site, ...
    ] = ()  # the site generators found in the repository (chunkgate.sites.detect)
    # Units over `max` are split into parts at block or statement boundaries.
    split: bool = True
    # The embed text (issue 20): with `sizes: embed`, sizes measure it, breadcrumb included.
    embed: EmbedSettings = DEFAULT_EMBED
    # The hard limit (issue 41): the most tokens of `tokenizer` an embed text may hold,
    # the input limit of the model that embeds it (`embed.model`, or `size.limit`).
    limit: int = DEFAULT_LIMIT
    model: str | None = None  # `embed.model`, a name of `chunking.models.MODELS`
    # `markdown.merge_small` (issue 41): a section under `min` joins a neighbour.
    merge_small: bool = False

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
        if self.limit < 1:
            raise ValueError(f"size.limit must be at least 1, got {self.limit}")
        if not 1 <= self.split_level <= 6:
            raise ValueError(f"markdown.split_level must be 1-6, got {self.split_level}")
        if self.anchors != "auto" and self.anchors not in SETTINGS:
            raise ValueError(f"markdown.anchors must be auto or one of {', '.join(SETTINGS)}")

    def fingerprint(self) -> str:
        """A stable string of every option that changes chunk boundaries, sizes or IDs."""
        return (
            f"size.unit={self.unit};size.max={self.max};size.min={self.min};"
            f"size.overlap={self.overlap};size.split={str(self.split).lower()};"
            f"markdown.split_level={self.split_level};"
            f"python.split_classes={str(self.split_classes).lower()};tokenizer={self.tokenizer};"
            f"anchors={settings_key(self.anchors, self.sites)}{self.embed.fingerprint()}"
            f"{self._model_fingerprint()}"
            f"{';markdown.merge_small=true' if self.merge_small else ''}"
        )

    def _model_fingerprint(self) -> str:
        """The model and the hard limit, which change CG201's findings; nothing at their
        defaults, so that a manifest made before they existed stays valid."""
        named = f";embed.model={self.model}" if self.model else ""
        return named + (f";size.limit={self.limit}" if self.limit != DEFAULT_LIMIT else "")


def anchor_settings(options: ChunkOptions) -> str:
    """The heading anchor settings in a few readable words (``markdown.anchors`` and the
    sites found): ``mkdocs (docs/mkdocs.yml) for docs/, github elsewhere``."""
    return describe_settings(options.anchors, options.sites)


# The options of a call that names none (made once: a frozen dataclass is slow to build).
DEFAULT_OPTIONS = ChunkOptions()


class Chunked(NamedTuple):
    """What a language's chunker returns for one file."""

    chunks: Sequence[Chunk]
    problems: Sequence[Problem] = ()


class ChunkContext(NamedTuple):
    """What every chunker of one file needs: where it is, its lines, how to size."""

    path: str
    text: str
    lines: Sequence[str]
    options: ChunkOptions
    counter: TokenCounter

    def size_of(self, chunk: Chunk) -> int:
        return chunk.chars if self.options.unit == "chars" else chunk.tokens

    def limit_for(self, unit: Chunk) -> int:
        """``size.max`` for the text of ``unit``'s parts: less the breadcrumb line they
        all carry when sizes count the embed text (``embed.sizes: embed``)."""
        return self.limit_of(unit.language, unit.heading_path, unit.title, unit.symbol)

    def limit_of(
        self,
        language: str,
        heading_path: tuple[str, ...] = (),
        title: str | None = None,
        symbol: str | None = None,
    ) -> int:
        """``limit_for`` a chunk with these fields."""
        maximum = self.options.max
        embed = self.options.embed
        if not embed.counted:
            return maximum
        line = join(crumbs(self.path, language, heading_path, title, symbol), embed.separator)
        if not line:
            return maximum
        if self.options.unit == "chars":
            overhead = len(line) + 1
        elif self.counter is estimate_tokens:
            overhead = estimate_tokens(line + "\n")  # rounded up: the sum never exceeds max
        else:
            overhead = self.counter(line + "\n")
        return max(1, maximum - overhead)

    def make(
        self,
        identity: str,
        kind: str,
        language: str,
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
        part: int = 1,
        parts: int = 1,
        start_column: int = 0,
        end_column: int = 0,
        unsplittable: str = "",
        fields: tuple[tuple[str, str], ...] = (),
        merged: tuple[str, ...] = (),
    ) -> Chunk:
        """Build the chunk spanning 1-based lines ``start..end`` inclusive, from the
        1-based ``start_column`` of the first line to ``end_column`` (inclusive) of
        the last, where those are not 0 (see ``Chunk``)."""
        if start_column or end_column:
            text = span_text(self.lines, start, end, start_column, end_column)
        else:
            text = "\n".join(self.lines[start - 1 : end])
        chars, tokens, digest = measure(text, self.counter)
        embed = self.options.embed
        if embed.counted:
            # Sizes are the embed text's, what the model sees; the hash stays the text's.
            line = join(crumbs(self.path, language, heading_path, title, symbol), embed.separator)
            if line:
                body = text
                markdown = kind == "section" and language == "markdown"
                if markdown and not embed.headings and part == 1 and body_line:
                    body = headings_dropped(text, body_line - start)
                chars, tokens, _ = measure(f"{line}\n{body}", self.counter)
        return Chunk(
            f"{self.path}#{identity}", self.path, kind, language, symbol, heading_path, level,
            start, end, chars, tokens, digest, text, start if body_line is None else body_line,
            suppressed, title, tags, part, parts, start_column, end_column, unsplittable,
            fields, "", "", merged,
        )  # fmt: skip


def span_text(
    lines: Sequence[str], start: int, end: int, start_column: int = 0, end_column: int = 0
) -> str:
    """The text of 1-based lines ``start..end``, cut at the columns that are not 0."""
    chosen = list(lines[start - 1 : end])
    if end_column:
        chosen[-1] = chosen[-1][:end_column]
    if start_column:
        chosen[0] = chosen[0][start_column - 1 :]
    return "\n".join(chosen)


_SUPPRESSION = lazy(r"chunkgate:\s*disable=([A-Za-z0-9_, ]+)")


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
