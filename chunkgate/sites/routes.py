"""Where a site generator publishes a page, so that links to rendered names find their source.

A link in the docs names the page the reader opens, which is not always the
source file: ``page.html`` is ``page.md`` in mdBook and Jekyll; MkDocs (with
``use_directory_urls``, its default), Hugo and Starlight publish ``a/page.md``
at ``a/page/``, so ``page/``, extensionless ``page`` and ``/a/page/`` name it,
and a relative rendered link is relative to that URL, not to the file's
folder. A link to the ``.md`` file itself is relative to the file, as every
one of them (and GitHub) resolves it.

The generator is found by its configuration file; without one the site is
GitHub's, where a path is a path from the linking file or the repository root.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any, NamedTuple

from chunkgate.sites.mkdocstrings import Autodoc, handler_settings
from chunkgate.sites.settings import load_toml, load_yaml
from chunkgate.sites.sphinx import conf_settings, publishes_markdown

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
_INDEX_NAMES = ("index", "_index", "README", "readme")


class Routes(NamedTuple):
    """How one generator maps URLs to source files.

    ``roots`` are the folders (repository-relative, "" for the root) that
    ``/``-absolute links start from; ``directory_urls``: pages are published as
    folders (``a/page/``); ``term_ids``: definition-list terms get anchors too
    (Hugo's ``autoDefinitionTermID``); ``autodoc``: mkdocstrings' Python handler, when
    the site has it.
    """

    generator: str
    roots: tuple[str, ...] = ("",)
    directory_urls: bool = False
    term_ids: bool = False
    autodoc: Autodoc | None = None


GITHUB = Routes("github")


def detect_routes(paths: Collection[str], read: Callable[[str], bytes | None]) -> Routes:
    """The site of a repository from its files (``read`` gives a file's bytes or None).

    Configuration files at the root or one folder down (``docs/mkdocs.yml``)
    count; the first generator found in this order wins: Zensical (which reads a
    ``mkdocs.yml`` too, but ``zensical.toml`` first), MkDocs, Hugo, Starlight, mdBook,
    Sphinx with MyST (``conf.py``), Jekyll.
    """
    shallow = sorted((p for p in paths if p.count("/") <= 1), key=lambda p: (p.count("/"), p))
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name == "zensical.toml":
            project = (load_toml(read(path) or b"") or {}).get("project")
            return _mkdocs(folder, project if isinstance(project, dict) else {})
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name in ("mkdocs.yml", "mkdocs.yaml"):
            config = load_yaml(read(path) or b"")
            return _mkdocs(folder, config if isinstance(config, dict) else {})
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name in ("hugo.toml", "hugo.yaml", "hugo.json") or (
            name == "config.toml" and _has(paths, folder, "content")
        ):
            return _hugo(folder, path, read(path) or b"")
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name.startswith("astro.config.") and b"starlight" in (read(path) or b""):
            return Routes("starlight", (_join(folder, "src/content/docs"),), directory_urls=True)
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name == "book.toml":
            source = _toml_value(read(path) or b"", "src") or "src"
            return Routes("mdbook", (_join(folder, source),))
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name == "conf.py":
            settings = conf_settings(read(path) or b"")
            if settings is not None and publishes_markdown(settings):
                return Routes("sphinx", (folder,))
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name == "_config.yml":
            return Routes("jekyll", (folder,))
    return GITHUB


def candidates(site: Routes, source: str, path: str) -> list[str]:
    """The source files a link path may name, most likely first (repository-relative).

    ``path`` is the link's path part, percent-decoded; "" means ``source`` itself.
    Paths that leave the repository give nothing.
    """
    if not path:
        return [source]
    rendered = not path.endswith(MARKDOWN_SUFFIXES)
    if path.startswith("/"):
        bases = site.roots
        path = path.lstrip("/")
    elif rendered and site.directory_urls:
        bases = (_page_url(source),)
    else:
        bases = (posixpath.dirname(source),)
    found: list[str] = []
    for base in bases:
        joined = posixpath.normpath(_join(base, path))
        if joined == ".." or joined.startswith("../") or joined.startswith("/"):
            continue
        joined = "" if joined == "." else joined
        folder = path.endswith("/") or not path.rstrip("/")
        found.extend(_sources(joined, folder=folder, pages=site.directory_urls))
    return list(dict.fromkeys(found))


def _sources(path: str, *, folder: bool, pages: bool) -> list[str]:
    """The source files published as ``path`` (``pages``: a page is published as a folder)."""
    if path.endswith(MARKDOWN_SUFFIXES):
        return [path]
    stem, dot, suffix = path.rpartition(".")
    inside = [_join(path, f"{name}{ext}") for name in _INDEX_NAMES for ext in MARKDOWN_SUFFIXES]
    if folder or not path:
        own = [path + ext for ext in MARKDOWN_SUFFIXES] if pages and path else []
        return own + inside
    if dot and suffix.lower() in ("html", "htm") and "/" not in suffix:
        own = [stem + ext for ext in MARKDOWN_SUFFIXES]
        if posixpath.basename(stem) == "index":
            folder_of = posixpath.dirname(stem)
            own += [_join(folder_of, f"README{ext}") for ext in MARKDOWN_SUFFIXES]
        return own
    if dot and "/" not in suffix and re.fullmatch(r"[A-Za-z0-9]{1,8}", suffix):
        return [path]  # another kind of file: an image, a script
    return [path + ext for ext in MARKDOWN_SUFFIXES] + inside


def _page_url(source: str) -> str:
    """The folder a directory-URL generator publishes ``source`` as."""
    folder, _, name = source.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    return folder if stem in _INDEX_NAMES else _join(folder, stem)


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _has(paths: Collection[str], folder: str, child: str) -> bool:
    prefix = _join(folder, child) + "/"
    return any(p.startswith(prefix) for p in paths)


def _mkdocs(folder: str, config: dict[str, Any]) -> Routes:
    """An ``mkdocs.yml`` read as YAML, as MkDocs reads it (``use_directory_urls: !!bool
    false`` is false), or a ``zensical.toml``'s ``[project]`` table, which has the same
    keys and defaults; a value of the wrong type, or a tag MkDocs resolves at build time
    (``!ENV``), leaves the default."""
    docs = config.get("docs_dir")
    docs = docs.strip().strip("/") if isinstance(docs, str) and docs.strip() else "docs"
    directory_urls = config.get("use_directory_urls")
    directory_urls = directory_urls if isinstance(directory_urls, bool) else True
    autodoc = handler_settings(folder, config.get("plugins"), config.get("markdown_extensions"))
    return Routes("mkdocs", (_join(folder, docs),), directory_urls, autodoc=autodoc)


def _hugo(folder: str, path: str, data: bytes) -> Routes:
    roots: list[str] = []
    if path.endswith(".toml"):
        config = load_toml(data.decode("utf-8", "replace").encode("utf-8")) or {}
        module = config.get("module")
        mounts = module.get("mounts", []) if isinstance(module, dict) else []
        for mount in mounts if isinstance(mounts, list) else []:
            if isinstance(mount, dict) and mount.get("target") == "content":
                roots.append(_join(folder, str(mount.get("source", "content")).strip("/")))
        languages = config.get("languages")
        for language in languages.values() if isinstance(languages, dict) else []:
            if isinstance(language, dict) and isinstance(language.get("contentDir"), str):
                roots.append(_join(folder, language["contentDir"].strip("/")))
        if isinstance(config.get("contentDir"), str):
            roots.append(_join(folder, config["contentDir"].strip("/")))
    terms = bool(re.search(rb"^\s*autoDefinitionTermID\s*[=:]\s*true", data, re.M | re.I))
    return Routes("hugo", tuple(dict.fromkeys(roots)) or (_join(folder, "content"),), True, terms)


def _toml_value(data: bytes, key: str) -> str | None:
    match = re.search(
        rb"^\s*" + re.escape(key.encode()) + rb"\s*=\s*['\"]([^'\"]+)['\"]", data, re.M
    )
    return match.group(1).decode("utf-8", "replace").strip("/") if match else None
