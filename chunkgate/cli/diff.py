"""``chunkgate diff``: the chunks that changed between two revisions, or the re-embed plan."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from chunkgate.cli.errors import exit_with, reports_errors
from chunkgate.cli.options import config_option, format_option, load, quiet_option
from chunkgate.report import formats


@click.command("diff")
@click.argument("base", required=False)
@click.argument("head", required=False)
@click.option(
    "--base",
    "base_option",
    metavar="auto|REV",
    help="The base revision; auto: the pull request's base under GitHub Actions, "
    "else the merge base with origin's default branch.",
)
@format_option(formats.DIFF)
@click.option(
    "--fail-on",
    default="",
    metavar="LIST",
    help="Exit 1 when any of these is present (comma-separated): unstable, removed, oversized.",
)
@config_option
@quiet_option
@reports_errors
def diff_command(
    *,
    base: str | None,
    head: str | None,
    base_option: str | None,
    fmt: str,
    fail_on: str,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Compare chunks between two revisions: BASE (default HEAD) and HEAD (default:
    the working tree). A...B compares the merge base of A and B with B.

    Reports added, removed, modified and moved chunks (old ID → new ID);
    --format plan writes the re-embed plan (JSON lines: upsert, update, rekey,
    delete, then the unchanged count). Exit status: 0, 1 when a --fail-on
    category is present, 2 usage, config or git errors.
    """
    # imported per command: both revisions' chunks, which the hook never reads
    from chunkgate.diff.compare import diff_revisions, fail_reasons, parse_fail_on

    categories = parse_fail_on(fail_on)
    if base_option is not None:
        if head is not None:
            raise click.UsageError("give the base either as --base or as an argument, not both")
        base, head = base_option, base
    root = Path.cwd()
    if base == "auto":
        # imported for `auto` only: the pull request's event, or origin's default branch
        from chunkgate.git.autobase import resolve_auto_base

        base = resolve_auto_base(root, os.environ)
    fmt = formats.DIFF.resolve(fmt, sys.stdout)
    if fmt == "plan":
        # imported for the plan only: the re-embed plan is the export's
        from chunkgate.ingest.reembed import plan, write_plan

        rows = plan(load(config_path), base or "HEAD", head, revision_config=config_path is None)
        write_plan(rows, sys.stdout)
        if not categories:
            sys.exit(0)
    result = diff_revisions(root, base or "HEAD", head, config_path=config_path)
    if fmt != "plan" and (not quiet or fmt in ("json", "github")):
        formats.DIFF.writer(fmt)(result, sys.stdout, fail_on=categories, env=os.environ)
    exit_with(fail_reasons(result, categories))
