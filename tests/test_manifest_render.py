"""The canonical bytes: path order, escapes, one object per line."""

from __future__ import annotations

import json

from manifest_samples import entry, finding, manifest

from chunkgate.manifest import ManifestIndex, parse, render, render_blocks


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
    path = "docs/\udcff\udc80.md"
    original = manifest(entry(path, "x", findings=(finding(message=f"{path} is data"),)))
    data = render(original)
    data.decode("utf-8")  # still UTF-8
    assert b'"docs/\\udcff\\udc80.md"' in data
    assert b'"docs/\\udcff\\udc80.md is data"' in data
    assert parse(data, name="m") == original
    index = ManifestIndex(data, name="m")
    assert index.paths == (path,)
    assert index.findings(path) == original.files[path].findings


def test_control_characters_and_line_separators_stay_on_one_line() -> None:
    odd = "t\r\x85\u2028\n"
    original = manifest(entry("a\nb\u2028c\x00.md", odd, findings=(finding(message=odd, fix=odd),)))
    data = render(original)
    assert data.count(b"\n") == 3
    assert parse(data, name="m") == original


def test_optional_keys_appear_only_when_set() -> None:
    data = render(manifest(entry("a.md", "x")))
    assert b'"findings"' not in data
    assert b'"moved_from"' not in data
    assert b'"suppressed"' not in data


def test_render_blocks_are_the_header_then_one_block_per_file() -> None:
    rendered = manifest(entry("b.md"), entry("a.md"))
    blocks = list(render_blocks(rendered))
    assert b"".join(blocks) == render(rendered)
    assert len(blocks) == 3
    assert blocks[0].startswith(b'{"chunkgate_manifest": ')
    assert blocks[1].startswith(b'{"file": "a.md"')
    assert blocks[2].startswith(b'{"file": "b.md"')
