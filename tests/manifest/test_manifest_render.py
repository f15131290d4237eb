"""A shard's canonical bytes: escapes, one object per line, optional keys only when set."""

from __future__ import annotations

import json

from manifest_samples import BLOB, chunk, entry, finding

from chunkgate.manifest import FileEntry, parse_block, render_block, summarise


def test_undecodable_path_bytes_are_escaped_and_round_trip() -> None:
    path = "docs/\udcff\udc80.md"
    original = entry(path, "x", findings=(finding(message=f"{path} is data"),))
    data = render_block(original)
    data.decode("utf-8")  # still UTF-8
    assert b'"docs/\\udcff\\udc80.md"' in data
    assert b'"docs/\\udcff\\udc80.md is data"' in data
    assert parse_block(data, "s") == original
    assert summarise(data, "s").path == path


def test_control_characters_and_line_separators_stay_on_one_line() -> None:
    odd = "t\r\x85\u2028\n"
    original = entry("a\nb\u2028c\x01.md", odd, findings=(finding(message=odd, fix=odd),))
    data = render_block(original)
    assert data.count(b"\n") == 2
    assert parse_block(data, "s") == original
    assert summarise(data, "s").path == original.path


def test_non_ascii_is_written_as_itself() -> None:
    data = render_block(entry("docs/日本 é.md", "résumé"))
    assert '"docs/日本 é.md#résumé"'.encode() in data
    assert b"\\u" not in data


def test_optional_keys_appear_only_when_set() -> None:
    data = render_block(entry("a.md", "x"))
    assert b'"findings"' not in data
    assert b'"moved_from"' not in data
    assert b'"suppressed"' not in data
    moved = FileEntry("a.md", BLOB, (chunk("a.md", "x", moved_from="a.md#y"),))
    assert b'"hash": "0123456789abcdef", "moved_from": "a.md#y"}' in render_block(moved)


def test_findings_are_written_in_the_manifests_order() -> None:
    late, early = finding("CG201", 9, "a.md#x"), finding("CG302", 1)
    data = render_block(entry("a.md", "x", findings=(late, early, late)))
    head = json.loads(data.split(b"\n", 1)[0])
    assert [(f["rule"], f["line"]) for f in head["findings"]] == [
        ("CG302", 1),
        ("CG201", 9),
        ("CG201", 9),
    ]


def test_a_file_without_chunks_is_its_file_line() -> None:
    assert render_block(FileEntry("empty.md", None, ())) == (
        b'{"file": "empty.md", "blob": null, "chunks": 0}\n'
    )
