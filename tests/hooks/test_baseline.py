"""hooks.baseline: whose committed manifest a hook run compares IDs with."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import commit_all, git, pin_git_env, write

from chunkgate.core.errors import GitError
from chunkgate.hooks.baseline import HEAD, hook_baseline, hook_note


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def _range(from_ref: str, to_ref: str) -> dict[str, str]:
    return {"PRE_COMMIT_FROM_REF": from_ref, "PRE_COMMIT_TO_REF": to_ref}


def test_a_commit_compares_with_head(git_repo: Path) -> None:
    assert hook_baseline(git_repo, {}) == HEAD
    assert hook_baseline(git_repo, {"PRE_COMMIT_FROM_REF": "main"}) == HEAD  # a range has two


def test_a_range_compares_with_its_merge_base_as_pre_commit_lists_its_files(
    git_repo: Path,
) -> None:
    write(git_repo, "a.md", "a\n")
    base = commit_all(git_repo, "base")
    git(git_repo, "checkout", "-q", "-b", "feature")
    write(git_repo, "b.md", "b\n")
    commit_all(git_repo, "feature")
    git(git_repo, "checkout", "-q", "main")
    write(git_repo, "c.md", "c\n")
    commit_all(git_repo, "main moved on")
    assert hook_baseline(git_repo, _range("main", "feature")) == base
    assert git(git_repo, "merge-base", "main", "feature").strip() == base


def test_unrelated_histories_compare_with_the_range_s_start(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    start = commit_all(git_repo)
    git(git_repo, "checkout", "-q", "--orphan", "other")
    write(git_repo, "b.md", "b\n")
    commit_all(git_repo, "other")
    assert hook_baseline(git_repo, _range("main", "other")) == start


def test_a_range_git_does_not_know_names_the_variable(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    with pytest.raises(GitError, match=r"^PRE_COMMIT_FROM_REF 'nope': .*unknown revision"):
        hook_baseline(git_repo, _range("nope", "main"))


def test_the_note_says_how_to_record_moves_against_it() -> None:
    note = hook_note("0123456789abcdef0123")
    assert "0123456789ab," in note
    assert "`chunkgate update --accept-moves --baseline 0123456789ab`" in note
