"""The Markdown heading tree of a file (``chunkgate outline``)."""

from __future__ import annotations

from chunkgate.chunking import context_for, language_of
from chunkgate.chunking.base import DEFAULT_OPTIONS
from chunkgate.chunking.markdown import outline
from chunkgate.model import Heading
from chunkgate.source import decode


def outline_text(text: str, path: str = "<text>.md") -> list[Heading]:
    """The top-level headings of Markdown ``text`` with their rendered text and chunk ID."""
    return outline(context_for(text, path, options=DEFAULT_OPTIONS))


def outline_bytes(data: bytes, path: str) -> list[Heading]:
    """Like ``outline_text`` for a file's bytes; files without headings have no outline."""
    language = language_of(path)
    if language == "rst":  # issue 22: the section tree of a reStructuredText file
        from chunkgate.chunking import rst

        return rst.outline(context_for(decode(data, path), path, options=DEFAULT_OPTIONS))
    if language != "markdown":
        return []
    return outline_text(decode(data, path), path)
