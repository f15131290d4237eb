"""The command line: the ``cli`` group, one module per command, and the console script."""

from __future__ import annotations

import atexit
import os
import sys

import click

from chunkgate import __version__
from chunkgate.cli.check import check_command, update_command
from chunkgate.cli.chunks import chunks_command
from chunkgate.cli.diff import diff_command
from chunkgate.cli.evaluate import eval_command
from chunkgate.cli.export import export_command
from chunkgate.cli.init import init_command
from chunkgate.cli.lint import lint_command
from chunkgate.cli.mergedriver import merge_driver_command
from chunkgate.cli.outline import outline_command
from chunkgate.cli.refs import refs_command
from chunkgate.cli.rules import rules_command
from chunkgate.cli.stats import stats_command


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="chunkgate")
def cli() -> None:
    """Keep a RAG corpus's chunks stable, sized and clean.

    Chunks Markdown by heading, Python by definition and text in windows,
    each with a stable, citable ID; keeps a committed manifest of every
    chunk; and fails a commit or CI run when the corpus gets worse.
    """
    # A file name that is not UTF-8 (a lone surrogate once decoded) must not crash the
    # output under a strict-encoding stdout: it is shown as a \udcXX escape instead.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") == "strict":
            reconfigure(errors="backslashreplace")


for command in (
    check_command,
    chunks_command,
    diff_command,
    eval_command,
    export_command,
    init_command,
    lint_command,
    merge_driver_command,
    outline_command,
    refs_command,
    rules_command,
    stats_command,
    update_command,
):
    cli.add_command(command)


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
        from chunkgate import git

        atexit.register(
            lambda: print(f"chunkgate: {git.process_count()} git processes", file=sys.stderr)
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
