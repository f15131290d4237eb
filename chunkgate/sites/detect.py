"""Which site generator publishes each Markdown file, read from its configuration.

A repository may hold several sites (often in ``docs/``): each generator
config found in the tree is read as data, never executed, into a ``Site``
whose anchor style the files below it take (``sites.model.style_of``).
The configs are found with one ``git ls-files`` call for the whole
repository, so a hook run pays one git process, not a walk per file; their
settings are cached on disk by content like ``.chunkgate.yaml``
(``chunkgate.cache.configs``), so YAML is parsed once per edit of the config.

- ``mkdocs.yml``/``.yaml`` (MkDocs): ``docs_dir``; ``markdown_extensions``:
  ``toc``'s ``slugify`` and ``separator``, ``attr_list`` (or ``extra``),
  ``footnotes``, ``admonition``, ``pymdownx.details``, ``pymdownx.tabbed``; the
  ``macros`` plugin (Jinja); ``INHERIT``.
- ``zensical.toml`` (Zensical): the same settings in its ``[project]`` table, and
  Zensical's default extensions when it names none.
- ``_config.yml`` (Jekyll): ``markdown``, ``kramdown.input``; Liquid and footnotes always.
- ``hugo.toml``/``.yaml``/``.json``, a Hugo ``config.toml``, either also in Hugo's
  config directory (``config/_default/``): ``contentDir``,
  ``markup.goldmark.parser`` (``autoHeadingIDType``, ``attribute.title`` and
  ``.block``), ``markup.goldmark.extensions.footnote``.
- ``.vitepress/config.*`` (VitePress): ``srcDir``; the site publishes the folder
  holding ``.vitepress`` (or its ``srcDir``).
- ``conf.py`` (Sphinx, when its extensions publish Markdown through MyST):
  ``myst_heading_anchors``; read as data, never run.
- ``docusaurus.config.*``, ``astro.config.*`` (Starlight): nothing to read.
"""

from __future__ import annotations

import fnmatch
import json
import os
import posixpath
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from chunkgate.cache import configs as configcache
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.core.regex import lazy
from chunkgate.git import search
from chunkgate.sites import settings as sitesettings
from chunkgate.sites.model import MARKDOWN_FEATURES, Site

Reader = Callable[[str], "bytes | None"]

_JS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
GENERATOR_FILES = (
    "mkdocs.yml",
    "mkdocs.yaml",
    "zensical.toml",
    "_config.yml",
    "hugo.toml",
    "hugo.yaml",
    "hugo.json",
    "config.toml",
    "conf.py",
    *(f"docusaurus.config{ext}" for ext in _JS),
    *(f"astro.config{ext}" for ext in _JS),
    *(f"config{ext}" for ext in _JS),  # VitePress's, in a .vitepress folder (``is_vitepress``)
)
_GENERATOR_NAMES = frozenset(GENERATOR_FILES)
# Never a site of the repository's own: dependencies and tool folders (but .vitepress).
_SKIPPED = lazy(r"(?:^|/)(?:node_modules|vendor|\.(?!vitepress/)[^/]*)/")
_CACHE_KEY = b"chunkgate-site-settings-4\0"
_ENVIRONMENT = lazy(r"(?:^|/)config/(?!_default/)[^/]+/(?:hugo|config)\.[a-z]+$")


def find_sites(paths: Iterable[str], read: Reader) -> tuple[Site, ...]:
    """The sites whose config files are among ``paths`` (root-relative POSIX paths)."""
    sites = []
    for path in sorted(paths):
        name = path.rpartition("/")[2]
        if name not in _GENERATOR_NAMES or _SKIPPED.search(path):
            continue
        if name.startswith("config.") and name != "config.toml" and not is_vitepress(path):
            continue
        if _ENVIRONMENT.search(path):
            continue  # Hugo's config/production/hugo.toml: _default's overrides, no site
        site = read_site(path, read)
        if site is not None:
            sites.append(site)
    # Two configs in one folder (a Hugo config.toml beside a _config.yml): the first wins.
    unique: dict[str, Site] = {}
    for site in sites:
        unique.setdefault(site.folder, site)
    return tuple(unique.values())


# The names ``references.site_of`` looks for too (``routes.detect_routes``), listed by the
# same git call.
_LISTED = (
    *(name for name in GENERATOR_FILES if not name.startswith("astro.config")),
    "astro.config.*",
    "book.toml",
)


class Generators(NamedTuple):
    """The site generators of a work tree and the config files they came from: ``listed``
    every one found, ``tracked`` the tracked regular files among them (what
    ``references.site_of`` reads); ``fresh`` when listed in the tree this run."""

    sites: tuple[Site, ...]
    listed: tuple[str, ...]
    tracked: tuple[str, ...]
    fresh: bool


def working_tree_sites(root: Path, *, git: bool) -> tuple[Site, ...]:
    """The sites of the work tree at ``root``: one git call, or a walk outside git."""
    if not git:
        return find_sites(_walked_config_paths(root), _reader(root))
    return working_tree_generators(root).sites


def working_tree_generators(
    root: Path, untracked: Callable[[], list[str]] | None = None
) -> Generators:
    """The sites of the git work tree at ``root`` and their configs, in one listing
    (of the index alone, with ``untracked``: the untracked files, listed already)."""
    listed = search.files_named(root, _LISTED, untracked)
    found = find_sites(listed.paths, _reader(root))
    return Generators(found, tuple(listed.paths), tuple(listed.regular), fresh=True)


def site_folder(path: str) -> str:
    """The folder of the site whose config is ``path``: its own, or, for Hugo's config
    directory (``config/_default/hugo.toml``), the one holding ``config/``."""
    folder = posixpath.dirname(path)
    parent, _, name = folder.rpartition("/")
    if name == "_default" and posixpath.basename(parent) == "config":
        return posixpath.dirname(parent)
    return folder


def is_vitepress(path: str) -> bool:
    """Whether ``path`` is a VitePress config: ``config.*`` (JS or TS) in ``.vitepress/``."""
    folder, _, name = path.rpartition("/")
    return folder.rpartition("/")[2] == ".vitepress" and name.endswith(_JS)


def _reader(root: Path) -> Reader:
    def read(path: str) -> bytes | None:
        try:
            return (root / path).read_bytes()
        except OSError:
            return None

    return read


def is_listed_name(path: str) -> bool:
    """Whether ``path`` has the name of a file ``working_tree_generators`` lists."""
    name = path.replace(os.sep, "/").rpartition("/")[2]
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in _LISTED)


def recorded_generators(root: Path, listed: Iterable[str], tracked: Iterable[str]) -> Generators:
    """``working_tree_generators`` from the configs a whole-corpus run listed (the
    manifest header records them), read again now: one since removed drops out."""
    present = tuple(path for path in listed if os.path.lexists(root / path))
    regular = tuple(path for path in tracked if os.path.isfile(root / path))
    return Generators(find_sites(present, _reader(root)), present, regular, fresh=False)


def _walked_config_paths(root: Path) -> list[str]:
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        base = Path(folder).relative_to(root).as_posix()
        found.extend(
            posixpath.join(base, name) if base != "." else name
            for name in files
            if name in _GENERATOR_NAMES
        )
    return found


def read_site(path: str, read: Reader) -> Site | None:
    raw = read(path)
    if raw is None:
        return None
    settings = _cached_settings(path, raw, read)
    if settings is None:
        return None
    folder = site_folder(path)
    publishes = settings.get("folder", "")
    prefix = posixpath.normpath(posixpath.join(folder, publishes)) if publishes else folder
    prefix = "" if prefix in ("", ".") else f"{prefix}/"
    style = AnchorStyle(
        settings["flavour"],
        settings.get("variant", ""),
        settings.get("separator", "-"),
        settings.get("attributes", True),
        path,
    )
    markdown = frozenset(settings.get("markdown", ())) & MARKDOWN_FEATURES
    return Site(prefix, style, settings.get("liquid", False), markdown)


def _cached_settings(path: str, raw: bytes, read: Reader) -> dict[str, Any] | None:
    name = path.rpartition("/")[2]
    key = _CACHE_KEY + name.encode() + b"\0" + raw
    cached = configcache.lookup(key)
    if not configcache.is_missing(cached):
        return cached if isinstance(cached, dict) else None
    settings = sitesettings.settings(path, raw, read)
    if "INHERIT" not in (settings or {}):
        configcache.remember(key, settings)
    else:  # the parent's contents are not part of the key: read it every time
        settings = {k: v for k, v in settings.items() if k != "INHERIT"}  # type: ignore[union-attr]
    return settings


def describe(sites: Iterable[Site]) -> str:
    return json.dumps([[s.folder, s.style.describe()] for s in sites], ensure_ascii=False)
