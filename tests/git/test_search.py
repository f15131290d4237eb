"""git.search: files found by name (``ls-files``) and by content (``git grep``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git, pin_git_env, write

from chunkgate.git import listings, process, search

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="names and symlinks of POSIX")


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


@posix_only
def test_files_named_in_any_folder_as_glob_pathspecs_find_them(git_repo: Path) -> None:
    write(git_repo, ".gitignore", "build/\n")
    for path in ("mkdocs.yml", "a/b/mkdocs.yml", "site/astro.config.mjs", "x-mkdocs.yml"):
        write(git_repo, path, "x\n")
    write(git_repo, "docs/mkdocs.yml/inside.md", "a folder of that name\n")
    (git_repo / "link").mkdir()
    os.symlink("../mkdocs.yml", git_repo / "link" / "mkdocs.yml")
    commit_all(git_repo)
    write(git_repo, "new/mkdocs.yml", "untracked\n")
    write(git_repo, "build/mkdocs.yml", "ignored\n")
    names = ("mkdocs.yml", "astro.config.*")
    found = search.files_named(git_repo, names)
    assert found.paths == [
        "a/b/mkdocs.yml",
        "link/mkdocs.yml",
        "mkdocs.yml",
        "new/mkdocs.yml",
        "site/astro.config.mjs",
    ]
    assert found.regular == ["a/b/mkdocs.yml", "mkdocs.yml", "site/astro.config.mjs"]
    # A whole-corpus run's untracked listing stands for the untracked part of the walk.
    listing = listings.WorkTreeListing(git_repo)
    assert search.files_named(git_repo, names, listing.untracked) == found
    globbed = git(
        git_repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
        ":(glob)**/mkdocs.yml", ":(glob)**/astro.config.*",
    )  # fmt: skip
    named = [p for p in globbed.split("\0") if p and p.rpartition("/")[2] != "inside.md"]
    assert sorted(named) == found.paths
    assert found.regular == sorted(
        p
        for p in listings.index_blobs(git_repo)
        if p.rpartition("/")[2] in ("mkdocs.yml",) or p.endswith(".mjs")
    )


def test_files_containing_finds_tracked_files_holding_any_needle(git_repo: Path) -> None:
    write(git_repo, "a.md", "see [it](guide.md#setup)\n")
    write(git_repo, "b c.md", "see [that](other.md#usage)\n")
    write(git_repo, "plain.md", "nothing here\n")
    write(git_repo, "bin.dat", b"\0guide.md#setup\0")  # binary: not a page that links
    commit_all(git_repo)
    write(git_repo, "untracked.md", "guide.md#setup\n")
    found = search.files_containing(git_repo, ["guide.md#setup", "other.md#usage"])
    assert sorted(found) == ["a.md", "b c.md"]
    assert search.files_containing(git_repo, ["-e looks like an option"]) == []
    before = process.process_count()
    assert search.files_containing(git_repo, []) == []
    assert process.process_count() == before


def test_files_containing_reports_what_git_grep_could_not_do(tmp_path: Path) -> None:
    with pytest.raises(process.GitCommandError, match="not a git repository"):
        search.files_containing(tmp_path, ["x"])
