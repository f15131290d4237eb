"""One set of format names, one registry per command, one error for a wrong name."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, write

from chunkgate.cli import cli
from chunkgate.report import formats
from chunkgate.report.formats import COMMANDS, NAMES, UnknownFormat


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_name_is_documented(command: str) -> None:
    assert set(COMMANDS[command].choices()) <= set(NAMES)


# Each command's arguments in the repository below, and what every one of its formats
# must show: the stale manifest, the renamed heading, the total size, the query, the broken
# citation.
SHOWN = {
    "check": ([], "CG401"),
    "diff": (["HEAD"], "a.md#installing"),
    "chunks": (["a.md"], "installing"),
    "outline": (["a.md"], "Installing"),
    "stats": ([], "167"),
    "eval": (["golden.yaml"], "how to install"),
    "refs": (["notes.md"], "a.md#nope"),
}


@pytest.mark.parametrize(
    ("command", "name"), [(c, name) for c in sorted(COMMANDS) for name in COMMANDS[c].writers]
)
def test_every_writer_writes_its_commands_result(cli_repo: Path, command: str, name: str) -> None:
    guide = "# Guide\n\nAn introduction to the guide, long enough to stand alone.\n\n"
    install = "## Install\n\nRun pip install chunkgate in a fresh virtual environment.\n"
    write(cli_repo, "a.md", guide + install)
    write(cli_repo, "golden.yaml", "- query: how to install\n  expected: [a.md#install]\n")
    write(cli_repo, "notes.md", "See a.md#guide and a.md#nope.\n")
    assert CliRunner().invoke(cli, ["update", "-q"]).exit_code == 0
    commit_all(cli_repo)
    write(cli_repo, "a.md", guide + install.replace("Install", "Installing"))
    args, shown = SHOWN[command]
    result = CliRunner().invoke(cli, [command, *args, "--format", name])
    assert result.exit_code == (1 if command in ("check", "refs") else 0), result.output
    assert shown in result.output
    if name in ("json", "sarif"):
        json.loads(result.output)
    elif name in ("jsonl", "plan"):
        assert all(isinstance(json.loads(line), dict) for line in result.output.splitlines())


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_name_is_one_error_for_every_command(command: str) -> None:
    registry = COMMANDS[command]
    with pytest.raises(UnknownFormat) as raised:
        registry.writer("yaml")
    assert str(raised.value) == (
        f"unknown format 'yaml' for `chunkgate {command}`: "
        f"choose from {', '.join(registry.choices())}"
    )
    with pytest.raises(UnknownFormat):
        registry.resolve("yaml", io.StringIO())


def test_the_library_writers_refuse_what_they_used_to_render_as_text() -> None:
    from chunkgate.report.diff import write_diff
    from chunkgate.report.listing import write_chunks

    with pytest.raises(UnknownFormat, match="`chunkgate diff`"):
        write_diff(None, "table", io.StringIO())  # type: ignore[arg-type]
    with pytest.raises(UnknownFormat, match="`chunkgate chunks`"):
        write_chunks([], "table", io.StringIO(), text=False)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("registry", "env", "stream", "expected"),
    [
        pytest.param(formats.CHECK, {"GITHUB_ACTIONS": "true"}, io.StringIO(), "github", id="ci"),
        pytest.param(formats.DIFF, {"GITHUB_ACTIONS": "true"}, _Terminal(), "github", id="ci-tty"),
        pytest.param(formats.STATS, {"GITHUB_ACTIONS": "true"}, io.StringIO(), "text", id="stats"),
        pytest.param(formats.CHUNKS, {}, _Terminal(), "rich", id="terminal"),
        pytest.param(formats.OUTLINE, {}, io.StringIO(), "text", id="pipe"),
    ],
)
def test_auto(
    registry: formats.Formats, env: dict[str, str], stream: io.StringIO, expected: str
) -> None:
    assert registry.resolve("auto", stream, env) == expected


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_command_line_offers_exactly_the_registry(command: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, [command, "--help"])
    listed = result.output.replace("\n", " ")
    assert f"[{'|'.join(COMMANDS[command].choices())}]" in listed.replace(" ", "")
    bad = CliRunner().invoke(cli, [command, "--format", "yaml", str(tmp_path)])
    assert bad.exit_code == 2
    assert "'yaml' is not one of" in bad.output
