"""The blob-keyed caches: JSON (the broken links), marshal columns (the CG404 links)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from chunkgate.cache.blobs import JsonCache, sealed


def _decode(item: object) -> list[int]:
    if not isinstance(item, list) or not all(type(n) is int for n in item):
        raise ValueError("a damaged cache entry")
    return item


def _encode(value: list[int]) -> object:
    return value


def cache(key: str = "test-cache-1\0repo") -> JsonCache[list[int]]:
    return JsonCache("numbers", key, _decode, _encode)


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CHUNKGATE_NO_CACHE", raising=False)
    return tmp_path / "numbers"


def the_file(folder: Path) -> Path:
    [found] = folder.glob("*.json")
    return found


def test_what_a_run_used_is_there_for_the_next(folder: Path) -> None:
    first = cache()
    assert first.get("b1") is None
    first.put("b1", [1, 2])
    first.put("b0", [])
    first.save()
    assert json.loads(the_file(folder).read_bytes()) == {"b0": [], "b1": [1, 2]}
    again = cache()
    assert (again.get("b1"), again.get("b0"), again.get("b2")) == ([1, 2], [], None)


def test_the_file_is_written_only_when_the_entries_used_changed(folder: Path) -> None:
    folder.mkdir()
    first = cache()
    first.put("b1", [1])
    first.save()
    written = the_file(folder)
    written.write_bytes(b'{"b1":   [1]}')  # spacing the encoder never writes
    unchanged = cache()
    assert unchanged.get("b1") == [1]
    unchanged.save()
    assert written.read_bytes() == b'{"b1":   [1]}'
    fewer = cache()
    fewer.put("b2", [2])  # b1 not used: the file keeps only b2
    fewer.save()
    assert json.loads(written.read_bytes()) == {"b2": [2]}
    assert [p.name for p in folder.iterdir()] == [written.name]  # no temporary file left


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\x00{", id="garbage"),
        pytest.param(b"[1]", id="a-list"),
        pytest.param(b'{"b1": "x"}', id="an-entry-the-decoder-refuses"),
    ],
)
def test_a_damaged_file_reads_as_no_entries_and_is_replaced(folder: Path, damage: bytes) -> None:
    first = cache()
    first.put("b1", [1])
    first.save()
    the_file(folder).write_bytes(damage)
    damaged = cache()
    assert damaged.get("b1") is None
    damaged.put("b1", [1])
    damaged.save()
    assert cache().get("b1") == [1]


def test_another_key_is_another_file(folder: Path) -> None:
    old = cache("test-cache-1\0repo")
    old.put("b1", [1])
    old.save()
    newer = cache("test-cache-2\0repo")  # a version bump: old entries are not misread
    assert newer.get("b1") is None
    newer.put("b1", [2])
    newer.save()
    assert len(list(folder.glob("*.json"))) == 2
    assert cache("test-cache-1\0repo").get("b1") == [1]


def test_no_cache_folder_means_nothing_is_read_or_written(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHUNKGATE_NO_CACHE", "1")
    nowhere = cache()
    nowhere.put("b1", [1])
    nowhere.save()
    assert nowhere.get("b1") is None
    assert not folder.exists()


def _links() -> dict[str, object]:
    from chunkgate.links.cache import FileLinks
    from chunkgate.links.extract import Link

    return {
        "b1": FileLinks((Link("b.md#x", 3, "[b](b.md#x)"), Link("#z", 9, "[z](#z)")), None, True),
        "b2": FileLinks((), ("usage", "install"), False),
        "b3": FileLinks((Link("c.md", 1, "[c](c.md)"),), (), False, "an autodoc block (line 3)"),
    }


def test_links_go_through_their_columns(tmp_path: Path) -> None:
    from chunkgate.links.cache import LinkCache

    first = LinkCache(tmp_path, "settings")
    for blob, found in _links().items():
        first.put(blob, found)  # type: ignore[arg-type]
    first.save()
    [written] = (tmp_path / "links").glob("*.bin")
    again = LinkCache(tmp_path, "settings")
    assert {blob: again.get(blob) for blob in _links()} == _links()
    assert LinkCache(tmp_path, "other settings").get("b1") is None  # another file
    assert [p.name for p in written.parent.iterdir()] == [written.name]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda good: good[:-3], id="truncated"),
        pytest.param(lambda good: good[:9] + bytes([good[9] ^ 4]) + good[10:], id="a-bit-flipped"),
        pytest.param(lambda good: sealed(([], [])), id="too-few-columns"),
        pytest.param(
            lambda good: sealed((["b1", "b2"], [()], [None], [True], [None], [()])), id="uneven"
        ),
    ],
)
def test_a_damaged_links_file_reads_as_no_entries(
    tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    from chunkgate.links.cache import LinkCache

    first = LinkCache(tmp_path, "settings")
    for blob, found in _links().items():
        first.put(blob, found)  # type: ignore[arg-type]
    first.save()
    [written] = (tmp_path / "links").glob("*.bin")
    written.write_bytes(damage(written.read_bytes()))
    assert LinkCache(tmp_path, "settings").get("b1") is None


def test_a_sealed_record_chunkgate_could_not_have_written_is_a_bug_not_damage(
    tmp_path: Path,
) -> None:
    """Its CRC holds, so its bytes are what a chunkgate of this key wrote: a link of two
    fields means encoder and decoder disagree, which must not pass as a miss."""
    from chunkgate.links.cache import LinkCache

    folder = tmp_path / "links"
    folder.mkdir()
    first = LinkCache(tmp_path, "settings")
    first.put("b1", _links()["b1"])  # type: ignore[arg-type]
    first.save()
    [written] = folder.glob("*.bin")
    written.write_bytes(sealed((["b1"], [((1, 2),)], [None], [True], [None], [()])))
    with pytest.raises(TypeError):
        LinkCache(tmp_path, "settings").get("b1")
