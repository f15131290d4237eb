"""git.listings: the index, what differs from it, the untracked files and a tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git, git_env, index_of, pin_git_env, write

from chunkgate.core.errors import GitError
from chunkgate.git import listings, process

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="names and symlinks of POSIX")


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


ODD_NAMES = [
    "plain.md",
    "with space.md",
    "ünïcödé/文档.md",
    "star*.md",
    "[bracket].md",
    '"quoted.md',
    "back\\slash.md",
]


@posix_only
def test_index_blobs_matches_git_for_odd_names(git_repo: Path) -> None:
    for name in [*ODD_NAMES, "new\nline.md", "tab\tname.md"]:
        write(git_repo, name, f"content of {name}\n")
    (git_repo / "link.md").symlink_to("plain.md")
    commit_all(git_repo)
    expected = {path: blob for path, blob in index_of(git_repo).items() if path != "link.md"}
    assert listings.index_blobs(git_repo) == expected
    assert "new\nline.md" in expected
    assert "ünïcödé/文档.md" in expected


def test_index_blobs_skips_gitlinks(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    sha = commit_all(git_repo)
    git(git_repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},vendor/sub")
    assert set(listings.index_blobs(git_repo)) == {"a.md"}


def test_index_blobs_with_literal_pathspecs(git_repo: Path) -> None:
    for name in ["star*.md", "starry.md", "[ab].md", "a.md", "docs/one.md", "docs/two.md"]:
        write(git_repo, name, name)
    commit_all(git_repo)
    assert set(listings.index_blobs(git_repo, ["star*.md"])) == {"star*.md"}
    assert set(listings.index_blobs(git_repo, ["[ab].md"])) == {"[ab].md"}
    assert set(listings.index_blobs(git_repo, ["docs", "a.md"])) == {
        "docs/one.md",
        "docs/two.md",
        "a.md",
    }
    assert listings.index_blobs(git_repo, ["nothing-here.md"]) == {}


def test_index_blobs_batches_long_pathspec_lists(git_repo: Path) -> None:
    names = [f"folder-with-a-long-name/file-number-{i:05}.md" for i in range(1200)]
    for name in names:
        write(git_repo, name, "x\n")
    commit_all(git_repo)
    before = process.process_count()
    assert set(listings.index_blobs(git_repo, names)) == set(names)
    assert process.process_count() - before > 1


def test_index_blobs_takes_ours_for_conflicts(git_repo: Path) -> None:
    write(git_repo, "a.md", "base\n")
    write(git_repo, "b.md", "b\n")
    commit_all(git_repo, "base")
    git(git_repo, "checkout", "-q", "-b", "side")
    write(git_repo, "a.md", "theirs\n")
    commit_all(git_repo, "side")
    git(git_repo, "checkout", "-q", "main")
    write(git_repo, "a.md", "ours\n")
    commit_all(git_repo, "main")
    with pytest.raises(AssertionError, match="exited 1"):
        git(git_repo, "merge", "-q", "side")
    ours = git(git_repo, "rev-parse", "HEAD:a.md").strip()
    blobs = listings.index_blobs(git_repo)
    assert blobs["a.md"] == ours
    assert "a.md" in listings.modified_paths(git_repo)


def test_modified_paths(git_repo: Path) -> None:
    for name in ["same.md", "touched.md", "changed.md", "deleted.md", "with space.md"]:
        write(git_repo, name, f"{name}\n")
    commit_all(git_repo)
    write(git_repo, "changed.md", "new content\n")
    write(git_repo, "with space.md", "new content\n")
    (git_repo / "deleted.md").unlink()
    # Same bytes, newer mtime: diff-files would report it, ls-files -m does not.
    stat = (git_repo / "touched.md").stat()
    os.utime(git_repo / "touched.md", ns=(stat.st_atime_ns, stat.st_mtime_ns + 5 * 10**9))
    assert "touched.md" in git(git_repo, "diff-files", "--name-only")
    assert listings.modified_paths(git_repo) == {"changed.md", "deleted.md", "with space.md"}
    assert listings.modified_paths(git_repo, ["changed.md"]) == {"changed.md"}


def _ls_files_m(repo: Path, *paths: str) -> set[str]:
    args = ["--literal-pathspecs", "ls-files", "-z", "-m", *(["--", *paths] if paths else [])]
    return set(filter(None, git(repo, *args).split("\0")))


@posix_only
def test_modified_paths_agrees_with_ls_files_m(git_repo: Path) -> None:
    """diff-files plus a content check of stat-only changes gives what ls-files -m does,
    with filters, mode changes and odd names."""
    (git_repo / ".gitattributes").write_text("*.txt text eol=crlf\n")
    names = ["same.md", "touched.md", "changed.md", "gone.md", "mode.md", "crlf.txt", *ODD_NAMES]
    for name in names:
        write(git_repo, name, f"{name}\nline two\n")
    (git_repo / "crlf.txt").write_bytes(b"crlf.txt\r\nline two\r\n")
    commit_all(git_repo)
    assert git(git_repo, "cat-file", "blob", "HEAD:crlf.txt") == "crlf.txt\nline two\n"
    write(git_repo, "changed.md", "new content\n")
    (git_repo / "gone.md").unlink()
    (git_repo / "mode.md").chmod(0o755)
    # Same content after the clean filter: the file is CRLF on disk, LF in the blob.
    for name in ["touched.md", "crlf.txt", ODD_NAMES[2], ODD_NAMES[5]]:
        stat = (git_repo / name).stat()
        os.utime(git_repo / name, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5 * 10**9))
    write(git_repo, ODD_NAMES[1], "changed\n")
    expected = {"changed.md", "gone.md", "mode.md", ODD_NAMES[1]}
    assert _ls_files_m(git_repo) == expected
    assert listings.modified_paths(git_repo) == expected
    some = ["touched.md", "gone.md", "crlf.txt", ODD_NAMES[1], ODD_NAMES[2], "same.md"]
    assert listings.modified_paths(git_repo, some) == _ls_files_m(git_repo, *some)
    assert listings.modified_paths(git_repo, some) == {"gone.md", ODD_NAMES[1]}


def test_untracked_paths(git_repo: Path) -> None:
    write(git_repo, ".gitignore", "build/\n*.log\n")
    write(git_repo, "tracked.md", "t\n")
    commit_all(git_repo)
    write(git_repo, "new.md", "n\n")
    write(git_repo, "docs/ünï.md", "n\n")
    write(git_repo, "build/out.md", "ignored\n")
    write(git_repo, "debug.log", "ignored\n")
    nested = git_repo / "nested"
    nested.mkdir()
    subprocess.run(("git", "init", "-q", str(nested)), check=True, env=git_env())
    write(git_repo, "nested/inner.md", "x\n")
    assert sorted(listings.untracked_paths(git_repo)) == ["docs/ünï.md", "new.md"]
    assert listings.untracked_paths(git_repo, ["docs"]) == ["docs/ünï.md"]


@posix_only
def test_tree_blobs(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    write(git_repo, "ünï/b d.md", "b\n")
    write(git_repo, "run.sh", "#!/bin/sh\n")
    (git_repo / "run.sh").chmod(0o755)
    (git_repo / "link.md").symlink_to("a.md")
    sha = commit_all(git_repo)
    (git_repo / "a.md").unlink()
    blobs = listings.tree_blobs(git_repo, sha)
    assert set(blobs) == {"a.md", "ünï/b d.md", "run.sh"}
    assert blobs["ünï/b d.md"] == git(git_repo, "rev-parse", "HEAD:ünï/b d.md").strip()
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        listings.tree_blobs(git_repo, "nope")


def test_staged_deletions_before_and_after_the_first_commit(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    write(git_repo, "b.md", "b\n")
    git(git_repo, "add", "-A")
    assert listings.staged_deletions(git_repo) == []
    commit_all(git_repo)
    git(git_repo, "rm", "-q", "--cached", "b.md")
    assert listings.staged_deletions(git_repo) == ["b.md"]


def test_the_whole_work_tree_listing_is_the_three_listings(git_repo: Path) -> None:
    for path in ("a.md", "b.md", "c.md", "d/e.md", "touched.md"):
        write(git_repo, path, f"{path}\n")
    commit_all(git_repo)
    write(git_repo, "a.md", "edited\n")
    (git_repo / "b.md").unlink()
    write(git_repo, "new.md", "untracked\n")
    write(git_repo, "d/f.md", "untracked too\n")
    os.utime(git_repo / "touched.md", (1, 1))  # stat data differs, bytes do not
    write(git_repo, "c.md", "staged\n")
    git(git_repo, "add", "c.md")
    listing = listings.WorkTreeListing(git_repo)
    assert listing.entries() == listings.index_entries(git_repo)
    assert listing.modified() == listings.modified_paths(git_repo) == {"a.md", "b.md"}
    assert listing.untracked() == listings.untracked_paths(git_repo) == ["d/f.md", "new.md"]
    assert sorted(listing.differing()) == ["a.md", "b.md", "d/f.md", "new.md", "touched.md"]
    index, diff, others = listing.raw()
    assert index == git(git_repo, "ls-files", "-z", "-s", "-t").encode()
    assert others == b"d/f.md\0new.md\0"
    assert b"touched.md" in diff


def test_staged_changes_are_the_index_against_head(git_repo: Path) -> None:
    assert listings.staged_changes(git_repo) is None  # no HEAD yet
    for path in ("same.md", "edit.md", "gone.md", "old.md", "mode.sh"):
        write(git_repo, path, f"{path}\n")
    commit_all(git_repo)
    write(git_repo, "edit.md", "edited\n")
    write(git_repo, "new.md", "new\n")
    (git_repo / "mode.sh").chmod(0o755)
    write(git_repo, "unstaged.md", "not added\n")
    git(git_repo, "add", "edit.md", "new.md", "mode.sh")
    git(git_repo, "rm", "-q", "gone.md")
    git(git_repo, "mv", "old.md", "moved.md")
    changes = listings.staged_changes(git_repo)
    assert changes is not None
    assert {path: change.status for path, change in changes.items()} == {
        "edit.md": "M",
        "new.md": "A",
        "mode.sh": "M",
        "gone.md": "D",
        "old.md": "D",  # a rename is a deletion and an addition
        "moved.md": "A",
    }
    staged = index_of(git_repo)
    assert changes["edit.md"] == listings.Staged("M", "100644", staged["edit.md"])
    assert changes["mode.sh"].mode == "100755"
    assert listings.deleted(changes) == ["gone.md", "old.md"]


@posix_only
def test_head_entries_keep_every_blob_s_mode(git_repo: Path) -> None:
    assert listings.head_entries(git_repo, ["a.md"]) is None  # no HEAD yet
    write(git_repo, "a.md", "a\n")
    write(git_repo, "docs/b.md", "b\n")
    (git_repo / "link.md").symlink_to("a.md")
    commit_all(git_repo)
    entries = listings.head_entries(git_repo, ["a.md", "link.md", "docs", "missing.md"])
    assert entries is not None
    assert {path: mode for path, (mode, _) in entries.items()} == {
        "a.md": "100644",
        "link.md": "120000",
        "docs/b.md": "100644",
    }
    assert entries["a.md"][1] == index_of(git_repo)["a.md"]
