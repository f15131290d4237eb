"""The corpus as CG404 sees it: the sites that publish it, and its files' texts."""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Collection
from pathlib import Path

from chunkgate.core.errors import UnreadableError
from chunkgate.corpus.source import decode
from chunkgate.git import listings, process
from chunkgate.links.broken import Sites
from chunkgate.sites.detect import is_vitepress, site_folder
from chunkgate.sites.routes import GITHUB, Routes, detect_routes, hugo_routes, vitepress_routes

# The generator configs ``detect_site`` reads.
_CONFIGS = frozenset(
    ("mkdocs.yml", "mkdocs.yaml", "zensical.toml", "hugo.toml", "hugo.yaml", "hugo.json")
) | {"config.toml", "book.toml", "_config.yml", "conf.py"}


def sites_of(root: Path, generator_files: Collection[str] | None = None) -> Sites:
    """The repository's site generators, from the configuration files at its top and
    one folder down (``a/mkdocs.yml`` and ``b/mkdocs.yml`` are two sites).

    ``generator_files`` are the tracked generator configs, as ``load_config``
    listed them (``Config.generator_files``); without them, the index is listed.
    """
    if generator_files is not None:
        paths = list(generator_files)
        # A Hugo config.toml counts beside a content folder with tracked files in it.
        for path in generator_files:
            folder, _, name = path.rpartition("/")
            if name == "config.toml" and "/" not in folder:
                paths += listings.index_blobs(root, [f"{folder}/content" if folder else "content"])
    elif (root / ".git").exists() and process.installed():
        paths = list(listings.index_blobs(root))
    else:
        paths = [p.name for p in root.iterdir()]
        paths += [f"{p.parent.name}/{p.name}" for p in root.glob("*/*") if p.is_file()]

    def read(path: str) -> bytes | None:
        try:
            return (root / path).read_bytes()
        except OSError:
            return None

    found = [detect_routes(_at_top(paths), read)]
    for folder in sorted({path.partition("/")[0] for path in paths if _config_one_down(path)}):
        inside = [path[len(folder) + 1 :] for path in paths if path.startswith(folder + "/")]
        site = detect_routes(_at_top(inside), functools.partial(_read_under, read, folder))
        if site != GITHUB:
            found.append(site._replace(roots=tuple(_join(folder, r) for r in site.roots)))
    found += [deep for path in paths if (deep := _deep_site(path, read)) is not None]
    sites = tuple(site for site in found if site != GITHUB) or (GITHUB,)
    return Sites(sites)


def _deep_site(path: str, read: Callable[[str], bytes | None]) -> Routes | None:
    """The site of a config in a folder of its own, at any depth: VitePress's
    ``.vitepress/config.ts``, Hugo's ``config/_default/hugo.toml``."""
    if is_vitepress(path):
        return vitepress_routes(path, read(path) or b"")
    folder = site_folder(path)
    if folder != posixpath.dirname(path) and path.rpartition("/")[2] in _CONFIGS:
        return hugo_routes(folder, path, read(path) or b"")
    return None


def _config_one_down(path: str) -> bool:
    folder, _, name = path.partition("/")
    return bool(folder) and "/" not in name and _is_config(name)


def _at_top(paths: list[str]) -> list[str]:
    """``paths`` without the configs one folder down: the sites at the top only."""
    return [path for path in paths if not _config_one_down(path)]


def _read_under(read: Callable[[str], bytes | None], folder: str, path: str) -> bytes | None:
    return read(f"{folder}/{path}")


def _is_config(name: str) -> bool:
    return name in _CONFIGS or name.startswith(("astro.config.", "docusaurus.config."))


def _join(folder: str, root: str) -> str:
    return posixpath.normpath(f"{folder}/{root}") if root else folder


def read_text(root: Path, path: str) -> str | None:
    """A corpus file's text; None when it cannot be read (CG001 reports it)."""
    try:
        return decode((root / path).read_bytes(), path)
    except (OSError, UnreadableError):
        return None
