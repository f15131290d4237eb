"""The command group: each command's module imported when it runs, the registry's names,
the shared options and the errors' exit codes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from helpers import write

from chunkgate.cli import COMMANDS, cli
from chunkgate.cli.check import parse_check_args
from chunkgate.core.errors import ChunkgateError


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_registered_command_answers_to_its_name(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.name == name
    assert CliRunner().invoke(cli, [name, "--help"]).exit_code == 0


def test_the_group_lists_every_command_in_its_help() -> None:
    listing = CliRunner().invoke(cli, ["--help"]).output.split("Commands:\n")[1]
    names = [line.split()[0] for line in listing.splitlines() if line[2:3].strip()]
    assert names == sorted(COMMANDS)


def test_a_run_of_check_imports_no_other_command() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from chunkgate.cli import cli\n"
        "assert CliRunner().invoke(cli, ['check', '--help']).exit_code == 0\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('chunkgate.cli.'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [
        "chunkgate.cli.check",
        "chunkgate.cli.errors",
        "chunkgate.cli.options",
    ]


def test_a_mistyped_command_is_told_the_close_names() -> None:
    result = CliRunner().invoke(cli, ["chek"])
    assert result.exit_code == 2
    assert "No such command 'chek'. (Did you mean one of: 'check', 'chunks'?)" in result.output


def test_jobs_zero_is_one_worker_per_cpu() -> None:
    assert parse_check_args(["-j", "0"])["jobs"] == max(1, os.cpu_count() or 1)
    assert parse_check_args(["--jobs", "3"])["jobs"] == 3


def test_the_actions_args_are_checked_as_the_command_checks_them() -> None:
    assert parse_check_args(["--strict", "docs"])["paths"] == ("docs",)
    with pytest.raises(ChunkgateError, match=r"args: No such option.*--nope"):
        parse_check_args(["--nope"])
    with pytest.raises(ChunkgateError, match="--help is not an argument"):
        parse_check_args(["--help"])


def test_a_report_file_is_text_under_actions_too(
    cli_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-o FILE` with `--format auto` writes text: annotations belong to the job's log."""
    write(cli_repo, "a.md", "# A\n\n" + "word " * 600)
    write(cli_repo, ".chunkgate.yaml", "size: {limit: 500}\n")  # over it: a CG201 error
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    result = CliRunner().invoke(cli, ["check", "-o", "report.txt", "a.md"])
    assert (result.exit_code, result.output) == (1, "")
    report = (cli_repo / "report.txt").read_text()
    assert report.startswith("a.md:1: error CG201 oversized")
    assert "::error" not in report


def test_a_report_file_is_never_a_corpus_file(cli_repo: Path) -> None:
    write(cli_repo, "a.md", "# A\n\nshort\n")
    result = CliRunner().invoke(cli, ["check", "-o", "a.md"])
    assert result.exit_code == 2
    assert result.output.startswith("chunkgate: error: -o")
    assert (cli_repo / "a.md").read_text() == "# A\n\nshort\n"


def test_an_unreadable_file_exits_2_after_the_others_are_listed(cli_repo: Path) -> None:
    write(cli_repo, "a.md", "# A\n\nSome text here.\n")
    write(cli_repo, "b.md", b"\x00\x01binary\x00\x02")
    result = CliRunner().invoke(cli, ["chunks", "--format", "json", "a.md", "b.md"])
    assert result.exit_code == 2
    assert '"path": "a.md"' in result.stdout
    assert "chunkgate: error: b.md: " in result.output


def test_a_toy_command_is_one_module_and_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """CONTRIBUTING's "A new command": a module with a click command and one entry in
    ``COMMANDS``; the group lists it, runs it, and turns its error into exit code 2."""
    import types

    from chunkgate.cli.errors import reports_errors

    @click.command("toy")
    @click.argument("word")
    @reports_errors
    def toy_command(word: str) -> None:
        """Say a word back."""
        if word == "boom":
            raise ChunkgateError("no booms here")
        click.echo(f"toy: {word}")

    module = types.ModuleType("toy_command_module")
    module.toy_command = toy_command  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_command_module", module)
    monkeypatch.setitem(COMMANDS, "toy", "toy_command_module:toy_command")
    runner = CliRunner()
    assert "toy" in runner.invoke(cli, ["--help"]).output
    said = runner.invoke(cli, ["toy", "hello"])
    assert (said.exit_code, said.output) == (0, "toy: hello\n")
    failed = runner.invoke(cli, ["toy", "boom"])
    assert failed.exit_code == 2
    assert "no booms here" in failed.output
