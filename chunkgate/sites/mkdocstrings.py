"""mkdocstrings' Python handler as a site configures it (``mkdocs.yml``, ``zensical.toml``).

Read as data from the config's ``plugins``: ``mkdocstrings.handlers.python``'s
``paths`` (the folders Griffe finds packages in, relative to the config's
folder; by default the config's folder itself) and its ``options`` (what
every ``:::`` block renders unless the block says otherwise). A package
outside those folders is found by Griffe only when installed; the usual
layout installs ``src/`` in development mode, so ``src`` is looked in last.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


class Autodoc(NamedTuple):
    """The Python handler's search folders (repository-relative, "" the root) and its
    global options as JSON (a NamedTuple of plain values stays hashable and readable
    in the link cache's key)."""

    paths: tuple[str, ...] = ("",)
    options: str = "{}"

    def options_dict(self) -> dict[str, Any]:
        loaded = json.loads(self.options)
        return loaded if isinstance(loaded, dict) else {}


class Sources(NamedTuple):
    """The repository's files as an autodoc block reads them: ``read(path)`` a file's
    text (or None), ``listing(folder)`` the names in a folder (a package's submodules)."""

    read: Callable[[str], str | None]
    listing: Callable[[str], Iterable[str]]


def _join(folder: str, name: str) -> str:
    name = name.strip().strip("/")
    if name in ("", "."):
        return folder
    return f"{folder}/{name}" if folder else name


def handler_settings(folder: str, plugins: Any, extensions: Any = None) -> Autodoc | None:
    """The Python handler of ``plugins`` (MkDocs' list or mapping, Zensical's table), or
    of Zensical's own Markdown extension among ``extensions``
    (``[project.markdown_extensions.zensical.extensions.mkdocstrings]``), for a config
    in ``folder``; None when mkdocstrings is not among them."""
    found = _plugin(plugins)
    if found is None and isinstance(extensions, dict):
        zensical = extensions.get("zensical")
        inner = zensical.get("extensions") if isinstance(zensical, dict) else None
        found = inner.get("mkdocstrings") if isinstance(inner, dict) else None
    if found is None:
        return None
    handlers = found.get("handlers") if isinstance(found, dict) else None
    python = handlers.get("python") if isinstance(handlers, dict) else None
    python = python if isinstance(python, dict) else {}
    paths = python.get("paths")
    named = [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
    roots = [_join(folder, p) for p in named if "*" not in p] or [folder]
    roots.append(_join(folder, "src"))
    options = python.get("options")
    options = options if isinstance(options, dict) else {}
    return Autodoc(tuple(dict.fromkeys(roots)), json.dumps(options, sort_keys=True, default=str))


def _plugin(plugins: Any) -> Any:
    if isinstance(plugins, dict):
        return plugins.get("mkdocstrings", {}) if "mkdocstrings" in plugins else None
    for item in plugins if isinstance(plugins, list) else ():
        if item == "mkdocstrings":
            return {}
        if isinstance(item, dict) and "mkdocstrings" in item:
            return item["mkdocstrings"] or {}
    return None
