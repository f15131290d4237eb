"""Messages that say what happened and what to run (issue 18, defect 15)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest
from helpers import commit_all, committed, git, page, run, write


@pytest.fixture
def shallow(cli_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(cli_repo, "a.md", page("A"))
    commit_all(cli_repo)
    write(cli_repo, "a.md", page("B"))
    commit_all(cli_repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{cli_repo}", os.fspath(clone))
    monkeypatch.chdir(clone)
    return clone


def test_shallow_clone_is_blamed_for_missing_history(
    shallow: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    code, output = run("diff", "HEAD~1")
    assert code == 2
    assert "HEAD is here, but not the history before it" in output
    # A clone of one's own: the command that fetches the rest; CI: the checkout's setting.
    assert output.endswith(
        "(a shallow clone): run `git fetch --unshallow` to fetch the whole history\n"
    )
    assert "fetch-depth" not in output
    monkeypatch.setenv("CI", "true")
    code, output = run("diff", "HEAD~1")
    assert code == 2
    assert "set `fetch-depth: 0` on actions/checkout" in output
    assert "--unshallow" not in output


@pytest.mark.parametrize("typo", ["HAED", "HAED~1", "mian"])
def test_shallow_clone_is_not_blamed_for_a_typo(shallow: Path, typo: str) -> None:
    code, output = run("diff", typo)
    assert code == 2
    assert f"unknown revision {typo!r}" in output
    assert "no branch, tag or commit has that name" in output
    assert "fetch-depth" not in output


def test_diff_outside_git_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.md", page("A"))
    code, output = run("diff")
    assert code == 2
    assert "not a git repository" in output
    assert "`git init`" in output
    assert "`chunkgate check`" in output


def test_suggested_commands_quote_paths(cli_repo: Path) -> None:
    write(cli_repo, ".chunkgate.yaml", "manifest: 'my manifest'\n")
    write(cli_repo, "a b.md", page("A"))
    code, output = run("update")
    assert code == 0
    assert "`git add -A 'my manifest'`" in output
    commit_all(cli_repo)
    write(cli_repo, "a b.md", page("B"))
    code, output = run("check")
    assert code == 1
    assert f"`chunkgate update {shlex.quote('a b.md')}`" in output


def test_an_excluded_file_is_not_said_to_be_gone(cli_repo: Path) -> None:
    write(cli_repo, "a.md", page("A"))
    write(cli_repo, "b.md", page("B"))
    committed(cli_repo)
    write(cli_repo, ".chunkgate.yaml", 'exclude: ["a.md"]\n')
    code, output = run("check")
    assert code == 1
    assert "1 file (1 ID) left the corpus: the configuration leaves them out now (a.md)" in output
    assert "no longer exists" not in output
    code, output = run("check", "--verbose")  # each finding, under that line
    assert "no longer in the corpus" in output
    assert "no longer exists" not in output
