"""Files git keeps elsewhere (issue 18, defects 9 and 15): a sparse checkout's files
outside its cone, Git LFS pointers and submodules."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import (
    check_json,
    commit_all,
    committed,
    git,
    invoke,
    manifest_snapshot,
    page,
    run,
    shard,
    write,
)


@pytest.fixture
def sparse(cli_repo: Path) -> Path:
    """A repository checked out sparsely: ``in/`` and the manifest, not ``out/``."""
    for folder in ("in", "out"):
        write(cli_repo, f"{folder}/a.md", page(folder))
    committed(cli_repo)
    git(cli_repo, "sparse-checkout", "set", "in", "chunkgate.manifest")
    assert not (cli_repo / "out").exists()
    assert "S out/a.md" in git(cli_repo, "ls-files", "-t")
    return cli_repo


def test_check_keeps_and_does_not_read_files_outside_the_cone(sparse: Path) -> None:
    before = manifest_snapshot(sparse)
    for command in (["check"], ["check", "in"], ["check", "--hook", "in/a.md"], ["check", "."]):
        code, output = run(*command)
        assert code == 0, (command, output)
        assert "CG401" not in output
        assert "CG403" not in output
    assert manifest_snapshot(sparse) == before


def test_update_keeps_the_entries_outside_the_cone(sparse: Path) -> None:
    recorded = shard(sparse, "out/a.md").read_bytes()
    write(sparse, "in/a.md", page("changed"))
    code, output = run("update")
    assert code == 0, output
    assert shard(sparse, "out/a.md").read_bytes() == recorded
    assert not (sparse / "out").exists()


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(".chunkgate.yaml", id="settings"),
        pytest.param("chunkgate.manifest/manifest.json", id="no-header"),
    ],
)
def test_a_full_rebuild_does_not_read_files_outside_the_cone(sparse: Path, change: str) -> None:
    if change == ".chunkgate.yaml":
        write(sparse, change, "size: {max: 1900}\n")
    else:
        (sparse / change).unlink()
    recorded = shard(sparse, "out/a.md").read_bytes()
    code, output = run("update")
    assert code == 0, output
    assert "Traceback" not in output
    assert shard(sparse, "out/a.md").read_bytes() == recorded


POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    "size 12345\n"
)


def test_lfs_pointer_is_reported_and_not_chunked(cli_repo: Path) -> None:
    write(cli_repo, "big.md", POINTER)
    write(cli_repo, "a.md", page("A"))
    commit_all(cli_repo)
    code, report = check_json()
    found = report["violations"]
    assert code == 1
    lfs = [v for v in found if v["rule"] == "CG001"]
    assert [v["path"] for v in lfs] == ["big.md"]
    assert "Git LFS pointer" in lfs[0]["message"]
    result = invoke("chunks", "--format", "json", "big.md")
    assert result.exit_code == 2
    assert "Git LFS pointer" in result.output
    assert "oid sha256" not in result.output
    assert run("update")[0] == 0
    assert json.loads(shard(cli_repo, "big.md").read_text().splitlines()[0])["chunks"] == 0


def test_submodule_gitlink_is_not_a_corpus_file(cli_repo: Path, tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    git(inner, "init", "-q", "-b", "main")
    write(inner, "doc.md", page("inner"))
    commit_all(inner)
    write(cli_repo, "a.md", page("A"))
    git(cli_repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    commit_all(cli_repo)
    assert "160000" in git(cli_repo, "ls-files", "-s", "sub")
    code, output = run("update")
    assert code == 0, output
    assert not shard(cli_repo, "sub").exists()
    assert not shard(cli_repo, "sub/doc.md").exists()
    assert os.path.isfile(shard(cli_repo, "a.md"))
