"""``chunkgate merge-driver``: git's three-way merge of a manifest file."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors


@click.command("merge-driver")
@click.argument("base", type=click.Path(exists=True, dir_okay=False))
@click.argument("ours", type=click.Path(exists=True, dir_okay=False))
@click.argument("theirs", type=click.Path(exists=True, dir_okay=False))
@click.argument("name", required=False)
@reports_errors
def merge_driver_command(base: str, ours: str, theirs: str, name: str | None) -> None:
    """Three-way merge of a manifest file for git (%O %A %B %P).

    Configure with `.gitattributes`: `chunkgate.manifest/** merge=chunkgate` and
    `git config merge.chunkgate.driver "chunkgate merge-driver %O %A %B %P"`.
    """
    # imported per command: the manifest's reader, which no other command's start-up needs
    from chunkgate.hooks.mergedriver import run_merge_driver

    status, messages = run_merge_driver(Path(base), Path(ours), Path(theirs), name)
    for message in messages:
        click.echo(f"chunkgate: {message}", err=True)
    sys.exit(status)
