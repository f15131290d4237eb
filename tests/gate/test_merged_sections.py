"""``markdown.merge_small`` in a repository: a section merged into a neighbour is still
cited, linked, found and exported under its own ID (issue 41)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, shard, write

from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.evaluate.golden import GoldenQuery, evaluate
from chunkgate.ingest.records import export
from chunkgate.ingest.reembed import plan

LONG = "Point it at your documentation and commit the manifest it writes for you."
GUIDE = f"""\
# Guide

An introduction to the guide, long enough to stand on its own as a chunk.

## Install

See below.

### pip

Run pip install chunkgate in a fresh virtual environment, then commit.

## Usage

{LONG}

## End

A last paragraph that is long enough to be a chunk of its own, with words.
"""
LINKS = "# Links\n\nInstall [with pip](guide.md#pip) or [read on](guide.md#end) first.\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, ".chunkgate.yaml", "markdown:\n  merge_small: true\n")
    write(cli_repo, "docs/guide.md", GUIDE)
    write(cli_repo, "docs/links.md", LINKS)
    golden = '{"query": "pip in a fresh virtual environment", "expected": ["docs/guide.md#pip"]}'
    write(cli_repo, "evals/golden.jsonl", golden + "\n")
    run("update", "-q")
    commit_all(cli_repo)
    return cli_repo


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result.output


def test_the_manifest_lists_what_a_chunk_merged(repo: Path) -> None:
    lines = shard(repo, "docs/guide.md").read_text(encoding="utf-8").splitlines()
    install = json.loads(next(line for line in lines if "#install" in line))
    assert install["merged"] == ["docs/guide.md#pip"]
    assert not any('"merged"' in line for line in lines if "#install" not in line)
    # Links to a merged section's heading find its anchor: no CG404.
    assert "CG404" not in run("check", "--format", "json")


def test_a_section_that_shrinks_into_its_neighbour_is_not_removed(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE.replace(GUIDE.split("## End\n\n")[1], "Bye.\n"))
    output = json.loads(run("check", "--update", "--format", "json", code=1))  # rewritten
    assert output["violations"] == []  # neither removed (CG403) nor moved (CG402)
    usage = json.loads(
        next(
            line
            for line in shard(repo, "docs/guide.md").read_text(encoding="utf-8").splitlines()
            if "#usage" in line
        )
    )
    assert usage["merged"] == ["docs/guide.md#end"]


def test_a_parent_that_shrinks_takes_its_subsection_in_and_nothing_moved(repo: Path) -> None:
    longer = GUIDE.replace("See below.", "See below for the two ways to install it, pip first.")
    write(repo, "docs/guide.md", longer)
    run("update", "-q")
    commit_all(repo)
    write(repo, "docs/guide.md", GUIDE)
    output = json.loads(run("check", "--update", "--format", "json", code=1))  # rewritten
    assert output["violations"] == []  # pip's text now in #install: no CG402 move


def test_refs_accepts_a_merged_id_and_names_its_chunk(repo: Path) -> None:
    output = run("refs", "evals/golden.jsonl")
    assert "evals/golden.jsonl:1: docs/guide.md#pip: merged into docs/guide.md#install" in output
    assert "1 merged into another chunk" in output
    found = json.loads(run("refs", "evals/golden.jsonl", "--format", "json"))
    assert found["broken"] == []
    assert found["merged"] == [
        {"path": "evals/golden.jsonl", "line": 1, "id": "docs/guide.md#pip",
         "chunk": "docs/guide.md#install"},
    ]  # fmt: skip
    # --fix leaves it as it is: the ID resolves.
    run("refs", "evals/golden.jsonl", "--fix")
    assert "docs/guide.md#pip" in (repo / "evals/golden.jsonl").read_text(encoding="utf-8")


def test_eval_counts_a_merged_id_found_where_its_chunk_is(repo: Path) -> None:
    report = json.loads(run("eval", "evals/golden.jsonl", "--format", "json", "-k", "1"))
    query = report["head"]["queries"][0]
    assert query["retrieved"] == ["docs/guide.md#install"]
    assert (query["found"], query["rank"], query["recall"]) == (["docs/guide.md#pip"], 1, 1.0)


def test_two_expected_ids_in_one_chunk_are_both_found() -> None:
    from chunkgate.chunking import ChunkOptions, chunk_text

    chunks = chunk_text(GUIDE, "docs/guide.md", options=ChunkOptions(merge_small=True))
    golden = [GoldenQuery("pip install", ("docs/guide.md#install", "docs/guide.md#pip"), 1)]
    result = evaluate("now", chunks, golden, k=1).results[0]
    assert (result.recall, result.rank) == (1.0, 1)


def test_export_and_the_plan_carry_the_merged_ids(repo: Path) -> None:
    records = {r["id"]: r for r in export(load_config(repo))}
    assert records["docs/guide.md#install"]["merged"] == ["docs/guide.md#pip"]
    assert "merged" not in records["docs/guide.md#usage"]
    write(repo, "docs/guide.md", GUIDE.replace(GUIDE.split("## End\n\n")[1], "Bye.\n"))
    commit_all(repo)
    rows = list(plan(load_config(repo), "HEAD~1", "HEAD"))
    assert {"op": "delete", "id": "docs/guide.md#end"} in rows
    usage = next(row for row in rows if row.get("id") == "docs/guide.md#usage")
    assert (usage["op"], usage["merged"]) == ("upsert", ["docs/guide.md#end"])
