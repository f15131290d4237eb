from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from helpers import check_json, commit_all, git, pin_git_env, run, write

from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.core.errors import ChunkgateError, GitError
from chunkgate.corpus.select import SelectedFile, Selection, select_files
from chunkgate.git import process

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="symlinks and names of POSIX")


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(git_repo)
    return git_repo.resolve()


def blob_of(repo: Path, path: str) -> str:
    return git(repo, "rev-parse", f":{path}").strip()


def paths_of(selection: Selection) -> list[str]:
    return [file.path for file in selection.files]


def test_tracked_untracked_ignored_modified_and_deleted(repo: Path) -> None:
    write(repo, ".gitignore", "build/\n*.draft.md\n")
    for name in ["README.md", "docs/guide.md", "docs/changed.md", "docs/gone.md", "notes.txt"]:
        write(repo, name, f"# {name}\n")
    commit_all(repo)
    write(repo, "docs/changed.md", "# changed\n")
    (repo / "docs/gone.md").unlink()
    write(repo, "docs/new.md", "# new\n")
    write(repo, "build/out.md", "# ignored\n")
    write(repo, "docs/idea.draft.md", "# ignored\n")
    selection = select_files(load_config(repo))
    assert selection == Selection(
        files=(
            SelectedFile("README.md", blob_of(repo, "README.md")),
            SelectedFile("docs/changed.md", None),
            SelectedFile("docs/guide.md", blob_of(repo, "docs/guide.md")),
            SelectedFile("docs/new.md", None),
        ),
        missing=("docs/gone.md",),
        explicit=False,
    )
    tracked_only = select_files(load_config(repo), include_untracked=False)
    assert "docs/new.md" not in paths_of(tracked_only)
    assert selection.paths == tuple(paths_of(selection))


def test_include_and_exclude(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "include: ['docs/**/*.md', '*.txt']\nexclude: [docs/gen/]\n")
    for name in ["README.md", "a.txt", "docs/a.md", "docs/gen/api.md", "docs/x/b.md", "c.py"]:
        write(repo, name, "text\n")
    commit_all(repo)
    assert paths_of(select_files(load_config(repo))) == ["a.txt", "docs/a.md", "docs/x/b.md"]


def test_manifest_and_config_are_never_selected(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "include: ['**/*']\nmanifest: meta/chunks\n")
    write(repo, "meta/chunks/a.md.jsonl", "{}\n")
    write(repo, "meta/chunks/manifest.json", "{}\n")
    write(repo, "a.md", "a\n")
    commit_all(repo)
    assert paths_of(select_files(load_config(repo))) == ["a.md"]


def test_paths_are_sorted_by_utf8_bytes(repo: Path) -> None:
    names = ["Zeta.md", "alpha.md", "é.md", "z/a.md", "z.md", "z-a.md", "日本.md", "Ä.md"]
    for name in names:
        write(repo, name, "x\n")
    commit_all(repo)
    write(repo, "é2.md", "untracked\n")
    expected = sorted([*names, "é2.md"], key=lambda name: name.encode())
    assert paths_of(select_files(load_config(repo))) == expected


@posix_only
def test_symlinks_are_skipped(repo: Path, tmp_path: Path) -> None:
    write(repo, "real.md", "real\n")
    write(repo, "becomes-link.md", "file for now\n")
    (repo / "tracked-link.md").symlink_to("real.md")
    commit_all(repo)
    (repo / "untracked-link.md").symlink_to("real.md")
    (repo / "becomes-link.md").unlink()
    (repo / "becomes-link.md").symlink_to("real.md")
    assert paths_of(select_files(load_config(repo))) == ["real.md"]


def test_explicit_paths(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ["a.md", "docs/b.md", "docs/c.md", "docs/sub/d.md", "e.md", "notes.txt"]:
        write(repo, name, f"{name}\n")
    commit_all(repo)
    write(repo, "docs/untracked.md", "u\n")
    (repo / "e.md").unlink()
    monkeypatch.chdir(repo / "docs")
    selection = select_files(
        load_config(),
        ["b.md", "sub", str(repo / "a.md"), "../notes.txt", "../e.md", "gone.md", "b.md"],
    )
    assert selection.explicit
    assert paths_of(selection) == ["a.md", "docs/b.md", "docs/sub/d.md"]
    assert selection.missing == ("docs/gone.md", "e.md")
    assert selection.files[1].blob == blob_of(repo, "docs/b.md")


def test_explicit_untracked_and_ignored(repo: Path) -> None:
    write(repo, ".gitignore", "*.draft.md\n")
    write(repo, "a.md", "a\n")
    commit_all(repo)
    write(repo, "new.md", "n\n")
    write(repo, "x.draft.md", "ignored\n")
    config = load_config(repo)
    paths = ["a.md", "new.md", "x.draft.md"]
    assert paths_of(select_files(config, paths)) == ["a.md", "new.md"]
    assert paths_of(select_files(config, paths, include_untracked=False)) == ["a.md"]


def test_explicit_folder_and_root(repo: Path) -> None:
    for name in ["a.md", "docs/b.md", "docs/sub/c.md"]:
        write(repo, name, "x\n")
    commit_all(repo)
    write(repo, "docs/new.md", "n\n")
    config = load_config(repo)
    assert paths_of(select_files(config, ["docs"])) == ["docs/b.md", "docs/new.md", "docs/sub/c.md"]
    assert paths_of(select_files(config, ["."])) == paths_of(select_files(config))
    assert paths_of(select_files(config, [".", "docs"])) == paths_of(select_files(config))
    assert select_files(config, []) == Selection(files=(), missing=(), explicit=True)


def test_explicit_names_with_glob_characters_are_literal(repo: Path) -> None:
    for name in ["star*.md", "starry.md", "[ab].md", "a.md"]:
        write(repo, name, "x\n")
    commit_all(repo)
    config = load_config(repo)
    assert paths_of(select_files(config, ["star*.md", "[ab].md"])) == ["[ab].md", "star*.md"]


def test_pre_commit_style_call_costs_two_git_processes(repo: Path) -> None:
    for i in range(50):
        write(repo, f"docs/{i:02}.md", f"# {i}\n")
    commit_all(repo)
    config = load_config(repo)
    before = process.process_count()
    selection = select_files(config, ["docs/01.md", "docs/02.md", "setup.cfg"])
    assert paths_of(selection) == ["docs/01.md", "docs/02.md"]
    assert process.process_count() - before == 2


@pytest.mark.parametrize(
    "outside",
    [
        pytest.param("../elsewhere.md", id="relative"),
        pytest.param("{tmp}/elsewhere.md", id="absolute"),
        pytest.param("docs/../../elsewhere.md", id="dot-dot"),
    ],
)
def test_explicit_path_outside_the_root_is_refused(
    repo: Path, tmp_path: Path, outside: str
) -> None:
    write(tmp_path, "elsewhere.md", "x\n")
    given = outside.format(tmp=tmp_path)
    with pytest.raises(ChunkgateError, match=r"^path outside the repository: "):
        select_files(load_config(repo), [given])


@posix_only
def test_symlink_escaping_the_root_is_refused(repo: Path, tmp_path: Path) -> None:
    write(tmp_path, "secret/key.md", "x\n")
    (repo / "leak.md").symlink_to(tmp_path / "secret" / "key.md")
    (repo / "leakdir").symlink_to(tmp_path / "secret")
    (repo / "inside.md").symlink_to("real.md")
    write(repo, "real.md", "x\n")
    commit_all(repo)
    config = load_config(repo)
    for given in ["leak.md", "leakdir/key.md", "leakdir"]:
        with pytest.raises(ChunkgateError, match=f"path outside the repository: {given}"):
            select_files(config, [given])
    assert paths_of(select_files(config, ["inside.md", "real.md"])) == ["real.md"]


def _plain_tree(root: Path) -> None:
    write(root, ".gitignore", "secret*.md\nbuild/\n# a comment\n\n*.log\n")
    write(root, "docs/.gitignore", "!secret-ok.md\n/local.md\nsub/*.tmp.md\n")
    for name in [
        "README.md",
        "secret.md",
        "build/out.md",
        "docs/guide.md",
        "docs/secret.md",
        "docs/secret-ok.md",
        "docs/local.md",
        "docs/deep/local.md",
        "docs/build/x.md",
        "docs/sub/a.tmp.md",
        "docs/sub/b.md",
        "other/sub/a.tmp.md",
        "vendored/.git/HEAD.md",
        "vendored/kept.md",
    ]:
        write(root, name, f"# {name}\n")


PLAIN_SELECTED = [
    "README.md",
    "docs/deep/local.md",
    "docs/guide.md",
    "docs/secret-ok.md",
    "docs/sub/b.md",
    "other/sub/a.tmp.md",
    "vendored/kept.md",
]


def test_outside_git_walks_honouring_every_gitignore(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    _plain_tree(root)
    selection = select_files(Config(root=root.resolve()))
    assert paths_of(selection) == PLAIN_SELECTED
    assert all(file.blob is None for file in selection.files)


def test_outside_git_matches_what_git_would_select(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    _plain_tree(root)
    (root / "vendored/.git").rename(root / "vendored/dotgit")  # git refuses .git paths
    twin = tmp_path / "twin"
    _plain_tree(twin)
    (twin / "vendored/.git").rename(twin / "vendored/dotgit")
    git(twin, "init", "-q", "-b", "main")
    walked = paths_of(select_files(Config(root=root.resolve())))
    listed = paths_of(select_files(Config(root=twin.resolve())))
    assert walked == listed
    assert "vendored/dotgit/HEAD.md" in walked


@posix_only
def test_outside_git_never_follows_symlinked_folders(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write(root, "a.md", "a\n")
    write(tmp_path, "elsewhere/b.md", "b\n")
    (root / "linked").symlink_to(tmp_path / "elsewhere")
    (root / "link.md").symlink_to("a.md")
    assert paths_of(select_files(Config(root=root.resolve()))) == ["a.md"]


def test_outside_git_explicit_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "plain"
    _plain_tree(root)
    monkeypatch.chdir(root)
    config = Config(root=root.resolve())
    given = ["docs", "secret.md", "build/out.md", "README.md", "deleted.md", "vendored/.git"]
    selection = select_files(config, given)
    assert paths_of(selection) == [
        "README.md",
        "docs/deep/local.md",
        "docs/guide.md",
        "docs/secret-ok.md",
        "docs/sub/b.md",
    ]
    assert selection.missing == ("deleted.md",)
    assert paths_of(select_files(config, ["build"])) == []


def test_five_hundred_files(repo: Path) -> None:
    expected = []
    for i in range(500):
        folder = f"section-{i % 10}"
        name = f"{folder}/page-{i:03}.md" if i % 5 else f"{folder}/module_{i:03}.py"
        write(repo, name, f"# page {i}\n\ntext\n")
        expected.append(name)
        write(repo, f"{folder}/data-{i:03}.json", "{}\n")
    commit_all(repo)
    config = load_config(repo)
    before = process.process_count()
    started = time.perf_counter()
    selection = select_files(config)
    elapsed = time.perf_counter() - started
    assert paths_of(selection) == sorted(expected, key=lambda name: name.encode())
    assert all(file.blob is not None for file in selection.files)
    assert process.process_count() - before <= 3
    assert elapsed < 2.0


def test_selection_is_relative_to_the_config_root_not_cwd(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo, "a.md", "a\n")
    commit_all(repo)
    monkeypatch.chdir(tmp_path)
    assert paths_of(select_files(load_config(repo))) == ["a.md"]
    assert os.getcwd() == str(tmp_path)


def test_a_broken_repository_is_a_git_error(tmp_path: Path) -> None:
    root = tmp_path / "broken"
    write(root, ".git", "gitdir: /nonexistent/chunkgate/.git\n")
    write(root, "a.md", "a\n")
    with pytest.raises(GitError):
        select_files(Config(root=root.resolve()))


def test_outside_git_a_malformed_ignore_line_drops_only_itself(tmp_path: Path) -> None:
    """`!` alone is no pattern: git skips that line and keeps the others; so does the walk
    (it once dropped every pattern of the file, the error swallowed)."""
    root = tmp_path / "plain"
    write(root, ".gitignore", "!\nbuild-notes.md\n")
    write(root, "build-notes.md", "# Notes\n")
    write(root, "kept.md", "# Kept\n")
    assert paths_of(select_files(Config(root=root.resolve()))) == ["kept.md"]


OUTSIDE = {
    "package-lock.json": "its suffix .json is not a corpus suffix; add '**/*.json' to "
    "`include` (with the default ones) to bring it in",
    "CHANGELOG.md": "a changelog is left out by default; add 'CHANGELOG.md' to `include`",
    "docs/tests/t.md": "test data is left out by default; add 'docs/tests/**' to `include`",
    "vendor/v.md": "the `exclude` pattern 'vendor/**' leaves it out",
    "build/b.md": "git ignores it (`git check-ignore -v PATH` names the rule)",
    "nope.md": "no such file",
    ".chunkgate.yaml": "it is chunkgate's own configuration or manifest",
}


@pytest.fixture
def outside_repo(repo: Path) -> Path:
    write(repo, ".chunkgate.yaml", 'exclude: ["vendor/**"]\n')
    write(repo, ".gitignore", "build/\n")
    write(repo, "package-lock.json", "{}\n")
    for path in ("a.md", "CHANGELOG.md", "docs/tests/t.md", "vendor/v.md", "build/b.md"):
        write(repo, path, f"# {path}\n\nA page with enough words to be a section of its own.\n")
    write(repo, "deleted.md", "# Deleted\n\nA tracked page the commit deletes.\n")
    commit_all(repo)
    (repo / "deleted.md").unlink()
    return repo


def test_a_named_path_outside_the_corpus_says_why(outside_repo: Path) -> None:
    selection = select_files(load_config(outside_repo), [*OUTSIDE, "a.md", "deleted.md"])
    assert dict(selection.outside) == OUTSIDE  # a tracked file deleted is a deletion: checked
    assert selection.paths == ("a.md",)
    assert "deleted.md" in selection.missing


def test_check_says_why_a_named_path_is_not_checked(outside_repo: Path) -> None:
    _, output = run("check", "--format", "text", *OUTSIDE)
    lines = output.splitlines()
    for path, reason in OUTSIDE.items():
        assert f"{path}: not in the corpus: {reason}" in lines
    assert lines[-1].startswith("0 files, 0 chunks")
    _, document = check_json("package-lock.json")
    assert document["outside"] == [
        {"path": "package-lock.json", "reason": OUTSIDE["package-lock.json"]}
    ]
    # pre-commit passes every staged text file: the hook stays quiet about them
    _, hooked = run("check", "--hook", "--format", "text", "package-lock.json", "a.md")
    assert "not in the corpus" not in hooked
    run("update")  # with no manifest yet, `update PATHS` rebuilds the whole of it
    _, updated = run("update", "package-lock.json")
    assert f"package-lock.json: not in the corpus: {OUTSIDE['package-lock.json']}" in updated


def test_an_include_pattern_that_is_not_a_suffix_names_the_path(repo: Path) -> None:
    config = Config(root=repo, include=("docs/**/*.md",))
    assert config.left_out("README.md") == (
        "no `include` pattern matches it; add 'README.md' to `include` to bring it in"
    )
    assert config.left_out("docs/a.md") is None
