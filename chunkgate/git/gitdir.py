"""The git directory of a work tree, found as git finds it, without starting git."""

from __future__ import annotations

from pathlib import Path


def git_directory(folder: Path) -> tuple[Path, Path] | None:
    """The work tree holding ``folder`` and its git directory: the nearest ``.git``
    above it, a folder or a ``gitdir:`` file (a linked work tree, a submodule);
    None when no ``.git`` holds it."""
    for top in (folder, *folder.parents):
        dotgit = top / ".git"
        if dotgit.is_dir():
            return top, dotgit
        if dotgit.is_file():
            try:
                line = dotgit.read_text(encoding="utf-8", errors="surrogateescape")
            except OSError:
                return None
            key, _, where = line.strip().partition(": ")
            if key != "gitdir" or not where:
                return None
            found = top / where  # absolute, or relative to the work tree
            return (top, found) if found.is_dir() else None
    return None
