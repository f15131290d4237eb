"""``chunkgate rules``: the rules, or one rule's documentation."""

from __future__ import annotations

import shutil
import textwrap

import click

from chunkgate.cli.errors import reports_errors


@click.command("rules")
@click.argument("code", required=False)
@reports_errors
def rules_command(code: str | None) -> None:
    """List the rules, or print one rule's documentation."""
    # imported per command: every rule's module, which `--help` never needs
    from chunkgate.rules import RULES, rule_docs

    if code is None:
        # A terminal's width (or COLUMNS): summaries wrap by word under their column; a
        # pipe gets a line a rule, for grep.
        width = shutil.get_terminal_size((0, 0)).columns
        for rule in RULES.values():
            head = f"{rule.code}  {rule.name:<18} {rule.severity:<8} "
            lines = textwrap.wrap(rule.summary, max(width - len(head), 20)) if width else []
            click.echo(head + ("\n" + " " * len(head)).join(lines or [rule.summary]))
        click.echo("\n`chunkgate rules CODE` prints a rule's documentation.")
        return
    by_name = {rule.name: rule.code for rule in RULES.values()}
    key = code.upper() if code.upper() in RULES else by_name.get(code.lower(), code.upper())
    if key not in RULES:
        raise click.BadParameter(f"unknown rule {code!r}; see `chunkgate rules`")
    rule = RULES[key]
    click.echo(f"{rule.code} {rule.name} (default: {rule.severity})\n")
    click.echo(rule_docs().get(key, rule.summary))
