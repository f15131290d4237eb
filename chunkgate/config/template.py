"""The configuration file ``chunkgate init`` writes: every key with its default, commented."""

from __future__ import annotations

import json
import re
import textwrap

from chunkgate import rules
from chunkgate.chunking.models import MODELS
from chunkgate.config import keys
from chunkgate.rules import RULES

# A string YAML reads back as itself without quotes.
_PLAIN = re.compile(r"[A-Za-z][\w.:/-]*")


def default_config_yaml() -> str:
    """What `chunkgate init` writes: every key with its default, commented."""
    return f"""\
# chunkgate configuration. Every key is optional; these are the defaults.
# Patterns are gitignore-style, matched against POSIX paths from the repository root.
# The keys commented out take their defaults from embed.model when it is set (its
# tokens, its input limit); uncomment one to set it either way.
{_keys_yaml()}{_options_yaml()}"""


def _keys_yaml() -> str:
    """The configuration's own keys (``config/keys.py``), each under its description,
    grouped by table; a key whose default follows ``embed.model`` commented out."""
    lines: list[str] = []
    table_open: str | None = None
    for key in keys.KEYS:
        table, _, name = key.path.rpartition(".")
        if table != table_open or not table:
            lines.append("")
            if table:
                lines.append(f"{table}:")
            table_open = table
        indent = "  " if table else ""
        doc = key.doc + (f" With embed.model: {key.model}." if key.model else "")
        if key.path == "embed.model":
            doc += f" Known: {', '.join(MODELS)}."
        lines += _comment(doc, indent)
        if key.path == "rules":
            lines += [f"{indent}# Defaults:"]
            lines += [
                f"#   {code}: {rule.severity:<8} # {rule.name}: {rule.summary}"
                for code, rule in RULES.items()
            ]
        shown = f"{indent}{name}: {yaml_value(key.default)}"
        lines.append(shown.replace(name, f"# {name}", 1) if key.model else shown)
    return "\n".join(lines) + "\n"


def _comment(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text,
        width=88,
        initial_indent=f"{indent}# ",
        subsequent_indent=f"{indent}# ",
        break_on_hyphens=False,
        break_long_words=False,
    )


def _options_yaml() -> str:
    """The rules' options with their defaults, a comment above each, grouped by table."""
    lines: list[str] = []
    table_open = ""
    for option in rules.options():
        table, _, name = option.key.rpartition(".")
        if table != table_open or not table:
            lines.append("")
            if table:
                lines.append(f"{table}:")
            table_open = table
        indent = "  " if table else ""
        lines += _comment(option.comment, indent)
        lines.append(f"{indent}{name}: {yaml_value(option.default)}")
    return "\n".join(lines) + "\n"


def yaml_value(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{item}"' for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, str) and not _PLAIN.fullmatch(value):
        return json.dumps(value)
    return str(value)
