"""A shard's bytes and the header's, written canonically (the same content gives the same
bytes on every OS) and read back checking every line."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from chunkgate.core.regex import lazy
from chunkgate.manifest import fields
from chunkgate.manifest.kinds import Where, check_keys, integer, string
from chunkgate.manifest.lines import (
    REBUILD,
    ManifestSyntaxError,
    chunk_line,
    file_line,
    json_object,
    show,
)
from chunkgate.manifest.records import (
    FORMAT_VERSION,
    READABLE_FORMATS,
    ChunkEntry,
    FileEntry,
    Header,
)

_MARKERS = (b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||")
_CONFLICT = lazy(b"\n(?:" + b"|".join(map(re.escape, _MARKERS)) + b")")
_string = json.encoder.encode_basestring  # as ``fields`` writes a string
_HEADER_KEYS = ("chunkgate_manifest", "chunking", "config", "anchors", "rules")
_SITE_KEYS = ("site_configs", "untracked_configs")

# -- a shard: one corpus file's lines -----------------------------------------------------------


def render_block(entry: FileEntry) -> bytes:
    """A corpus file's shard: its file line, then its chunk lines."""
    return to_bytes(block_text(entry))


def block_text(entry: FileEntry) -> str:
    """The shard's text: its lines as the tables in ``fields`` write them."""
    chunk = fields.CHUNK_LINE.write
    return fields.FILE_LINE.write(entry) + "".join(chunk(c) for c in entry.chunks)


def to_bytes(text: str) -> bytes:
    # The encoder keeps non-ASCII as is; only lone surrogates cannot be UTF-8, and
    # backslashreplace writes them as the \udcXX escape JSON reads back.
    return text.encode("utf-8", "backslashreplace")


def parse_block(data: bytes, name: str, first_line: int = 1) -> FileEntry:
    """A shard (or one file's block of a format-1 manifest, numbered from ``first_line``)
    read back: what ``render_block`` wrote, or a ``ManifestSyntaxError`` naming the line."""
    lines = text_lines(normalise(data, name), name, first_line)
    entry, following = read_block(lines, 0, name, first_line)
    if following < len(lines):
        raise ManifestSyntaxError(
            name,
            first_line + following,
            f"a line after the {len(entry.chunks)} chunk lines {show(entry.path)} declares",
        )
    return entry


def read_block(lines: Sequence[str], at: int, name: str, first_line: int) -> tuple[FileEntry, int]:
    """The file whose file line is ``lines[at]`` (numbered ``first_line + at``), and where
    the next block starts."""
    number = first_line + at
    head = file_line(lines[at], name, number)
    path, count = head["path"], head["chunks"]
    prefix = fields.FILE_LINE.prefix
    chunks: list[ChunkEntry] = []
    for i in range(at + 1, at + 1 + count):
        if i >= len(lines):
            raise ManifestSyntaxError(
                name,
                number,
                f"{show(path)} declares {count} chunks but the file ends after {len(chunks)}",
            )
        if lines[i].startswith(prefix):
            raise ManifestSyntaxError(
                name,
                first_line + i,
                f"file line where a chunk line is expected ({show(path)} on line {number} "
                f"declares {count} chunks, found {len(chunks)})",
            )
        chunks.append(chunk_line(lines[i], path, name, first_line + i))
    entry: FileEntry = fields.FILE_LINE.record(**{**head, "chunks": tuple(chunks)})
    return entry, at + 1 + count


# -- the header ----------------------------------------------------------------------------------


def render_header(header: Header) -> bytes:
    """The manifest's ``manifest.json``: one key a line (one site config a line), so that
    a settings change diffs as the line it changed."""
    values = (header.format, header.chunking, header.config, header.anchors, header.rules)
    lines = [
        f"  {_string(key)}: {value if isinstance(value, int) else _string(str(value))}"
        for key, value in zip(_HEADER_KEYS, values, strict=True)
    ]
    configs = (header.site_configs, header.untracked_configs or None)
    for key, paths in zip(_SITE_KEYS, configs, strict=True):
        if paths is not None:
            items = "".join(f"\n    {_string(path)}," for path in paths).rstrip(",")
            lines.append(f"  {_string(key)}: [{items}\n  ]" if items else f"  {_string(key)}: []")
    return to_bytes("{\n" + ",\n".join(lines) + "\n}\n")


def parse_header(data: bytes, name: str) -> Header:
    text = text_lines(normalise(data, name), name, 1)
    obj = json_object("\n".join(text), name, 1)
    # A value's error names the line that holds its key (one key a line, as written).
    at: dict[str, int] = {}
    for number, line in enumerate(text, 1):
        at.setdefault(line.lstrip().partition(":")[0].strip('"'), number)
    version = obj.get("chunkgate_manifest")
    where = at.get("chunkgate_manifest", 1)
    if type(version) is not int:
        raise ManifestSyntaxError(name, where, 'expected {"chunkgate_manifest": …}')
    if version > FORMAT_VERSION:
        raise ManifestSyntaxError(
            name,
            where,
            f"manifest format {version} is newer than this chunkgate supports "
            f"({FORMAT_VERSION}); upgrade chunkgate",
        )
    if version not in READABLE_FORMATS:
        raise ManifestSyntaxError(
            name, where, f"unknown manifest format {show(version)}; {REBUILD}"
        )
    check_keys(obj, _HEADER_KEYS, _SITE_KEYS, name, 1)
    anchors = obj["anchors"]
    if not isinstance(anchors, str):
        raise ManifestSyntaxError(
            name, at.get("anchors", 1), f'"anchors" must be a string, got {show(anchors)}'
        )
    configs = [_paths(obj, key, name, at.get(key, 1)) for key in _SITE_KEYS]
    try:
        return Header(
            version,
            integer("chunking", obj["chunking"], Where(name, at.get("chunking", 1), "")),
            string("config", obj["config"], Where(name, at.get("config", 1), "")),
            string("rules", obj["rules"], Where(name, at.get("rules", 1), "")),
            anchors,
            configs[0],
            configs[1] or (),
        )
    except ValueError as exc:
        raise ManifestSyntaxError(name, at.get(_SITE_KEYS[0], 1), f"{exc}; {REBUILD}") from None


def _paths(obj: dict[str, object], key: str, name: str, line: int) -> tuple[str, ...] | None:
    value = obj.get(key)
    if value is None and key not in obj:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ManifestSyntaxError(name, line, f'"{key}" must be a list of paths, got {show(value)}')
    return tuple(value)


# -- bytes as git or an editor may leave them ------------------------------------------------


def normalise(data: bytes, name: str) -> bytes:
    """Line endings fixed, conflict markers refused: what the readers read."""
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
        raise ManifestSyntaxError(name, 1, f"empty file ({REBUILD})")
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
