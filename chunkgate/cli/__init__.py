"""The command line: the ``cli`` group, one module per command, and the console script."""

from __future__ import annotations

import atexit
import importlib
import os
import sys

import click

from chunkgate import __version__

# Each command's module, imported when that command runs (or `--help` lists them all):
# the pre-commit hook's `check` imports no other command's.
COMMANDS = {
    "check": "chunkgate.cli.check:check_command",
    "chunks": "chunkgate.cli.chunks:chunks_command",
    "diff": "chunkgate.cli.diff:diff_command",
    "eval": "chunkgate.cli.evaluate:eval_command",
    "export": "chunkgate.cli.export:export_command",
    "fix-links": "chunkgate.cli.fixlinks:fix_links_command",
    "init": "chunkgate.cli.init:init_command",
    "lint": "chunkgate.cli.lint:lint_command",
    "merge-driver": "chunkgate.cli.mergedriver:merge_driver_command",
    "outline": "chunkgate.cli.outline:outline_command",
    "redirects": "chunkgate.cli.redirects:redirects_command",
    "refs": "chunkgate.cli.refs:refs_command",
    "report": "chunkgate.cli.report:report_command",
    "rules": "chunkgate.cli.rules:rules_command",
    "search": "chunkgate.cli.search:search_command",
    "stats": "chunkgate.cli.stats:stats_command",
    "update": "chunkgate.cli.check:update_command",
}


class Commands(click.Group):
    """The group of ``COMMANDS``, each imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _imported(cmd_name) if cmd_name in COMMANDS else None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in COMMANDS:  # click suggests the close names it holds
            self.commands.update((name, _imported(name)) for name in COMMANDS)
        return super().resolve_command(ctx, args)


def _imported(name: str) -> click.Command:
    module, _, attribute = COMMANDS[name].partition(":")
    command: click.Command = getattr(importlib.import_module(module), attribute)
    return command


# The errors handlers of a locale's stdout (strict, or C.UTF-8's surrogateescape) that
# are replaced; one the user chose (PYTHONIOENCODING=utf-8:replace) is kept.
_RECONFIGURED = frozenset(("strict", "surrogateescape"))


@click.group(
    cls=Commands,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "-V", "--version", prog_name="chunkgate")
def cli() -> None:
    """Keep a RAG corpus's chunks stable, sized and clean.

    Chunks Markdown by heading, Python by definition and text in windows,
    each with a stable, citable ID; keeps a committed manifest of every
    chunk; and fails a commit or CI run when the corpus gets worse.
    """
    # A file name that is not UTF-8 (a lone surrogate once decoded) must not crash the
    # output under a strict-encoding stdout, nor come out as its raw byte where the
    # locale's stdout escapes surrogates (C.UTF-8): it is written as a \udcXX escape
    # in every locale, the escape JSON reads back, as in files (``export -o``, the manifest).
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") in _RECONFIGURED:
            reconfigure(errors="backslashreplace")


def main() -> None:
    """The console script: run the command, then end the process without the
    interpreter's teardown.

    Freeing every module, class and cached pattern one by one took 15-20 ms of a
    0.17 s hook run, for a process whose work is done: its files were written and
    closed and its worker pools shut down by the commands themselves; what is left
    is run here (the ``atexit`` functions, a plugin's or coverage's too) and the
    output flushed.
    """
    if os.environ.get("CHUNKGATE_DEBUG_GIT") == "1":
        # imported only when asked: counting git's processes is a debugging aid
        from chunkgate.git import process

        atexit.register(
            lambda: print(f"chunkgate: {process.process_count()} git processes", file=sys.stderr)
        )
    try:
        cli(prog_name="chunkgate")
        status = 0
    except SystemExit as exc:
        status = _exit_status(exc.code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: as Python's own exit reports it
            status = status or 120
    os._exit(status)


def _exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` ends the process with (a message is printed)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
