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
carry the same breadcrumb. Settings (``embed:`` in the configuration):
``breadcrumb`` (default true; false: the embed text is the text),
``separator`` (default ``" > "``) and ``sizes`` (``text``, the default: size
limits and token counts measure the chunk's text; ``embed``: they measure the
embed text, what the model sees).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from chunkgate.chunking import languages
from chunkgate.core.model import Chunk

SizesOf = Literal["text", "embed"]
SIZES_OF: tuple[SizesOf, ...] = ("text", "embed")


@dataclass(frozen=True, slots=True)
class EmbedSettings:
    breadcrumb: bool = True
    separator: str = " > "
    sizes: SizesOf = "text"

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
        return f";embed.sizes=embed;embed.separator={shown}"


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
    return "\n".join(
        part for part in (line, chunk.embed_before, chunk.text, chunk.embed_after) if part
    )
