"""``check --show-unverified``: the links into open pages, listed on request, counted in
one line otherwise, in the JSON report always; they never change the exit code."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_json, commit_all, make_repo, pin_git_env, run, write

API = "# API\n\nThe package's reference.\n\n::: pkg.mod\n    options:\n      heading_level: 2\n"
INDEX = "# Home\n\nRead [the Thing](api.md#pkg.mod.Thing) first.\n"
LISTED = (
    "index.md:3: unverified CG404: link api.md#pkg.mod.Thing: #pkg.mod.Thing not found in "
    "api.md, which may have it once built: an autodoc block `::: pkg.mod` writes headings "
    "(line 5)"
)
COUNTED = (
    "1 unverified link into pages with anchors made at build time (they fail nothing; "
    "`chunkgate check --show-unverified` lists them)"
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    write(repo, "api.md", API)
    write(repo, "index.md", INDEX)
    commit_all(repo)
    return repo


def test_the_default_output_counts_them_in_one_line(repo: Path) -> None:
    code, output = run("check", "--select", "CG404", "--format", "text")
    assert code == 0
    assert COUNTED in output.splitlines()
    assert LISTED not in output


@pytest.mark.parametrize("fmt", ["text", "rich"])
def test_show_unverified_lists_each_with_why(repo: Path, fmt: str) -> None:
    code, output = run("check", "--select", "CG404", "--format", fmt, "--show-unverified")
    assert code == 0
    flowed = " ".join(output.split())  # rich folds long lines
    assert LISTED in flowed
    assert "they fail nothing; listed above" in flowed


def test_the_json_report_lists_and_counts_them_beside_an_error(repo: Path) -> None:
    write(repo, "index.md", INDEX + "\nSee [gone](#nope-not-here) too.\n")
    code, report = check_json("--select", "CG404")
    assert code == 1  # the error, not the unverified link
    assert report["unverified"] == [
        {
            "path": "index.md",
            "line": 3,
            "destination": "api.md#pkg.mod.Thing",
            "target": "api.md#pkg.mod.Thing",
            "reason": "an autodoc block `::: pkg.mod` writes headings (line 5)",
        }
    ]
    assert report["summary"]["unverified"] == 1
    assert [v["line"] for v in report["violations"]] == [5]


def test_quiet_output_does_not_mention_them(repo: Path) -> None:
    _, output = run("check", "--select", "CG404", "--format", "text", "--quiet")
    assert "unverified" not in output


def test_the_hook_reports_them_as_unverified_too(repo: Path) -> None:
    write(repo, "index.md", INDEX + "\nSee [gone](#nope-not-here) too.\n")
    code, report = check_json("--hook", "--select", "CG404", "index.md")
    assert [u["destination"] for u in report["unverified"]] == ["api.md#pkg.mod.Thing"]
    assert [v["message"] for v in report["violations"]] == [
        "link #nope-not-here: this file has no anchor #nope-not-here"
    ]
    assert code == 1
