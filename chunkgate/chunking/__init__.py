"""Chunk a file: dispatch by language (``chunkgate.chunking.languages``) to its chunker."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from chunkgate.chunking import languages
from chunkgate.chunking.base import DEFAULT_OPTIONS, ChunkContext, ChunkOptions
from chunkgate.chunking.languages import language_of
from chunkgate.chunking.relations import relate
from chunkgate.chunking.sizes import TokenCounter, make_counter
from chunkgate.core.model import Chunk, Problem
from chunkgate.corpus.source import decode

__all__ = [
    "CHUNKING_VERSION",
    "ChunkOptions",
    "ChunkedFile",
    "chunk_bytes",
    "chunk_document",
    "chunk_file",
    "chunk_text",
    "context_for",
    "language_of",
    "missing_extras",
]

# Bump whenever the chunkers' output (boundaries, IDs, sizes, hashes) changes
# for the same input: the manifest records it, so old manifests are rebuilt.
# 2: a setext heading whose text starts with '#' ends at its underline
# 3: anchor flavours of site generators; template syntax is not a body (issue 14); units over
#    size.max are split into parts, small Python module code joins a neighbour (issue 15)
# 4: front matter of comments alone and TOML front matter; MDX import/export lines of a
#    preamble and sections of a horizontal rule alone are in no chunk
CHUNKING_VERSION = 4


class ChunkedFile(NamedTuple):
    path: str
    language: str
    chunks: tuple[Chunk, ...]
    problems: tuple[Problem, ...] = ()


def context_for(
    text: str,
    path: str,
    *,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> ChunkContext:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    options = options or DEFAULT_OPTIONS
    return ChunkContext(
        path=path,
        text=text,
        lines=text.split("\n"),
        options=options,
        counter=counter or make_counter(options.tokenizer),
    )


def chunk_document(
    text: str,
    path: str,
    *,
    language: str | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> ChunkedFile:
    """Chunk already-decoded text; ``path`` is the POSIX path used in chunk IDs."""
    spec = languages.get(language) if language is not None else languages.language_for(path)
    ctx = context_for(text, path, options=options, counter=counter)
    chunks, problems = languages.chunker(spec)(ctx, spec)
    return ChunkedFile(path, spec.name, relate(chunks), tuple(problems))


def chunk_bytes(
    data: bytes,
    path: str,
    *,
    language: str | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> ChunkedFile:
    """Decode and chunk a file's bytes; raises UnreadableError for binary or bad encodings."""
    spec = languages.get(language) if language is not None else languages.language_for(path)
    text = decode(data, path, python=spec.encoding == "python")
    return chunk_document(text, path, language=spec.name, options=options, counter=counter)


def chunk_text(
    text: str,
    path: str = "<text>.md",
    *,
    language: str | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> list[Chunk]:
    """The chunks of ``text`` as if it were the file at ``path``."""
    return list(
        chunk_document(text, path, language=language, options=options, counter=counter).chunks
    )


def chunk_file(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> list[Chunk]:
    """The chunks of a file on disk, with the IDs ``check`` gives them.

    IDs use the file's POSIX path relative to ``root``: by default the root of
    the repository that holds the file (found from the file, never from the
    current directory), whose configuration also gives the default ``options``
    (limits, anchor flavours from the site's config) and token counter.
    """
    file = Path(path)
    if root is None or options is None:
        from chunkgate.config.load import load_config

        config = load_config(file.parent)
        root = config.root if root is None else root
        options = config.chunking if options is None else options
    try:
        relative = file.resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        relative = file.as_posix()
    data = file.read_bytes()
    return list(chunk_bytes(data, relative, options=options, counter=counter).chunks)


def missing_extras(paths: Iterable[str]) -> list[str]:
    """Notes on the optional extras these files need and this installation lacks, one per
    extra; looked up only when a file needs one (a run on Markdown imports nothing more)."""
    needing = [path for path in paths if languages.language_for(path).extra is not None]
    if not needing:
        return []
    from chunkgate.chunking.extras import notes

    return notes(needing)
