"""A writer killed between writing a shard's temporary file and renaming it leaves the
file behind; the next write under the lock removes it, so that `git add -A` of the
manifest folder never commits one (issue 18, found by tests/test_faults.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import MANIFEST, commit_all, committed, invoke, write

PAGE = "# {title}\n\nText that is long enough to pass the minimum chunk size without trouble.\n"
LEFTOVER = ".page.md.jsonl.0123456789ab.tmp"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "top.md", PAGE.format(title="Top"))
    write(cli_repo, "docs/page.md", PAGE.format(title="Page"))
    write(cli_repo, "guide/other.md", PAGE.format(title="Other"))
    commit_all(cli_repo)
    committed(cli_repo, "manifest")
    return cli_repo


def run(*args: str) -> int:
    return invoke(*args).exit_code


def test_a_whole_corpus_update_removes_every_leftover(repo: Path) -> None:
    folder = repo / MANIFEST
    planted = [folder / LEFTOVER, folder / "docs" / LEFTOVER, folder / "guide" / LEFTOVER]
    for path in planted:
        path.write_bytes(b'{"kind": "file", "path": "torn')
    kept = folder / "docs" / ".notes.tmp"  # not a name write_atomic makes
    kept.write_bytes(b"mine\n")
    write(repo, "top.md", PAGE.format(title="Top, edited"))
    assert run("update") == 0
    assert [path for path in planted if path.exists()] == []
    assert kept.read_bytes() == b"mine\n"


def test_the_hook_removes_leftovers_beside_the_shards_it_writes(repo: Path) -> None:
    folder = repo / MANIFEST
    beside, elsewhere = folder / "docs" / LEFTOVER, folder / "guide" / LEFTOVER
    for path in (beside, elsewhere):
        path.write_bytes(b"torn")
    write(repo, "docs/page.md", PAGE.format(title="Page, edited"))
    os.utime(repo / "docs/page.md")
    assert run("check", "--update", "--hook", "docs/page.md") in (0, 1)
    assert not beside.exists()
    assert elsewhere.exists()  # the hook touches only its files' folders; update sweeps all
