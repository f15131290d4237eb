"""The committed manifest (SPEC §5): records, canonical bytes, a strict parser,
a fast partial index for the pre-commit path, atomic writes and a writers' lock.

One JSON object per line, keys in this order, files in the byte order of their
UTF-8 paths, chunks in document order::

    {"chunkguard_manifest": 1, "chunking": 1, "config": "<16 hex>", "rules": "<16 hex>"}
    {"file": "docs/a.md", "blob": "<git blob id or null>", "chunks": 1, "findings": ["CG201"]}
    {"id": "docs/a.md#setup", "lines": [5, 9], "chars": 812, "tokens": 203, "hash": "<16 hex>"}

``findings`` appears only when non-empty, ``moved_from`` (last key of a chunk
line) only when set. Path bytes that are not UTF-8 (``git.py`` decodes them
with ``surrogateescape``) are written as ``\\udcXX`` escapes, so the file stays
UTF-8 and such paths round-trip.

Reading is tolerant of two things git or an editor may do to a text file:
CRLF line endings and a missing final newline. Everything else that is not
what ``render`` writes (bad JSON, keys, types, counts, order, other spacing at
the start of a line) is a ``ManifestSyntaxError`` (a ``ManifestError``) whose
message reads ``name:line: what``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import secrets
import stat
import time
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from chunkguard.errors import ManifestError
from chunkguard.model import Chunk


class ManifestSyntaxError(ManifestError):
    """A corrupt line: ``line`` is its 1-based number in the manifest called ``name``."""

    def __init__(self, name: str, line: int, what: str) -> None:
        super().__init__(f"{name}:{line}: {what}")
        self.name, self.line, self.what = name, line, what


FORMAT_VERSION = 1
LOCK_TIMEOUT = 30.0
STALE_LOCK_AGE = 600.0

_REBUILD = "run `chunkguard update` to rebuild it"
_HEX16 = re.compile(r"[0-9a-f]{16}")
_BLOB = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 and SHA-256 repositories
_HEADER_KEYS = ("chunkguard_manifest", "chunking", "config", "rules")
_FILE_KEYS, _FILE_OPTIONAL = ("file", "blob", "chunks"), "findings"
_CHUNK_KEYS, _CHUNK_OPTIONAL = ("id", "lines", "chars", "tokens", "hash"), "moved_from"
_FILE_PREFIX, _CHUNK_PREFIX = '{"file": ', '{"id": '
_FILE_BYTES = _FILE_PREFIX.encode()
_FILE_START, _CHUNK_START = b"\n" + _FILE_BYTES, b"\n" + _CHUNK_PREFIX.encode()
_CONFLICT_MARKERS = (b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||")
# Unrolled ("normal* (special normal*)*") so that each character matches one way only.
_JSON_STRING = r'"([^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*)"'
_HASH_LINE = re.compile(
    rb'\n\{"id": ' + _JSON_STRING.encode() + rb', "lines": \[([0-9]+), [0-9]+\], '
    rb'"chars": [0-9]+, "tokens": [0-9]+, "hash": "([0-9a-f]{16})"'
)
# What ``render`` writes, when no string needs an escape: read without json (several
# times faster); anything else takes the json path, which also words the errors.
_PLAIN_CHARS = r'[^"\\\x00-\x1f]+'
_PLAIN = f'"({_PLAIN_CHARS})"'
_NUMBER = "(0|[1-9][0-9]*)"
_FAST_FILE = re.compile(
    rf'\{{"file": {_PLAIN}, "blob": (?:null|"([0-9a-f]{{40}}|[0-9a-f]{{64}})"), '
    rf'"chunks": {_NUMBER}(?:, "findings": \[("{_PLAIN_CHARS}"(?:, "{_PLAIN_CHARS}")*)\])?\}}'
)
_FAST_CHUNK = re.compile(
    rf'\{{"id": {_PLAIN}, "lines": \[([1-9][0-9]*), ([1-9][0-9]*)\], "chars": {_NUMBER}, '
    rf'"tokens": {_NUMBER}, "hash": "([0-9a-f]{{16}})"(?:, "moved_from": {_PLAIN})?\}}'
)
_string = json.JSONEncoder(ensure_ascii=False).encode


def fingerprint(text: str) -> str:
    """The 16 hex digits the header stores for a settings string."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def path_key(path: str) -> bytes:
    """Sort key of manifest paths: their bytes, as git orders them."""
    return path.encode("utf-8", "surrogateescape")


@dataclass(frozen=True, slots=True)
class Header:
    format: int
    chunking: int
    config: str
    rules: str

    def __post_init__(self) -> None:
        for key in ("config", "rules"):
            value = getattr(self, key)
            if not isinstance(value, str) or not _HEX16.fullmatch(value):
                raise ValueError(f"Header.{key} must be 16 hex digits (fingerprint()): {value!r}")

    @classmethod
    def build(cls, *, chunking: int, config: str, rules: str) -> Header:
        """The current header for the given settings strings (hashed here)."""
        return cls(FORMAT_VERSION, chunking, fingerprint(config), fingerprint(rules))

    @property
    def settings(self) -> tuple[int, str, str]:
        """What decides a manifest's chunks: entries made under other settings are stale."""
        return self.chunking, self.config, self.rules


@dataclass(frozen=True, slots=True)
class ChunkEntry:
    id: str
    lines: tuple[int, int]
    chars: int
    tokens: int
    hash: str
    moved_from: str | None = None

    @classmethod
    def from_chunk(cls, chunk: Chunk, moved_from: str | None = None) -> ChunkEntry:
        return cls(
            chunk.id, (chunk.start_line, chunk.end_line), chunk.chars, chunk.tokens, chunk.hash,
            moved_from,
        )  # fmt: skip

    def placeholder(self, path: str) -> Chunk:
        """A text-less ``Chunk`` standing in for this entry when its text cannot be read:
        only its ID, path, span, sizes and hash are known."""
        start, end = self.lines
        return Chunk(
            id=self.id, path=path, kind="text", language="text", symbol=None, heading_path=(),
            level=0, start_line=start, end_line=end, chars=self.chars, tokens=self.tokens,
            hash=self.hash, text="", body_line=start,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file's block. ``findings`` is kept sorted and unique whatever order it is given in."""

    path: str
    blob: str | None
    chunks: tuple[ChunkEntry, ...]
    findings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        path_key(self.path)  # a lone surrogate that is not an undecodable byte: ValueError
        prefix = self.path + "#"
        for chunk in self.chunks:
            if not chunk.id.startswith(prefix):
                raise ValueError(f"chunk {chunk.id!r} does not belong to {self.path!r}")
        object.__setattr__(self, "chunks", tuple(self.chunks))
        object.__setattr__(self, "findings", tuple(sorted(set(self.findings))))

    @classmethod
    def from_chunks(
        cls,
        path: str,
        blob: str | None,
        chunks: Iterable[Chunk],
        *,
        findings: Iterable[str] = (),
        moved: Mapping[str, str] | None = None,
    ) -> FileEntry:
        """The entry of chunked file; ``moved`` maps a chunk ID to the ID it moved from."""
        moved = moved or {}
        entries = tuple(ChunkEntry.from_chunk(c, moved.get(c.id)) for c in chunks)
        return cls(path, blob, entries, tuple(findings))

    def moved_from(self, chunk_id: str) -> str | None:
        """The ID the chunk ``chunk_id`` is recorded as moved from, if any."""
        return next((c.moved_from for c in self.chunks if c.id == chunk_id), None)

    def with_moved_from(self, chunk_id: str, old_id: str | None) -> FileEntry:
        """This entry with the move of ``chunk_id`` recorded (or cleared); unchanged
        when it has no such chunk."""
        chunks = tuple(
            dataclasses.replace(c, moved_from=old_id) if c.id == chunk_id else c
            for c in self.chunks
        )
        return self if chunks == self.chunks else dataclasses.replace(self, chunks=chunks)

    def same_chunks(self, other: FileEntry) -> bool:
        """Both list the same chunks (IDs, spans, sizes, hashes); blob, findings and
        recorded moves are not compared."""

        def core(entry: FileEntry) -> list[tuple[object, ...]]:
            return [(c.id, c.lines, c.chars, c.tokens, c.hash) for c in entry.chunks]

        return core(self) == core(other)


@dataclass(frozen=True, slots=True)
class Manifest:
    header: Header
    files: Mapping[str, FileEntry]

    def __post_init__(self) -> None:
        for path, entry in self.files.items():
            if entry.path != path:
                raise ValueError(f"Manifest.files[{path!r}] holds the entry of {entry.path!r}")


# -- rendering -------------------------------------------------------------------------


def _header_text(header: Header) -> str:
    return (
        f'{{"chunkguard_manifest": {header.format:d}, "chunking": {header.chunking:d}, '
        f'"config": {_string(header.config)}, "rules": {_string(header.rules)}}}\n'
    )


def _block_text(entry: FileEntry) -> str:
    blob = "null" if entry.blob is None else _string(entry.blob)
    findings = f', "findings": {_string_list(entry.findings)}' if entry.findings else ""
    parts = [
        f'{{"file": {_string(entry.path)}, "blob": {blob}, "chunks": {len(entry.chunks):d}'
        f"{findings}}}\n"
    ]
    for chunk in entry.chunks:
        moved = "" if chunk.moved_from is None else f', "moved_from": {_string(chunk.moved_from)}'
        start, end = chunk.lines
        parts.append(
            f'{{"id": {_string(chunk.id)}, "lines": [{start:d}, {end:d}], '
            f'"chars": {chunk.chars:d}, "tokens": {chunk.tokens:d}, '
            f'"hash": {_string(chunk.hash)}{moved}}}\n'
        )
    return "".join(parts)


def _string_list(values: Sequence[str]) -> str:
    return "[" + ", ".join(map(_string, values)) + "]"


def _bytes(text: str) -> bytes:
    # The encoder keeps non-ASCII as is; only lone surrogates cannot be UTF-8, and
    # backslashreplace writes them as the \udcXX escape JSON reads back.
    return text.encode("utf-8", "backslashreplace")


def render(manifest: Manifest) -> bytes:
    """The canonical bytes: the same content gives the same bytes on every OS."""
    parts = [_header_text(manifest.header)]
    for path in sorted(manifest.files, key=path_key):
        parts.append(_block_text(manifest.files[path]))
    return _bytes("".join(parts))


# -- parsing ---------------------------------------------------------------------------


def _error(name: str, line: int, what: str) -> ManifestSyntaxError:
    return ManifestSyntaxError(name, line, what)


def _normalise(data: bytes, name: str) -> bytes:
    """Line endings fixed, conflict markers refused: what both readers start from."""
    if not data:
        raise ManifestError(f"{name}: empty manifest ({_REBUILD})")
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    at = _conflict_at(data)
    if at is not None:
        line = data.count(b"\n", 0, at) + 1
        raise _error(
            name,
            line,
            f"merge conflict markers at line {line} ({_REBUILD}, or resolve the conflict)",
        )
    return data if data.endswith(b"\n") else data + b"\n"


def _conflict_at(data: bytes) -> int | None:
    starts = []
    for marker in _CONFLICT_MARKERS:
        if data.startswith(marker):
            starts.append(0)
        elif (at := data.find(b"\n" + marker)) >= 0:
            starts.append(at + 1)
    return min(starts, default=None)


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("duplicate key")
    return obj


_decoder = json.JSONDecoder(object_pairs_hook=_pairs)


def _object(text: str, name: str, line: int) -> dict[str, object]:
    if not text:
        raise _error(name, line, "empty line")
    try:
        obj = _decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise _error(name, line, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise _error(name, line, f"invalid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise _error(name, line, "expected a JSON object")
    return obj


def _kind(obj: Mapping[str, object]) -> str:
    for key, kind in (("chunkguard_manifest", "header"), ("file", "file"), ("id", "chunk")):
        if key in obj:
            return kind
    return "unknown"


def _check_keys(
    obj: Mapping[str, object],
    required: tuple[str, ...],
    optional: str | None,
    name: str,
    line: int,
) -> None:
    allowed = required if optional is None else (*required, optional)
    keys = tuple(obj)
    if keys in (required, allowed):
        return
    for key in keys:
        if key not in allowed:
            raise _error(name, line, f"unexpected key {_show(key)}")
    for key in required:
        if key not in obj:
            raise _error(name, line, f"missing key {_show(key)}")
    expected = ", ".join(map(_show, allowed))
    raise _error(name, line, f"keys out of order (expected {expected})")


def _show(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:59] + "…"


def _int(obj: Mapping[str, object], key: str, name: str, line: int, least: int = 0) -> int:
    value = obj[key]
    if type(value) is not int or value < least:
        raise _error(name, line, f'"{key}" must be an integer ≥ {least}, got {_show(value)}')
    return value


def _str(obj: Mapping[str, object], key: str, name: str, line: int) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value:
        raise _error(name, line, f'"{key}" must be a non-empty string, got {_show(value)}')
    return value


def _header(text: str, name: str) -> Header:
    obj = _object(text, name, 1)
    if _kind(obj) != "header":
        raise _error(name, 1, 'expected the header line {"chunkguard_manifest": …}')
    version = obj["chunkguard_manifest"]
    if type(version) is int and version > FORMAT_VERSION:
        raise _error(
            name,
            1,
            f"manifest format {version} is newer than this chunkguard supports "
            f"({FORMAT_VERSION}); upgrade chunkguard",
        )
    if version != FORMAT_VERSION or type(version) is not int:
        raise _error(name, 1, f"unknown manifest format {_show(version)}")
    _check_keys(obj, _HEADER_KEYS, None, name, 1)
    chunking = _int(obj, "chunking", name, 1)
    config, rules = (_str(obj, key, name, 1) for key in ("config", "rules"))
    for key, value in (("config", config), ("rules", rules)):
        if not _HEX16.fullmatch(value):
            raise _error(name, 1, f'"{key}" must be 16 hex digits, got {_show(value)}')
    return Header(version, chunking, config, rules)


class _FileLine(NamedTuple):
    path: str
    blob: str | None
    chunks: int
    findings: tuple[str, ...]


def _file_line(text: str, name: str, line: int) -> _FileLine:
    fast = _FAST_FILE.fullmatch(text)
    if fast is not None:
        path, blob, count, listed = fast.groups()
        codes = tuple(listed[1:-1].split('", "')) if listed else ()
        if list(codes) == sorted(set(codes)):
            return _FileLine(path, blob, int(count), codes)
    obj = _object(text, name, line)
    kind = _kind(obj)
    if kind != "file":
        raise _error(name, line, f"{kind} line where a file line is expected")
    _check_keys(obj, _FILE_KEYS, _FILE_OPTIONAL, name, line)
    if not text.startswith(_FILE_PREFIX):
        raise _error(name, line, f"not in canonical form (spacing differs); {_REBUILD}")
    path = _str(obj, "file", name, line)
    try:
        path_key(path)
    except UnicodeEncodeError:
        raise _error(name, line, f"path {_show(path)} holds a lone surrogate") from None
    blob = obj["blob"]
    if blob is not None and not (isinstance(blob, str) and _BLOB.fullmatch(blob)):
        raise _error(name, line, f'"blob" must be a git object id or null, got {_show(blob)}')
    findings: tuple[str, ...] = ()
    if _FILE_OPTIONAL in obj:
        raw = obj[_FILE_OPTIONAL]
        if (
            not isinstance(raw, list)
            or not raw
            or not all(isinstance(code, str) and code for code in raw)
            or raw != sorted(set(raw))
        ):
            raise _error(
                name,
                line,
                f'"findings" must be a non-empty sorted list of rule codes, got {_show(raw)}',
            )
        findings = tuple(raw)
    return _FileLine(path, blob, _int(obj, "chunks", name, line), findings)


def _chunk_line(text: str, path: str, name: str, line: int) -> ChunkEntry:
    fast = _FAST_CHUNK.fullmatch(text)
    if fast is not None:
        chunk_id, start, end, chars, tokens, digest, moved = fast.groups()
        if (
            chunk_id.startswith(path)
            and chunk_id[len(path) : len(path) + 1] == "#"
            and len(chunk_id) > len(path) + 1
            and int(start) <= int(end)
        ):
            return ChunkEntry(
                chunk_id, (int(start), int(end)), int(chars), int(tokens), digest, moved
            )
    obj = _object(text, name, line)
    kind = _kind(obj)
    if kind != "chunk":
        raise _error(name, line, f"{kind} line where a chunk line of {_show(path)} is expected")
    _check_keys(obj, _CHUNK_KEYS, _CHUNK_OPTIONAL, name, line)
    if not text.startswith(_CHUNK_PREFIX):
        raise _error(name, line, f"not in canonical form (spacing differs); {_REBUILD}")
    chunk_id = _str(obj, "id", name, line)
    if not chunk_id.startswith(path + "#") or len(chunk_id) == len(path) + 1:
        raise _error(name, line, f"chunk {_show(chunk_id)} does not belong to {_show(path)}")
    span = obj["lines"]
    if not (
        isinstance(span, list)
        and len(span) == 2
        and all(type(n) is int for n in span)
        and 1 <= span[0] <= span[1]
    ):
        raise _error(name, line, f'"lines" must be [start, end] with 1 ≤ start ≤ end, got {span}')
    digest = _str(obj, "hash", name, line)
    if not _HEX16.fullmatch(digest):
        raise _error(name, line, f'"hash" must be 16 hex digits, got {_show(digest)}')
    moved = _str(obj, _CHUNK_OPTIONAL, name, line) if _CHUNK_OPTIONAL in obj else None
    return ChunkEntry(
        chunk_id,
        (span[0], span[1]),
        _int(obj, "chars", name, line),
        _int(obj, "tokens", name, line),
        digest,
        moved,
    )


def _block(lines: Sequence[str], at: int, name: str, first_line: int) -> tuple[FileEntry, int]:
    """The file whose file line is ``lines[at]`` (numbered ``first_line + at``), and where
    the next block starts."""
    number = first_line + at
    head = _file_line(lines[at], name, number)
    chunks: list[ChunkEntry] = []
    for i in range(at + 1, at + 1 + head.chunks):
        if i >= len(lines):
            raise _error(
                name,
                number,
                f"{_show(head.path)} declares {head.chunks} chunks but the manifest ends "
                f"after {len(chunks)}",
            )
        if lines[i].startswith(_FILE_PREFIX):
            raise _error(
                name,
                first_line + i,
                f"file line where a chunk line is expected ({_show(head.path)} on line {number} "
                f"declares {head.chunks} chunks, found {len(chunks)})",
            )
        chunks.append(_chunk_line(lines[i], head.path, name, first_line + i))
    return FileEntry(head.path, head.blob, tuple(chunks), head.findings), at + 1 + head.chunks


def _lines(data: bytes, name: str, first_line: int) -> list[str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        raise _error(name, line, "not valid UTF-8") from None
    return text.split("\n")[:-1]


def parse(data: bytes, *, name: str) -> Manifest:
    """The whole manifest, checked line by line; errors read ``name:line: what``."""
    lines = _lines(_normalise(data, name), name, 1)
    header = _header(lines[0], name)
    files: dict[str, FileEntry] = {}
    where: dict[str, int] = {}
    previous: FileEntry | None = None
    last_key = b""
    at = 1
    while at < len(lines):
        if previous is not None and lines[at].startswith(_CHUNK_PREFIX):
            raise _extra_chunk(name, at + 1, previous.path, len(previous.chunks))
        entry, following = _block(lines, at, name, 1)
        key = path_key(entry.path)
        if previous is not None and key <= last_key:
            raise _order_error(entry.path, previous.path, where, name, at + 1)
        files[entry.path] = previous = entry
        where[entry.path], last_key = at + 1, key
        at = following
    return Manifest(header, files)


def _extra_chunk(name: str, line: int, path: str, count: int) -> ManifestError:
    return _error(
        name,
        line,
        f"chunk line where a file line is expected ({_show(path)} declares {count} chunks)",
    )


def _order_error(
    path: str, last_path: str, where: Mapping[str, int], name: str, line: int
) -> ManifestError:
    if path in where:
        return _error(name, line, f"{_show(path)} is listed twice (also on line {where[path]})")
    return _error(
        name,
        line,
        f"files out of order: {_show(path)} must come before {_show(last_path)} "
        f"(line {where[last_path]})",
    )


def read(path: Path) -> Manifest | None:
    """The manifest at ``path``, or None when there is none."""
    data = _read_bytes(path)
    return None if data is None else parse(data, name=str(path))


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read the manifest: {exc.strerror}") from None


# -- partial access --------------------------------------------------------------------


class _Block(NamedTuple):
    head: _FileLine
    line: int
    start: int
    end: int


class ManifestIndex:
    """A manifest's files found by their file lines, without decoding chunk lines.

    Building it checks the header, every file line, the chunk count of each
    block and that chunk lines start as chunk lines; a chunk line's own fields
    are checked when ``entry`` or ``hashes`` reads it. Errors are the ones
    ``parse`` gives, with line numbers.
    """

    __slots__ = ("_blocks", "_body", "_data", "_header", "_keys", "_name", "_paths")

    def __init__(self, data: bytes, *, name: str) -> None:
        data = _normalise(data, name)
        self._data, self._name = data, name
        self._body = data.index(b"\n") + 1
        self._header = _header(_lines(data[: self._body], name, 1)[0], name)
        self._blocks: dict[str, _Block] = {}
        self._keys: list[bytes] = []
        line, pos, size = 2, self._body, len(data)
        while pos < size:
            if not data.startswith(_FILE_BYTES, pos):
                raise self._diagnose(line)
            eol = data.index(b"\n", pos)
            head = _file_line(_lines(data[pos : eol + 1], name, line)[0], name, line)
            key = path_key(head.path)
            if self._keys and key <= self._keys[-1]:
                where = {path: block.line for path, block in self._blocks.items()}
                raise _order_error(head.path, next(reversed(self._blocks)), where, name, line)
            following = data.find(_FILE_START, eol)
            end = size if following < 0 else following + 1
            # Chunk lines are only counted here, at C speed: the block must hold exactly
            # ``chunks`` lines and each must begin like a chunk line.
            if (
                data.count(b"\n", eol + 1, end) != head.chunks
                or data.count(_CHUNK_START, eol, end) != head.chunks
            ):
                raise self._diagnose(line)
            self._blocks[head.path] = _Block(head, line, pos, end)
            self._keys.append(key)
            line, pos = line + 1 + head.chunks, end
        self._paths = tuple(self._blocks)

    @classmethod
    def from_bytes(cls, data: bytes, *, name: str) -> ManifestIndex:
        return cls(data, name=name)

    @classmethod
    def load(cls, path: Path) -> ManifestIndex | None:
        """The index of the manifest at ``path``, or None when there is none."""
        data = _read_bytes(path)
        return None if data is None else cls(data, name=str(path))

    def _diagnose(self, line: int) -> ManifestError:
        try:
            parse(self._data, name=self._name)
        except ManifestError as exc:
            return exc
        return _error(self._name, line, "malformed file block")  # parse is stricter: unreachable

    @property
    def header(self) -> Header:
        return self._header

    @property
    def paths(self) -> tuple[str, ...]:
        """Every file's path, in manifest (byte) order."""
        return self._paths

    @property
    def data(self) -> bytes:
        """The manifest's bytes (with ``\\n`` line endings) the index was built from."""
        return self._data

    def __contains__(self, path: object) -> bool:
        return path in self._blocks

    def __len__(self) -> int:
        return len(self._blocks)

    def blob(self, path: str) -> str | None:
        """The recorded blob id; None when the file is not listed or has none."""
        block = self._blocks.get(path)
        return None if block is None else block.head.blob

    def findings(self, path: str) -> tuple[str, ...]:
        block = self._blocks.get(path)
        return () if block is None else block.head.findings

    def chunk_count(self, path: str) -> int:
        block = self._blocks.get(path)
        return 0 if block is None else block.head.chunks

    def ids(self, path: str) -> frozenset[str]:
        entry = self.entry(path)
        return frozenset() if entry is None else frozenset(c.id for c in entry.chunks)

    def entry(self, path: str) -> FileEntry | None:
        """One file's entry, parsing only its lines."""
        block = self._blocks.get(path)
        if block is None:
            return None
        lines = _lines(self._data[block.start : block.end], self._name, block.line)
        return _block(lines, 0, self._name, block.line)[0]

    def hashes(self) -> Iterator[tuple[str, str]]:
        """``(hash, id)`` of every chunk, in manifest order."""
        for digest, chunk_id, _, _ in self.chunk_rows():
            yield digest, chunk_id

    def chunk_rows(self) -> Iterator[tuple[str, str, str, int]]:
        """``(hash, id, path, start line)`` of every chunk, in manifest order, read with
        one regular expression per file rather than by decoding JSON."""
        data = self._data
        for path, block in self._blocks.items():
            found = 0
            for match in _HASH_LINE.finditer(data, block.start - 1, block.end):
                raw_id, start, digest = match.groups()
                chunk_id = _json_string(raw_id)
                if chunk_id is None:
                    break
                found += 1
                yield digest.decode("ascii"), chunk_id, path, int(start)
            if found != block.head.chunks:
                raise self._diagnose(block.line)

    def replace(self, entries: Mapping[str, FileEntry | None], header: Header) -> bytes:
        """New manifest bytes: ``entries`` rendered (None removes a file), every other
        file's block copied as it is. Equal to ``render`` of the same content."""
        for path, entry in entries.items():
            if entry is not None and entry.path != path:
                raise ValueError(f"entries[{path!r}] holds the entry of {entry.path!r}")
        data = self._data
        parts = [_bytes(_header_text(header))]
        pos = self._body
        for path in sorted(entries, key=path_key):
            block = self._blocks.get(path)
            if block is not None:
                start, end = block.start, block.end
            else:
                at = bisect_left(self._keys, path_key(path))
                start = end = len(data) if at == len(self._paths) else self._start(at)
            parts.append(data[pos:start])
            entry = entries[path]
            if entry is not None:
                parts.append(_bytes(_block_text(entry)))
            pos = end
        parts.append(data[pos:])
        return b"".join(parts)

    def _start(self, at: int) -> int:
        return self._blocks[self._paths[at]].start


def _json_string(raw: bytes) -> str | None:
    try:
        if b"\\" not in raw:
            return raw.decode("utf-8")
        value = json.loads(b'"' + raw + b'"')
    except ValueError:  # UnicodeDecodeError and JSONDecodeError both are
        return None
    return value if isinstance(value, str) else None


# -- writing ---------------------------------------------------------------------------


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` all at once: readers and crashes (Ctrl-C included)
    see the old file or the new one, never a mix. Permission bits are kept."""
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, 0o666)  # a new manifest gets the umask's usual bits
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    # The rename itself is durable only once the directory entry is; Windows has no such fsync.
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def manifest_lock(
    path: Path, *, timeout: float = LOCK_TIMEOUT, stale_after: float = STALE_LOCK_AGE
) -> Iterator[None]:
    """Hold ``<manifest>.lock`` so that concurrent writers take turns.

    Read the manifest, change it and write it back all inside the lock: a read
    made before taking it may miss another writer's entries, and writing it
    back would drop them. Keep slow work (chunking) outside. A lock file is a
    plain file created exclusively, so it works on every OS and file system;
    one older than ``stale_after`` seconds is left from a crash and is broken.
    Not reentrant: taking it again inside itself waits for ``timeout`` and fails.
    """
    lock = path.with_name(path.name + ".lock")
    token = _acquire(lock, timeout, stale_after)
    try:
        yield
    finally:
        _release(lock, token)


def _acquire(lock: Path, timeout: float, stale_after: float) -> bytes:
    token = f"{os.getpid()} {secrets.token_hex(8)}\n".encode()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            fd = os.open(lock, flags, 0o644)
        except FileExistsError:
            pass
        except OSError as exc:
            # Windows refuses to create a file that is still being deleted: a busy lock.
            if not (isinstance(exc, PermissionError) and os.name == "nt"):
                raise ManifestError(f"{lock}: cannot create the lock: {exc.strerror}") from None
        else:
            try:
                os.write(fd, token)
            except BaseException:
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(lock)
                raise
            os.close(fd)
            return token
        if _break_stale(lock, stale_after):
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            raise ManifestError(
                f"{lock}: another chunkguard{_holder(lock)} has been writing the manifest "
                f"for over {timeout:g} s; if no chunkguard is running, delete {lock}"
            )
        time.sleep(min(delay, left))
        delay = min(delay * 2, 0.25)


def _holder(lock: Path) -> str:
    try:
        pid = lock.read_bytes().split(b" ", 1)[0]
    except OSError:
        return ""
    return f" (process {pid.decode()})" if pid.isdigit() else ""


def _break_stale(lock: Path, stale_after: float) -> bool:
    """Remove a lock older than ``stale_after``; True when the caller should retry at once."""
    try:
        seen = os.stat(lock)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if time.time() - seen.st_mtime < stale_after:
        return False
    # Rename rather than delete: of several waiters that all found the lock stale,
    # only one moves it, and one that moved a fresh lock taken meanwhile puts it back.
    grave = lock.with_name(f"{lock.name}.{secrets.token_hex(6)}.stale")
    try:
        os.rename(lock, grave)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        moved = os.stat(grave)
        if (moved.st_ino, moved.st_mtime_ns) != (seen.st_ino, seen.st_mtime_ns):
            with contextlib.suppress(OSError):
                os.link(grave, lock)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(grave)
    return True


def _release(lock: Path, token: bytes) -> None:
    try:
        ours = lock.read_bytes() == token
    except FileNotFoundError:
        return
    except OSError:
        ours = True  # unreadable yet there: most likely ours, and a left lock blocks everyone
    if ours:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock)
