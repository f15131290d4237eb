"""The manifest package: its public API, its canonical bytes, and the format as documented."""

from __future__ import annotations

import re

from manifest_samples import BLOB, GOLDEN, HASH, golden_manifest

import chunkgate.manifest
from chunkgate.manifest import ManifestIndex, parse, render

API = {
    "FORMAT_VERSION",
    "LOCK_TIMEOUT",
    "STALE_LOCK_AGE",
    "ChunkEntry",
    "FileEntry",
    "Header",
    "Manifest",
    "ManifestIndex",
    "ManifestSyntaxError",
    "StoredFinding",
    "fingerprint",
    "manifest_lock",
    "parse",
    "path_key",
    "read",
    "render",
    "render_blocks",
    "write_atomic",
}


def test_public_api() -> None:
    assert set(chunkgate.manifest.__all__) == API
    for name in API:
        assert hasattr(chunkgate.manifest, name), name


def test_render_golden_bytes() -> None:
    assert render(golden_manifest()) == GOLDEN


def test_parse_golden_bytes() -> None:
    assert parse(GOLDEN, name="m") == golden_manifest()


def test_index_reads_the_golden_bytes() -> None:
    golden = golden_manifest()
    index = ManifestIndex(GOLDEN, name="m")
    for path, entry in golden.files.items():
        assert index.entry(path) == entry
        assert index.findings(path) == entry.findings


def documented_example() -> bytes:
    """The example in the package docstring, its wrapped lines joined again."""
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


def test_documented_example_is_a_canonical_manifest() -> None:
    data = documented_example()
    parsed = parse(data, name="doc")
    assert render(parsed) == data
    a = parsed.files["docs/a.md"]
    assert [f.chunk_id for f in a.findings] == ["docs/a.md#install"]
    assert a.chunks[1].suppressed == ("CG501",)


def test_documented_example_shows_every_key() -> None:
    keys = set(re.findall(r'"([a-z_]+)": ', documented_example().decode()))
    assert keys == {
        *("chunkgate_manifest", "chunking", "config", "rules"),
        *("file", "blob", "chunks", "findings", "rule", "line", "chunk", "message", "fix"),
        *("id", "lines", "chars", "tokens", "hash", "moved_from", "suppressed"),
    }
