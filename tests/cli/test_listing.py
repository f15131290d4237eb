"""The files named on the command line: resolved once a folder, with the same answers
as resolving every name whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, pin_git_env, write

from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.core.errors import ChunkgateError
from chunkgate.corpus.select import select_files
from chunkgate.listing import named_files

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="symlinks of POSIX")


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(git_repo, "docs/a.md", "# A\n\nbody a\n")
    write(git_repo, "docs/sub/b.md", "# B\n\nbody b\n")
    write(git_repo, "top.md", "# Top\n\nbody\n")
    monkeypatch.chdir(git_repo)
    return git_repo.resolve()


def _resolved_whole(config: Config, names: list[str]) -> list[str]:
    """What naming files meant before: ``Path.resolve()`` and ``is_dir()`` per name."""
    root = config.root.resolve()
    out: list[str] = []
    for name in names:
        absolute = (Path.cwd() / name).resolve()
        try:
            relative = absolute.relative_to(root).as_posix()
        except ValueError:
            raise ChunkgateError(f"path outside the repository: {name}") from None
        if absolute.is_dir():
            out.extend(select_files(config, [os.fspath(absolute)]).paths)
        else:
            out.append(relative)
    return list(dict.fromkeys(out))


def _both(config: Config, names: list[str]) -> list[str]:
    found = named_files(config, names)
    assert found == _resolved_whole(config, names)
    return found


def test_files_folders_and_dots(repo: Path) -> None:
    commit_all(repo)
    config = load_config(repo)
    names = ["top.md", "docs", "docs/sub/", "./docs/a.md", "docs/sub/../a.md", ".", str(repo)]
    assert _both(config, names) == ["top.md", "docs/a.md", "docs/sub/b.md"]


def test_from_a_subfolder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(repo)
    monkeypatch.chdir(repo / "docs")
    assert _both(config, ["a.md", "sub/b.md", "../top.md", ".."]) == [
        "docs/a.md",
        "docs/sub/b.md",
        "top.md",
    ]


def test_a_missing_file_is_named_as_given(repo: Path) -> None:
    config = load_config(repo)
    assert _both(config, ["docs/gone.md", "nowhere/gone.md"]) == ["docs/gone.md", "nowhere/gone.md"]


@pytest.mark.parametrize("name", ["../elsewhere.md", "docs/../../elsewhere.md", "{tmp}/x.md"])
def test_outside_the_repository(repo: Path, tmp_path: Path, name: str) -> None:
    given = name.format(tmp=tmp_path)
    with pytest.raises(ChunkgateError, match=f"^path outside the repository: {given}$"):
        named_files(load_config(repo), ["top.md", given])


@posix_only
def test_symlinks(repo: Path, tmp_path: Path) -> None:
    write(tmp_path, "secret/key.md", "x\n")
    (repo / "leak.md").symlink_to(tmp_path / "secret" / "key.md")
    (repo / "leakdir").symlink_to(tmp_path / "secret")
    (repo / "alias.md").symlink_to("top.md")
    (repo / "docs/link").symlink_to("sub")
    (repo / "docs/up.md").symlink_to("../top.md")
    config = load_config(repo)
    assert _both(config, ["alias.md", "docs/link/b.md", "docs/up.md", "docs/link"]) == [
        "top.md",
        "docs/sub/b.md",
    ]
    for name in ["leak.md", "leakdir/key.md", "leakdir"]:
        with pytest.raises(ChunkgateError, match=f"^path outside the repository: {name}$"):
            named_files(config, [name])


def test_many_files_through_the_command_line(repo: Path) -> None:
    names = [f"docs/many/{n:04}.md" for n in range(300)]
    for name in names:
        write(repo, name, f"# Page {name}\n\ntext\n")
    commit_all(repo)
    result = CliRunner().invoke(cli, ["chunks", "--format", "json", "-j", "1", *names, "top.md"])
    assert result.exit_code == 0, result.output
    paths = [chunk["path"] for chunk in json.loads(result.output)]
    assert paths == [*names, "top.md"]
    process = subprocess.run(
        [sys.executable, "-m", "chunkgate", "chunks", "--format", "json", *names, "top.md"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    assert process.stdout == result.output


def test_a_missing_file_on_the_command_line(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["chunks", "top.md", "docs/gone.md"])
    assert result.exit_code == 2
    assert "docs/gone.md" in result.output
    assert "does not exist" in result.output


def test_check_stats_and_the_job_summary_count_the_same_known_problems(
    cli_repo: Path, tmp_path: Path
) -> None:
    same = "This paragraph is repeated verbatim in every file of the folder here."
    for name in ("a", "b", "c"):  # 2 copies (CG501) and 3 undersized sections (CG202)
        write(cli_repo, f"{name}.md", f"# Same\n\n{same}\n\n# Tiny {name}\n\nx\n")
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(cli_repo)
    checked = json.loads(CliRunner().invoke(cli, ["check", "--format", "json"]).output)
    assert checked["summary"]["known"] == 5
    stats = json.loads(CliRunner().invoke(cli, ["stats", "--format", "json"]).output)
    assert stats["known"] == {"CG202": 3, "CG501": 2}
    text = CliRunner().invoke(cli, ["stats", "--format", "text"]).output
    assert "5 known problems the manifest records: CG202 3, CG501 2" in text
    summary = tmp_path / "summary.md"
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    CliRunner().invoke(cli, ["check", "--format", "github"], env=env)
    assert "5 known problems the manifest records" in summary.read_text()
    assert "CG202 ×3, CG501 ×2" in summary.read_text()
