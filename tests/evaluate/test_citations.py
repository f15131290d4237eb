"""``refs FILES``: cited chunk IDs checked, and rewritten in place through recorded moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, pin_git_env, write

from chunkgate.cli import cli
from chunkgate.evaluate.citations import check_files, find_citations, follow, id_pattern

BODY = "Install the package with pip, then configure it as the guide says.\n"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param('{"id": "docs/a.md#install"}', ["docs/a.md#install"], id="json"),
        pytest.param("see docs/a.md#install.", ["docs/a.md#install"], id="sentence-end"),
        pytest.param("`a.md#x`, b.py#function-f;", ["a.md#x", "b.py#function-f"], id="list"),
        pytest.param("https://github.com/o/r/blob/main/a.md#x", [], id="url"),
        pytest.param("a.md#method-A.b", ["a.md#method-A.b"], id="dotted-identity"),
        pytest.param("a.md#~preamble a.md#x~2", ["a.md#~preamble", "a.md#x~2"], id="reserved"),
        pytest.param("image.png#x and a.md#", [], id="not-ids"),
        pytest.param('"caf\\u00e9.md#\\u00e9t\\u00e9"', ["café.md#été"], id="json-escapes"),
    ],
)
def test_ids_by_shape(text: str, found: list[str]) -> None:
    path = "cites.json" if "\\u" in text else "cites.txt"
    assert [c.id for c in find_citations(path, text, id_pattern())] == found


def test_follow_a_chain_of_moves() -> None:
    moved = {"a#1": "a#2", "a#2": "a#3", "x#1": "x#2", "x#2": "x#1"}
    assert follow(moved, "a#1", {"a#3"}) == "a#3"
    assert follow(moved, "x#1", {"a#3"}) is None  # a cycle goes nowhere
    assert follow(moved, "q#1", {"a#3"}) is None


@pytest.mark.parametrize(
    ("name", "content", "field"),
    [
        pytest.param(
            "e.jsonl", '{"q": "how", "ids": ["a.md#old", "a.md#kept"]}\r\n', None, id="jsonl-crlf"
        ),
        pytest.param(
            "e.yaml", "- q: how\n  ids: [a.md#old, a.md#kept]  # comment\n", None, id="yaml"
        ),
        pytest.param("e.csv", "q,id\nhow,a.md#old\nwhy,a.md#kept\n", "id", id="csv-field"),
        pytest.param(
            "e.json",
            '{"rows": [{"ref": "old-style"}, {"ref": "a.md#kept"}]}',
            "ref",
            id="json-field",
        ),
        pytest.param("notes.md", "See `a.md#old` and [x](a.md#kept).\n", None, id="markdown"),
    ],
)
def test_fix_rewrites_only_the_ids(
    tmp_path: Path, name: str, content: str, field: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8"))
    old = "old-style" if field == "ref" else "a.md#old"
    known = {"a.md#new", "a.md#kept"}
    moved = {old: "a.md#new"}
    report = check_files([path], known, moved, field=field)
    assert [(c.id, c.redirect) for c in report.broken] == [(old, "a.md#new")]
    assert path.read_bytes() == content.encode("utf-8")  # nothing written without fix
    fixed = check_files([path], known, moved, field=field, fix=True)
    assert fixed.broken == ()
    assert path.read_bytes() == content.replace(old, "a.md#new").encode("utf-8")


def test_an_unknown_id_stays_and_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    path.write_text('{"id": "a.md#gone"}\n', encoding="utf-8")
    report = check_files([path], {"a.md#x"}, {}, fix=True)
    assert [(c.line, c.id, c.redirect) for c in report.broken] == [(1, "a.md#gone", None)]
    assert path.read_text(encoding="utf-8") == '{"id": "a.md#gone"}\n'


def test_refs_through_the_cli_after_an_acknowledged_rename(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "docs/setup.md", f"# Setup\n\n## Install\n\n{BODY}")
    write(
        git_repo,
        "evals/golden.jsonl",
        '{"query": "install", "expected": ["docs/setup.md#install"]}\n',
    )
    runner = CliRunner()
    assert runner.invoke(cli, ["update", "-q"]).exit_code == 0
    commit_all(git_repo)
    assert runner.invoke(cli, ["refs", "evals/golden.jsonl"]).exit_code == 0

    write(git_repo, "docs/setup.md", f"# Setup\n\n## Installing it\n\n{BODY}")
    assert runner.invoke(cli, ["update", "--accept-moves", "-q"]).exit_code == 0
    result = runner.invoke(cli, ["refs", "evals/golden.jsonl"])
    assert result.exit_code == 1
    assert (
        "evals/golden.jsonl:1: docs/setup.md#install: moved to docs/setup.md#installing-it"
        in result.output
    )
    result = runner.invoke(cli, ["refs", "evals/golden.jsonl", "--fix", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["fixed"][0]["moved_to"] == "docs/setup.md#installing-it"
    assert (git_repo / "evals/golden.jsonl").read_text(encoding="utf-8") == (
        '{"query": "install", "expected": ["docs/setup.md#installing-it"]}\n'
    )


def test_a_bad_field_file_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["refs", "e.csv", "--field", "id"])
    assert result.exit_code == 2
    assert result.output.strip().endswith("e.csv: no column 'id'")
