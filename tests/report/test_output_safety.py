"""What the corpus author wrote never drives the terminal, and names that are not UTF-8
never crash the output (issue 18, defects 10 and 12)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import PROSE, cli_process, commit_all, invoke, run, write

HOSTILE = (
    f"# [bold red]x[/]\n\n{PROSE}\n"
    "# a [/b] c\n\ntext \x1b[2J and \x1b]0;pwned\x07 title, long enough to be a chunk.\n"
    "\n# s\n\nsmall: CG202 names the file\n"
)
ESCAPES = ("\x1b[2J", "\x1b]0;", "\x07", "\x1b[31m")


@pytest.fixture
def hostile(cli_repo: Path) -> str:
    name = "e[bold]\x1b[31m.md"
    write(cli_repo, name, HOSTILE)
    commit_all(cli_repo)
    return name


@pytest.mark.parametrize(
    "command",
    [
        ["chunks", "--format", "rich"],
        ["chunks", "--format", "rich", "--text"],
        ["chunks", "--format", "text", "--text"],
        ["outline", "--format", "rich"],
        ["outline", "--format", "text"],
        ["check", "--format", "rich"],
        ["check", "--format", "text"],
    ],
    ids=lambda c: "-".join(c).replace("--format-", ""),
)
def test_markup_and_escapes_are_shown_as_text(hostile: str, command: list[str]) -> None:
    paths = [hostile] if command[0] != "check" else []
    code, output = run(*command, *paths)
    assert code in (0, 1), output
    for sequence in ESCAPES:
        assert sequence not in output
    assert "\\x1b" in output
    if command[0] != "check":
        assert "[bold red]x[/]" in output  # rich markup in a heading is text, not red
        assert "a [/b] c" in output  # and not a MarkupError


def test_json_keeps_the_exact_text(hostile: str) -> None:
    code, output = run("chunks", "--format", "json", "--text", hostile)
    assert code == 0
    chunks = json.loads(output)
    assert chunks[0]["path"] == hostile
    assert "\x1b[2J" in chunks[1]["text"]


def test_errors_naming_a_file_are_escaped(hostile: str) -> None:
    result = invoke("check", "\x1b]0;x\x07.md")
    assert "\x1b" not in result.output


def _undecodable(repo: Path) -> None:
    (repo / os.fsdecode(b"\xff\x1bname.md")).write_bytes(b"# T\n\nshort\n")
    commit_all(repo)


@pytest.mark.parametrize("fmt", ["text", "rich", "json", "github", "sarif"])
def test_undecodable_name_under_a_strict_stdout(git_repo: Path, fmt: str) -> None:
    _undecodable(git_repo)
    done = cli_process(git_repo, "check", "--format", fmt)
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1
    assert b"\x1b[31m" not in done.stdout or fmt == "rich"


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_undecodable_name_to_a_file(git_repo: Path, fmt: str) -> None:
    _undecodable(git_repo)
    done = cli_process(git_repo, "check", "--format", fmt, "-o", f"out.{fmt}")
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    data = (git_repo / f"out.{fmt}").read_bytes()
    data.decode("utf-8")  # valid UTF-8, the name as \udcff
    if fmt == "sarif":
        uris = [
            location["physicalLocation"]["artifactLocation"]["uri"]
            for found in json.loads(data)["runs"][0]["results"]
            for location in found["locations"]
        ]
        assert "%FF%1Bname.md" in uris


@pytest.mark.parametrize("command", [["chunks", "."], ["outline", "."], ["stats"], ["diff"]])
def test_undecodable_name_in_other_commands(git_repo: Path, command: list[str]) -> None:
    _undecodable(git_repo)
    (git_repo / os.fsdecode(b"\xfe2.md")).write_bytes(b"# T2\n\nlong enough to be a chunk, yes.\n")
    done = cli_process(git_repo, *command)
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0
