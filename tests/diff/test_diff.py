from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import MANIFEST, commit_all, git, pin_git_env, write

from chunkgate.cli import cli
from chunkgate.core.errors import ChunkgateError, GitError
from chunkgate.diff.compare import diff_revisions, fail_reasons, parse_fail_on
from chunkgate.diff.model import ChangeKind, ChunkDiff
from chunkgate.git import commits, objects, process
from chunkgate.git.autobase import resolve_auto_base
from chunkgate.report.diff import annotation, markdown, write_diff

NO_ORIGIN_FIX = (
    "this clone has no `origin` to fetch from: check the repository out with "
    "actions/checkout (or `git fetch` the commit before chunkgate runs)"
)


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def para(topic: str, n: int = 3) -> str:
    """A paragraph of distinct, non-tiny prose about ``topic``."""
    sentences = [
        f"The {topic} step {i} explains how readers configure {topic} option number {i} "
        f"before they run the {topic} command for the {i}th time in production."
        for i in range(n)
    ]
    return " ".join(sentences)


def doc(*sections: tuple[str, str], title: str = "Guide") -> str:
    parts = [f"# {title}\n\n{para(title.lower())}\n"]
    parts += [f"\n## {heading}\n\n{body}\n" for heading, body in sections]
    return "".join(parts)


def summary(diff: ChunkDiff) -> dict[str, object]:
    return {
        "added": [c.id for c in diff.added],
        "removed": [c.id for c in diff.removed],
        "modified": [c.chunk.id for c in diff.modified],
        "moved": [(c.before.id if c.before else "", c.chunk.id, c.how) for c in diff.moved],
        "unchanged": diff.unchanged,
    }


def expect(
    *,
    added: list[str] | None = None,
    removed: list[str] | None = None,
    modified: list[str] | None = None,
    moved: list[tuple[str, str, str]] | None = None,
    unchanged: int,
) -> dict[str, object]:
    return {
        "added": added or [],
        "removed": removed or [],
        "modified": modified or [],
        "moved": moved or [],
        "unchanged": unchanged,
    }


def two_commits(repo: Path, before: dict[str, str], after: dict[str, str | None]) -> ChunkDiff:
    for path, text in before.items():
        write(repo, path, text)
    first = commit_all(repo, "before")
    for path, content in after.items():
        if content is None:
            git(repo, "rm", "-q", path)
        else:
            write(repo, path, content)
    second = commit_all(repo, "after")
    return diff_revisions(repo, first, second)


INSTALL = para("install")
USAGE = para("usage")


def test_heading_rename_is_a_move(git_repo: Path) -> None:
    diff = two_commits(
        git_repo,
        {"docs/a.md": doc(("Install", INSTALL), ("Usage", USAGE))},
        {"docs/a.md": doc(("Installation", INSTALL), ("Usage", USAGE))},
    )
    assert summary(diff) == expect(
        moved=[("docs/a.md#install", "docs/a.md#installation", "body")], unchanged=2
    )
    assert diff.moved[0].similarity == 1.0
    assert not diff.moved[0].acknowledged


def test_file_rename_without_edits(git_repo: Path) -> None:
    write(git_repo, "docs/a.md", doc(("Install", INSTALL)))
    first = commit_all(git_repo)
    git(git_repo, "mv", "docs/a.md", "docs/b.md")
    second = commit_all(git_repo)
    assert summary(diff_revisions(git_repo, first, second)) == expect(
        moved=[
            ("docs/a.md#guide", "docs/b.md#guide", "identical"),
            ("docs/a.md#install", "docs/b.md#install", "identical"),
        ],
        unchanged=0,
    )


def test_file_rename_with_edits(git_repo: Path) -> None:
    write(git_repo, "docs/a.md", doc(("Install", INSTALL), ("Usage", USAGE)))
    first = commit_all(git_repo)
    git(git_repo, "mv", "docs/a.md", "docs/b.md")
    edited = USAGE.replace("production", "a staging environment first")
    write(git_repo, "docs/b.md", doc(("Install", INSTALL), ("Usage", edited)))
    second = commit_all(git_repo)
    diff = diff_revisions(git_repo, first, second)
    assert summary(diff) == expect(
        moved=[
            ("docs/a.md#guide", "docs/b.md#guide", "identical"),
            ("docs/a.md#install", "docs/b.md#install", "identical"),
            ("docs/a.md#usage", "docs/b.md#usage", "similar"),
        ],
        unchanged=0,
    )
    similarity = diff.moved[2].similarity
    assert similarity is not None
    assert 0.5 <= similarity < 1


def test_file_moved_into_another_folder(git_repo: Path) -> None:
    # An unrelated file with the same sections elsewhere must not steal the pairs.
    write(git_repo, "docs/a.md", doc(("Install", INSTALL)))
    write(git_repo, "other/b.md", doc(("Usage", USAGE)))
    first = commit_all(git_repo)
    (git_repo / "docs/guide").mkdir()
    git(git_repo, "mv", "docs/a.md", "docs/guide/a.md")
    second = commit_all(git_repo)
    assert summary(diff_revisions(git_repo, first, second)) == expect(
        moved=[
            ("docs/a.md#guide", "docs/guide/a.md#guide", "identical"),
            ("docs/a.md#install", "docs/guide/a.md#install", "identical"),
        ],
        unchanged=2,
    )


def test_duplicates_renumbered_when_a_same_named_section_is_inserted_above(
    git_repo: Path,
) -> None:
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Setup", INSTALL), ("Usage", USAGE))},
        {"a.md": doc(("Setup", para("new setup")), ("Setup", INSTALL), ("Usage", USAGE))},
    )
    assert summary(diff) == expect(
        added=["a.md#setup"],
        moved=[("a.md#setup", "a.md#setup-1", "identical")],
        unchanged=2,
    )


def test_section_split_in_two_keeps_its_id_modified(git_repo: Path) -> None:
    second_half = para("from source", 4)
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", f"{INSTALL}\n\n{second_half}"))},
        {"a.md": doc(("Install", INSTALL), ("From source", second_half))},
    )
    assert summary(diff) == expect(
        added=["a.md#from-source"], modified=["a.md#install"], unchanged=1
    )
    (change,) = diff.modified
    assert change.before is not None
    assert change.after is not None
    assert change.after.chars < change.before.chars


def test_rewritten_section_in_place_is_modified(git_repo: Path) -> None:
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", INSTALL))},
        {"a.md": doc(("Install", para("completely different words")))},
    )
    assert summary(diff) == expect(modified=["a.md#install"], unchanged=1)


def test_added_and_removed_sections_and_files(git_repo: Path) -> None:
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", INSTALL)), "gone.md": doc(("Old", para("old")), title="Gone")},
        {"a.md": doc(("Install", INSTALL), ("Usage", USAGE)), "gone.md": None},
    )
    assert summary(diff) == expect(
        added=["a.md#usage"], removed=["gone.md#gone", "gone.md#old"], unchanged=2
    )


def manifest_line(chunk_id: str, digest: str, moved_from: str | None = None) -> str:
    moved = f', "moved_from": "{moved_from}"' if moved_from else ""
    return (
        f'{{"id": "{chunk_id}", "lines": [1, 3], "chars": 10, "tokens": 3, '
        f'"hash": "{digest}"{moved}}}\n'
    )


def write_header(repo: Path, *, matching: bool = True) -> None:
    """The manifest folder's header: made with this repository's settings, or others."""
    from chunkgate.config.load import load_config
    from chunkgate.gate import expected_header
    from chunkgate.manifest import render_header

    header = expected_header(load_config(repo))
    if not matching:
        header = dataclasses.replace(header, config="size.max=1")
    write(repo, f"{MANIFEST}/manifest.json", render_header(header))


def test_moved_from_in_the_head_manifest_acknowledges_the_move(git_repo: Path) -> None:
    write(git_repo, "a.md", doc(("Install", INSTALL), ("Usage", USAGE)))
    first = commit_all(git_repo)
    write(git_repo, "a.md", doc(("Installation", INSTALL), ("Running", USAGE)))
    write_header(git_repo, matching=False)  # moves count whatever the settings
    write(
        git_repo,
        f"{MANIFEST}/a.md.jsonl",
        '{"file": "a.md", "blob": null, "chunks": 3}\n'
        + manifest_line("a.md#guide", "0" * 16)
        + manifest_line("a.md#installation", "1" * 16, moved_from="a.md#install")
        + manifest_line("a.md#running", "2" * 16, moved_from="a.md#somewhere-else"),
    )
    second = commit_all(git_repo)
    diff = diff_revisions(git_repo, first, second)
    acknowledged = {(c.before.id if c.before else "", c.acknowledged) for c in diff.moved}
    assert acknowledged == {("a.md#install", True), ("a.md#usage", False)}
    assert [c.chunk.id for c in diff.unstable] == ["a.md#running"]
    # The same manifest in the working tree counts when HEAD is the working tree.
    assert {c.acknowledged for c in diff_revisions(git_repo, first).moved} == {True, False}


def test_a_broken_head_manifest_is_a_note_not_an_error(git_repo: Path) -> None:
    write(git_repo, "a.md", doc(("Install", INSTALL)))
    first = commit_all(git_repo)
    write(git_repo, "a.md", doc(("Installation", INSTALL)))
    write(git_repo, f"{MANIFEST}/manifest.json", "<<<<<<< ours\n")
    diff = diff_revisions(git_repo, first)
    assert [c.acknowledged for c in diff.moved] == [False]
    assert any("merge conflict" in note for note in diff.notes)


def test_each_side_uses_its_own_config(git_repo: Path) -> None:
    text = doc(("Install", INSTALL), ("Usage", USAGE))
    write(git_repo, "a.md", text)
    write(git_repo, "notes.txt", para("notes"))
    first = commit_all(git_repo)
    write(git_repo, ".chunkgate.yaml", 'markdown: {split_level: 1}\ninclude: ["**/*.md"]\n')
    second = commit_all(git_repo)
    diff = diff_revisions(git_repo, first, second)
    # One chunk per level-1 section now: the guide chunk grows over its two
    # subsections (same ID: modified), whose own IDs are gone.
    assert summary(diff) == expect(
        modified=["a.md#guide"], removed=["a.md#install", "a.md#usage"], unchanged=0
    )
    assert any("different settings" in note for note in diff.notes)


def test_config_excluding_a_file_removes_its_chunks(git_repo: Path) -> None:
    write(git_repo, "a.md", doc(("Install", INSTALL)))
    write(git_repo, "gen/b.md", doc(title="Generated"))
    first = commit_all(git_repo)
    write(git_repo, ".chunkgate.yaml", 'exclude: ["gen/**"]\n')
    second = commit_all(git_repo)
    assert summary(diff_revisions(git_repo, first, second)) == expect(
        removed=["gen/b.md#generated"], unchanged=2
    )


def test_a_range_across_many_commits(git_repo: Path) -> None:
    sections = {name: para(name) for name in ("alpha", "beta", "gamma", "delta", "epsilon")}
    write(git_repo, "base.md", doc(*sections.items()))
    first = commit_all(git_repo, "first")
    last = first
    for n in range(1, 30):
        write(git_repo, f"notes/n{n:02d}.md", f"# Note {n}\n\n{para(f'note {n}')}\n")
        if n == 10:
            renamed = dict(sections)
            renamed["Beta renamed"] = renamed.pop("beta")
            sections = {
                k: renamed[k] for k in ("alpha", "Beta renamed", "gamma", "delta", "epsilon")
            }
        if n == 20:
            sections["delta"] = para("delta", 5)
        if n == 25:
            del sections["epsilon"]
        write(git_repo, "base.md", doc(*sections.items()))
        last = commit_all(git_repo, f"commit {n}")
    diff = diff_revisions(git_repo, first, last)
    assert summary(diff) == expect(
        added=[f"notes/n{n:02d}.md#note-{n}" for n in range(1, 30)],
        removed=["base.md#epsilon"],
        modified=["base.md#delta"],
        moved=[("base.md#beta", "base.md#beta-renamed", "body")],
        unchanged=3,
    )
    assert diff.base == first
    assert diff.head == last
    assert summary(diff_revisions(git_repo, f"{first}..{last}")) == summary(diff)


def test_merge_base_range(git_repo: Path) -> None:
    write(git_repo, "a.md", doc(("Install", INSTALL)))
    fork = commit_all(git_repo)
    git(git_repo, "checkout", "-q", "-b", "feature")
    write(git_repo, "a.md", doc(("Install", INSTALL), ("Usage", USAGE)))
    feature = commit_all(git_repo, "feature")
    git(git_repo, "checkout", "-q", "main")
    write(git_repo, "main-only.md", doc(title="Main only"))
    commit_all(git_repo, "main moves on")
    diff = diff_revisions(git_repo, "main...feature")
    assert (diff.base, diff.head) == (fork, feature)
    assert summary(diff) == expect(added=["a.md#usage"], unchanged=2)
    # Without the merge base, main's own commit shows up as a removal.
    assert (
        "main-only.md#main-only" in summary(diff_revisions(git_repo, "main", "feature"))["removed"]
    )  # type: ignore[operator]
    with pytest.raises(ChunkgateError, match="not both"):
        diff_revisions(git_repo, "main...feature", "main")


def test_working_tree_against_head(git_repo: Path) -> None:
    write(git_repo, "a.md", doc(("Install", INSTALL), ("Usage", USAGE)))
    head = commit_all(git_repo)
    write(git_repo, "a.md", doc(("Install", INSTALL + " Edited."), ("Usage", USAGE)))
    write(git_repo, "new.md", "# New\n\nAn untracked file with a few words.\n")
    diff = diff_revisions(git_repo)
    assert (diff.base, diff.head, diff.head_name) == (head, "working tree", "working tree")
    assert summary(diff) == expect(added=["new.md#new"], modified=["a.md#install"], unchanged=2)
    (change,) = diff.modified
    assert change.before is not None
    assert change.after is not None
    assert change.after.chars - change.before.chars == len(" Edited.")


def write_manifest(repo: Path, paths: list[str]) -> None:
    from chunkgate.chunking.files import chunk_file
    from chunkgate.manifest import FileEntry, render_block

    write_header(repo)
    blobs = objects.hash_blobs(repo, paths)
    for path in paths:
        entry = FileEntry.from_chunks(path, blobs[path], chunk_file(repo / path, root=repo))
        write(repo, f"{MANIFEST}/{path}.jsonl", render_block(entry))


def test_unchanged_files_are_not_chunked_when_the_head_manifest_knows_them(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunkgate.diff.sides

    write(git_repo, "a.md", doc(("Install", INSTALL)))
    write(git_repo, "b.md", doc(("Usage", USAGE)))
    first = commit_all(git_repo)
    write(git_repo, "a.md", doc(("Install", INSTALL), ("More", para("more"))))
    write_manifest(git_repo, ["a.md", "b.md"])
    second = commit_all(git_repo)
    chunked: list[str] = []
    real = chunkgate.diff.sides.chunk_bytes

    def spy(data: bytes, path: str, **kwargs: object) -> object:
        chunked.append(path)
        return real(data, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chunkgate.diff.sides, "chunk_bytes", spy)
    before = process.process_count()
    diff = diff_revisions(git_repo, first, second)
    assert summary(diff) == expect(added=["a.md#more"], unchanged=4)
    assert chunked == ["a.md", "a.md"]
    # find_root, two rev-parse, cat-file and two ls-tree: one process per question.
    assert process.process_count() - before == 6
    # Without a manifest the unchanged file is chunked once, on the head side.
    git(git_repo, "rm", "-q", "-r", MANIFEST)
    third = commit_all(git_repo)
    chunked.clear()
    assert diff_revisions(git_repo, first, third).unchanged == 4
    assert sorted(chunked) == ["a.md", "a.md", "b.md"]


def test_the_working_side_lists_its_manifest_from_its_own_selection(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunkgate.manifest import WorkTreeManifest

    write(git_repo, "a.md", doc(("Install", INSTALL)))
    write(git_repo, "b.md", doc(("Usage", USAGE)))
    write(git_repo, "c.md", doc(("Notes", para("notes"))))
    write_manifest(git_repo, ["a.md", "b.md", "c.md"])
    commit_all(git_repo)
    # In the working tree: a shard edited, one new and untracked, one deleted.
    write(git_repo, "b.md", doc(("Usage", USAGE), ("More", para("more"))))
    write(git_repo, "d.md", doc(("Extra", para("extra"))))
    write_manifest(git_repo, ["b.md", "d.md"])
    (git_repo / "c.md").unlink()
    (git_repo / MANIFEST / "c.md.jsonl").unlink()
    before = process.process_count()
    taken = diff_revisions(git_repo)
    asked = process.process_count() - before
    # The folder listed on its own, as before: the same answer from four more git
    # processes (its ls-files, diff-files, the edited shard's hash-object, untracked).
    monkeypatch.setattr(WorkTreeManifest, "list_from", lambda self, tree: None)
    before = process.process_count()
    listed = diff_revisions(git_repo)
    assert process.process_count() - before == asked + 4
    assert taken.to_dict() == listed.to_dict()
    assert summary(taken) == expect(
        added=["b.md#more", "d.md#extra"],
        removed=["c.md#notes"],
        moved=[("c.md#guide", "d.md#guide", "identical")],
        unchanged=4,  # a.md's two chunks, counted from its summary, and b.md's two
    )


def shallow_clone(tmp_path: Path, origin: Path, name: str = "clone") -> Path:
    clone = tmp_path / name
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{origin}", os.fspath(clone)],
        check=True,
        capture_output=True,
    )
    return clone


@pytest.fixture
def origin(git_repo: Path) -> tuple[Path, str, str]:
    write(git_repo, "a.md", doc(("Install", INSTALL)))
    first = commit_all(git_repo)
    write(git_repo, "a.md", doc(("Installation", INSTALL)))
    second = commit_all(git_repo)
    return git_repo, first, second


def test_shallow_clone_fetches_the_missing_base(
    tmp_path: Path, origin: tuple[Path, str, str]
) -> None:
    repo, first, _ = origin
    clone = shallow_clone(tmp_path, repo)
    assert commits.is_shallow(clone)
    diff = diff_revisions(clone, first)
    assert (diff.base, diff.head) == (first, "working tree")
    assert summary(diff) == expect(
        moved=[("a.md#install", "a.md#installation", "body")], unchanged=1
    )
    assert commits.is_shallow(clone)


def test_shallow_clone_without_a_remote_says_how_to_fix_it(
    tmp_path: Path, origin: tuple[Path, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, first, _ = origin
    monkeypatch.delenv("CI", raising=False)  # a clone of one's own
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    clone = shallow_clone(tmp_path, repo)
    git(clone, "remote", "remove", "origin")
    with pytest.raises(GitError) as caught:
        diff_revisions(clone, first)
    message = str(caught.value)
    # git's own words, and the fix for this case: there is no remote to fetch from.
    assert message.startswith(f"commit {first} is not in this clone and could not be fetched")
    assert "'origin' does not appear to be a git repository" in message
    assert message.endswith(NO_ORIGIN_FIX)
    with pytest.raises(GitError) as caught:
        diff_revisions(clone, "HEAD~1")
    assert str(caught.value) == (
        "git rev-parse: unknown revision 'HEAD~1': HEAD is here, but not the history before "
        "it (a shallow clone): run `git fetch --unshallow` to fetch the whole history"
    )
    monkeypatch.chdir(clone)
    result = CliRunner().invoke(cli, ["diff", first])
    assert result.exit_code == 2
    assert result.stderr == f"chunkgate: error: {message}\n"


def test_a_revision_that_does_not_exist(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(git_repo, "a.md", "# A\n")
    commit_all(git_repo)
    monkeypatch.chdir(git_repo)
    result = CliRunner().invoke(cli, ["diff", "no-such-branch"])
    assert result.exit_code == 2
    assert result.stderr == "chunkgate: error: git rev-parse: unknown revision 'no-such-branch'\n"
    assert result.stdout == ""


def test_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a git repository"):
        diff_revisions(tmp_path)


@pytest.fixture
def renamed(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(git_repo, "a.md", doc(("Install", INSTALL), ("Usage", USAGE), ("Gone", para("gone"))))
    commit_all(git_repo)
    write(git_repo, "a.md", doc(("Installation", INSTALL), ("Usage", USAGE + " More.")))
    monkeypatch.chdir(git_repo)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    return git_repo


def test_json_output_has_the_spec_keys(renamed: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["base", "head", "added", "removed", "modified", "moved", "unchanged"]
    assert data["head"] == "working tree"
    assert len(data["base"]) == 40
    (removed,) = data["removed"]
    assert "text" not in removed
    assert list(removed)[:12] == [
        "id", "path", "kind", "language", "symbol", "heading_path", "level",
        "start_line", "end_line", "chars", "tokens", "hash",
    ]  # fmt: skip
    (modified,) = data["modified"]
    assert list(modified) == ["id", "before", "after"]
    assert modified["after"]["chars"] - modified["before"]["chars"] == len(" More.")
    (moved,) = data["moved"]
    assert {"from", "to", "similarity"} <= set(moved)
    assert (moved["from"], moved["to"], moved["similarity"]) == (
        "a.md#install",
        "a.md#installation",
        1.0,
    )
    assert (moved["how"], moved["acknowledged"]) == ("body", False)
    assert data["unchanged"] == 1


@pytest.mark.parametrize(
    ("fail_on", "code"),
    [
        pytest.param("", 0, id="nothing"),
        pytest.param("unstable", 1, id="unstable"),
        pytest.param("removed", 1, id="removed"),
        pytest.param("oversized", 0, id="oversized-not-present"),
        pytest.param("unstable, removed", 1, id="list"),
        pytest.param("unstable,bogus", 2, id="unknown"),
    ],
)
def test_fail_on_sets_the_exit_code(renamed: Path, fail_on: str, code: int) -> None:
    result = CliRunner().invoke(cli, ["diff", "--format", "text", "--fail-on", fail_on])
    assert result.exit_code == code, result.output


def test_oversized_uses_the_head_config(renamed: Path) -> None:
    write(renamed, ".chunkgate.yaml", "size: {max: 100, min: 0}\n")
    result = CliRunner().invoke(cli, ["diff", "-q", "--fail-on", "oversized"])
    assert result.exit_code == 1
    assert "over size.max (100 chars)" in result.stderr
    diff = diff_revisions(renamed)
    assert fail_reasons(diff, ["oversized"])
    assert parse_fail_on(" unstable,,removed ") == ("unstable", "removed")


def test_text_output(renamed: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", "--format", "text"])
    lines = result.stdout.splitlines()
    assert lines[0].startswith("chunkgate diff HEAD (")
    assert lines[0].endswith(") → working tree")
    assert lines[1:] == [
        "→ a.md#install → a.md#installation (body, 100%; unstable)",
        "~ a.md#usage 417 → 423 chars (+6)",
        "- a.md#gone (407 chars)",
        "0 added, 1 removed, 1 modified, 1 moved (1 unstable), 1 unchanged",
    ]


def test_rich_output_groups_by_file(renamed: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", "--format", "rich"], env={"NO_COLOR": "1"})
    assert result.exit_code == 0
    out = result.stdout
    assert "a.md" in out
    assert "a.md#install → a.md#installation" in out
    assert "417 → 423 chars (+6)" in out
    assert "unchanged" in out


def test_markdown_output(renamed: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", "--format", "markdown"])
    out = result.stdout
    assert out.startswith("### chunkgate diff `HEAD (")
    assert "| + added | 0 |" in out
    assert "| of which unstable | 1 |" in out
    assert "**1 unstable chunk ID**" in out
    assert "#### `a.md`" in out
    assert "- ↪️ `a.md#install` → `a.md#installation` (body, 100%; **unstable**)" in out
    assert "- ✏️ `a.md#usage` 417 → 423 chars (+6)" in out


def test_markdown_folds_long_lists_and_fits_its_budget(git_repo: Path) -> None:
    write(git_repo, "a.md", "# A\n\nSome text here for the base.\n")
    commit_all(git_repo)
    write(git_repo, "a.md", "".join(f"# S{n}\n\nSection {n} text.\n\n" for n in range(40)))
    diff = diff_revisions(git_repo)
    text = markdown(diff)
    assert "<details><summary>41 changes</summary>" in text
    small = markdown(diff, budget=1500)
    assert len(small.encode()) <= 1500
    listed = small.count("\n- ")
    assert 0 < listed < 41
    assert f"_{41 - listed} of 41 changes not listed: a job summary holds at most 1 MiB." in small
    assert small.count("<details>") == small.count("</details>")


def test_github_output(renamed: Path, tmp_path: Path) -> None:
    summary_file = tmp_path / "summary.md"
    summary_file.write_text("earlier step\n")
    result = CliRunner().invoke(
        cli,
        ["diff", "--fail-on", "unstable"],
        env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": os.fspath(summary_file)},
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "::error title=chunkgate diff::chunkgate diff: 1 chunk ID changed without `moved_from`"
    )
    assert lines[1] == (
        "::error file=a.md,line=5,endLine=7,title=chunkgate%3A unstable chunk ID::"
        "ID changed from a.md#install to a.md#installation: citations to a.md#install break; "
        "keep the old heading (Install) or run `chunkgate update --accept-moves`"
    )
    assert lines[-1].endswith("0 added, 1 removed, 1 modified, 1 moved (1 unstable), 1 unchanged")
    written = summary_file.read_text()
    assert written.startswith("earlier step\n### chunkgate diff")
    # Without --fail-on unstable the same IDs are warnings.
    result = CliRunner().invoke(cli, ["diff", "--format", "github"])
    assert result.stdout.startswith("::warning file=a.md,line=5,")


def test_github_escaping() -> None:
    assert annotation("error", "100%\r\ndone", file="a:b,c%.md", line=3) == (
        "::error file=a%3Ab%2Cc%25.md,line=3::100%25%0D%0Adone"
    )
    assert annotation("notice", "plain") == "::notice::plain"


def test_github_annotations_are_capped(git_repo: Path) -> None:
    text = "".join(f"# Part {n}\n\n{para(f'part {n}')}\n\n" for n in range(12))
    write(git_repo, "a.md", text)
    commit_all(git_repo)
    write(git_repo, "a.md", text.replace("# Part", "# Chapter"))
    from io import StringIO

    out = StringIO()
    write_diff(diff_revisions(git_repo), "github", out, env={})
    lines = out.getvalue().splitlines()
    assert sum(line.startswith("::warning ") for line in lines) == 10
    assert (
        "::notice title=chunkgate%3A more findings::2 more warnings not annotated "
        "(GitHub shows 10 of each level per step): `chunkgate diff` lists them all"
    ) in lines


def test_auto_base_reads_the_pull_request_event(
    origin: tuple[Path, str, str], tmp_path: Path
) -> None:
    repo, first, _ = origin
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": first}}}))
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": os.fspath(event)}
    assert resolve_auto_base(repo, env) == first
    event.write_text(json.dumps({"before": first, "after": "x"}))
    assert resolve_auto_base(repo, env) == first
    event.write_text(json.dumps({"before": "0" * 40}))
    with pytest.raises(GitError, match="no origin/HEAD"):
        resolve_auto_base(repo, env)


def test_auto_base_elsewhere_is_the_merge_base_with_origin(
    origin: tuple[Path, str, str], tmp_path: Path
) -> None:
    repo, _, second = origin
    clone = tmp_path / "full"
    git(tmp_path, "clone", "-q", f"file://{repo}", os.fspath(clone))
    git(clone, "checkout", "-q", "-b", "topic")
    write(clone, "b.md", "# B\n\nA new file on the topic branch.\n")
    commit_all(clone)
    assert resolve_auto_base(clone, {}) == second


def test_auto_base_in_a_shallow_pull_request_checkout_fetches_the_base(
    origin: tuple[Path, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, first, _ = origin
    clone = shallow_clone(tmp_path, repo)
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": first}}}))
    monkeypatch.chdir(clone)
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": os.fspath(event)}
    result = CliRunner().invoke(cli, ["diff", "--base", "auto", "--format", "text"], env=env)
    assert result.exit_code == 0, result.output
    assert "→ a.md#install → a.md#installation (body, 100%; unstable)" in result.stdout


def test_own_history_diffs_without_error() -> None:
    here = Path(__file__).resolve().parents[2]
    assert process.find_root(here) == here  # a clone, as the README's test command runs in
    roots = git(here, "rev-list", "--max-parents=0", "HEAD").split()
    if int(git(here, "rev-list", "--count", "HEAD")) >= 2:
        diff = diff_revisions(here, roots[-1], "HEAD")
        assert diff.head == git(here, "rev-parse", "HEAD").strip()
    else:  # a single commit so far: its tree against the working tree
        diff = diff_revisions(here)
        assert diff.head == "working tree"
    assert diff.unchanged + len(diff.added) + len(diff.modified) + len(diff.moved) > 0
    assert all(change.kind in ChangeKind for change in diff.changes())
    json.dumps(diff.to_dict())


def test_cli_debug_git_counts_processes(renamed: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "chunkgate", "diff", "--format", "text"],
        capture_output=True,
        text=True,
        env={**os.environ, "CHUNKGATE_DEBUG_GIT": "1"},
        check=False,
        cwd=renamed,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("chunkgate: ")
    assert proc.stderr.endswith(" git processes\n")


def long_body(topic: str, paragraphs: int) -> str:
    return "\n\n".join(para(f"{topic} {n}", 4) for n in range(paragraphs))


def test_a_section_growing_a_part_is_modified_not_added(git_repo: Path) -> None:
    # 4 paragraphs of ~640 chars are 2 parts of size.max 2,000; 7 are 3.
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", long_body("install", 5)))},
        {"a.md": doc(("Install", long_body("install", 8)))},
    )
    assert summary(diff) == expect(modified=["a.md#install"], unchanged=1)
    (change,) = diff.modified
    assert change.before is not None
    assert change.after is not None
    assert 1 < change.before.parts < change.after.parts
    assert fail_reasons(diff, ["removed", "unstable", "oversized"]) == []


def test_a_section_losing_a_part_is_modified_not_removed(git_repo: Path) -> None:
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", long_body("install", 8)))},
        {"a.md": doc(("Install", long_body("install", 5)))},
    )
    assert summary(diff) == expect(modified=["a.md#install"], unchanged=1)
    assert fail_reasons(diff, ["removed"]) == []


def test_an_edit_that_moves_every_cut_is_one_modification(git_repo: Path) -> None:
    body = long_body("install", 6)
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", body), ("Usage", USAGE))},
        {
            "a.md": doc(
                ("Install", para("an inserted first paragraph") + "\n\n" + body), ("Usage", USAGE)
            )
        },
    )
    assert summary(diff) == expect(modified=["a.md#install"], unchanged=2)


def test_a_renamed_long_section_is_one_move(git_repo: Path) -> None:
    body = long_body("install", 6)
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Install", body))},
        {"a.md": doc(("Installation", body))},
    )
    assert summary(diff) == expect(
        moved=[("a.md#install", "a.md#installation", "body")], unchanged=1
    )


def test_oversized_looks_at_the_parts(git_repo: Path) -> None:
    fence = "```text\n" + "INFO  Started server process [27365] " * 70 + "\n```"
    diff = two_commits(
        git_repo,
        {"a.md": doc(("Run", USAGE))},
        {"a.md": doc(("Run", f"{USAGE}\n\n{fence}"), ("Install", long_body("install", 6)))},
    )
    (big,) = diff.oversized()
    assert (big.id, big.unsplittable.split(" (")[0]) == ("a.md#run~2", "fenced code block")
    (reason,) = fail_reasons(diff, ["oversized"])
    assert reason == "1 chunk over size.max (2000 chars)"
