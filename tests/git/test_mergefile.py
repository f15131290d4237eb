"""A file's merge from its three blobs is the file ``git merge`` writes, or None where git
conflicts or merges the file its own way."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import commit_all, git, git_env, write

from chunkgate.git.mergefile import merged_file

BASE = "# Page\n\n## One\n\nFirst.\n\n## Two\n\nSecond.\n\n## Three\n\nThird.\n"


def blob(repo: Path, rev: str) -> str:
    return git(repo, "rev-parse", f"{rev}:page.md").strip()


def branches(repo: Path, ours: str, theirs: str, attributes: str = "") -> tuple[str, str, str]:
    """``page.md`` as BASE, then ``ours`` on main and ``theirs`` on feature: the 3 blobs."""
    if attributes:
        write(repo, ".gitattributes", attributes)
    write(repo, "page.md", BASE)
    commit_all(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, "page.md", theirs)
    commit_all(repo, "theirs")
    git(repo, "switch", "-q", "main")
    write(repo, "page.md", ours)
    commit_all(repo, "ours")
    return blob(repo, "main~1"), blob(repo, "main"), blob(repo, "feature")


def git_merge(repo: Path) -> int:
    command = ["git", "-C", str(repo), "-c", "commit.gpgsign=false", "merge", "-q", "--no-edit"]
    return subprocess.run([*command, "feature"], env=git_env(), check=False).returncode


def test_a_clean_merge_is_the_file_git_writes(git_repo: Path) -> None:
    ours = BASE.replace("First.", "First, ours.")
    theirs = BASE.replace("Third.", "Third, theirs.") + "\n## Four\n\nFourth.\n"
    base, mine, other = branches(git_repo, ours, theirs)
    merged = merged_file(git_repo, "page.md", base, mine, other)
    assert git_merge(git_repo) == 0
    assert merged == (git_repo / "page.md").read_bytes()


def test_a_conflict_is_none(git_repo: Path) -> None:
    base, mine, other = branches(
        git_repo, BASE.replace("Second.", "Ours."), BASE.replace("Second.", "Theirs.")
    )
    assert merged_file(git_repo, "page.md", base, mine, other) is None
    assert git_merge(git_repo) == 1


@pytest.mark.parametrize("attributes", ["*.md merge=union\n", "*.md filter=lfs\n"])
def test_a_file_git_merges_its_own_way_is_none(git_repo: Path, attributes: str) -> None:
    ours = BASE.replace("First.", "First, ours.")
    base, mine, other = branches(git_repo, ours, BASE.replace("Third.", "Theirs."), attributes)
    assert merged_file(git_repo, "page.md", base, mine, other) is None


def test_a_missing_blob_is_none(git_repo: Path) -> None:
    base, mine, _ = branches(git_repo, BASE.replace("First.", "Ours."), BASE)
    assert merged_file(git_repo, "page.md", base, mine, "0" * 40) is None
