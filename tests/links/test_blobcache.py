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


def test_broken_links_go_through_their_json_and_damage_is_refused() -> None:
    from chunkgate.links.cache import _broken, _stored_broken
    from chunkgate.links.extract import Link
    from chunkgate.rules.references import BrokenLink, Target

    found = (
        BrokenLink("a.md", 3, Link("b.md#x", 3, "[b](b.md#x)"), Target("b.md", "x"), None, "y"),
        BrokenLink("c.md", 1, Link("#z", 1, "[z](#z)"), Target("c.md", "z"), "c.md#w", None),
    )
    assert _broken(json.loads(json.dumps(_stored_broken(found)))) == found
    for damaged in ([["a.md", "3", ["b", 3, "w"], ["b", "x"], None, None]], {"a": 1}, [[1]]):
        with pytest.raises((ValueError, TypeError)):
            _broken(damaged)


def _links() -> dict[str, object]:
    from chunkgate.links.cache import FileLinks
    from chunkgate.links.extract import Link

    return {
        "b1": FileLinks((Link("b.md#x", 3, "[b](b.md#x)"), Link("#z", 9, "[z](#z)")), None, True),
        "b2": FileLinks((), ("usage", "install"), False),
        "b3": FileLinks((Link("c.md", 1, "[c](c.md)"),), (), False),
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
        pytest.param(lambda good: sealed((["b1", "b2"], [()], [None], [True])), id="uneven"),
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
    written.write_bytes(sealed((["b1"], [((1, 2),)], [None], [True])))
    with pytest.raises(TypeError):
        LinkCache(tmp_path, "settings").get("b1")


class _Near(JsonCache[list[int]]):
    """Entries cheap to make again: a file of 10 may lack one and hold two unused."""

    lacking_share = 1 / 10
    unused_share = 2 / 10


def near() -> _Near:
    return _Near("numbers", "test-near-1\0repo", _decode, _encode)


def _filled(blobs: range) -> None:
    first = near()
    for number in blobs:
        first.put(f"b{number}", [number])
    first.save()


def test_a_few_new_entries_leave_a_file_that_is_near_as_it_is(folder: Path) -> None:
    _filled(range(10))
    before = the_file(folder).read_bytes()
    edited = near()
    for number in range(1, 10):  # b0 changed into b10: one lacking, one unused
        assert edited.get(f"b{number}") == [number]
    edited.put("b10", [10])
    edited.save()
    assert the_file(folder).read_bytes() == before
    again = near()  # the next run makes b10 again, and still finds the others
    assert (again.get("b10"), again.get("b0"), again.get("b9")) == (None, [0], [9])


@pytest.mark.parametrize(
    ("used", "made"),
    [
        pytest.param(range(10), range(10, 12), id="two-lacking"),
        pytest.param(range(3, 10), (), id="three-unused"),
        pytest.param(range(3, 10), (10,), id="one-lacking-three-unused"),
    ],
)
def test_more_than_the_shares_rewrite_it_with_what_the_run_used(
    folder: Path, used: range, made: tuple[int, ...]
) -> None:
    _filled(range(10))
    run = near()
    for number in used:
        assert run.get(f"b{number}") == [number]
    for number in made:
        run.put(f"b{number}", [number])
    run.save()
    expected = {f"b{number}": [number] for number in (*used, *made)}
    assert json.loads(the_file(folder).read_bytes()) == expected


def test_a_missing_file_is_written_whatever_the_shares(folder: Path) -> None:
    _filled(range(1))
    assert json.loads(the_file(folder).read_bytes()) == {"b0": [0]}


def test_the_links_cache_leaves_its_file_for_a_page_changed_in_2000(tmp_path: Path) -> None:
    from chunkgate.links.cache import FileLinks, LinkCache

    links = FileLinks((), ("install",), includes=False)
    first = LinkCache(tmp_path, "settings")
    for number in range(2000):
        first.put(f"b{number}", links)
    first.save()
    [written] = tmp_path.glob("links/*.bin")
    before = written.read_bytes()
    for changed in (1, 2):  # one page changed keeps the file; two rewrite it
        run = LinkCache(tmp_path, "settings")
        for number in range(changed, 2000):
            assert run.get(f"b{number}") == links
        for number in range(changed):
            run.put(f"new{number}", links)
        run.save()
        assert (written.read_bytes() == before) is (changed == 1)
    assert LinkCache(tmp_path, "settings").get("new1") == links
