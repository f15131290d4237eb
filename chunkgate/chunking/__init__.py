"""Chunk a file: dispatch by language to the Markdown, Python or text chunker."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from chunkgate.chunking.base import DEFAULT_OPTIONS, ChunkContext, ChunkOptions
from chunkgate.model import Chunk, Language, Problem
from chunkgate.sizes import TokenCounter, make_counter
from chunkgate.source import decode

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
CHUNKING_VERSION = 3  # 3: .rst by section, code by tree-sitter (issue 22); 2: setext "#..."

_LANGUAGES: dict[str, Language] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".py": "python",
    ".pyi": "python",
    # -- issue 22: tree-sitter languages (chunking/code/) and reStructuredText --
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    # Headers are read as C++: on 718 real headers (glibc, fmt, JPype, zstd, two
    # React Native packages) the C++ grammar had errors in 378, the C one in 485.
    ".h": "cpp",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".sh": "shell",
    ".bash": "shell",
    ".rst": "rst",
}
# The languages chunked by tree-sitter (the `code` extra); the rest of issue 22's
# wiring is the two branches in _chunker.
CODE_LANGUAGES = frozenset(_LANGUAGES.values()) - {"markdown", "python", "rst"}
EXTRA_LANGUAGES = CODE_LANGUAGES | {"rst"}


def missing_extras(paths: Iterable[str]) -> list[str]:
    """Notes on the optional extras these files need and this installation lacks.

    Looked up only when a file needs one: a run on Markdown imports nothing more.
    """
    needing = [path for path in paths if language_of(path) in EXTRA_LANGUAGES]
    if not needing:
        return []
    from chunkgate.chunking.extras import notes

    return notes(needing)


# The line comment of each source language: rules suggest an SPDX line in it,
# and treat its files as code, not prose (license, link-farm, duplicate IDs).
LINE_COMMENTS: dict[str, str] = {
    "python": "#",
    **dict.fromkeys(CODE_LANGUAGES, "//"),
    "ruby": "#",
    "shell": "#",
}


class ChunkedFile(NamedTuple):
    path: str
    language: Language
    chunks: tuple[Chunk, ...]
    problems: tuple[Problem, ...] = ()


def language_of(path: str) -> Language:
    # PurePosixPath(path).suffix, without building a path object for every file.
    name = path.rpartition("/")[2]
    if name in ("", "."):  # "docs/" or "docs/.": the name is further left
        name = PurePosixPath(path).name
    dot = name.rfind(".")
    suffix = name[dot:] if 0 < dot < len(name) - 1 else ""
    return _LANGUAGES.get(suffix.lower(), "text")


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
    language: Language | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> ChunkedFile:
    """Chunk already-decoded text; ``path`` is the POSIX path used in chunk IDs."""
    language = language or language_of(path)
    ctx = context_for(text, path, options=options, counter=counter)
    return _chunker(language)(ctx)


@functools.cache
def _chunker(language: Language) -> Callable[[ChunkContext], ChunkedFile]:
    """The chunker of ``language``, imported when first needed: a hook run on Markdown
    files never loads the Python one."""
    if language == "markdown":
        from chunkgate.chunking.markdown import chunk_markdown

        return lambda ctx: ChunkedFile(ctx.path, "markdown", tuple(chunk_markdown(ctx)))
    if language == "python":
        from chunkgate.chunking.python import chunk_python

        def python(ctx: ChunkContext) -> ChunkedFile:
            chunks, problems = chunk_python(ctx)
            return ChunkedFile(ctx.path, "python", tuple(chunks), tuple(problems))

        return python
    # -- issue 22 --
    if language in CODE_LANGUAGES:
        from chunkgate.chunking.code import chunk_code

        def code(ctx: ChunkContext) -> ChunkedFile:
            chunks, problems = chunk_code(ctx, language)
            return ChunkedFile(ctx.path, language, tuple(chunks), tuple(problems))

        return code
    if language == "rst":
        from chunkgate.chunking.rst import chunk_rst

        def rst(ctx: ChunkContext) -> ChunkedFile:
            chunks, problems = chunk_rst(ctx)
            return ChunkedFile(ctx.path, "rst", tuple(chunks), tuple(problems))

        return rst
    # -- end of issue 22 --
    from chunkgate.chunking.plain import chunk_plain

    return lambda ctx: ChunkedFile(ctx.path, language, tuple(chunk_plain(ctx)))


def chunk_bytes(
    data: bytes,
    path: str,
    *,
    language: Language | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> ChunkedFile:
    """Decode and chunk a file's bytes; raises UnreadableError for binary or bad encodings."""
    language = language or language_of(path)
    text = decode(data, path, python=language == "python")
    return chunk_document(text, path, language=language, options=options, counter=counter)


def chunk_text(
    text: str,
    path: str = "<text>.md",
    *,
    language: Language | None = None,
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
    """The chunks of a file on disk; IDs use its POSIX path relative to ``root`` (default: cwd)."""
    file = Path(path)
    base = Path(root) if root is not None else Path.cwd()
    try:
        relative = file.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        relative = file.as_posix()
    data = file.read_bytes()
    return list(chunk_bytes(data, relative, options=options, counter=counter).chunks)
