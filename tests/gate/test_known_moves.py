"""Known problems follow moves: a moved page or a renamed heading keeps its recorded
problems known, in the hook, in ``check`` and in the action's run against the base."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_json, commit_all, git, run, write

from chunkgate.config.load import load_config
from chunkgate.gate import run_check

# A line of code over size.max (2,000 chars), which cannot be split: CG201, on its section.
CODE = (
    "```\n"
    + " ".join(f"line {n} of a long listing that nobody splits;" for n in range(60))
    + "\n```\n"
)
PAGE = f"# Guide\n\nAn introduction long enough to be a chunk here.\n\n## Listing\n\n{CODE}\n"


def _adopted(repo: Path) -> None:
    # A 512-token model's limit: the line is over it, so CG201 is an error.
    write(repo, ".chunkgate.yaml", "size: {limit: 512}\n")
    write(repo, "docs/guide.md", PAGE)
    write(repo, "docs/other.md", "# Other\n\nA page about something else entirely.\n")
    commit_all(repo, "docs")
    assert run("update")[0] == 0
    commit_all(repo, "adopt")
    code, report = check_json()
    assert code == 0, report
    assert [v["rule"] for v in report["known"]] == ["CG201"], report


def _rules(found: list[dict[str, object]]) -> list[object]:
    return [v["rule"] for v in found]


def test_a_moved_page_keeps_its_known_problem_in_the_hook_and_check(cli_repo: Path) -> None:
    _adopted(cli_repo)
    (cli_repo / "docs/moved").mkdir()
    git(cli_repo, "mv", "docs/guide.md", "docs/moved/guide.md")
    assert run("update", "--accept-moves")[0] == 0
    git(cli_repo, "add", "-A")
    code, report = check_json("--update", "--hook", "docs/moved/guide.md")
    assert code == 0, report["violations"]
    assert _rules(report["known"]) == ["CG201"]
    assert report["known"][0]["path"] == "docs/moved/guide.md"
    code, report = check_json()
    assert code == 0, report["violations"]
    assert _rules(report["known"]) == ["CG201"], report["violations"]


def test_a_renamed_heading_keeps_its_known_problem(cli_repo: Path) -> None:
    _adopted(cli_repo)
    # A heading as long: the section has not grown.
    write(cli_repo, "docs/guide.md", PAGE.replace("## Listing", "## Program"))
    code, report = check_json("--update", "docs/guide.md")
    # The rename itself is reported (CG402); the oversized section it carries is known.
    assert _rules(report["violations"]) == ["CG402"]
    assert _rules(report["known"]) == ["CG201"]
    assert run("update", "--accept-moves")[0] == 0
    code, report = check_json("docs/guide.md")
    assert code == 0, report["violations"]
    assert _rules(report["known"]) == ["CG201"], report["violations"]


def test_the_action_knows_a_moved_pages_problem_from_the_base(cli_repo: Path) -> None:
    _adopted(cli_repo)
    base = git(cli_repo, "rev-parse", "HEAD").strip()
    git(cli_repo, "mv", "docs/guide.md", "docs/guide-v2.md")
    assert run("update", "--accept-moves")[0] == 0
    commit_all(cli_repo, "move the guide")
    # The action checks HEAD (the pull request) with the base's record of known problems.
    result = run_check(load_config(cli_repo), known_from=base)
    assert [v.rule for v in result.errors] == []
    assert [(v.rule, v.path) for v in result.known] == [("CG201", "docs/guide-v2.md")]


def test_a_grown_problem_is_new_after_a_move_too(cli_repo: Path) -> None:
    _adopted(cli_repo)
    git(cli_repo, "mv", "docs/guide.md", "docs/guide-v2.md")
    write(cli_repo, "docs/guide-v2.md", PAGE.replace(";\n```", "; and one more long clause;\n```"))
    assert run("update", "--accept-moves")[0] == 0
    code, report = check_json()
    assert code == 1
    assert _rules(report["violations"]) == ["CG201"]


@pytest.mark.parametrize(
    ("pairs", "ids", "paths"),
    [
        (
            [("a.md#x", "b.md#x"), ("a.md#y", "b.md#y")],
            {"b.md#x": "a.md#x", "b.md#y": "a.md#y"},
            {"b.md": "a.md"},
        ),
        ([("a.md#x", "a.md#z")], {"a.md#z": "a.md#x"}, {}),
        (
            [("a.md#x", "c.md#x"), ("b.md#y", "c.md#y")],
            {"c.md#x": "a.md#x", "c.md#y": "b.md#y"},
            {},
        ),
        ([("a.md#x~2", "b.md#x~2")], {"b.md#x": "a.md#x"}, {"b.md": "a.md"}),
    ],
)
def test_moved_units_and_files(
    pairs: list[tuple[str, str]], ids: dict[str, str], paths: dict[str, str]
) -> None:
    from chunkgate.gate.baseline import moved_units  # new in issue 40: the others run on main

    moved = moved_units(pairs)
    assert (dict(moved.ids), dict(moved.paths)) == (ids, paths)
    if paths:
        assert moved.origin("b.md", None) == ("a.md", None)
        assert moved.origin("b.md", "b.md#x~3") == ("a.md", "a.md#x~3")
