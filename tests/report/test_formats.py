"""One set of format names, one registry per command, one error for a wrong name."""

from __future__ import annotations

import inspect
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner
from helpers import commit_all, write

from chunkgate.cli import cli
from chunkgate.core.model import CheckResult
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
    "search": (["install"], "a.md#installing"),
    "refs": (["notes.md"], "a.md#nope"),
    "fix-links": ([], "rewrit"),
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
    assert f"unknown format 'yaml' for `chunkgate {command}`: choose from auto," in bad.output


PROTOCOLS = {
    "check": formats.CheckWriter,
    "diff": formats.DiffWriter,
    "chunks": formats.ChunksWriter,
    "outline": formats.OutlineWriter,
    "stats": formats.StatsWriter,
    "eval": formats.EvalWriter,
    "search": formats.SearchWriter,
    "refs": formats.RefsWriter,
    "fix-links": formats.FixLinksWriter,
}


def _shape(function: object) -> list[tuple[str, object]]:
    """Parameter names and kinds, without the defaults a writer may add."""
    parameters = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    return [(p.name, p.kind) for p in parameters if p.name != "self"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_writer_has_its_commands_protocol(command: str) -> None:
    """The Protocol is what the command's caller passes: every writer takes exactly that
    (keyword arguments of its own only with defaults, never ``**kwargs``)."""
    expected = _shape(PROTOCOLS[command].__call__)
    for name in COMMANDS[command].writers:
        writer = COMMANDS[command].writer(name)
        shape = _shape(writer)
        extra = [
            p
            for p in inspect.signature(writer).parameters.values()
            if (p.name, p.kind) not in expected
        ]
        assert shape[: len(expected)] == expected, (command, name)
        assert all(p.kind is p.KEYWORD_ONLY and p.default is not p.empty for p in extra)


def write_toy(result: CheckResult, stream: IO[str], *, quiet: bool, env: Mapping[str, str]) -> None:
    """A toy format: one line per violation, as ``rule path:line``."""
    shown = [v for v in result.violations if v.severity == "error" or not quiet]
    for violation in shown:
        stream.write(f"TOY {violation.rule} {violation.path}:{violation.line}\n")
    stream.write(f"TOY done, in CI: {env.get('GITHUB_ACTIONS') == 'true'}\n")


def test_a_toy_format_is_written_through_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from helpers import commit_all, make_repo, write

    monkeypatch.setitem(formats.CHECK.writers, "toy", f"{__name__}:write_toy")
    repo = make_repo(tmp_path)
    write(repo, "docs/a.md", "# A\n\nA short page, and no manifest yet.\n")
    commit_all(repo, "docs")
    monkeypatch.chdir(repo)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(cli, ["check", "--format", "toy"])
    assert result.output.splitlines() == [
        "TOY CG401 chunkgate.manifest:1",
        "TOY CG202 docs/a.md:1",
        "TOY done, in CI: False",
    ], result.output
    assert result.exit_code == 1
    quiet = CliRunner().invoke(
        cli, ["check", "-q", "--format", "toy"], env={"GITHUB_ACTIONS": "true"}
    )
    assert quiet.output.splitlines() == ["TOY CG401 chunkgate.manifest:1", "TOY done, in CI: True"]
