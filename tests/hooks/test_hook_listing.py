"""The hook's git listings, started before the configuration is loaded (git.NamedListing):
the same report as asking git when the run needs it, for every kind of named file."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import check_json, commit_all, git, git_env, manifest_snapshot, pin_git_env, write
from helpers import invoke as run

from chunkgate import git as gitmodule
from chunkgate.config import load_config
from chunkgate.gate import run_check
from chunkgate.hooks import start as hookstart

SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"
NAMED = ("docs/a.md", "docs/b.md", "docs/gen.md", "src/tool.py", "docs/gone.md")


def page(*headings: str) -> str:
    return "".join(f"## {heading}\n\n{SECTION}\n" for heading in headings)


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    """A commit in progress touching files of every kind the hook is given: edited and
    staged, staged then edited again, marked generated in .gitattributes, left out by
    the configuration, deleted; plus a staged deletion it is not given. The attribute
    comes after adoption, so that what it makes the rules find is new."""
    write(cli_repo, ".chunkgate.yaml", "include: ['docs/**']\n")
    for name in ("a", "b", "gen", "gone", "renamed"):
        write(cli_repo, f"docs/{name}.md", page(name.title(), "Usage"))
    write(cli_repo, "src/tool.py", "def tool():\n    return 1\n")
    commit_all(cli_repo)
    assert run("update").exit_code == 0
    commit_all(cli_repo)
    write(cli_repo, "docs/a.md", page("A", "Usage", "More"))
    write(cli_repo, "docs/b.md", page("B", "Usage", "Staged"))
    write(cli_repo, "docs/gen.md", page("Gen", "Usage", "Again"))
    write(cli_repo, "src/tool.py", "def tool():\n    return 2\n")
    write(cli_repo, ".gitattributes", "docs/gen.md linguist-generated\n")
    git(cli_repo, "add", "-A")
    write(cli_repo, "docs/b.md", page("B", "Usage", "Not staged"))
    git(cli_repo, "rm", "-q", "docs/gone.md", "docs/renamed.md")
    return cli_repo


def _index_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, list[str] | None]]:
    """Each call of git.index_entries: (on the main thread, its paths)."""
    calls: list[tuple[bool, list[str] | None]] = []
    real = gitmodule.index_entries

    def counted(root: Path, paths: list[str] | None = None) -> tuple[dict[str, str], set[str]]:
        calls.append((threading.current_thread() is threading.main_thread(), paths))
        return real(root, paths)

    monkeypatch.setattr(gitmodule, "index_entries", counted)
    return calls


@pytest.mark.parametrize("update", [False, True])
@pytest.mark.parametrize("untracked", [False, True])
def test_the_early_listing_gives_the_report_of_the_late_one(
    repo: Path, monkeypatch: pytest.MonkeyPatch, update: bool, untracked: bool
) -> None:
    # An untracked file among those given: the early listing asks the index after all.
    named = [*NAMED, *(["docs/new.md"] if untracked else [])]
    write(repo, "docs/new.md", "## New\n\nA page of its own, in words no other page here holds.\n")
    args = ["--hook", *(["--update"] if update else []), *named]
    calls = _index_calls(monkeypatch)
    early = check_json(*args)
    assert calls == ([(True, named)] if untracked else [])  # settled without the index
    written = manifest_snapshot(repo)
    git(repo, "checkout", "-q", "--", "chunkgate.manifest")  # what --update wrote
    git(repo, "clean", "-q", "-f", "--", "chunkgate.manifest")
    monkeypatch.setattr(hookstart, "named_listing", lambda paths: None)
    calls.clear()
    late = check_json(*args)
    selected = ["docs/a.md", "docs/b.md", "docs/gen.md", "docs/gone.md"]
    assert calls == [(True, [*selected, *(["docs/new.md"] if untracked else [])])]
    assert early == late
    assert manifest_snapshot(repo) == written
    code, report = early
    assert code == 1
    found = {(v["rule"], v["path"]) for v in report["violations"]}
    # The deletions (given, and only staged) and the generated file's attribute count.
    assert {("CG403", "docs/renamed.md"), ("CG301", "docs/gen.md")} <= found
    assert not any(path == "src/tool.py" for _, path in found)


def test_a_listing_of_other_paths_or_another_root_is_not_used(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(repo)
    expected = run_check(config, list(NAMED))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    git(elsewhere, "init", "-q")
    calls = _index_calls(monkeypatch)
    listings = [
        gitmodule.NamedListing(repo, ["docs/a.md"]),
        gitmodule.NamedListing(elsewhere, list(NAMED)),
    ]
    for listing in listings:
        calls.clear()
        assert run_check(config, list(NAMED), listing=listing) == expected
        assert (True, ["docs/a.md", "docs/b.md", "docs/gen.md", "docs/gone.md"]) in calls


def test_the_hook_lists_early_only_files_and_few_of_them(repo: Path) -> None:
    assert hookstart.named_listing(["docs/a.md"]) is not None
    assert hookstart.named_listing(["docs"]) is None  # a folder: its files' attributes differ
    assert hookstart.named_listing(["."]) is None
    assert (
        hookstart.named_listing([f"docs/{n}.md" for n in range(hookstart.EARLY_PATHS + 1)]) is None
    )
    assert hookstart.named_listing(["../outside.md"]) is None  # the run itself says why
    assert run("check", "--hook", "../outside.md").exit_code == 2


@pytest.mark.parametrize(
    ("argv", "paths"),
    [
        (["check", "--update", "--hook", "a.md", "b.md"], ["a.md", "b.md"]),
        (["check", "--hook", "--format=json", "-q", "a.md"], ["a.md"]),
        (["check", "--hook", "--", "-odd.md", "--hook"], ["-odd.md", "--hook"]),
        (["check", "--hook"], []),
        (["check", "--hook", "--format", "json", "a.md"], None),  # "json" is no path
        (["check", "--hook", "-j", "2", "a.md"], None),
        (["check", "--hook", "--config", "other.yaml", "a.md"], None),
        (["check", "--update", "a.md"], None),  # not the hook
        (["chunks", "--hook", "a.md"], None),
        ([], None),
    ],
)
def test_the_console_script_reads_only_a_plain_hook_command_line(
    argv: list[str], paths: list[str] | None
) -> None:
    assert hookstart._hook_paths(argv) == paths


@pytest.mark.parametrize(
    ("argv", "whole"),
    [
        (["check"], True),
        (["check", "-q", "--all", "--format=json", "--strict"], True),
        (["check", "--update"], True),
        (["update", "-q", "--accept-moves"], True),
        (["check", "--format", "json"], False),  # "json" could be a path: click decides
        (["check", "docs"], False),
        (["check", "--hook"], False),  # a hook run given no files checks none
        (["check", "--config=other.yaml"], False),
        (["update", "docs/a.md"], False),
        (["chunks"], False),
        ([], False),
    ],
)
def test_the_console_script_starts_a_whole_listing_for_a_plain_whole_run(
    repo: Path, argv: list[str], whole: bool
) -> None:
    hookstart.start(argv)
    started = hookstart.take_whole()
    assert (started is not None) == whole
    assert hookstart.take_whole() is None  # handed out once only
    if started is not None:
        assert started.root == repo
        assert started.raw() == gitmodule.WorkTreeListing(repo).raw()


def test_a_whole_run_uses_the_started_listing_with_the_same_report(repo: Path) -> None:
    script = (
        "import sys\n"
        "from chunkgate import git\n"
        "from chunkgate.hooks import start as hookstart\n"
        "real = hookstart.start\n"
        "def start(argv):\n"
        "    assert 'click' not in sys.modules\n"
        "    real(argv)\n"
        "    assert hookstart._whole is not None\n"
        "    def refused(self, root):\n"
        "        raise AssertionError('the command started a listing of its own')\n"
        "    git.WorkTreeListing.__init__ = refused\n"
        "hookstart.start = start\n"
        "from chunkgate.__main__ import main\n"
        "main()\n"
    )
    env = {**os.environ, **git_env(), "NO_COLOR": "1"}
    late, early = (
        subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, check=False)
        for command in (
            [sys.executable, "-m", "chunkgate", "check", "--format", "json"],
            [sys.executable, "-c", script, "check", "--format=json"],
        )
    )
    assert early.stderr == late.stderr
    assert (early.returncode, early.stdout) == (late.returncode, late.stdout)
    assert '"CG401"' in early.stdout


def test_the_command_takes_the_started_listing_only_for_its_own_paths(repo: Path) -> None:
    hookstart.start(["check", "--hook", "docs/a.md"])
    started = hookstart._started
    assert started is not None
    assert hookstart.take(["docs/b.md"]) is None  # other paths: not this listing
    assert hookstart.take(["docs/a.md"]) is None  # and it was handed out once only
    hookstart.start(["check", "--hook", "docs/a.md"])
    assert hookstart.take(["docs/a.md"]) is not None
    hookstart.start(["check", "--hook", "docs"])  # a folder: nothing started
    assert hookstart._started is None


def test_the_console_script_starts_the_listing_before_click(repo: Path) -> None:
    """As pre-commit runs it: the listing starts before click is imported, the command
    uses it and starts none of its own, and the report is the late listing's."""
    script = (
        "import sys\n"
        "from chunkgate.hooks import start as hookstart\n"
        "real = hookstart.start\n"
        "def start(argv):\n"
        "    assert 'click' not in sys.modules\n"
        "    real(argv)\n"
        "    assert hookstart._started is not None\n"
        "    hookstart.named_listing = None  # the command must not need its own\n"
        "hookstart.start = start\n"
        "from chunkgate.__main__ import main\n"
        "main()\n"
    )
    args = ["check", "--hook", "--format", "json", *NAMED]
    plain = ["check", "--hook", "--format=json", *NAMED]
    env = {**os.environ, **git_env(), "NO_COLOR": "1"}
    late, early = (
        subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, check=False)
        for command in (
            [sys.executable, "-m", "chunkgate", *args],  # "--format json": read by click alone
            [sys.executable, "-c", script, *plain],
        )
    )
    assert early.stderr == late.stderr
    assert (early.returncode, early.stdout) == (late.returncode, late.stdout)
    assert late.returncode == 1
    assert '"CG403"' in early.stdout


# Every kind of path a hook can be given, and how the listing settles it: from the
# staged changes, HEAD's tree and the file's bytes ("settled"), or by asking the index.
KINDS = {
    "same.md": "settled",  # committed, unchanged
    "staged.md": "settled",  # edited and staged
    "restaged.md": "settled",  # staged, then edited again
    "edited.md": "settled",  # edited, not staged
    "touched.md": "settled",  # the same bytes, a new mtime: git's stat data is stale
    "added.md": "settled",  # new and staged
    "crlf.md": "settled",  # CRLF in the work tree, LF in the index (eol=crlf)
    "intent.md": "settled",  # git add -N: the index holds the empty blob
    "ünïcödé 文档.md": "settled",
    "gone.md": "settled",  # deleted and staged: not in the index
    "untracked.md": "asked",  # neither in HEAD nor staged
    "deleted.md": "asked",  # deleted, not staged
    "sparse.md": "asked",  # skip-worktree, not in the work tree
    "link.md": "asked",  # a symlink in HEAD
    "tolink.md": "asked",  # a file in HEAD, a symlink now
    "nothing.md": "asked",  # no such path anywhere
}


@pytest.fixture
def kinds(git_repo: Path) -> Path:
    repo = git_repo
    write(repo, ".gitattributes", "crlf.md text eol=crlf\n")
    for name in ("same", "staged", "restaged", "edited", "touched", "crlf", "ünïcödé 文档"):
        write(repo, f"{name}.md", page(name))
    for name in ("gone", "deleted", "sparse", "tolink", "chmod"):
        write(repo, f"{name}.md", page(name))
    (repo / "link.md").symlink_to("same.md")
    commit_all(repo)
    for name in ("staged", "restaged"):
        write(repo, f"{name}.md", page(name, "Staged"))
    write(repo, "added.md", page("Added"))
    write(repo, "intent.md", page("Intent"))
    git(repo, "add", "staged.md", "restaged.md", "added.md")
    git(repo, "add", "-N", "intent.md")
    write(repo, "restaged.md", page("restaged", "Not staged"))
    write(repo, "edited.md", page("edited", "Edited"))
    os.utime(repo / "touched.md", (1_000_000_000, 1_000_000_000))
    write(repo, "crlf.md", page("crlf").replace("\n", "\r\n"))
    git(repo, "rm", "-q", "gone.md")
    (repo / "deleted.md").unlink()
    git(repo, "update-index", "--skip-worktree", "sparse.md")
    (repo / "sparse.md").unlink()
    (repo / "tolink.md").unlink()
    (repo / "tolink.md").symlink_to("same.md")
    (repo / "chmod.md").chmod(0o755)
    write(repo, "untracked.md", page("Untracked"))
    return repo


def _asked(listing: gitmodule.NamedListing, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether the listing had to ask the index for its answers."""
    with monkeypatch.context() as patched:
        calls = _index_calls(patched)
        listing.entries()
        listing.modified()
    return bool(calls)


def _exact(repo: Path, paths: list[str]) -> tuple[dict[str, str], set[str], list[str]]:
    return (
        gitmodule.index_entries(repo, paths)[0],
        gitmodule.modified_paths(repo, paths),
        gitmodule.staged_deletions(repo),
    )


@pytest.mark.parametrize("path", sorted(KINDS))
def test_the_listing_of_each_kind_of_path_is_the_index_s(
    kinds: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    pin_git_env(monkeypatch)
    listing = gitmodule.NamedListing(kinds, [path])
    asked = _asked(listing, monkeypatch)
    assert asked == (KINDS[path] == "asked")
    assert (listing.entries()[0], listing.modified(), listing.deletions()) == _exact(kinds, [path])


def test_the_settled_kinds_together_and_a_file_whose_mode_alone_changed(
    kinds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    settled = [path for path, how in KINDS.items() if how == "settled"]
    listing = gitmodule.NamedListing(kinds, settled)
    assert not _asked(listing, monkeypatch)
    blobs, modified, deletions = _exact(kinds, settled)
    assert (listing.entries()[0], listing.modified(), listing.deletions()) == (
        blobs,
        modified,
        deletions,
    )
    assert modified == {"restaged.md", "edited.md", "intent.md"}
    # With one path to ask about, the whole listing asks, and agrees.
    listing = gitmodule.NamedListing(kinds, [*settled, "deleted.md"])
    assert _asked(listing, monkeypatch)
    assert listing.entries()[0] == gitmodule.index_entries(kinds, [*settled, "deleted.md"])[0]
    # A mode change alone: git calls the file modified; its bytes are the index blob's,
    # which is all the run takes from the answer (the blob it records is the same).
    listing = gitmodule.NamedListing(kinds, ["chmod.md"])
    assert not _asked(listing, monkeypatch)
    assert listing.entries()[0] == gitmodule.index_entries(kinds, ["chmod.md"])[0]
    assert listing.modified() == set()
    assert gitmodule.modified_paths(kinds, ["chmod.md"]) == {"chmod.md"}


def test_before_the_first_commit_the_listing_asks_the_index(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    write(git_repo, "a.md", page("A"))
    git(git_repo, "add", "a.md")
    listing = gitmodule.NamedListing(git_repo, ["a.md"])
    assert _asked(listing, monkeypatch)
    assert listing.entries()[0] == gitmodule.index_entries(git_repo, ["a.md"])[0]
    assert listing.deletions() == []


GENERATED = "*.md linguist-generated\n"


def _attributes_committed_then(repo: Path, then: str) -> None:
    write(repo, "docs/.gitattributes", GENERATED)
    commit_all(repo)
    if then == "deleted":
        (repo / "docs/.gitattributes").unlink()
    elif then == "removed":
        git(repo, "rm", "-q", "docs/.gitattributes")
    elif then == "symlink":
        write(repo, "elsewhere", "*.md linguist-vendored\n")
        (repo / "docs/.gitattributes").unlink()
        os.symlink("../elsewhere", repo / "docs/.gitattributes")


def _staged_then_deleted(repo: Path) -> None:
    write(repo, "docs/sub/.gitattributes", GENERATED)
    git(repo, "add", "docs/sub/.gitattributes")
    (repo / "docs/sub/.gitattributes").unlink()


def _info(repo: Path) -> None:
    write(repo, ".git/info/attributes", GENERATED)


# What git's attributes of the named files come from, and whether the index must be read
# for them (a folder's .gitattributes the work tree cannot give and the index has).
ATTRIBUTE_SOURCES = {
    "none": (lambda repo: None, False),
    "work tree": (lambda repo: write(repo, "docs/sub/.gitattributes", GENERATED), False),
    "committed": (lambda repo: _attributes_committed_then(repo, "kept"), False),
    "committed, deleted": (lambda repo: _attributes_committed_then(repo, "deleted"), True),
    "committed, removed": (lambda repo: _attributes_committed_then(repo, "removed"), False),
    "committed, a symlink": (lambda repo: _attributes_committed_then(repo, "symlink"), True),
    "staged, deleted": (_staged_then_deleted, True),
    "info/attributes": (_info, False),
}


@pytest.mark.parametrize("source", sorted(ATTRIBUTE_SOURCES))
def test_attributes_skip_the_index_only_when_it_gives_none(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    pin_git_env(monkeypatch)
    for path in ("docs/a.md", "docs/sub/b.md", "top.md"):
        write(git_repo, path, "# A page\n")
    commit_all(git_repo)
    make, needs_index = ATTRIBUTE_SOURCES[source]
    make(git_repo)
    named = ["docs/a.md", "docs/sub/b.md", "top.md"]
    used: list[bool] = []
    real = gitmodule.gitattributes_flags

    def spied(root: Path, paths: list[str], *args: object, index: bool = True) -> object:
        used.append(index)
        return real(root, paths, *args, index=index)  # type: ignore[arg-type]

    monkeypatch.setattr(gitmodule, "gitattributes_flags", spied)
    found = gitmodule.NamedListing(git_repo, named).attributes()
    assert used == [needs_index]
    assert found == real(git_repo, named)
    if source in (
        "work tree",
        "committed",
        "committed, deleted",
        "staged, deleted",
        "info/attributes",
    ):
        assert found  # the source gives the attribute: the two ways agree on something
