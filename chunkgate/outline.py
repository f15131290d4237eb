"""The Markdown heading tree of a file (``chunkgate outline``)."""

from __future__ import annotations

from chunkgate import languages
from chunkgate.chunking import context_for
from chunkgate.chunking.base import DEFAULT_OPTIONS
from chunkgate.model import Heading
from chunkgate.source import decode


def outline_text(text: str, path: str = "<text>.md") -> list[Heading]:
    """The top-level headings of ``text`` (Markdown unless ``path`` says otherwise) with
    their rendered text and chunk ID; a language without headings has none."""
    language = languages.language_for(path)
    outliner = languages.outliner(language)
    if outliner is None:
        return []
    return outliner(context_for(text, path, options=DEFAULT_OPTIONS))


def outline_bytes(data: bytes, path: str) -> list[Heading]:
    """Like ``outline_text`` for a file's bytes; files of languages without headings have none."""
    language = languages.language_for(path)
    if language.outline is None:
        return []
    return outline_text(decode(data, path, python=language.encoding == "python"), path)
