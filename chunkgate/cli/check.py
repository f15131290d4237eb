"""``chunkgate check`` and ``chunkgate update``: the gate, and the manifest it keeps."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import (
    baseline_option,
    config_option,
    format_option,
    jobs_option,
    quiet_option,
)
from chunkgate.core.errors import ChunkgateError
from chunkgate.report import formats

if TYPE_CHECKING:
    from chunkgate.core.model import CheckResult


class HookCommand(click.Command):
    """``check`` as pre-commit runs it, ``entry args... files...``: no ``--`` comes before
    the files (one there would make a user's own ``args:`` paths), so with ``--hook`` an
    argument shaped like an option that the command does not have, and that names a
    file (``-rf.md``), is that file, written ``./-rf.md`` where it stands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--hook" in args:
            args = _files_named_like_options(self, args)
        return super().parse_args(ctx, args)


def _files_named_like_options(command: click.Command, args: list[str]) -> list[str]:
    takes_value = {
        name: not (param.is_flag or param.count)
        for param in command.params
        if isinstance(param, click.Option)
        for name in (*param.opts, *param.secondary_opts)
    }
    given: list[str] = []
    value_next = False
    for index, arg in enumerate(args):
        if arg == "--":
            return [*given, *args[index:]]
        name = arg.partition("=")[0]
        if value_next or not arg.startswith("-") or arg == "-" or name in takes_value:
            given.append(arg)
            value_next = not value_next and "=" not in arg and takes_value.get(name, False)
        else:
            given.append(os.path.join(os.curdir, arg) if os.path.lexists(arg) else arg)
    return given


@click.command("check", cls=HookCommand)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--all", "whole", is_flag=True, help="Check the whole corpus (the default without PATHS)."
)
@click.option(
    "--update",
    is_flag=True,
    help="Also rewrite the manifest entries of these files; exit 1 if the manifest changed "
    "(what the pre-commit hook does).",
)
@format_option(formats.CHECK)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to this file (e.g. results.sarif) instead of stdout.",
)
@jobs_option("Worker processes for large cold runs (0: one per CPU).")
@baseline_option
@click.option(
    "--hook",
    is_flag=True,
    help="As the pre-commit hook runs it: only PATHS and the files the commit deletes, "
    "never the whole corpus (even with no PATHS).",
)
@click.option(
    "--show-known",
    is_flag=True,
    help="Also list the problems the committed manifest already records.",
)
@click.option(
    "--show-unverified",
    is_flag=True,
    help="Also list the links into open pages (anchors made at build time) whose anchor "
    "was not found; they fail nothing.",
)
@click.option(
    "--site",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="A site the generator built (e.g. site/, public/, _site/): CG404 checks links "
    "against the ids of the pages it holds, exactly.",
)
@click.option(
    "--strict", is_flag=True, help="Fail on every problem, the recorded (known) ones too."
)
@click.option(
    "--select",
    metavar="CODES",
    help="Only these rules (comma-separated codes or prefixes: CG201,CG3).",
)
@click.option("--ignore", metavar="CODES", help="Not these rules (codes or prefixes).")
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Also list each finding of a group (a moved page's IDs, the links into a renamed "
    "heading, the files a configuration change left out) under its one line.",
)
@config_option
@quiet_option
@reports_errors
def check_command(
    *,
    paths: tuple[str, ...],
    whole: bool,
    update: bool,
    fmt: str,
    output: Path | None,
    jobs: int,
    baseline: str | None,
    hook: bool,
    show_known: bool,
    show_unverified: bool,
    site: Path | None,
    strict: bool,
    select: str | None,
    ignore: str | None,
    verbose: bool,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Check the corpus, or the named files, against the rules and the manifest.

    Files listed in the manifest that no longer exist are checked too. Exit
    status: 0 clean (warnings allowed), 1 errors found or (with --update) the
    manifest changed, 2 usage, config or git errors.
    """
    listing = None
    if hook and config_path is None:
        # imported first, before the run's modules: the hook's git listing (started by the
        # console script already, when it could tell the paths) runs beside their imports
        from chunkgate.hooks import start as hookstart

        listing = hookstart.take(paths) or hookstart.named_listing(paths)
    # imported per command: keeps the start-up of the other commands light
    from chunkgate.gate.runs import check_run

    result, output = check_run(
        paths,
        whole=whole,
        hook=hook,
        update=update,
        jobs=jobs,
        baseline=baseline,
        select=select,
        ignore=ignore,
        strict=strict,
        show_known=show_known,
        show_unverified=show_unverified,
        site=site,
        config_path=config_path,
        output=output,
        listing=listing,
        env=os.environ,
    )
    write_report(result._replace(detail=verbose), fmt, output, quiet)
    sys.exit(1 if result.errors or (update and result.manifest_changed) else 0)


def write_report(result: CheckResult, fmt: str, output: Path | None, quiet: bool) -> None:
    """The check report, on stdout or (``-o``) in a file replaced at once when written."""
    stream = sys.stdout if output is None else io.StringIO()
    fmt = "text" if output is not None and fmt == "auto" else formats.CHECK.resolve(fmt, stream)
    formats.CHECK.writer(fmt)(result, stream, quiet=quiet, env=os.environ)
    if isinstance(stream, io.StringIO) and output is not None:
        # imported per command: only `-o` writes a file
        from chunkgate.manifest import write_atomic

        # A file name that is not UTF-8 holds lone surrogates: written as \udcXX escapes.
        write_atomic(output, stream.getvalue().encode("utf-8", "backslashreplace"))


@click.command("update")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--accept-moves",
    is_flag=True,
    help="Record detected moves (renamed headings, moved files) as moved_from.",
)
@jobs_option()
@baseline_option
@config_option
@quiet_option
@reports_errors
def update_command(
    *,
    paths: tuple[str, ...],
    accept_moves: bool,
    jobs: int,
    baseline: str | None,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Rewrite the manifest for the named files (all without PATHS)."""
    # imported per command: keeps the start-up of the other commands light
    from chunkgate.gate.runs import update_run
    from chunkgate.report.check import outside_lines, problems  # as `check` says them

    result = update_run(
        paths,
        accept_moves=accept_moves,
        jobs=jobs,
        baseline=baseline,
        config_path=config_path,
        env=os.environ,
    )
    if quiet:
        return
    for note in (*outside_lines(result), *result.notes):
        click.echo(note)
    if not result.manifest_changed:
        click.echo(f"{result.manifest} is up to date")
    if result.violations:
        click.echo(f"{problems(result.summary)}: `chunkgate check --show-known` lists them")


def parse_check_args(args: list[str]) -> dict[str, Any]:
    """The parameters ``chunkgate check ARGS...`` would get, checked as the command checks
    them (for the action's ``args`` input)."""
    try:
        context = check_command.make_context("chunkgate check", list(args))
    except click.exceptions.Exit:
        raise ChunkgateError("args: --help is not an argument to run with") from None
    except click.ClickException as exc:
        raise ChunkgateError(f"args: {exc.format_message()}") from None
    return dict(context.params)
