"""Chunking: a file dispatched by language (``languages.py``) to its chunker."""

from __future__ import annotations

from typing import NamedTuple

from chunkgate.chunking import languages
from chunkgate.chunking.base import DEFAULT_OPTIONS, ChunkContext, ChunkOptions, valid_text
from chunkgate.chunking.languages import language_of
from chunkgate.chunking.overlap import with_overlap
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
    "chunk_text",
    "context_for",
    "language_of",
]

# Bump whenever the chunkers' output (boundaries, IDs, sizes, hashes) changes
# for the same input: the manifest records it, so old manifests are rebuilt.
# 2: a setext heading whose text starts with '#' ends at its underline
# 3: anchor flavours of site generators; template syntax is not a body (issue 14); units over
#    size.max are split into parts, small Python module code joins a neighbour (issue 15)
# 4: front matter of comments alone and TOML front matter; MDX import/export lines of a
#    preamble and sections of a horizontal rule alone are in no chunk
# 5: a part of template syntax alone (Hugo's `{{% /tab %}}` between two long code blocks)
#    joins a neighbouring part
# 6: heading ids in attr_list's key form (`{ id=x }`), MkDocs headings' class-only lists
#    dropped, admonition/details/tab bodies read as Markdown (issue 39); a Sphinx site with
#    MyST (conf.py) gives its headings Sphinx's ids: a MyST target's label, MyST's slug
#    within myst_heading_anchors, else docutils' id of the title; an MkDocs heading
#    `## ::: pkg.mod` (mkdocstrings) is #pkg.mod; VitePress' own slugs
# 7: a split Python class's head or last member that took module code under size.min is
#    cut between the statements of both (it raised IndexError or cut outside itself); IDs
#    unique per file (issue 44): a made Markdown anchor the site repeats (kramdown's `# a`,
#    `# a-1`, `# a`) and a Python ID a repeat suffix made twice (`module-after-g-1`) take
#    the next free number; a `~` before a digit in a tree-sitter name is `-`
#    a code block over size.max is cut as code (by its language, between runs of lines,
#    between lines), its parts re-fenced in their embed text; Python module code of
#    imports alone joins a neighbour (issue 41)
CHUNKING_VERSION = 7


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
    return ChunkedFile(path, spec.name, relate(with_overlap(ctx, chunks)), tuple(problems))


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
    """The chunks of ``text`` as if it were the file at ``path``; ``language`` names one
    of ``languages.LANGUAGES``. A ``ValueError`` for another language, or for text with a
    lone surrogate."""
    if language is not None:
        languages.named(language)
    checked = valid_text(text)
    return list(
        chunk_document(checked, path, language=language, options=options, counter=counter).chunks
    )
