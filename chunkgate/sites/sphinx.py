"""A Sphinx project's ``conf.py``, read as data (never run), for its Markdown pages (MyST).

Sphinx publishes Markdown through an extension (``myst_parser``, or ``myst_nb``
which uses it); without one, the ``.md`` files beside ``conf.py`` are no
pages of its site. The settings are the literal assignments at the module's
top level (``extensions = [...]``, ``myst_heading_anchors = 2``); a value
computed at build time is unknown and leaves the default.
"""

from __future__ import annotations

import ast
from typing import Any

_MYST = ("myst_parser", "myst_nb")
# Names a Sphinx conf.py assigns; a ``conf.py`` with none of them is another tool's.
_SPHINX_NAMES = frozenset(("extensions", "project", "master_doc", "root_doc", "html_theme"))


def conf_settings(raw: bytes) -> dict[str, Any] | None:
    """The literal top-level assignments of a Sphinx ``conf.py``; None when it is no
    Sphinx configuration (or not Python)."""
    try:
        tree = ast.parse(raw.decode("utf-8"))
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            try:
                found[target.id] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                found[target.id] = None  # computed when Sphinx runs it
    return found if _SPHINX_NAMES & found.keys() else None


def publishes_markdown(settings: dict[str, Any]) -> bool:
    """Whether the project's extensions include MyST, which publishes its ``.md`` files."""
    extensions = settings.get("extensions")
    if extensions is None:
        return "extensions" in settings  # computed when Sphinx runs: it may well be MyST
    names = extensions if isinstance(extensions, list | tuple) else ()
    return any(str(name).partition(".")[0] in _MYST for name in names)


def other_projects(settings: dict[str, Any]) -> bool:
    """Whether a ``#label`` may name a target of another project: intersphinx is on (or
    the extensions are computed when Sphinx runs, so it may be)."""
    extensions = settings.get("extensions")
    if extensions is None:
        return "extensions" in settings
    names = extensions if isinstance(extensions, list | tuple) else ()
    return "sphinx.ext.intersphinx" in map(str, names)
