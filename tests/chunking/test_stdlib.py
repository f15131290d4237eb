"""Chunk every module of the running Python's standard library.

Run with ``-s`` to see how long chunking took next to ``ast.parse`` alone.
"""

from __future__ import annotations

import ast
import bisect
import sysconfig
import warnings
from pathlib import Path
from time import perf_counter

import pytest

from chunkgate.chunking import chunk_bytes
from chunkgate.chunking.base import is_blank
from chunkgate.chunking.headers import header_lines
from chunkgate.core.errors import UnreadableError
from chunkgate.core.model import Chunk
from chunkgate.corpus.source import decode

_STDLIB = Path(sysconfig.get_paths()["stdlib"])
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _stdlib_files() -> list[Path]:
    return sorted(
        path
        for path in _STDLIB.rglob("*.py")
        if "site-packages" not in path.relative_to(_STDLIB).parts
    )


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _assert_chunks_match_lines(path: str, lines: list[str], chunks: tuple[Chunk, ...]) -> None:
    # The header (#!, coding cookie, license comments) belongs to no chunk.
    covered = header_lines(lines)
    assert all(line.startswith("#") or is_blank(line) for line in lines[:covered]), path
    for chunk in chunks:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line]), chunk.id
        gap = lines[covered : chunk.start_line - 1]
        assert all(is_blank(line) for line in gap), f"{path}: lines before {chunk.id} left out"
        covered = chunk.end_line
        # Over size.max only where a statement cannot be split, and then it says which.
        assert chunk.chars <= 2000 or chunk.unsplittable, chunk.id
    assert all(is_blank(line) for line in lines[covered:]), f"{path}: trailing lines left out"
    assert len({chunk.id for chunk in chunks}) == len(chunks), path


def _assert_definitions_kept_whole(path: str, tree: ast.Module, chunks: tuple[Chunk, ...]) -> None:
    """Each top-level definition is one chunk, or a split class's run of chunks, or the
    parts of one."""
    starts = [chunk.start_line for chunk in chunks]
    for node in tree.body:
        if not isinstance(node, _DEFINITIONS):
            continue
        first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        end = node.end_lineno or node.lineno
        index = bisect.bisect_right(starts, first) - 1
        where = f"{path}:{node.lineno} {node.name}"
        assert index >= 0, where
        assert chunks[index].symbol == node.name, where
        run = [chunks[index]]
        while run[-1].end_line < end:
            index += 1
            run.append(chunks[index])
            assert isinstance(node, ast.ClassDef) or run[-1].part > 1, where
            assert run[-1].symbol is not None, where
            assert run[-1].symbol == node.name or run[-1].symbol.startswith(f"{node.name}."), where
        assert run[0].start_line <= first, where


@pytest.mark.slow
def test_every_stdlib_module_chunks() -> None:
    files = _stdlib_files()
    assert len(files) > 500
    unreadable: list[str] = []
    syntax_errors: list[str] = []
    chunk_count = 0
    chunk_seconds = decode_seconds = parse_seconds = 0.0
    for file in files:
        path = file.relative_to(_STDLIB).as_posix()
        data = file.read_bytes()
        started = perf_counter()
        try:
            chunked = chunk_bytes(data, path)
        except UnreadableError:
            unreadable.append(path)
            continue
        chunk_seconds += perf_counter() - started
        started = perf_counter()
        text = decode(data, path, python=True)
        decode_seconds += perf_counter() - started
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            started = perf_counter()
            tree = _parse(text)
            parse_seconds += perf_counter() - started
        chunk_count += len(chunked.chunks)
        _assert_chunks_match_lines(path, text.split("\n"), chunked.chunks)
        if tree is None:
            syntax_errors.append(path)
            assert len(chunked.problems) == 1, path
            assert all(chunk.kind == "text" for chunk in chunked.chunks), path
            continue
        assert chunked.problems == (), path
        _assert_definitions_kept_whole(path, tree, chunked.chunks)

    print(
        f"\nstdlib: {len(files)} files, {chunk_count} chunks;"
        f" chunk_bytes {chunk_seconds:.2f}s (decode alone {decode_seconds:.2f}s),"
        f" ast.parse alone {parse_seconds:.2f}s,"
        f" ratio {chunk_seconds / parse_seconds:.2f}"
    )
    print(f"unreadable ({len(unreadable)}): {unreadable}")
    print(f"syntax errors, chunked as text ({len(syntax_errors)}): {syntax_errors}")
    assert len(unreadable) < 20, unreadable
    assert len(syntax_errors) < 50, syntax_errors
