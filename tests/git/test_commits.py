"""git.commits: which commit a name means, merge bases, shallow clones and fetching."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import commit_all, git, pin_git_env, write

from chunkgate.core.errors import GitError
from chunkgate.git import commits


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def test_missing_revision_is_a_clean_error(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    with pytest.raises(GitError, match=r"^git rev-parse: unknown revision 'nope'$"):
        commits.resolve(git_repo, "nope")


def test_resolve_and_merge_base(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    base = commit_all(git_repo, "base")
    git(git_repo, "checkout", "-q", "-b", "feature")
    write(git_repo, "b.md", "b\n")
    feature = commit_all(git_repo, "feature")
    git(git_repo, "checkout", "-q", "main")
    write(git_repo, "c.md", "c\n")
    main = commit_all(git_repo, "main")
    assert commits.resolve(git_repo, "HEAD") == main
    assert commits.resolve(git_repo, "feature") == feature
    assert commits.resolve(git_repo, "feature~1") == base
    assert commits.resolve(git_repo, base[:10]) == base
    assert commits.merge_base(git_repo, "main", "feature") == base
    with pytest.raises(GitError, match="unknown revision '--all'"):
        commits.resolve(git_repo, "--all")
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        commits.merge_base(git_repo, "main", "nope")


def test_resolve_rejects_non_commits(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    blob = git(git_repo, "rev-parse", "HEAD:a.md").strip()
    with pytest.raises(GitError, match="unknown revision"):
        commits.resolve(git_repo, blob)


def test_merge_base_without_common_ancestor(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    git(git_repo, "checkout", "-q", "--orphan", "other")
    write(git_repo, "b.md", "b\n")
    commit_all(git_repo, "other")
    with pytest.raises(GitError, match="no common ancestor"):
        commits.merge_base(git_repo, "main", "other")


def test_shallow_clone_and_fetch(git_repo: Path, tmp_path: Path) -> None:
    write(git_repo, "a.md", "one\n")
    first = commit_all(git_repo, "one")
    write(git_repo, "a.md", "two\n")
    commit_all(git_repo, "two")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", f"file://{git_repo.as_posix()}", str(clone))
    assert not commits.is_shallow(git_repo)
    assert commits.is_shallow(clone)
    with pytest.raises(GitError, match="unknown revision"):
        commits.resolve(clone, first)
    commits.fetch(clone, "origin", first, depth=1)
    assert commits.resolve(clone, first) == first
