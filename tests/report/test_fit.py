"""Every table the command line prints on a terminal fits 80, 100 and 120 columns: IDs
shortened in the middle, headers whole, text wrapped by word; JSON shortens nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import commit_all, committed, write

from chunkgate.cli import cli
from chunkgate.report.fit import middle

WIDTHS = (80, 100, 120)
LONG = "docs/reference/configuration-of-the-embedding-pipeline/advanced-settings-explained.md"
WORDS = " ".join(["Alpha", "Bravo", "Delta", "Echo", "Foxtrot", "Golf"] * 3)
PROSE = " ".join(["Lorem ipsum dolor sit amet, consectetur adipiscing elit."] * 4)


def page(count: int) -> str:
    sections = [
        f"## {WORDS} number {n} with a heading long enough to wrap\n\n{PROSE}\n"
        for n in range(count)
    ]
    return f"# {WORDS}\n\n{PROSE}\n\n" + "\n".join(sections)


def rich(width: int, *args: str) -> str:
    result = CliRunner().invoke(
        cli, [*args, "--format", "rich"], env={"COLUMNS": str(width), "NO_COLOR": "1"}
    )
    assert result.exit_code in (0, 1), result.output
    return result.output


def fits(output: str, width: int, headers: tuple[str, ...]) -> None:
    """Every line within ``width``; every header word whole on some line (the data holds
    none of them, so a header broken inside a word is missing)."""
    too_long = [line for line in output.splitlines() if len(line) > width]
    assert not too_long, "\n".join(too_long)
    for word in " ".join(headers).split():
        assert re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", output), (word, output)


@pytest.fixture
def long_repo(cli_repo: Path) -> Path:
    write(cli_repo, LONG, page(3))
    write(cli_repo, "tiny.md", "# Tiny\n\nx\n")  # CG202: a finding for check's rule table
    committed(cli_repo)
    write(cli_repo, LONG, page(4))
    return cli_repo


@pytest.mark.parametrize("width", WIDTHS)
def test_the_chunks_table_fits(long_repo: Path, width: int) -> None:
    out = rich(width, "chunks", LONG)
    fits(out, width, ("identity", "kind", "lines", "chars", "tokens", "heading / symbol"))
    anchor = "alpha-bravo-delta-echo-foxtrot-golf-alpha-bravo-delta-echo-foxtrot-golf"
    assert "..." in out  # the identity is too long for any of these widths
    assert re.search(r"^ alpha-b\S*\.\.\.\S*to-wrap ", out, re.M)  # its start and end
    document = json.loads(CliRunner().invoke(cli, ["chunks", LONG, "--format", "json"]).output)
    assert any(chunk["id"].startswith(f"{LONG}#{anchor}") for chunk in document)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_check_table_fits(long_repo: Path, width: int) -> None:
    fits(rich(width, "check", "--show-known"), width, ("rule", "name", "count"))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_stats_tables_fit(long_repo: Path, width: int) -> None:
    out = rich(width, "stats")
    fits(out, width, ("chars", "chunk"))
    ids = re.findall(r"^ +[\d,]+  (docs/\S*) *$", out, re.M)
    assert ids  # each on one line, its start and its end: shortened, never folded
    assert all(found.endswith(("-to-wrap", "-golf")) for found in ids), ids


@pytest.mark.parametrize("width", WIDTHS)
def test_the_diff_table_fits(long_repo: Path, width: int) -> None:
    fits(rich(width, "diff", "HEAD"), width, ("change", "chunks"))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_eval_table_fits(long_repo: Path, width: int) -> None:
    commit_all(long_repo)
    queries = [
        {"query": f"{WORDS} number 2", "expected": [f"{LONG}#{'x' * 60}", f"{LONG}#y"]},
        {"query": "lorem ipsum", "expected": ["tiny.md#tiny"]},
    ]
    write(long_repo, "golden.yaml", yaml.safe_dump(queries))
    out = rich(width, "eval", "golden.yaml")
    fits(out, width, ("query", "recall", "first hit", "not found"))
    assert re.search(r"docs/ref\S*#y ", out)  # a missing ID on one line


def test_a_very_long_id_keeps_its_start_and_end(cli_repo: Path) -> None:
    path = "/".join(["deeply-nested-folder"] * 12) + "/page.md"
    heading = "Z" + " word" * 80
    write(cli_repo, path, f"# {heading}\n\n{PROSE}\n")
    out = rich(80, "chunks", path)
    fits(out, 80, ("identity", "kind", "lines", "chars", "tokens", "heading / symbol"))
    row = next(line for line in out.splitlines() if line.startswith(" z-word"))
    assert re.match(r" z-word-w\S*\.\.\.\S*-word-word │", row)
    text = CliRunner().invoke(cli, ["chunks", path, "--format", "json"]).output
    assert json.loads(text)[0]["id"] == f"{path}#z" + "-word" * 80


@pytest.mark.parametrize(
    ("text", "width", "expected"),
    [
        ("docs/a.md#intro", 20, "docs/a.md#intro"),
        ("docs/tutorial/path-params.md#path-with-types", 27, "docs/tuto...path-with-types"),
        ("abcdef", 3, "abc"),
    ],
)  # fmt: skip
def test_an_id_is_shortened_in_the_middle(text: str, width: int, expected: str) -> None:
    assert middle(text, width) == expected
    assert len(middle(text, width)) <= width


@pytest.mark.parametrize("width", WIDTHS)
def test_the_rules_list_fits(width: int) -> None:
    result = CliRunner().invoke(cli, ["rules"], env={"COLUMNS": str(width)})
    fits(result.output, width, ())
    assert re.search(r"^CG301  denylisted-path +error +a corpus file", result.output, re.M)
    # a summary's next line stands under the summaries' column
    assert re.search(r"^ {35}\S", result.output, re.M) or width == 120
