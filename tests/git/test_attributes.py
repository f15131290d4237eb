"""git.attributes: ``check-attr`` and the files git reads attributes from."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import git, pin_git_env, write

from chunkgate.git import attributes, process


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def test_gitattributes_flags(git_repo: Path) -> None:
    write(
        git_repo,
        ".gitattributes",
        "gen/** linguist-generated\n"
        "gen/keep.md -linguist-generated\n"
        "vendor/** linguist-vendored=true\n"
        "docs/api.md linguist-generated=false\n"
        "docs/both.md linguist-generated linguist-vendored\n",
    )
    paths = ["gen/a.md", "gen/keep.md", "vendor/lib/x.py", "docs/api.md", "docs/both.md", "b c.md"]
    before = process.process_count()
    flags = attributes.gitattributes_flags(git_repo, paths)
    assert process.process_count() == before + 1
    assert flags == {
        "gen/a.md": {"linguist-generated"},
        "vendor/lib/x.py": {"linguist-vendored"},
        "docs/both.md": {"linguist-generated", "linguist-vendored"},
    }
    assert attributes.gitattributes_flags(git_repo, []) == {}


def test_gitattributes_flags_for_odd_names(git_repo: Path) -> None:
    write(git_repo, ".gitattributes", "*.md linguist-generated\n")
    names = ["with space.md", "ünï.md", "star*.md", "a.py"]
    flags = attributes.gitattributes_flags(git_repo, names, attrs=("linguist-generated",))
    assert flags == {name: {"linguist-generated"} for name in names if name.endswith(".md")}


def test_files_above_are_every_folder_s_gitattributes() -> None:
    assert attributes.files_above(["a/b/c.md", "a/d.md", "top.md"]) == [
        ".gitattributes",
        "a/.gitattributes",
        "a/b/.gitattributes",
    ]
    assert attributes.files_above([]) == [".gitattributes"]


def test_attributes_files_are_the_ones_git_reads(
    git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(git_repo, "a.md", "a\n")
    user = tmp_path / "user-attributes"
    user.write_text("*.md linguist-generated\n")
    info, default = attributes.attributes_files(git_repo)
    assert info.resolve() == (git_repo / ".git" / "info" / "attributes").resolve()
    assert default.parts[-2:] == ("git", "attributes")
    git(git_repo, "config", "core.attributesFile", str(user))
    assert attributes.attributes_files(git_repo)[1] == user
    # git itself reads the file named: the attribute it sets is found.
    assert attributes.gitattributes_flags(git_repo, ["a.md"]) == {"a.md": {"linguist-generated"}}
