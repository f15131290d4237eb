"""The configuration file ``chunkgate init`` writes: every key with its default, commented."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterator
from typing import NamedTuple

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
{_keys_yaml()}"""


class _Entry(NamedTuple):
    path: str
    doc: str
    default: object
    commented: bool


def _entries() -> Iterator[_Entry]:
    """The configuration's own keys (``config/keys.py``), then the rules' options; a key
    whose default follows ``embed.model`` is commented out."""
    for key in keys.KEYS:
        doc = key.doc + (f" With embed.model: {key.model}." if key.model else "")
        if key.path == "embed.model":
            doc += f" Known: {', '.join(MODELS)}."
        yield _Entry(key.path, doc, key.default, bool(key.model))
    for option in rules.options():
        yield _Entry(option.key, option.comment, option.default, False)


def _keys_yaml() -> str:
    """Every key under its description, grouped by table."""
    lines: list[str] = []
    table_open: str | None = None
    for entry in _entries():
        table, _, name = entry.path.rpartition(".")
        if table != table_open or not table:
            lines.append("")
            if table:
                lines.append(f"{table}:")
            table_open = table
        indent = "  " if table else ""
        lines += textwrap.wrap(
            entry.doc,
            width=88,
            initial_indent=f"{indent}# ",
            subsequent_indent=f"{indent}# ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        if entry.path == "rules":
            lines.append("# Defaults:")
            lines += [
                f"#   {code}: {rule.severity:<8} # {rule.name}: {rule.summary}"
                for code, rule in RULES.items()
            ]
        mark = "# " if entry.commented else ""
        lines.append(f"{indent}{mark}{name}: {yaml_value(entry.default)}")
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
