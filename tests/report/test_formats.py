"""One set of format names, one registry per command, one error for a wrong name."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkgate.cli import cli
from chunkgate.report import formats
from chunkgate.report.formats import COMMANDS, NAMES, UnknownFormat


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_writer_exists_and_every_name_is_documented(command: str) -> None:
    registry = COMMANDS[command]
    assert set(registry.choices()) <= set(NAMES)
    for name in registry.writers:
        assert callable(registry.writer(name))


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
