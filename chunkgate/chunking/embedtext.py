"""The text an ingest embeds for a chunk: a breadcrumb line, then the chunk's text.

The breadcrumb says where the chunk sits, which the bare text often does not
("Configuration > Networking" before "the timeout defaults to 30s"):

- Markdown and reStructuredText: the front matter's ``title`` when there is
  one (left out when it repeats the first heading), then the heading path;
- Python: the module's dotted path (``src/`` and ``__init__`` dropped), then
  the symbol (``pkg.mod > Class.method``); other code: the file's path, then
  the symbol;
- plain text and a preamble without a title have none: their embed text is
  their text.

The parts of a split unit share the unit's heading path and symbol, so they
carry the same breadcrumb. With ``headings: false`` a Markdown section's own
heading lines (and the body-less headings above it that open its chunk, each
a level deeper than the one before) are not repeated after a breadcrumb that
holds them (issue 41); it is not the default, as it changes every section's
embed text, and LlamaIndex's nodes, whose content is the text, cannot.
Settings (``embed:`` in the configuration): ``breadcrumb`` (default true;
false: the embed text is the text), ``separator`` (default ``" > "``),
``headings`` (default true), ``module_summary`` (default false; true: a
Python function's, class's or method's embed text carries the first line of
its module's docstring after the breadcrumb, as the VPS guide advises: what the
module is for, which a function alone seldom says; context, like a re-opened
fence, in no chunk's lines and not counted in its sizes) and ``sizes``
(``text``, the default: size limits and token counts measure the chunk's text;
``embed``: they measure its breadcrumb line and text). CG201's hard limit,
whatever the settings, counts ``embed_text`` whole, what the model sees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from chunkgate.chunking import languages
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy

_ATX = lazy(r" {0,3}(#{1,6})(?:[ \t]|$)")
_SETEXT = lazy(r" {0,3}(?:=+|-+)[ \t]*")

SizesOf = Literal["text", "embed"]
SIZES_OF: tuple[SizesOf, ...] = ("text", "embed")


@dataclass(frozen=True, slots=True)
class EmbedSettings:
    breadcrumb: bool = True
    separator: str = " > "
    sizes: SizesOf = "text"
    headings: bool = True  # false: a section's heading lines the breadcrumb holds are left out
    # true: a Python definition's embed text carries its module docstring's first line
    module_summary: bool = False

    def __post_init__(self) -> None:
        if not self.separator or "\n" in self.separator or "\r" in self.separator:
            raise ValueError(
                f"embed.separator must be a non-empty string on one line, got {self.separator!r}"
            )
        if self.sizes not in SIZES_OF:
            raise ValueError(f"embed.sizes must be text or embed, got {self.sizes!r}")

    @property
    def counted(self) -> bool:
        """Whether size limits and token counts measure the breadcrumb too."""
        return self.breadcrumb and self.sizes == "embed"

    def fingerprint(self) -> str:
        """What enters the chunking fingerprint: nothing unless sizes count the breadcrumb
        (so that a manifest made before embed settings existed stays valid)."""
        if not self.counted:
            return ""

        # As JSON, with ";" escaped: the header's settings are "key=value;" pairs.
        shown = json.dumps(self.separator, ensure_ascii=False).replace(";", "\\u003b")
        dropped = "" if self.headings else ";embed.headings=false"
        return f";embed.sizes=embed;embed.separator={shown}{dropped}"


DEFAULT_EMBED = EmbedSettings()


def module_path(path: str) -> str:
    """The dotted module a Python file is imported as: ``src/pkg/mod.py`` -> ``pkg.mod``."""
    stem = path.rpartition(".")[0] if "." in path.rpartition("/")[2] else path
    if stem.startswith("src/"):
        stem = stem[4:]
    if stem.endswith("/__init__") or stem == "__init__":
        stem = stem[: -len("__init__")].rstrip("/") or stem
    return stem.replace("/", ".")


def crumbs(
    path: str,
    language: str,
    heading_path: tuple[str, ...],
    title: str | None,
    symbol: str | None,
) -> list[str]:
    """The breadcrumb's parts for a chunk with these fields (see the module)."""
    spec = languages.get(language)
    if spec.code:
        found = [module_path(path) if language == "python" else path]
        if symbol:
            found.append(symbol)
        return found
    found = []
    if title and (not heading_path or heading_path[0] != title):
        found.append(title)
    found.extend(heading_path)
    return found


def breadcrumb(chunk: Chunk, settings: EmbedSettings = DEFAULT_EMBED) -> str:
    """The chunk's breadcrumb line (``Guide > Setup``), or "" when it has none or the
    settings turn it off."""
    if not settings.breadcrumb:
        return ""
    parts = crumbs(chunk.path, chunk.language, chunk.heading_path, chunk.title, chunk.symbol)
    return join(parts, settings.separator)


def join(parts: list[str], separator: str) -> str:
    # A setext heading's text can span lines: the breadcrumb stays one line.
    cleaned = (" ".join(part.split()) for part in parts)
    return separator.join(part for part in cleaned if part)


def embed_text(chunk: Chunk, settings: EmbedSettings = DEFAULT_EMBED) -> str:
    """What an ingest embeds for ``chunk``: its breadcrumb line, then its text (between
    the lines its ``embed_before`` and ``embed_after`` hold, a re-opened fence)."""
    line = breadcrumb(chunk, settings)
    text = without_headings(chunk) if line and not settings.headings else chunk.text
    return "\n".join(part for part in (line, chunk.embed_before, text, chunk.embed_after) if part)


def without_headings(chunk: Chunk) -> str:
    """A Markdown section's text without the heading lines that open it, when the
    breadcrumb holds them all: headings alone above its body, each a level deeper than
    the one before (a sibling's would have left the heading path)."""
    if chunk.kind != "section" or chunk.language != "markdown" or chunk.part > 1:
        return chunk.text
    return headings_dropped(chunk.text, chunk.body_line - chunk.start_line)


def headings_dropped(text: str, skip: int) -> str:
    """``text`` without its first ``skip`` lines, where those are headings alone, each a
    level deeper than the one before (see ``without_headings``)."""
    lines = text.split("\n")
    if not 0 < skip < len(lines):
        return text  # no heading, or nothing but headings
    level, index = 0, 0
    while index < skip:
        line = lines[index]
        if line.strip():
            atx = _ATX.match(line)
            if atx is not None:
                found = len(atx[1])
            elif index + 1 < skip and _SETEXT.fullmatch(lines[index + 1]):
                found = 1 if lines[index + 1].strip()[0] == "=" else 2
                index += 1
            else:
                return text  # a target or a comment above the heading: keep it all
            if found <= level:
                return text
            level = found
        index += 1
    return "\n".join(lines[skip:]).lstrip("\n") or text
