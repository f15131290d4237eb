"""Where a corpus file's shard lives in the manifest folder."""

from __future__ import annotations

import pytest
from hypothesis import given
from manifest_samples import paths

from chunkgate.manifest import HEADER, shard_name
from chunkgate.manifest.layout import source_name


@pytest.mark.parametrize(
    ("path", "shard"),
    [
        pytest.param("README.md", "README.md.jsonl", id="top-level"),
        pytest.param("docs/guide/setup.md", "docs/guide/setup.md.jsonl", id="nested"),
        pytest.param("docs/my file.md", "docs/my file.md.jsonl", id="space"),
        pytest.param("data.jsonl", "data.jsonl.jsonl", id="a-jsonl-source"),
        pytest.param("manifest.json", "manifest.json.jsonl", id="not-the-header"),
        pytest.param("d/\udcff.md", "d/\udcff.md.jsonl", id="undecodable-byte"),
    ],
)
def test_a_shard_is_named_after_its_file(path: str, shard: str) -> None:
    assert shard_name(path) == shard
    assert source_name(shard) == path


def test_a_name_too_long_for_a_file_system_gets_a_digest() -> None:
    fits = "é" * 124 + "a.md"  # 252 bytes, 258 with the suffix
    longest = "a" * 249  # 255 bytes with the suffix
    assert shard_name(f"docs/{longest}") == f"docs/{longest}.jsonl"
    shortened = shard_name(f"docs/{fits}")
    assert shortened.startswith("docs/~")
    assert len(shortened.encode()) == len("docs/~") + 32 + len(".jsonl")
    assert shard_name(f"docs/{fits}") == shortened  # the same on every run and OS
    assert shard_name(f"other/{fits}") != shortened.replace("docs/", "other/")
    assert source_name(shortened) is None  # its first line names the file


def test_what_is_not_a_shard_names_no_file() -> None:
    assert source_name(HEADER) is None
    assert source_name("docs/README.md") is None
    assert source_name("docs/.a.md.jsonl.0123456789ab.tmp") is None


@given(paths())
def test_every_path_has_one_shard_in_its_own_folder(path: str) -> None:
    shard = shard_name(path)
    folder, _, name = path.rpartition("/")
    assert shard.rpartition("/")[0] == folder
    assert shard != HEADER
    assert len(shard.rpartition("/")[2].encode("utf-8", "surrogateescape")) <= 255
    assert source_name(shard) in (path, None)
    if len(name.encode("utf-8", "surrogateescape")) <= 249:
        assert source_name(shard) == path
