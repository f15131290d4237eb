"""Messages that say what happened and what to run (issue 18, defect 15)."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, git_env, pin_git_env, write

from chunkgate.cli import cli

DOC = "# {}\n\nlong enough text for a chunk here, yes indeed it is.\n"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def shallow(git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    write(git_repo, "a.md", DOC.format("A"))
    commit_all(git_repo)
    write(git_repo, "a.md", DOC.format("B"))
    commit_all(git_repo)
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{git_repo}", os.fspath(clone)],
        check=True,
        capture_output=True,
        env=git_env(),
    )
    monkeypatch.chdir(clone)
    return clone


def test_shallow_clone_is_blamed_for_missing_history(shallow: Path) -> None:
    code, output = run("diff", "HEAD~1")
    assert code == 2
    assert "HEAD is here, but not the history before it" in output
    assert "fetch-depth: 0" in output


@pytest.mark.parametrize("typo", ["HAED", "HAED~1", "mian"])
def test_shallow_clone_is_not_blamed_for_a_typo(shallow: Path, typo: str) -> None:
    code, output = run("diff", typo)
    assert code == 2
    assert f"unknown revision {typo!r}" in output
    assert "no branch, tag or commit has that name" in output
    assert "fetch-depth" not in output


def test_diff_outside_git_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.md", DOC.format("A"))
    code, output = run("diff")
    assert code == 2
    assert "not a git repository" in output
    assert "`git init`" in output
    assert "`chunkgate check`" in output


def test_suggested_commands_quote_paths(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, ".chunkgate.yaml", "manifest: 'my manifest'\n")
    write(git_repo, "a b.md", DOC.format("A"))
    code, output = run("update")
    assert code == 0
    assert "`git add -A 'my manifest'`" in output
    commit_all(git_repo)
    write(git_repo, "a b.md", DOC.format("B"))
    code, output = run("check")
    assert code == 1
    assert f"`chunkgate update {shlex.quote('a b.md')}`" in output


def test_an_excluded_file_is_not_said_to_be_gone(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "a.md", DOC.format("A"))
    write(git_repo, "b.md", DOC.format("B"))
    assert run("update")[0] == 0
    commit_all(git_repo)
    write(git_repo, ".chunkgate.yaml", 'exclude: ["a.md"]\n')
    code, output = run("check")
    assert code == 1
    assert "no longer in the corpus" in output
    assert "no longer exists" not in output
