"""The whole manifest: ``render`` writes the canonical bytes (the same content gives
the same bytes on every OS), ``parse`` reads them back checking every line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from chunkgate.errors import ManifestError
from chunkgate.manifest.lines import (
    CHUNK_PREFIX,
    FILE_PREFIX,
    REBUILD,
    ManifestSyntaxError,
    chunk_line,
    file_line,
    header_line,
    show,
)
from chunkgate.manifest.records import (
    ChunkEntry,
    FileEntry,
    Header,
    Manifest,
    StoredFinding,
    path_key,
)

_MARKERS = (b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||")
_CONFLICT = re.compile(b"\n(?:" + b"|".join(map(re.escape, _MARKERS)) + b")")
# What JSONEncoder(ensure_ascii=False).encode does with a string, without its
# Python-level dispatch: rendering calls it for every chunk's ID and hash.
_string = json.encoder.encode_basestring

# -- writing ------------------------------------------------------------------------------------


def render(manifest: Manifest) -> bytes:
    """The whole manifest: header, then every file's block in byte order of path."""
    return b"".join(render_blocks(manifest))


def render_blocks(manifest: Manifest) -> Iterator[bytes]:
    """``render``'s bytes block by block, so that a large manifest can be written
    without ever holding it twice (as text, then as bytes)."""
    yield render_header(manifest.header)
    for path in sorted(manifest.files, key=path_key):
        yield render_block(manifest.files[path])


def render_header(header: Header) -> bytes:
    return to_bytes(header_text(header))


def render_block(entry: FileEntry) -> bytes:
    """One file's block as ``render`` writes it: the header and the blocks in byte
    order of path, joined, are the manifest."""
    return to_bytes(block_text(entry))


def header_text(header: Header) -> str:
    return (
        f'{{"chunkgate_manifest": {header.format:d}, "chunking": {header.chunking:d}, '
        f'"config": {_string(header.config)}, "rules": {_string(header.rules)}}}\n'
    )


def block_text(entry: FileEntry) -> str:
    """One file's lines: its file line and its chunk lines."""
    blob = "null" if entry.blob is None else _string(entry.blob)
    findings = f', "findings": [{_findings(entry.findings)}]' if entry.findings else ""
    parts = [
        f'{{"file": {_string(entry.path)}, "blob": {blob}, "chunks": {len(entry.chunks):d}'
        f"{findings}}}\n"
    ]
    for chunk in entry.chunks:
        tail = "" if chunk.moved_from is None else f', "moved_from": {_string(chunk.moved_from)}'
        if chunk.suppressed:
            tail += f', "suppressed": [{", ".join(map(_string, chunk.suppressed))}]'
        start, end = chunk.lines
        parts.append(
            f'{{"id": {_string(chunk.id)}, "lines": [{start:d}, {end:d}], '
            f'"chars": {chunk.chars:d}, "tokens": {chunk.tokens:d}, '
            f'"hash": {_string(chunk.hash)}{tail}}}\n'
        )
    return "".join(parts)


def _findings(findings: Iterable[StoredFinding]) -> str:
    return ", ".join(
        f'{{"rule": {_string(f.rule)}, "line": {f.line:d}, '
        f'"chunk": {"null" if f.chunk_id is None else _string(f.chunk_id)}, '
        f'"message": {_string(f.message)}, "fix": {_string(f.fix)}}}'
        for f in findings
    )


def to_bytes(text: str) -> bytes:
    # The encoder keeps non-ASCII as is; only lone surrogates cannot be UTF-8, and
    # backslashreplace writes them as the \udcXX escape JSON reads back.
    return text.encode("utf-8", "backslashreplace")


# -- reading ------------------------------------------------------------------------------------


def parse(data: bytes, *, name: str) -> Manifest:
    """The whole manifest, checked line by line; errors read ``name:line: what``."""
    lines = text_lines(normalise(data, name), name, 1)
    header = header_line(lines[0], name)
    files: dict[str, FileEntry] = {}
    where: dict[str, int] = {}
    previous: FileEntry | None = None
    last_key = b""
    at = 1
    while at < len(lines):
        if previous is not None and lines[at].startswith(CHUNK_PREFIX):
            raise _extra_chunk(name, at + 1, previous.path, len(previous.chunks))
        entry, following = read_block(lines, at, name, 1)
        key = path_key(entry.path)
        if previous is not None and key <= last_key:
            raise order_error(entry.path, previous.path, where, name, at + 1)
        files[entry.path] = previous = entry
        where[entry.path], last_key = at + 1, key
        at = following
    return Manifest(header, files)


def read(path: Path) -> Manifest | None:
    """The manifest at ``path``, or None when there is none."""
    data = read_bytes(path)
    return None if data is None else parse(data, name=str(path))


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read the manifest: {exc.strerror}") from None


def normalise(data: bytes, name: str) -> bytes:
    """Line endings fixed, conflict markers refused: what ``parse`` reads."""
    data = line_endings(data, name)
    at = _conflict_at(data)
    if at is not None:
        line = data.count(b"\n", 0, at) + 1
        raise ManifestSyntaxError(
            name,
            line,
            f"merge conflict markers at line {line} ({REBUILD}, or resolve the conflict)",
        )
    return data


def line_endings(data: bytes, name: str) -> bytes:
    """``data`` with CRLF line endings and a missing final newline, which git or an
    editor may leave, mended."""
    if not data:
        raise ManifestError(f"{name}: empty manifest ({REBUILD})")
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    return data if data.endswith(b"\n") else data + b"\n"


def _conflict_at(data: bytes) -> int | None:
    if data.startswith(_MARKERS):
        return 0
    found = _CONFLICT.search(data)  # one pass for every kind of marker
    return None if found is None else found.start() + 1


def text_lines(data: bytes, name: str, first_line: int) -> list[str]:
    """``data`` (whole lines, numbered from ``first_line``) decoded and split."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        raise ManifestSyntaxError(name, line, "not valid UTF-8") from None
    return text.split("\n")[:-1]


def read_block(lines: Sequence[str], at: int, name: str, first_line: int) -> tuple[FileEntry, int]:
    """The file whose file line is ``lines[at]`` (numbered ``first_line + at``), and where
    the next block starts."""
    number = first_line + at
    head = file_line(lines[at], name, number)
    chunks: list[ChunkEntry] = []
    for i in range(at + 1, at + 1 + head.chunks):
        if i >= len(lines):
            raise ManifestSyntaxError(
                name,
                number,
                f"{show(head.path)} declares {head.chunks} chunks but the manifest ends "
                f"after {len(chunks)}",
            )
        if lines[i].startswith(FILE_PREFIX):
            raise ManifestSyntaxError(
                name,
                first_line + i,
                f"file line where a chunk line is expected ({show(head.path)} on line {number} "
                f"declares {head.chunks} chunks, found {len(chunks)})",
            )
        chunks.append(chunk_line(lines[i], head.path, name, first_line + i))
    entry = FileEntry(head.path, head.blob, tuple(chunks), head.findings)
    return entry, at + 1 + head.chunks


def parse_block(data: bytes, name: str, first_line: int = 1) -> FileEntry:
    """One file's block (its file line and chunk lines, numbered from ``first_line``)
    read back: what ``render_block`` wrote."""
    return read_block(text_lines(data, name, first_line), 0, name, first_line)[0]


def _extra_chunk(name: str, line: int, path: str, count: int) -> ManifestError:
    return ManifestSyntaxError(
        name,
        line,
        f"chunk line where a file line is expected ({show(path)} declares {count} chunks)",
    )


def order_error(
    path: str, last_path: str, where: Mapping[str, int], name: str, line: int
) -> ManifestError:
    if path in where:
        return ManifestSyntaxError(
            name, line, f"{show(path)} is listed twice (also on line {where[path]})"
        )
    return ManifestSyntaxError(
        name,
        line,
        f"files out of order: {show(path)} must come before {show(last_path)} "
        f"(line {where[last_path]})",
    )
