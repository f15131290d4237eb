"""``chunkgate init``: a commented .chunkgate.yaml and the next steps to take."""

from __future__ import annotations

from pathlib import Path

import click

from chunkgate.cli.errors import reports_errors


@click.command("init")
@click.option("--force", is_flag=True, help="Overwrite an existing .chunkgate.yaml.")
@reports_errors
def init_command(force: bool) -> None:
    """Write a commented .chunkgate.yaml and print the pre-commit and Actions snippets."""
    # imported per command, as every command's core: `--help` and the hook never need these
    from chunkgate.config.load import load_config  # (per command, as above)
    from chunkgate.config.template import default_config_yaml  # (per command, as above)
    from chunkgate.corpus.paths import allowed  # (per command, as above)
    from chunkgate.gate.write import unignore_manifest  # (per command, as above)
    from chunkgate.git import process  # (per command, as above)
    from chunkgate.manifest import write_atomic  # (per command, as above)

    root = process.find_root(Path.cwd()) or Path.cwd()
    target = allowed(root, ".chunkgate.yaml", what="init: the config file")
    if target.exists() and not force:
        click.echo(f"{target} exists; leaving it alone (use --force to overwrite)")
    else:
        write_atomic(target, default_config_yaml().encode("utf-8"))
        click.echo(f"wrote {target}")
    if (root / ".git").exists():
        note = unignore_manifest(root, load_config(root).manifest)
        if note:
            click.echo(note)
    click.echo(INIT_SNIPPETS)


INIT_SNIPPETS = """
Next steps:

1. Build the manifest and commit it:

    chunkgate update && git add chunkgate.manifest .chunkgate.yaml

2. Let git merge a file's manifest entry when two branches changed that file
   (optional; different files merge without it, on GitHub too):

    echo 'chunkgate.manifest/** merge=chunkgate eol=lf' >> .gitattributes
    git config merge.chunkgate.driver "chunkgate merge-driver %O %A %B %P"

3. Add the pre-commit hook (.pre-commit-config.yaml), with REV a commit SHA or
   release tag of chunkgate that you pin (chunkgate is not on PyPI yet):

    repos:
      - repo: https://github.com/chunkgate/chunkgate
        rev: REV
        hooks:
          - id: chunkgate

   `pre-commit autoupdate --repo https://github.com/chunkgate/chunkgate` fills
   in REV; `git ls-remote https://github.com/chunkgate/chunkgate HEAD` prints
   the newest commit's SHA.

4. Gate pull requests (.github/workflows/chunkgate.yml), with the same REV:

    on: pull_request
    jobs:
      chunkgate:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
            with:
              fetch-depth: 0   # the whole history: no base to fetch
          - uses: chunkgate/chunkgate@REV
            with:
              fail-on: unstable

To install chunkgate elsewhere: pip install git+https://github.com/chunkgate/chunkgate@REV
"""
