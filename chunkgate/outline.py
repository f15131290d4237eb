"""The Markdown heading tree of a file (``chunkgate outline``)."""

from __future__ import annotations

from chunkgate.chunking import context_for, language_of
from chunkgate.chunking.base import DEFAULT_OPTIONS, ChunkOptions
from chunkgate.chunking.markdown import outline
from chunkgate.model import Heading
from chunkgate.source import decode


def outline_text(
    text: str, path: str = "<text>.md", *, options: ChunkOptions | None = None
) -> list[Heading]:
    """The top-level headings of Markdown ``text`` with their rendered text and chunk ID."""
    return outline(context_for(text, path, options=options or DEFAULT_OPTIONS))


def outline_bytes(data: bytes, path: str, *, options: ChunkOptions | None = None) -> list[Heading]:
    """Like ``outline_text`` for a file's bytes; non-Markdown files have no outline."""
    if language_of(path) != "markdown":
        return []
    return outline_text(decode(data, path), path, options=options)
