"""Files git keeps elsewhere (issue 18, defects 9 and 15): a sparse checkout's files
outside its cone, Git LFS pointers and submodules."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, git, manifest_snapshot, pin_git_env, shard, write

from chunkgate.cli import cli

DOC = "# {}\n\nlong enough text for a chunk here, yes indeed it is.\n"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def sparse(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository checked out sparsely: ``in/`` and the manifest, not ``out/``."""
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    for folder in ("in", "out"):
        write(git_repo, f"{folder}/a.md", DOC.format(folder))
    assert run("update")[0] == 0
    commit_all(git_repo)
    git(git_repo, "sparse-checkout", "set", "in", "chunkgate.manifest")
    assert not (git_repo / "out").exists()
    assert "S out/a.md" in git(git_repo, "ls-files", "-t")
    return git_repo


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
    write(sparse, "in/a.md", DOC.format("changed"))
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


def test_lfs_pointer_is_reported_and_not_chunked(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "big.md", POINTER)
    write(git_repo, "a.md", DOC.format("A"))
    commit_all(git_repo)
    code, output = run("check", "--format", "json")
    found = json.loads(output)["violations"]
    assert code == 1
    lfs = [v for v in found if v["rule"] == "CG001"]
    assert [v["path"] for v in lfs] == ["big.md"]
    assert "Git LFS pointer" in lfs[0]["message"]
    result = CliRunner().invoke(cli, ["chunks", "--format", "json", "big.md"])
    assert result.exit_code == 2
    assert "Git LFS pointer" in result.output
    assert "oid sha256" not in result.output
    assert run("update")[0] == 0
    assert json.loads(shard(git_repo, "big.md").read_text().splitlines()[0])["chunks"] == 0


def test_submodule_gitlink_is_not_a_corpus_file(
    git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    inner = tmp_path / "inner"
    inner.mkdir()
    git(inner, "init", "-q", "-b", "main")
    write(inner, "doc.md", DOC.format("inner"))
    commit_all(inner)
    monkeypatch.chdir(git_repo)
    write(git_repo, "a.md", DOC.format("A"))
    git(git_repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    commit_all(git_repo)
    assert "160000" in git(git_repo, "ls-files", "-s", "sub")
    code, output = run("update")
    assert code == 0, output
    assert not shard(git_repo, "sub").exists()
    assert not shard(git_repo, "sub/doc.md").exists()
    assert os.path.isfile(shard(git_repo, "a.md"))
