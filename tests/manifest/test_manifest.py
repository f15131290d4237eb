"""The manifest package: its public API, its canonical bytes, and the format as documented."""

from __future__ import annotations

import re

from manifest_samples import (
    BLOB,
    GOLDEN_EMPTY_SHARD,
    GOLDEN_HEADER,
    GOLDEN_SHARD,
    HASH,
    HEADER,
    golden_empty_entry,
    golden_entry,
)

import chunkgate.manifest
from chunkgate.manifest import parse_block, parse_header, render_block, render_header, summarise

API = {
    "FORMAT_VERSION",
    "HEADER",
    "LOCK_TIMEOUT",
    "STALE_LOCK_AGE",
    "ChunkEntry",
    "FileEntry",
    "Header",
    "ManifestSyntaxError",
    "RevisionManifest",
    "Shard",
    "StoredFinding",
    "Summaries",
    "ShardSummary",
    "SummaryCache",
    "WorkTreeManifest",
    "manifest_lock",
    "parse_block",
    "parse_header",
    "path_key",
    "render_block",
    "render_header",
    "shard_name",
    "summarise",
    "write_atomic",
}


def test_public_api() -> None:
    assert set(chunkgate.manifest.__all__) == API
    for name in API:
        assert hasattr(chunkgate.manifest, name), name


def test_render_golden_bytes() -> None:
    assert render_block(golden_entry()) == GOLDEN_SHARD
    assert render_block(golden_empty_entry()) == GOLDEN_EMPTY_SHARD
    assert render_header(HEADER) == GOLDEN_HEADER


def test_parse_golden_bytes() -> None:
    assert parse_block(GOLDEN_SHARD, "m") == golden_entry()
    assert parse_block(GOLDEN_EMPTY_SHARD, "m") == golden_empty_entry()
    assert parse_header(GOLDEN_HEADER, "m") == HEADER


def test_summarise_golden_bytes() -> None:
    assert summarise(GOLDEN_SHARD, "m") == (
        "docs/a.md",
        BLOB,
        2,
        True,
        (HASH, "fedcba9876543210"),
        2,
        True,
        "5e771465e771465e",
    )
    empty = ('docs/é "q".md', None, 0, False, (), 0, False, None)  # format 2: no settings
    assert summarise(GOLDEN_EMPTY_SHARD, "m") == empty


def documented_example() -> bytes:
    """The shard in the package docstring, its wrapped lines joined again."""
    doc = chunkgate.manifest.__doc__ or ""
    block = doc.split("::\n\n", 1)[1].split("\n\n", 1)[0]
    lines: list[str] = []
    for line in block.splitlines():
        if line.startswith("    {"):
            lines.append(line.strip())
        else:
            lines[-1] += " " + line.strip()
    text = "\n".join(lines) + "\n"
    text = text.replace("<16 hex>", HASH).replace("<git blob id>", BLOB)
    return text.encode()


def test_documented_example_is_a_canonical_shard() -> None:
    data = documented_example()
    parsed = parse_block(data, "doc")
    assert render_block(parsed) == data
    assert parsed.path == "docs/a.md"
    assert [f.chunk_id for f in parsed.findings] == ["docs/a.md#install"]
    assert parsed.chunks[1].suppressed == ("CG501",)
    assert parsed.chunks[1].moved_from == "docs/a.md#installing"


def test_documented_example_shows_every_key_of_a_shard() -> None:
    keys = set(re.findall(r'"([a-z_]+)": ', documented_example().decode()))
    assert keys == {
        *("file", "blob", "chunks", "settings", "findings"),
        *("rule", "line", "chunk", "message", "fix"),
        *("id", "lines", "chars", "tokens", "hash", "moved_from", "suppressed", "merged"),
    }


def test_documented_header_names_the_file_and_every_field() -> None:
    doc = " ".join((chunkgate.manifest.__doc__ or "").split())
    assert "``manifest.json`` is the header: the format (3; 2 is read as well)" in doc
    keys = re.findall(rb'"([a-z_]+)": ', GOLDEN_HEADER)
    assert keys == [b"chunkgate_manifest", b"chunking", b"config", b"anchors", b"rules"]
    for what in ("chunking version", "settings that change chunks", "anchors", "findings"):
        assert what in doc, what
