"""Grouped reports: one line per moved page, renamed heading or configuration change that
drops files, with counts; each finding in JSON and under ``--verbose``."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli_process, commit_all, git, run, write

BODY = "A paragraph about the {} section, long enough to be a chunk of its own here.\n"


def _lines(repo: Path, *args: str) -> list[str]:
    result = cli_process(repo, "check", "--format", "text", *args)
    assert result.returncode == 1, result.stdout
    return result.stdout.decode().splitlines()


def _one_line_says(repo: Path, text: str) -> None:
    lines = _lines(repo)
    assert len(lines) <= 5, lines
    assert any(text in line for line in lines), lines


def _adopt(repo: Path) -> None:
    commit_all(repo, "docs")
    assert run("update")[0] == 0
    commit_all(repo, "adopt")


def test_a_moved_page_of_20_sections_is_one_line(cli_repo: Path) -> None:
    sections = "".join(f"## Part {n}\n\n{BODY.format(n)}\n" for n in range(1, 20))
    write(cli_repo, "docs/big.md", f"# Big\n\n{BODY.format('top')}\n{sections}")
    _adopt(cli_repo)
    (cli_repo / "docs/old").mkdir()
    git(cli_repo, "mv", "docs/big.md", "docs/old/big.md")
    lines = _lines(cli_repo)
    assert len(lines) <= 5, lines
    moved = [line for line in lines if "moved to" in line]
    assert moved == [
        "docs/old/big.md:1: error moved: docs/big.md moved to docs/old/big.md: 20 IDs changed "
        "(CG402); the manifest lists the old path (CG401) (fix: record the move: `chunkgate "
        "update --accept-moves` (`--verbose` lists each finding))"
    ]
    verbose = _lines(cli_repo, "--verbose")
    assert sum(" CG402 " in line for line in verbose) == 20
    report = json.loads(cli_process(cli_repo, "check", "--format", "json").stdout)
    assert sum(v["rule"] == "CG402" for v in report["violations"]) == 20
    assert [(g["cause"], g["count"]) for g in report["groups"]] == [
        ("moved:docs/big.md>docs/old/big.md", 22)  # the 20 IDs, and CG401 at both paths
    ]


def test_a_renamed_heading_with_18_links_is_one_line_before_and_after_accepting(
    cli_repo: Path,
) -> None:
    write(cli_repo, "docs/models.md", f"# Models\n\n## JSON mode\n\n{BODY.format('json')}")
    for n in range(6):
        links = "".join(f"See [it](models.md#json-mode) for case {k}.\n\n" for k in range(3))
        write(cli_repo, f"docs/page{n}.md", f"# Page {n}\n\n{links}")
    _adopt(cli_repo)
    write(
        cli_repo, "docs/models.md", f"# Models\n\n## JSON compatible mode\n\n{BODY.format('json')}"
    )
    _one_line_says(
        cli_repo,
        "docs/models.md#json-mode renamed to #json-compatible-mode: 1 ID changed (CG402); "
        "18 links in 6 files still name it (CG404)",
    )
    assert run("update", "--accept-moves")[0] == 0
    _one_line_says(
        cli_repo,
        "18 links in 6 files still name docs/models.md#json-mode (CG404), which moved to "
        "docs/models.md#json-compatible-mode",
    )


def test_excluding_a_folder_of_files_is_one_line(cli_repo: Path) -> None:
    for n in range(200):
        write(cli_repo, f"drafts/case{n}.md", f"# Case {n}\n\n{BODY.format(n)}")
    write(cli_repo, "docs/index.md", f"# Docs\n\n{BODY.format('index')}")
    _adopt(cli_repo)
    write(cli_repo, ".chunkgate.yaml", 'exclude: ["drafts/"]\n')
    lines = _lines(cli_repo)
    assert len(lines) <= 5, lines
    assert lines[0].startswith(
        "drafts/case0.md:1: error dropped: 200 files (200 IDs) left the corpus: the "
        "configuration leaves them out now "
        "(drafts/case0.md, drafts/case1.md, drafts/case10.md, ...)"
    ), lines
    assert "`chunkgate update` removes their manifest entries" in lines[0]
    assert run("update")[0] == 0
    assert cli_process(cli_repo, "check").returncode == 0
