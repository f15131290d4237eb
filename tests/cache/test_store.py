"""The one cache store: a damaged file is a miss, a decoder's bug is not, writes are whole."""

from __future__ import annotations

import json
import marshal
import os
from pathlib import Path

import pytest

from chunkgate.cache import configs, store
from chunkgate.cache.blobs import JsonCache, MarshalCache, sealed


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "cache"
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(base))
    monkeypatch.delenv("CHUNKGATE_NO_CACHE", raising=False)
    return base


def test_what_is_saved_loads_and_no_temporary_file_is_left(folder: Path) -> None:
    file = store.cache_file("kind", "entry.json")
    assert file == folder / "kind" / "entry.json"
    store.save(file, b'{"a": 1}')
    assert store.load(file, json.loads, None) == {"a": 1}
    assert [p.name for p in file.parent.iterdir()] == ["entry.json"]


@pytest.mark.parametrize(
    ("data", "decode"),
    [
        pytest.param(b"{not json", json.loads, id="json"),
        pytest.param(b"\xff\xfe", json.loads, id="not-utf-8"),
        pytest.param(b"", marshal.loads, id="marshal-empty"),
        pytest.param(b"\xf0garbage", marshal.loads, id="marshal-garbage"),
    ],
)
def test_a_damaged_file_is_a_miss(folder: Path, data: bytes, decode: object) -> None:
    file = folder / "kind" / "entry"
    file.parent.mkdir(parents=True)
    file.write_bytes(data)
    assert store.load(file, decode, "miss") == "miss"  # type: ignore[arg-type]


def test_a_missing_file_or_caches_off_is_a_miss(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert store.load(folder / "none", json.loads, "miss") == "miss"
    monkeypatch.setenv("CHUNKGATE_NO_CACHE", "1")
    assert store.cache_file("kind", "entry") is None
    assert store.load(None, json.loads, "miss") == "miss"


def test_a_bug_in_a_decoder_is_not_swallowed(folder: Path) -> None:
    file = folder / "entry"
    folder.mkdir()
    file.write_bytes(b"{}")

    def buggy(data: bytes) -> object:
        return len(data) + "1"  # type: ignore[operator]

    with pytest.raises(TypeError):
        store.load(file, buggy, None)


class _Numbers(MarshalCache[int]):
    def _record(self, entries: dict[str, int]) -> tuple[object, ...]:
        return (list(entries), list(entries.values()))

    def _entries(self, record: object) -> dict[str, int]:
        if not (isinstance(record, tuple) and len(record) == 2):
            raise ValueError("a damaged cache file")
        blobs, numbers = record
        return dict(zip(blobs, numbers, strict=True))


class _Buggy(_Numbers):
    def _entries(self, record: object) -> dict[str, int]:
        raise KeyError("a bug, not damage")


def test_a_blob_cache_reads_damage_as_no_entries_and_raises_a_decoder_bug(folder: Path) -> None:
    first = _Numbers("numbers", "key")
    first.put("b1", 1)
    first.save()
    [file] = (folder / "numbers").iterdir()
    assert _Numbers("numbers", "key").get("b1") == 1
    with pytest.raises(KeyError):
        _Buggy("numbers", "key").get("b1")
    file.write_bytes(file.read_bytes()[:-2])  # the CRC no longer matches
    assert _Numbers("numbers", "key").get("b1") is None
    file.write_bytes(sealed(7))  # a sealed record of another shape
    assert _Numbers("numbers", "key").get("b1") is None


def test_a_json_cache_of_another_shape_is_no_entries(folder: Path) -> None:
    first = JsonCache("words", "key", str, str)
    first.put("b1", "one")
    first.save()
    [file] = (folder / "words").iterdir()
    file.write_bytes(b"[1, 2]")
    assert JsonCache("words", "key", str, str).get("b1") is None


def test_config_documents_are_kept_by_their_bytes(folder: Path) -> None:
    raw = b"size: {max: 10}\n"
    assert configs.is_missing(configs.lookup(raw))
    configs.remember(raw, {"size": {"max": 10}})
    assert configs.lookup(raw) == {"size": {"max": 10}}
    configs.remember(b"when: 2024-01-01\n", {"when": object()})  # JSON has no word for it
    assert configs.is_missing(configs.lookup(b"when: 2024-01-01\n"))


def test_a_cache_folder_that_leads_outside_is_not_written(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    folder.mkdir()
    os.symlink(outside, folder / "kind")
    store.save(folder / "kind" / "entry", b"data")
    assert list(outside.iterdir()) == []
