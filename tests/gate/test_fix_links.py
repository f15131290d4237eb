"""Inbound links follow moves: a broken link's fix names the section a move took it to,
accepting the move never silences it, and ``fix-links`` rewrites it there."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import check_json, cli_process, commit_all, git, run, write

MODELS = (
    "# Models\n\nAn introduction long enough to be a chunk here.\n\n"
    "## JSON mode\n\nThe JSON mode writes plain objects, long enough to stand alone.\n\n"
    "## Python mode\n\nThe Python mode keeps the classes, long enough to stand alone.\n"
)
USE = (
    '# Use\n\nSee [json](models.md#json-mode) and [again](./models.md#json-mode "JSON").\n\n'
    "[ref]: models.md#json-mode\n\nUse [ref] too; `models.md#json-mode` is code.\n"
)
SUB = "# Sub\n\nRead [the mode](../models.md#json-mode) first, then go on.\n"


def _renamed(repo: Path) -> None:
    write(repo, "docs/models.md", MODELS)
    write(repo, "docs/use.md", USE)
    write(repo, "docs/sub/page.md", SUB)
    commit_all(repo, "docs")
    assert run("update")[0] == 0
    commit_all(repo, "adopt")
    write(repo, "docs/models.md", MODELS.replace("## JSON mode", "## JSON compatible mode"))


def _fixes(report: dict[str, list[dict[str, str]]]) -> list[tuple[str, str]]:
    return [(v["path"], v["fix"]) for v in report["violations"] if v["rule"] == "CG404"]


def test_a_broken_links_fix_names_the_detected_move(cli_repo: Path) -> None:
    _renamed(cli_repo)
    code, report = check_json()
    assert code == 1
    fixes = _fixes(report)
    assert len(fixes) == 4
    assert all("docs/models.md#json-compatible-mode" in fix for _, fix in fixes), fixes
    assert ("docs/sub/page.md", fixes[0][1]) == fixes[0]
    assert "link to ../models.md#json-compatible-mode" in fixes[0][1]


def test_accepting_the_move_silences_no_link_on_any_command(cli_repo: Path) -> None:
    _renamed(cli_repo)
    assert run("update", "--accept-moves")[0] == 0
    whole_code, whole = check_json()
    one_code, one = check_json("docs/use.md")
    strict_code, strict = check_json("--strict", "--select", "CG404")
    assert (whole_code, one_code, strict_code) == (1, 1, 1)
    assert len(_fixes(strict)) == 4
    # The whole corpus and the linking page alone say the same about its links.
    in_use = [item for item in _fixes(whole) if item[0] == "docs/use.md"]
    assert in_use == _fixes(one)
    assert all(
        "link to models.md#json-compatible-mode" in fix or "./models" in fix for _, fix in in_use
    )


def test_the_hook_reports_the_links_into_a_renamed_heading_with_the_move(cli_repo: Path) -> None:
    _renamed(cli_repo)
    git(cli_repo, "add", "-A")
    code, report = check_json("--update", "--hook", "docs/models.md")
    assert code == 1
    assert sorted({path for path, _ in _fixes(report)}) == ["docs/sub/page.md", "docs/use.md"]
    assert all("#json-compatible-mode" in fix for _, fix in _fixes(report))


def test_fix_links_rewrites_only_the_destinations_and_is_idempotent(cli_repo: Path) -> None:
    _renamed(cli_repo)
    assert run("update", "--accept-moves")[0] == 0
    dry = cli_process(cli_repo, "fix-links", "--dry-run")
    assert dry.returncode == 1
    assert (cli_repo / "docs/use.md").read_text(encoding="utf-8") == USE
    done = cli_process(cli_repo, "fix-links")
    out = done.stdout.decode()
    assert done.returncode == 0, out
    assert "-See [json](models.md#json-mode)" in out
    assert "+Read [the mode](../models.md#json-compatible-mode) first, then go on." in out
    assert "4 links rewritten in 2 files; 0 broken links left" in out
    assert (cli_repo / "docs/use.md").read_text(encoding="utf-8") == (
        USE.replace("models.md#json-mode)", "models.md#json-compatible-mode)")
        .replace('models.md#json-mode "', 'models.md#json-compatible-mode "')
        .replace("[ref]: models.md#json-mode", "[ref]: models.md#json-compatible-mode")
    )
    assert "`models.md#json-mode` is code" in (cli_repo / "docs/use.md").read_text(encoding="utf-8")
    again = cli_process(cli_repo, "fix-links", "--format", "json")
    assert again.returncode == 0
    assert json.loads(again.stdout)["rewritten"] == []
    assert run("update")[0] == 0
    code, report = check_json()
    assert code == 0, report["violations"]


def test_links_with_no_move_to_follow_are_left_and_listed(cli_repo: Path) -> None:
    write(cli_repo, "a.md", "# A\n\nSee [b](b.md#nowhere), long enough to be a chunk here.\n")
    write(cli_repo, "b.md", "# B\n\nA page with no such section, long enough for a chunk.\n")
    commit_all(cli_repo)
    result = cli_process(cli_repo, "fix-links")
    assert result.returncode == 0  # nothing it can do: the check reports the link
    assert "a.md:3: CG404 link b.md#nowhere: b.md has no anchor #nowhere" in result.stdout.decode()
    assert "0 links rewritten in 0 files; 1 broken link left" in result.stdout.decode()


def test_links_into_a_moved_or_deleted_page_get_the_move_target(cli_repo: Path) -> None:
    setup = "# Setup\n\nAn introduction long enough to be a chunk here.\n\n"
    install = "## Install\n\nRun the installer, a sentence long enough to be a chunk.\n"
    write(cli_repo, "docs/setup.md", setup + install)
    write(cli_repo, "docs/faq.md", "# FAQ\n\nQuestions and answers, long enough to be a chunk.\n")
    index = "# Index\n\nSee [it](setup.md#install), [the page](./setup.md) and [faq](faq.md).\n"
    write(cli_repo, "docs/index.md", index)
    commit_all(cli_repo, "docs")
    assert run("update")[0] == 0
    commit_all(cli_repo, "adopt")
    (cli_repo / "docs/guide").mkdir()
    git(cli_repo, "mv", "docs/setup.md", "docs/guide/setup.md")
    # The FAQ is deleted, its text merged into the guide: its links go to that page too.
    faq = (cli_repo / "docs/faq.md").read_text(encoding="utf-8")
    git(cli_repo, "rm", "-q", "docs/faq.md")
    write(cli_repo, "docs/guide/setup.md", setup + install + "\n" + faq.replace("# FAQ", "## FAQ"))
    code, report = check_json()
    missing = sorted(v["fix"] for v in report["violations"] if v["rule"] == "CG405")
    assert code == 1
    assert missing == [
        "the page moved to docs/guide/setup.md: link to ./guide/setup.md "
        "(`chunkgate fix-links` rewrites it)",
        "the page moved to docs/guide/setup.md: link to guide/setup.md "
        "(`chunkgate fix-links` rewrites it)",
        "the page moved to docs/guide/setup.md: link to guide/setup.md#install "
        "(`chunkgate fix-links` rewrites it)",
    ]
    assert cli_process(cli_repo, "fix-links").returncode == 0
    assert (cli_repo / "docs/index.md").read_text(encoding="utf-8") == (
        "# Index\n\nSee [it](guide/setup.md#install), [the page](./guide/setup.md) "
        "and [faq](guide/setup.md).\n"
    )


def test_a_moved_pages_own_relative_links_follow_it(cli_repo: Path) -> None:
    """Seen on Vite's docs: a page moved to a sibling folder keeps `./other.md` links that
    now name pages that are not there, and a `.md` link into it names the old folder;
    neither is a translation's fallback (the old and new folders differ in one name)."""
    write(cli_repo, "docs/guide/api.md", "# API\n\nSee [env](./env.md#files), long enough here.\n")
    write(cli_repo, "docs/guide/env.md", "# Env\n\n## Files\n\nThe env files, long enough here.\n")
    write(
        cli_repo, "docs/guide/intro.md", "# Intro\n\nRead [the API](./api.md) first, long enough.\n"
    )
    write(cli_repo, "docs/reference/index.md", "# Reference\n\nThe reference, long enough here.\n")
    commit_all(cli_repo, "docs")
    assert run("update")[0] == 0
    commit_all(cli_repo, "adopt")
    git(cli_repo, "mv", "docs/guide/api.md", "docs/reference/api.md")
    code, report = check_json()
    fixes = sorted((v["path"], v["fix"]) for v in report["violations"] if v["rule"] == "CG405")
    assert code == 1
    assert fixes == [
        (
            "docs/guide/intro.md",
            "the page moved to docs/reference/api.md: link to ../reference/api.md "
            "(`chunkgate fix-links` rewrites it)",
        ),
        (
            "docs/reference/api.md",
            "this page moved from docs/guide/api.md, where the link named docs/guide/env.md: "
            "link to ../guide/env.md#files (`chunkgate fix-links` rewrites it)",
        ),
    ]
    assert cli_process(cli_repo, "fix-links").returncode == 0
    assert "[env](../guide/env.md#files)" in (cli_repo / "docs/reference/api.md").read_text(
        encoding="utf-8"
    )
    assert run("update", "--accept-moves")[0] == 0
    assert check_json()[0] == 0
