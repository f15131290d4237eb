"""The manifest: canonical bytes, strict parsing, the partial index, atomic writes, the lock."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import stat
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkguard.errors import ManifestError
from chunkguard.manifest import (
    FORMAT_VERSION,
    ChunkEntry,
    FileEntry,
    Header,
    Manifest,
    ManifestIndex,
    ManifestSyntaxError,
    fingerprint,
    manifest_lock,
    parse,
    path_key,
    read,
    render,
    write_atomic,
)
from chunkguard.model import Chunk

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")

HEADER = Header(FORMAT_VERSION, 3, "0123456789abcdef", "fedcba9876543210")
BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
HASH = "0123456789abcdef"


def chunk(
    path: str, identity: str, start: int = 1, end: int = 2, moved_from: str | None = None
) -> ChunkEntry:
    return ChunkEntry(f"{path}#{identity}", (start, end), 10 * end, 3 * end, HASH, moved_from)


def entry(
    path: str, *identities: str, blob: str | None = BLOB, findings: tuple[str, ...] = ()
) -> FileEntry:
    chunks = tuple(chunk(path, name, 2 * i + 1, 2 * i + 2) for i, name in enumerate(identities))
    return FileEntry(path, blob, chunks, findings)


def manifest(*entries: FileEntry, header: Header = HEADER) -> Manifest:
    return Manifest(header, {e.path: e for e in entries})


# -- records and rendering -----------------------------------------------------------------


GOLDEN = (
    '{"chunkguard_manifest": 1, "chunking": 3, "config": "0123456789abcdef", '
    '"rules": "fedcba9876543210"}\n'
    '{"file": "docs/a.md", "blob": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "chunks": 2, '
    '"findings": ["CG201", "CG302"]}\n'
    '{"id": "docs/a.md#~preamble", "lines": [1, 3], "chars": 120, "tokens": 30, '
    '"hash": "0123456789abcdef"}\n'
    '{"id": "docs/a.md#setup", "lines": [5, 9], "chars": 812, "tokens": 203, '
    '"hash": "fedcba9876543210", "moved_from": "docs/a.md#install"}\n'
    '{"file": "docs/é \\"q\\".md", "blob": null, "chunks": 0}\n'
).encode()


def golden_manifest() -> Manifest:
    a = FileEntry(
        "docs/a.md",
        BLOB,
        (
            ChunkEntry("docs/a.md#~preamble", (1, 3), 120, 30, HASH),
            ChunkEntry(
                "docs/a.md#setup", (5, 9), 812, 203, "fedcba9876543210", "docs/a.md#install"
            ),
        ),
        ("CG302", "CG201", "CG302"),
    )
    return manifest(FileEntry('docs/é "q".md', None, ()), a)


def test_render_golden_bytes() -> None:
    assert render(golden_manifest()) == GOLDEN


def test_parse_golden_bytes() -> None:
    assert parse(GOLDEN, name="m") == golden_manifest()


def test_header_build_hashes_the_settings_strings() -> None:
    header = Header.build(chunking=2, config="unit=chars;max=2000", rules="rules=1")
    assert header == Header(
        FORMAT_VERSION, 2, fingerprint("unit=chars;max=2000"), fingerprint("rules=1")
    )
    assert fingerprint("x") == "2d711642b726b044"
    assert header.settings == (2, header.config, header.rules)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Header(1, 1, "not hex", HASH), id="header-config-not-hashed"),
        pytest.param(
            lambda: FileEntry("a.md", None, (chunk("b.md", "x"),)), id="chunk-of-another-file"
        ),
        pytest.param(lambda: Manifest(HEADER, {"a.md": entry("b.md")}), id="manifest-key"),
        pytest.param(lambda: FileEntry("\ud800.md", None, ()), id="lone-high-surrogate"),
    ],
)
def test_records_refuse_what_cannot_be_written(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the message is checked elsewhere
        make()


def test_file_entry_keeps_findings_sorted_and_unique() -> None:
    assert entry("a.md", findings=("CG302", "CG201", "CG302")).findings == ("CG201", "CG302")


def test_file_entry_from_chunks_records_moves() -> None:
    chunk_a = Chunk(
        id="a.md#new", path="a.md", kind="section", language="markdown", symbol=None,
        heading_path=("New",), level=2, start_line=3, end_line=7, chars=50, tokens=13,
        hash=HASH, text="## New\n…", body_line=4,
    )  # fmt: skip
    made = FileEntry.from_chunks(
        "a.md", BLOB, [chunk_a], findings=["CG202"], moved={"a.md#new": "a.md#old"}
    )
    assert made == FileEntry(
        "a.md", BLOB, (ChunkEntry("a.md#new", (3, 7), 50, 13, HASH, "a.md#old"),), ("CG202",)
    )
    assert made.moved_from("a.md#new") == "a.md#old"
    assert made.moved_from("a.md#other") is None


def test_with_moved_from_and_same_chunks() -> None:
    plain = entry("a.md", "one", "two")
    moved = plain.with_moved_from("a.md#two", "a.md#deux")
    assert moved.chunks[1].moved_from == "a.md#deux"
    assert moved.chunks[0] == plain.chunks[0]
    assert plain.with_moved_from("a.md#absent", "a.md#x") is plain
    assert moved.same_chunks(plain)
    assert FileEntry("a.md", None, plain.chunks, ("CG201",)).same_chunks(plain)
    assert not entry("a.md", "one").same_chunks(plain)


def test_placeholder_chunk_keeps_what_the_manifest_knows() -> None:
    placeholder = chunk("a.md", "x", 4, 6).placeholder("a.md")
    assert (placeholder.id, placeholder.path, placeholder.start_line, placeholder.end_line) == (
        "a.md#x",
        "a.md",
        4,
        6,
    )
    assert (placeholder.hash, placeholder.chars, placeholder.text) == (HASH, 60, "")


def test_files_in_byte_order_of_their_utf8_paths() -> None:
    paths = ["b.md", "日本.md", "a/b.md", "Z.md", "a.md", "a-b.md", "é.md", "\udcff.md", "ｱ.md"]
    rendered = render(manifest(*(entry(p, "x") for p in paths)))
    listed = [json.loads(line)["file"] for line in rendered.splitlines() if b'"file"' in line]
    # Not Python's str order: an undecodable byte (0xff) sorts after every UTF-8 lead byte.
    assert listed == [
        "Z.md",
        "a-b.md",
        "a.md",
        "a/b.md",
        "b.md",
        "é.md",
        "日本.md",
        "ｱ.md",
        "\udcff.md",
    ]
    assert listed == sorted(paths, key=lambda p: p.encode("utf-8", "surrogateescape"))
    assert sorted(paths) != listed


def test_undecodable_path_bytes_are_escaped_and_round_trip() -> None:
    original = manifest(entry("docs/\udcff\udc80.md", "x"))
    data = render(original)
    data.decode("utf-8")  # still UTF-8
    assert b'"docs/\\udcff\\udc80.md"' in data
    assert parse(data, name="m") == original
    assert ManifestIndex(data, name="m").paths == ("docs/\udcff\udc80.md",)


def test_control_characters_and_line_separators_stay_on_one_line() -> None:
    original = manifest(entry("a\nb\u2028c\x00.md", "t\r\x85"))
    data = render(original)
    assert data.count(b"\n") == 3
    assert parse(data, name="m") == original


# -- property: render and parse --------------------------------------------------------------

names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=8)  # no lone surrogates
codes = st.lists(st.sampled_from(["CG201", "CG202", "CG302", "CG501"]), max_size=3)
counts = st.integers(min_value=0, max_value=10**9)


@st.composite
def file_entries(draw: st.DrawFn, path: str) -> FileEntry:
    identities = draw(st.lists(names, max_size=4))
    chunks = []
    for identity in identities:
        start = draw(st.integers(min_value=1, max_value=10**6))
        chunks.append(
            ChunkEntry(
                f"{path}#{identity}",
                (start, start + draw(st.integers(min_value=0, max_value=500))),
                draw(counts),
                draw(counts),
                draw(st.text("0123456789abcdef", min_size=16, max_size=16)),
                draw(st.none() | names.map(lambda n: f"{path}#{n}")),
            )
        )
    blob = draw(st.none() | st.text("0123456789abcdef", min_size=40, max_size=40))
    return FileEntry(path, blob, tuple(chunks), tuple(draw(codes)))


@st.composite
def manifests(draw: st.DrawFn) -> Manifest:
    paths = draw(st.lists(names, unique=True, max_size=6))
    header = Header(
        FORMAT_VERSION,
        draw(st.integers(min_value=0, max_value=1000)),
        draw(st.text("0123456789abcdef", min_size=16, max_size=16)),
        draw(st.text("0123456789abcdef", min_size=16, max_size=16)),
    )
    return Manifest(header, {path: draw(file_entries(path)) for path in paths})


@settings(deadline=None)
@given(manifests())
def test_render_parse_round_trip(original: Manifest) -> None:
    data = render(original)
    assert parse(data, name="m") == original
    assert render(parse(data, name="m")) == data
    for line in data.decode("utf-8").split("\n")[:-1]:  # not splitlines: U+0085, U+2028
        assert json.dumps(json.loads(line), ensure_ascii=False) == line


@settings(deadline=None)
@given(manifests())
def test_parse_accepts_crlf_and_a_missing_final_newline(original: Manifest) -> None:
    data = render(original)
    assert parse(data.replace(b"\n", b"\r\n"), name="m") == original
    assert parse(data[:-1], name="m") == original
    assert ManifestIndex(data.replace(b"\n", b"\r\n"), name="m").data == data


# -- corruption ------------------------------------------------------------------------------

H = (
    '{"chunkguard_manifest": 1, "chunking": 3, "config": "0123456789abcdef", '
    '"rules": "fedcba9876543210"}'
)
A = '{"file": "a.md", "blob": null, "chunks": 2}'
A1 = '{"id": "a.md#one", "lines": [1, 2], "chars": 10, "tokens": 3, "hash": "0123456789abcdef"}'
A2 = '{"id": "a.md#two", "lines": [3, 4], "chars": 10, "tokens": 3, "hash": "0123456789abcdef"}'
B = (
    '{"file": "b.md", "blob": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "chunks": 1, '
    '"findings": ["CG201"]}'
)
B1 = '{"id": "b.md#x", "lines": [1, 9], "chars": 10, "tokens": 3, "hash": "0123456789abcdef"}'
VALID = [H, A, A1, A2, B, B1]


def lines_with(changes: dict[int, str | None], *, insert: dict[int, str] | None = None) -> bytes:
    """VALID with 1-based lines replaced (None deletes) and lines inserted before others."""
    out = []
    for number, text in enumerate(VALID, start=1):
        if insert and number in insert:
            out.append(insert[number])
        replaced = changes.get(number, text)
        if replaced is not None:
            out.append(replaced)
    return ("\n".join(out) + "\n").encode()


def swap(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


CORRUPT = [
    pytest.param(b"", "m: empty manifest (run `chunkguard update` to rebuild it)", id="empty"),
    pytest.param(
        lines_with({}, insert={3: "<<<<<<< HEAD"}),
        "m:3: merge conflict markers at line 3 (run `chunkguard update` to rebuild it, "
        "or resolve the conflict)",
        id="conflict-ours-marker",
    ),
    pytest.param(
        lines_with({5: "=======", 6: ">>>>>>> feature"}),
        "m:5: merge conflict markers at line 5",
        id="conflict-separator",
    ),
    pytest.param(
        lines_with({}, insert={2: "||||||| base"}),
        "m:2: merge conflict markers at line 2",
        id="conflict-diff3-base",
    ),
    pytest.param(
        ("<<<<<<< ours\n" + "\n".join(VALID)).encode(),
        "m:1: merge conflict markers at line 1",
        id="conflict-first-line",
    ),
    pytest.param(
        lines_with({}).replace(b"\n", b"\r\n").replace(b"\r\n" + A2.encode(), b"\r\n=======\r\n"),
        "m:4: merge conflict markers at line 4",
        id="conflict-crlf",
    ),
    pytest.param(lines_with({4: A2[:30]}), "m:4: invalid JSON: ", id="truncated-chunk"),
    pytest.param(lines_with({2: "[1, 2]"}), "m:2: expected a JSON object", id="not-an-object"),
    pytest.param(lines_with({}, insert={5: ""}), "m:5: empty line", id="empty-line"),
    pytest.param(
        lines_with({}).replace(b"a.md#one", b"a.md#\xffone"),
        "m:3: not valid UTF-8",
        id="invalid-utf8",
    ),
    pytest.param(lines_with({1: None}), "m:1: expected the header line", id="missing-header"),
    pytest.param(
        lines_with({1: swap(H, '"chunkguard_manifest": 1', '"chunkguard_manifest": 2')}),
        "m:1: manifest format 2 is newer than this chunkguard supports (1); upgrade chunkguard",
        id="future-format",
    ),
    pytest.param(
        lines_with({1: swap(H, '"chunkguard_manifest": 1', '"chunkguard_manifest": 0')}),
        "m:1: unknown manifest format 0",
        id="format-zero",
    ),
    pytest.param(
        lines_with({1: swap(H, '"chunkguard_manifest": 1', '"chunkguard_manifest": "1"')}),
        'm:1: unknown manifest format "1"',
        id="format-string",
    ),
    pytest.param(
        lines_with({1: swap(H, '"0123456789abcdef"', '"0123456789ABCDEF"')}),
        'm:1: "config" must be 16 hex digits, got "0123456789ABCDEF"',
        id="header-config-uppercase",
    ),
    pytest.param(
        lines_with({1: swap(H, ', "rules": "fedcba9876543210"', "")}),
        'm:1: missing key "rules"',
        id="header-missing-key",
    ),
    pytest.param(
        lines_with({1: swap(H, "}", ', "when": "2024-01-01"}')}),
        'm:1: unexpected key "when"',
        id="header-timestamp",
    ),
    pytest.param(
        lines_with({1: swap(H, '"chunking": 3', '"chunking": -1')}),
        'm:1: "chunking" must be an integer ≥ 0, got -1',
        id="header-chunking-negative",
    ),
    pytest.param(
        lines_with({2: A1}),
        "m:2: chunk line where a file line is expected",
        id="chunk-line-first",
    ),
    pytest.param(
        lines_with({5: H}), "m:5: header line where a file line is expected", id="header-again"
    ),
    pytest.param(
        lines_with({2: swap(A, '"blob": null', '"blob": "abc"')}),
        'm:2: "blob" must be a git object id or null, got "abc"',
        id="blob-short",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": true')}),
        'm:2: "chunks" must be an integer ≥ 0, got true',
        id="count-bool",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": 2.0')}),
        'm:2: "chunks" must be an integer ≥ 0, got 2.0',
        id="count-float",
    ),
    pytest.param(
        lines_with({5: swap(B, '["CG201"]', '["CG302", "CG201"]')}),
        'm:5: "findings" must be a non-empty sorted list of rule codes, got ["CG302", "CG201"]',
        id="findings-unsorted",
    ),
    pytest.param(
        lines_with({5: swap(B, '["CG201"]', "[]")}),
        'm:5: "findings" must be a non-empty sorted list of rule codes, got []',
        id="findings-empty",
    ),
    pytest.param(
        lines_with({5: swap(B, '["CG201"]', '["CG201", "CG201"]')}),
        'm:5: "findings" must be a non-empty sorted list',
        id="findings-repeated",
    ),
    pytest.param(
        lines_with({5: swap(B, '["CG201"]', "[201]")}),
        'm:5: "findings" must be a non-empty sorted list',
        id="findings-not-strings",
    ),
    pytest.param(
        lines_with({2: '{"file": "a.md", "chunks": 2}'}),
        'm:2: missing key "blob"',
        id="file-missing-blob",
    ),
    pytest.param(
        lines_with({2: '{"file": "a.md", "chunks": 2, "blob": null}'}),
        'm:2: keys out of order (expected "file", "blob", "chunks", "findings")',
        id="file-keys-out-of-order",
    ),
    pytest.param(
        lines_with({2: '{"file": "a.md", "blob": null, "blob": null, "chunks": 2}'}),
        "m:2: invalid JSON: duplicate key",
        id="duplicate-key",
    ),
    pytest.param(
        lines_with({2: '{"file":"a.md","blob":null,"chunks":2}'}),
        "m:2: not in canonical form (spacing differs); run `chunkguard update` to rebuild it",
        id="file-spacing",
    ),
    pytest.param(
        lines_with({3: " " + A1}),
        "m:3: not in canonical form (spacing differs)",
        id="chunk-spacing",
    ),
    pytest.param(
        lines_with({3: swap(A1, "[1, 2]", "[3, 2]")}),
        'm:3: "lines" must be [start, end] with 1 ≤ start ≤ end, got [3, 2]',
        id="lines-reversed",
    ),
    pytest.param(
        lines_with({3: swap(A1, "[1, 2]", "[0, 2]")}),
        'm:3: "lines" must be [start, end]',
        id="lines-zero",
    ),
    pytest.param(
        lines_with({3: swap(A1, "[1, 2]", "[1]")}),
        'm:3: "lines" must be [start, end]',
        id="lines-one",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"chars": 10', '"chars": -10')}),
        'm:4: "chars" must be an integer ≥ 0, got -10',
        id="chars-negative",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"tokens": 3', '"tokens": 03')}),
        "m:4: invalid JSON",
        id="tokens-leading-zero",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"0123456789abcdef"', '"0123456789abcde"')}),
        'm:4: "hash" must be 16 hex digits, got "0123456789abcde"',
        id="hash-short",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"a.md#two"', '"b.md#two"')}),
        'm:4: chunk "b.md#two" does not belong to "a.md"',
        id="chunk-of-other-file",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"a.md#two"', '"a.md#"')}),
        'm:4: chunk "a.md#" does not belong to "a.md"',
        id="chunk-without-identity",
    ),
    pytest.param(
        lines_with({4: swap(A2, "}", ', "moved_from": ""}')}),
        'm:4: "moved_from" must be a non-empty string, got ""',
        id="moved-from-empty",
    ),
    pytest.param(
        lines_with({4: swap(A2, ', "tokens": 3', "")}),
        'm:4: missing key "tokens"',
        id="chunk-missing-key",
    ),
    pytest.param(
        lines_with({4: swap(A2, "}", ', "text": "…"}')}),
        'm:4: unexpected key "text"',
        id="chunk-unexpected-key",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": 3')}),
        'm:5: file line where a chunk line is expected ("a.md" on line 2 declares 3 chunks, '
        "found 2)",
        id="count-too-high",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": 1')}),
        'm:4: chunk line where a file line is expected ("a.md" declares 1 chunks)',
        id="count-too-low",
    ),
    pytest.param(
        lines_with({5: swap(B, '"chunks": 1', '"chunks": 3')}),
        'm:5: "b.md" declares 3 chunks but the manifest ends after 1',
        id="count-past-end",
    ),
    pytest.param(
        lines_with({6: None}),
        'm:5: "b.md" declares 1 chunks but the manifest ends after 0',
        id="last-chunk-missing",
    ),
    pytest.param(
        ("\n".join([H, B, B1, A, A1, A2]) + "\n").encode(),
        'm:4: files out of order: "a.md" must come before "b.md" (line 2)',
        id="out-of-order",
    ),
    pytest.param(
        ("\n".join([H, A, A1, A2, A, A1, A2]) + "\n").encode(),
        'm:5: "a.md" is listed twice (also on line 2)',
        id="duplicate-file",
    ),
    pytest.param(lines_with({}) + b"\n", "m:7: empty line", id="blank-line-at-end"),
]


def _full_read(data: bytes) -> None:
    index = ManifestIndex(data, name="m")
    for path in index.paths:
        index.entry(path)
    list(index.chunk_rows())


@pytest.mark.parametrize(("data", "message"), CORRUPT)
def test_corrupt_manifest_names_the_line(data: bytes, message: str) -> None:
    with pytest.raises(ManifestError) as parsed:
        parse(data, name="m")
    assert str(parsed.value).startswith(message)
    if isinstance(parsed.value, ManifestSyntaxError):
        assert str(parsed.value).startswith(f"m:{parsed.value.line}: ")


@pytest.mark.parametrize(("data", "message"), CORRUPT)
def test_index_reports_what_parse_reports(data: bytes, message: str) -> None:
    with pytest.raises(ManifestError) as indexed:
        _full_read(data)
    assert str(indexed.value).startswith(message)


def test_valid_table_base_is_valid() -> None:
    assert list(parse(lines_with({}), name="m").files) == ["a.md", "b.md"]
    _full_read(lines_with({}))


def test_escaped_strings_are_read_the_slow_way() -> None:
    data = lines_with({3: swap(A1, '"a.md#one"', '"a.md#\\u006fne"')})
    assert parse(data, name="m") == parse(lines_with({}), name="m")
    index = ManifestIndex(data, name="m")
    assert index.ids("a.md") == {"a.md#one", "a.md#two"}
    assert ("0123456789abcdef", "a.md#one") in set(index.hashes())


def test_read(tmp_path: Path) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    assert read(path) is None
    assert ManifestIndex.load(path) is None
    path.write_bytes(GOLDEN)
    assert read(path) == golden_manifest()
    path.write_bytes(GOLDEN[:-20])
    with pytest.raises(ManifestError, match=rf"^{re.escape(str(path))}:5: "):
        read(path)


# -- the index ---------------------------------------------------------------------------------


def test_index_accessors() -> None:
    golden = golden_manifest()
    index = ManifestIndex.from_bytes(GOLDEN, name="m")
    assert index.header == HEADER
    assert index.paths == ("docs/a.md", 'docs/é "q".md')
    assert len(index) == 2
    assert "docs/a.md" in index
    assert "docs/b.md" not in index
    assert index.blob("docs/a.md") == BLOB
    assert index.blob('docs/é "q".md') is None
    assert index.blob("docs/b.md") is None
    assert index.findings("docs/a.md") == ("CG201", "CG302")
    assert index.findings('docs/é "q".md') == ()
    assert index.chunk_count("docs/a.md") == 2
    assert index.chunk_count("docs/b.md") == 0
    assert index.entry("docs/a.md") == golden.files["docs/a.md"]
    assert index.entry('docs/é "q".md') == golden.files['docs/é "q".md']
    assert index.entry("docs/b.md") is None
    assert index.ids("docs/a.md") == {"docs/a.md#~preamble", "docs/a.md#setup"}
    assert list(index.hashes()) == [
        (HASH, "docs/a.md#~preamble"),
        ("fedcba9876543210", "docs/a.md#setup"),
    ]
    assert list(index.chunk_rows()) == [
        (HASH, "docs/a.md#~preamble", "docs/a.md", 1),
        ("fedcba9876543210", "docs/a.md#setup", "docs/a.md", 5),
    ]
    assert index.data == GOLDEN


def test_index_of_a_manifest_without_files() -> None:
    data = render(manifest())
    index = ManifestIndex(data, name="m")
    assert index.paths == ()
    assert list(index.hashes()) == []
    assert index.replace({}, HEADER) == data
    added = entry("a.md", "x")
    assert index.replace({"a.md": added}, HEADER) == render(manifest(added))


@st.composite
def replacements(draw: st.DrawFn) -> tuple[Manifest, dict[str, FileEntry | None], Header]:
    original = draw(manifests())
    changes: dict[str, FileEntry | None] = {}
    for path in original.files:
        action = draw(st.sampled_from(["keep", "keep", "replace", "remove"]))
        if action == "replace":
            changes[path] = draw(file_entries(path))
        elif action == "remove":
            changes[path] = None
    for path in draw(st.lists(names, max_size=3)):
        changes[path] = draw(st.none() | file_entries(path))
    header = draw(st.sampled_from([original.header, HEADER]))
    return original, changes, header


@settings(deadline=None, max_examples=200)
@given(replacements())
def test_replace_equals_full_render(
    case: tuple[Manifest, dict[str, FileEntry | None], Header],
) -> None:
    original, changes, header = case
    files = dict(original.files)
    for path, new in changes.items():
        if new is None:
            files.pop(path, None)
        else:
            files[path] = new
    index = ManifestIndex(render(original), name="m")
    assert index.replace(changes, header) == render(Manifest(header, files))


def test_replace_refuses_an_entry_under_another_path() -> None:
    index = ManifestIndex(GOLDEN, name="m")
    with pytest.raises(ValueError, match="holds the entry of"):
        index.replace({"docs/a.md": entry("docs/b.md")}, HEADER)


def synthetic_path(number: int) -> str:
    return f"docs/section-{number % 97:02d}/page-{number:05d}.md"


def synthetic(files: int, chunks_each: int) -> Manifest:
    entries = []
    for number in range(files):
        path = synthetic_path(number)
        identities = [f"heading-number-{c}" for c in range(chunks_each)]
        findings = ("CG201",) if number % 11 == 0 else ()
        entries.append(entry(path, *identities, findings=findings))
    return manifest(*entries)


def test_partial_update_of_a_large_manifest(tmp_path: Path) -> None:
    big = synthetic(7000, 9)
    data = render(big)
    path = tmp_path / "chunkguard.manifest.jsonl"
    path.write_bytes(data)
    target = synthetic_path(3250)
    changed = entry(target, "heading-number-0", "new-heading", blob="1" * 40)
    added = entry(target.replace(".md", "b.md"), "x")
    removed = synthetic_path(97)

    started = time.perf_counter()
    index = ManifestIndex.load(path)
    assert index is not None
    loaded = time.perf_counter()
    old = index.entry(target)
    new = index.replace({target: changed, added.path: added, removed: None}, HEADER)
    replaced = time.perf_counter()
    seen = dict(index.hashes())
    hashed = time.perf_counter()
    print(
        f"\n7,000 files / {len(data.splitlines()):,} lines / {len(data) / 1e6:.1f} MB: "
        f"load {1000 * (loaded - started):.1f} ms, entry+replace "
        f"{1000 * (replaced - loaded):.1f} ms, hashes {1000 * (hashed - replaced):.1f} ms; "
        f"full parse for comparison: ",
        end="",
    )
    started = time.perf_counter()
    parse(data, name="m")
    print(f"{1000 * (time.perf_counter() - started):.1f} ms")

    assert old == big.files[target]
    assert len(seen) == 1  # every synthetic chunk has the same hash
    files = dict(big.files)
    files[target] = changed
    files[added.path] = added
    del files[removed]
    assert new == render(Manifest(HEADER, files))


# -- writing -----------------------------------------------------------------------------------


def only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_write_atomic_writes_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    write_atomic(path, b"one\n")
    assert path.read_bytes() == b"one\n"
    write_atomic(path, GOLDEN)
    assert path.read_bytes() == GOLDEN
    assert only(tmp_path) == ["chunkguard.manifest.jsonl"]


@posix_only
def test_write_atomic_keeps_permission_bits(tmp_path: Path) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    path.write_bytes(b"old\n")
    path.chmod(0o640)
    write_atomic(path, b"new\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@posix_only
def test_write_atomic_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "m.jsonl", b"x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "m.jsonl").stat().st_mode) == 0o640


def _raise(error: BaseException) -> Callable[..., None]:
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    return fail


@pytest.mark.parametrize(
    ("target", "error"),
    [
        pytest.param("replace", OSError(28, "No space left on device"), id="replace-oserror"),
        pytest.param("replace", KeyboardInterrupt(), id="replace-ctrl-c"),
        pytest.param("fsync", KeyboardInterrupt(), id="fsync-ctrl-c"),
        pytest.param("chmod", PermissionError(1, "Operation not permitted"), id="chmod-fails"),
    ],
)
def test_write_atomic_failure_leaves_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, error: BaseException
) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    path.write_bytes(GOLDEN)
    monkeypatch.setattr(os, target, _raise(error))
    with pytest.raises(type(error)):
        write_atomic(path, b"half" * 1000)
    monkeypatch.undo()
    assert path.read_bytes() == GOLDEN
    assert only(tmp_path) == ["chunkguard.manifest.jsonl"]


def test_write_atomic_interrupted_while_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    path.write_bytes(GOLDEN)

    real_write = os.write
    calls = []

    def write_a_little_then_interrupt(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real_write(fd, bytes(data)[:10])

    monkeypatch.setattr(os, "write", write_a_little_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"new" * 100)
    monkeypatch.undo()
    assert calls == [300, 290]
    assert path.read_bytes() == GOLDEN
    assert only(tmp_path) == ["chunkguard.manifest.jsonl"]


# -- the lock ----------------------------------------------------------------------------------


def add_entries(path: Path, prefix: str, rounds: int) -> None:
    """Read-modify-write the manifest ``rounds`` times, adding one file each time."""
    for number in range(rounds):
        with manifest_lock(path):
            index = ManifestIndex.load(path)
            new = entry(f"{prefix}/{number:02d}.md", "x")
            if index is None:
                data = render(manifest(new))
            else:
                data = index.replace({new.path: new}, HEADER)
            time.sleep(0.001)  # widen the window a lost update would need
            write_atomic(path, data)


def test_lock_serialises_threads(tmp_path: Path) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    workers = [
        threading.Thread(target=add_entries, args=(path, name, 20)) for name in ("one", "two")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    result = read(path)
    assert result is not None
    assert len(result.files) == 40
    assert only(tmp_path) == ["chunkguard.manifest.jsonl"]


def test_lock_serialises_processes(tmp_path: Path) -> None:
    path = tmp_path / "chunkguard.manifest.jsonl"
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=add_entries, args=(path, name, 20)) for name in ("one", "two")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    result = read(path)
    assert result is not None
    assert sorted(result.files) == sorted(
        f"{name}/{number:02d}.md" for name in ("one", "two") for number in range(20)
    )
    assert only(tmp_path) == ["chunkguard.manifest.jsonl"]


def test_lock_is_released_on_error(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    inside = []

    def fail_while_locked() -> None:
        with manifest_lock(path):
            inside.extend(only(tmp_path))
            raise RuntimeError

    with pytest.raises(RuntimeError):
        fail_while_locked()
    assert inside == ["m.jsonl.lock"]
    assert only(tmp_path) == []


def test_stale_lock_is_broken(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lock = tmp_path / "m.jsonl.lock"
    lock.write_bytes(b"99999 leftover\n")
    eleven_minutes_ago = time.time() - 660
    os.utime(lock, (eleven_minutes_ago, eleven_minutes_ago))
    started = time.monotonic()
    with manifest_lock(path, timeout=5):
        assert lock.read_bytes() != b"99999 leftover\n"
    assert time.monotonic() - started < 2
    assert only(tmp_path) == []


def test_busy_lock_times_out_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lock = tmp_path / "m.jsonl.lock"
    lock.write_bytes(b"4242 someone\n")
    started = time.monotonic()
    with pytest.raises(ManifestError) as caught, manifest_lock(path, timeout=0.3):
        pytest.fail("the lock was taken")
    assert 0.3 <= time.monotonic() - started < 3
    message = str(caught.value)
    assert message.startswith(f"{lock}: another chunkguard (process 4242) ")
    assert f"if no chunkguard is running, delete {lock}" in message
    assert lock.read_bytes() == b"4242 someone\n"


def test_waiter_gets_the_lock_when_it_is_released(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    taken = threading.Event()

    def hold() -> None:
        with manifest_lock(path):
            taken.set()
            time.sleep(0.3)

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    started = time.monotonic()
    with manifest_lock(path, timeout=10):
        waited = time.monotonic() - started
    holder.join()
    assert 0.1 < waited < 5


def test_release_leaves_a_lock_that_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lock = tmp_path / "m.jsonl.lock"
    with manifest_lock(path):
        # As if ours had been broken as stale and someone else took the lock since.
        lock.write_bytes(b"1 somebody-else\n")
    assert lock.read_bytes() == b"1 somebody-else\n"


def test_lock_in_a_missing_folder_is_a_manifest_error(tmp_path: Path) -> None:
    with (
        pytest.raises(ManifestError, match="cannot create the lock"),
        manifest_lock(tmp_path / "missing" / "m.jsonl"),
    ):
        pass


def test_path_key_is_git_byte_order() -> None:
    assert path_key("a\udcff") == b"a\xff"
