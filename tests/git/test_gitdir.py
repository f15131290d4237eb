"""The git directory found without starting git, as git finds it: a plain repository,
a linked work tree (``.git`` is a ``gitdir:`` file), a folder outside any repository."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import commit_all, git, make_repo, write

from chunkgate.git.gitdir import git_directory


def test_the_nearest_dot_git_above_a_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "docs" / "deep").mkdir(parents=True)
    assert git_directory(repo / "docs" / "deep") == (repo, repo / ".git")


def test_a_linked_work_tree_has_its_own_git_directory(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "# A\n")
    commit_all(repo)
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", os.fspath(linked))
    top, found = git_directory(linked) or (None, None)
    assert top == linked
    assert found is not None
    asked = git(linked, "rev-parse", "--absolute-git-dir").strip()
    assert found.resolve() == Path(asked).resolve()


def test_no_repository_and_a_broken_gitdir_file(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    assert git_directory(folder) is None
    (folder / ".git").write_text("gitdir: missing\n")
    assert git_directory(folder) is None
