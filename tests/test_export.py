"""``chunkgate export``: the corpus as JSON lines ready for ingest (issue 20)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import commit_all, git, pin_git_env, write

from chunkgate.config import load_config
from chunkgate.ingest import export_records

GUIDE = """\
---
title: The Guide
tags: [setup]
---
Welcome.

# Configuration

## Networking

The timeout defaults to 30s.
"""
CODE = "class Client:\n    def send(self):\n        return 1\n"


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "docs/guide.md", GUIDE)
    write(git_repo, "pkg/client.py", CODE)
    write(git_repo, "README.md", "# Project\r\n\r\nSome words about it.\r\n")
    commit_all(git_repo, "first")
    return git_repo


def test_records_in_path_order_with_every_field(repo: Path) -> None:
    records = list(export_records(load_config(repo)))
    assert [r["id"] for r in records] == [
        "README.md#project",
        "docs/guide.md#~preamble",
        "docs/guide.md#networking",
        "pkg/client.py#class-Client",
    ]
    head = git(repo, "rev-parse", "HEAD").strip()
    networking = records[2]
    assert networking == {
        "id": "docs/guide.md#networking",
        "path": "docs/guide.md",
        "language": "markdown",
        "kind": "section",
        "symbol": None,
        "heading_path": ["Configuration", "Networking"],
        "breadcrumb": "The Guide > Configuration > Networking",
        "level": 2,
        "lines": [7, 11],
        "start_char": networking["start_char"],
        "end_char": networking["end_char"],
        "chars": len(networking["text"]),  # type: ignore[arg-type]
        "tokens": networking["tokens"],
        "hash": networking["hash"],
        "part": 1,
        "parts": 1,
        "parent": None,
        "prev": "docs/guide.md#~preamble",
        "next": None,
        "metadata": {"title": "The Guide", "tags": ["setup"]},
        "moved_from": [],
        "blob": git(repo, "rev-parse", "HEAD:docs/guide.md").strip(),
        "commit": head,
        "text": "# Configuration\n\n## Networking\n\nThe timeout defaults to 30s.",
        "embed_text": "The Guide > Configuration > Networking\n"
        "# Configuration\n\n## Networking\n\nThe timeout defaults to 30s.",
    }
    assert records[3]["breadcrumb"] == "pkg.client > Client"


def test_char_offsets_cut_the_normalised_file(repo: Path) -> None:
    for record in export_records(load_config(repo)):
        raw = (repo / str(record["path"])).read_text(encoding="utf-8")
        text = raw.replace("\r\n", "\n")
        start, end = record["start_char"], record["end_char"]
        assert isinstance(start, int)
        assert isinstance(end, int)
        assert text[start:end] == record["text"]


def test_uncommitted_change_has_a_blob_and_no_commit(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE.replace("30s", "60s"))
    records = {r["id"]: r for r in export_records(load_config(repo))}
    changed = records["docs/guide.md#networking"]
    assert changed["commit"] is None
    assert changed["blob"] == git(repo, "hash-object", "docs/guide.md").strip()
    assert records["pkg/client.py#class-Client"]["commit"] is not None


def test_rev_reads_git_objects_not_the_work_tree(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "docs/guide.md", GUIDE.replace("30s", "60s"))
    write(repo, "docs/new.md", "# New\n\nA new page.\n")
    commit_all(repo, "second")
    (repo / "pkg" / "client.py").unlink()  # the work tree no longer has it
    old = list(export_records(load_config(repo), rev=first))
    assert {r["commit"] for r in old} == {first}
    assert "docs/new.md#new" not in {r["id"] for r in old}
    by_id = {r["id"]: r for r in old}
    assert by_id["docs/guide.md#networking"]["text"].endswith("30s.")  # type: ignore[union-attr]
    assert "pkg/client.py#class-Client" in by_id
    new = {r["id"]: r for r in export_records(load_config(repo), rev="HEAD")}
    assert str(new["docs/guide.md#networking"]["text"]).endswith("60s.")
    assert "docs/new.md#new" in new


def test_records_are_json_lines_ready(repo: Path) -> None:
    for record in export_records(load_config(repo)):
        assert json.loads(json.dumps(record, ensure_ascii=False)) == record


def test_library_export_is_the_same_records(repo: Path) -> None:
    import chunkgate
    from chunkgate import export

    assert "export" in chunkgate.__all__
    config = load_config(repo)
    assert list(export(config, rev="HEAD")) == list(export_records(config, rev="HEAD"))
