"""A committed manifest's corrupt lines are reported and rebuilt (issue 18, defects 6, 8
and 14): every run that relies on a line validates it, whichever reader reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import commit_all, committed, git, invoke, page, run, shard, write

DOC = page("E")
BIG = "9" * 5000


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "a.md", DOC)
    write(cli_repo, "b.md", page("F"))
    committed(cli_repo)
    return cli_repo


def _corrupt(line: dict[str, object], key: str, value: object) -> str:
    # "<BIG>": a 5,000-digit integer, which Python itself will not convert.
    return json.dumps({**line, key: value}, ensure_ascii=False).replace('"<BIG>"', BIG)


CHUNK_CORRUPTIONS = [
    pytest.param("chars", "x", id="string-chars"),
    pytest.param("tokens", -1, id="negative-tokens"),
    pytest.param("lines", [3, 1], id="reversed-lines"),
    pytest.param("lines", [1], id="short-lines"),
    pytest.param("id", "b.md#e", id="id-of-another-file"),
    pytest.param("hash", "xyz", id="bad-hash"),
    pytest.param("chars", "<BIG>", id="5000-digit-int"),
]


def _rewrite_chunk(repo: Path, key: str, value: object) -> None:
    path = shard(repo, "a.md")
    head, chunk = path.read_text().splitlines()
    text = _corrupt(json.loads(chunk), key, value) if key != "raw" else str(value)
    path.write_text(f"{head}\n{text}\n")


@pytest.mark.parametrize(("key", "value"), CHUNK_CORRUPTIONS)
@pytest.mark.parametrize(
    "command",
    [["check"], ["check", "a.md"], ["check", "--hook", "a.md"]],
    ids=["whole", "file", "hook"],
)
def test_corrupt_chunk_line_of_an_unchanged_file(
    repo: Path, key: str, value: object, command: list[str]
) -> None:
    _rewrite_chunk(repo, key, value)
    commit_all(repo)  # committed: its blob is the index's, the fast scan reads it
    code, output = run(*command)
    assert code == 1, output
    assert "CG401" in output
    assert "a.md.jsonl:2" in output
    assert "corrupt" in output


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param('{"id": "a.md#e", "lines": [1, 3], "chars": 57', id="invalid-json"),
        pytest.param("<<<<<<< HEAD", id="conflict-marker"),
        pytest.param(f'{{"id": "a.md#e", "lines": [1, {BIG}]}}', id="huge-int-raw"),
        pytest.param("[]", id="not-an-object"),
    ],
)
def test_corrupt_raw_line(repo: Path, raw: str) -> None:
    _rewrite_chunk(repo, "raw", raw)
    commit_all(repo)
    code, output = run("check")
    assert code == 1, output
    assert "a.md.jsonl:2" in output


@pytest.mark.parametrize(("key", "value"), CHUNK_CORRUPTIONS[:3])
def test_update_rebuilds_what_is_corrupt(repo: Path, key: str, value: object) -> None:
    good = shard(repo, "a.md").read_bytes()
    _rewrite_chunk(repo, key, value)
    commit_all(repo)
    code, output = run("update")
    assert code == 0, output
    assert "up to date" not in output
    assert shard(repo, "a.md").read_bytes() == good
    assert run("check")[0] == 0


def test_5000_digit_header_and_merge_driver(repo: Path, tmp_path: Path) -> None:
    text = shard(repo, "a.md").read_text()
    theirs = tmp_path / "theirs"
    theirs.write_text(text.replace('"chars": 57', f'"chars": {BIG}'))
    base, ours = tmp_path / "base", tmp_path / "ours"
    base.write_text(text)
    ours.write_text(text)
    result = invoke("merge-driver", str(base), str(ours), str(theirs))
    assert result.exit_code == 1
    assert "5,000 digits" in result.output
    header = repo / "chunkgate.manifest" / "manifest.json"
    header.write_text(header.read_text().replace('"chunking": ', f'"chunking": {BIG}'))
    code, output = run("check", "--hook", "a.md")
    assert code == 1
    assert "manifest.json" in output


@pytest.mark.parametrize(
    "named",
    ["/etc/passwd", "../../etc/shadow", ".git/config", "a/../../../tmp"],
)
def test_manifest_paths_outside_the_corpus_are_corrupt(repo: Path, named: str) -> None:
    """A shard naming a path outside the corpus is corrupt: never looked up on disk,
    never a SARIF URI, and ``update`` removes it."""
    odd = repo / "chunkgate.manifest" / ("~" + "0" * 32 + ".jsonl")
    odd.write_text(json.dumps({"file": named, "blob": None, "chunks": 0}) + "\n")
    commit_all(repo)
    code, output = run("check")
    assert code == 1
    assert "corrupt" in output
    assert json.dumps(named) in output
    result = invoke("check", "--format", "sarif")
    uris = [
        location["physicalLocation"]["artifactLocation"]["uri"]
        for run_ in json.loads(result.output)["runs"]
        for found in run_["results"]
        for location in found["locations"]
    ]
    assert uris
    assert all(not uri.startswith(("/", "..")) and "etc" not in uri for uri in uris)
    assert run("update")[0] == 0
    assert not odd.exists()
    assert run("check")[0] == 0
    git(repo, "add", "-A")
