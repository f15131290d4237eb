"""A manifest field is one entry in the table of a shard's lines (``manifest.fields``): the
writer, the strict reader, the fast line reader and the summary pattern follow it."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from chunkgate.manifest import (
    ChunkEntry,
    FileEntry,
    ManifestSyntaxError,
    fields,
    kinds,
    lines,
    parse_block,
    render_block,
    summarise,
    summary,
)


@dataclass(frozen=True, slots=True)
class ToyChunk(ChunkEntry):
    lang: str | None = None  # the record's attribute the toy field holds


@pytest.fixture
def toy_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy field, added in this test alone: one entry in the chunk line's table."""
    table = fields.CHUNK_LINE
    toy = fields.Field("lang", kinds.STRING, optional=True)
    monkeypatch.setattr(fields, "CHUNK_LINE", fields.Line((*table.fields, toy), ToyChunk))


def _no_strict_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object) -> None:
        raise AssertionError("the strict reader was asked")

    monkeypatch.setattr(lines, "json_object", refused)
    monkeypatch.setattr(summary, "parse_block", refused)


ENTRY = FileEntry(
    "docs/a.md",
    "a" * 40,
    (
        ToyChunk("docs/a.md#setup", (1, 9), 400, 100, "0123456789abcdef", lang="en"),
        ToyChunk("docs/a.md#usage", (10, 20), 500, 125, "fedcba9876543210"),
    ),
)


@pytest.mark.usefixtures("toy_field")
def test_a_toy_field_is_written_in_table_order_when_it_holds_something() -> None:
    assert render_block(ENTRY).decode().splitlines()[1:] == [
        '{"id": "docs/a.md#setup", "lines": [1, 9], "chars": 400, "tokens": 100, '
        '"hash": "0123456789abcdef", "lang": "en"}',
        '{"id": "docs/a.md#usage", "lines": [10, 20], "chars": 500, "tokens": 125, '
        '"hash": "fedcba9876543210"}',
    ]


@pytest.mark.usefixtures("toy_field")
def test_a_toy_field_is_read_back_by_the_fast_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    data = render_block(ENTRY)
    _no_strict_reader(monkeypatch)
    assert parse_block(data, "a.md.jsonl") == ENTRY
    found = summarise(data, "a.md.jsonl")
    assert (found.path, found.chunks) == ("docs/a.md", 2)
    assert found.hashes == ("0123456789abcdef", "fedcba9876543210")


@pytest.mark.usefixtures("toy_field")
def test_a_toy_field_is_read_back_and_checked_by_the_strict_reader() -> None:
    # An escaped quote is the JSON reader's: the fast pattern takes no escape.
    chunk = ToyChunk("docs/a.md#setup", (1, 9), 400, 100, "0123456789abcdef", lang='say "hi"')
    entry = FileEntry("docs/a.md", None, (chunk,))
    data = render_block(entry)
    assert b'"lang": "say \\"hi\\""' in data
    assert parse_block(data, "a.md.jsonl") == entry
    assert summarise(data, "a.md.jsonl").hashes == ("0123456789abcdef",)
    bad = render_block(ENTRY).replace(b'"lang": "en"', b'"lang": 7')
    with pytest.raises(ManifestSyntaxError, match='"lang" must be a non-empty string, got 7'):
        parse_block(bad, "a.md.jsonl")


def test_without_the_toy_field_its_key_is_refused() -> None:
    data = b'{"file": "a.md", "blob": null, "chunks": 0, "lang": "en"}\n'
    with pytest.raises(ManifestSyntaxError, match='unexpected key "lang"'):
        parse_block(data, "a.md.jsonl")


def test_the_summary_cache_key_follows_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    before = fields.CHUNK_LINE.signature()
    toy = fields.Field("lang", kinds.STRING, optional=True)
    monkeypatch.setattr(
        fields, "CHUNK_LINE", fields.Line((*fields.CHUNK_LINE.fields, toy), ToyChunk)
    )
    assert fields.CHUNK_LINE.signature() == before + ",lang:string?"


MERGED = FileEntry(
    "docs/a.md",
    "a" * 40,
    (
        ChunkEntry(
            "docs/a.md#install", (1, 9), 400, 100, "0123456789abcdef",
            merged=("docs/a.md#pip", "docs/a.md#conda"),
        ),
        ChunkEntry("docs/a.md#usage", (10, 20), 500, 125, "fedcba9876543210"),
    ),
)  # fmt: skip


def test_merged_is_written_last_in_document_order_and_read_back_fast(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = render_block(MERGED)
    assert (
        data.decode()
        .splitlines()[1]
        .endswith('"hash": "0123456789abcdef", "merged": ["docs/a.md#pip", "docs/a.md#conda"]}')
    )
    assert '"merged"' not in data.decode().splitlines()[2]  # none: not written
    _no_strict_reader(monkeypatch)
    assert parse_block(data, "a.md.jsonl") == MERGED
    assert summarise(data, "a.md.jsonl").chunks == 2


@pytest.mark.parametrize(
    ("merged", "message"),
    [
        ('["docs/b.md#pip"]', 'chunk "docs/b.md#pip" does not belong to "docs/a.md"'),
        ('["docs/a.md#pip", "docs/a.md#pip"]', '"merged" must be a non-empty list of distinct'),
        ("[]", '"merged" must be a non-empty list of distinct'),
        ('"docs/a.md#pip"', '"merged" must be a non-empty list of distinct'),
    ],
)
def test_a_bad_merged_list_is_refused_with_its_line(merged: str, message: str) -> None:
    good = '["docs/a.md#pip", "docs/a.md#conda"]'
    data = render_block(MERGED).replace(good.encode(), merged.encode())
    with pytest.raises(ManifestSyntaxError, match=re.escape(f"a.md.jsonl:2: {message}")):
        parse_block(data, "a.md.jsonl")
    with pytest.raises(ValueError, match="other, distinct IDs"):
        ChunkEntry("docs/a.md#a", (1, 2), 1, 1, "0123456789abcdef", merged=("docs/a.md#a",))
