"""The heading tree of a file (``chunkgate outline``)."""

from __future__ import annotations

from chunkgate.chunking import context_for, languages
from chunkgate.chunking.base import DEFAULT_OPTIONS, ChunkOptions, valid_text
from chunkgate.core.model import Heading
from chunkgate.corpus.source import decode


def outline_text(
    text: str, path: str = "<text>.md", *, options: ChunkOptions | None = None
) -> list[Heading]:
    """The top-level headings of ``text`` (Markdown unless ``path`` says otherwise) with
    their rendered text and chunk ID; a language without headings has none. A
    ``ValueError`` for text with a lone surrogate."""
    checked = valid_text(text)
    outliner = languages.outliner(languages.language_for(path))
    if outliner is None:
        return []
    return outliner(context_for(checked, path, options=options or DEFAULT_OPTIONS))


def outline_bytes(data: bytes, path: str, *, options: ChunkOptions | None = None) -> list[Heading]:
    """Like ``outline_text`` for a file's bytes."""
    language = languages.language_for(path)
    if language.outline is None:
        return []
    text = decode(data, path, python=language.encoding == "python")
    return outline_text(text, path, options=options)
