"""The hook's git listings, started before the configuration is loaded (git.NamedListing):
the same report as asking git when the run needs it, for every kind of named file."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from helpers import check_json, commit_all, git, manifest_snapshot, write
from helpers import invoke as run

from chunkgate import cli
from chunkgate import git as gitmodule
from chunkgate.config import load_config
from chunkgate.gate import run_check

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
def test_the_early_listing_gives_the_report_of_the_late_one(
    repo: Path, monkeypatch: pytest.MonkeyPatch, update: bool
) -> None:
    args = ["--hook", *(["--update"] if update else []), *NAMED]
    calls = _index_calls(monkeypatch)
    early = check_json(*args)
    assert calls == [(False, list(NAMED))]  # every path given, asked for off the main thread
    written = manifest_snapshot(repo)
    git(repo, "checkout", "-q", "--", "chunkgate.manifest")  # what --update wrote
    git(repo, "clean", "-q", "-f", "--", "chunkgate.manifest")
    monkeypatch.setattr(cli, "_hook_listing", lambda paths: None)
    calls.clear()
    late = check_json(*args)
    assert calls == [(True, ["docs/a.md", "docs/b.md", "docs/gen.md", "docs/gone.md"])]
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
    assert cli._hook_listing(["docs/a.md"]) is not None
    assert cli._hook_listing(["docs"]) is None  # a folder: its files' attributes differ
    assert cli._hook_listing(["."]) is None
    assert cli._hook_listing([f"docs/{n}.md" for n in range(cli.EARLY_PATHS + 1)]) is None
    assert cli._hook_listing(["../outside.md"]) is None  # the run itself says why
    assert run("check", "--hook", "../outside.md").exit_code == 2
