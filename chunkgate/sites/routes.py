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
from urllib.parse import urlsplit

from chunkgate.core.regex import lazy
from chunkgate.sites.mkdocstrings import Autodoc, handler_settings
from chunkgate.sites.settings import hugo_config, load_toml, load_yaml, vitepress_source
from chunkgate.sites.sphinx import conf_settings, other_projects, publishes_markdown

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
_INDEX_NAMES = ("index", "_index", "README", "readme")


class Routes(NamedTuple):
    """How one generator maps URLs to source files.

    ``roots`` are the folders (repository-relative, "" for the root) that
    ``/``-absolute links start from; ``directory_urls``: pages are published as
    folders (``a/page/``); ``term_ids``: definition-list terms get anchors too
    (Hugo's ``autoDefinitionTermID``); ``prefix``: a ``/``-absolute link may start with
    it (``/docs/a/page/`` on a site published at ``https://x.org/docs/``); ``autodoc``:
    mkdocstrings' Python handler, when the site has it.
    """

    generator: str
    roots: tuple[str, ...] = ("",)
    directory_urls: bool = False
    term_ids: bool = False
    prefix: str = ""  # the path the site is published under (Hugo's baseURL, Jekyll's baseurl)
    base: str = ""  # the URL folder of its pages (Docusaurus' routeBasePath)
    mounted: tuple[str, ...] = ()  # pages mounted from elsewhere, under a root (Hugo's mounts)
    autodoc: Autodoc | None = None
    other_projects: bool = False  # Sphinx's intersphinx: a `#label` may be another project's


GITHUB = Routes("github")


def detect_routes(paths: Collection[str], read: Callable[[str], bytes | None]) -> Routes:
    """The site of a repository from its files (``read`` gives a file's bytes or None).

    Configuration files at the root or one folder down (``docs/mkdocs.yml``)
    count; the first generator found in this order wins: Zensical (which reads a
    ``mkdocs.yml`` too, but ``zensical.toml`` first), MkDocs, Hugo, Starlight, mdBook,
    Docusaurus, Sphinx with MyST (``conf.py``), Jekyll.
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
            site = hugo_routes(folder, path, read(path) or b"")
            if site is not None:
                return site
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
        if name.startswith("docusaurus.config."):
            return _docusaurus(folder, read(path) or b"")
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name == "conf.py":
            settings = conf_settings(read(path) or b"")
            if settings is not None and publishes_markdown(settings):
                return Routes("sphinx", (folder,), other_projects=other_projects(settings))
    for path in shallow:
        folder, _, name = path.rpartition("/")
        if name == "_config.yml":
            return _jekyll(folder, read(path) or b"")
    return GITHUB


def candidates(site: Routes, source: str, path: str) -> list[str]:
    """The source files a link path may name, most likely first (repository-relative).

    ``path`` is the link's path part, percent-decoded; "" means ``source`` itself.
    Paths that leave the repository give nothing.
    """
    if not path:
        return [source]
    rendered = not path.endswith(MARKDOWN_SUFFIXES)
    if site.generator == "docusaurus" and not rendered and not path.startswith(("./", "../")):
        # A file path from the page's folder, then from the docs folder and the site's.
        bases = (posixpath.dirname(source), *site.roots) if path[0] != "/" else site.roots
        path = path.lstrip("/")
    elif path.startswith("/"):
        bases = site.roots
        path = path.lstrip("/")
        if site.prefix and (path == site.prefix or path.startswith(f"{site.prefix}/")):
            path = path[len(site.prefix) :].lstrip("/")
    elif rendered and site.directory_urls:
        bases = (_page_url(source),)
        if site.generator == "hugo":
            # Hugo's link render hook (built in since 0.123, on for multilingual sites) finds
            # the page with GetPage: from the page's section (a leaf bundle's index.md is in
            # a folder of its own below it), then from the content root.
            section = posixpath.dirname(source)
            if source.rpartition("/")[2].rsplit(".", 1)[0] == "index":
                section = posixpath.dirname(section)
            bases = (*bases, section, *site.roots)
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


def page_urls(site: Routes, source: str) -> list[str]:
    """The URL paths a site built by ``site``'s generator may serve the source file at,
    most likely first: ``/guide/setup/`` for ``docs/guide/setup.md`` under MkDocs'
    directory URLs, Hugo and Starlight (whose paths may be lowercase too),
    ``/guide/setup.html`` for mdBook and Jekyll; an index page (``index``, ``_index``,
    ``README``) is its folder's URL. Without a generator found, the file's first folder
    may be the site's root too (``/guide/`` for ``docs/guide/index.md``). Empty when no
    content root of the site holds the file.

    Front matter that moves a page (``slug``, ``permalink``) is not read: a page not
    found at these URLs is looked up in the source instead.
    """
    roots = sorted((r for r in site.roots if not r or source.startswith(r + "/")), key=len)
    if not roots:
        return []
    relative = source[len(roots[-1]) + 1 :] if roots[-1] else source
    urls = _urls(site, relative)
    if site == GITHUB and "/" in relative:
        # No generator found (its config unread, e.g. zensical.toml): the docs folder is
        # most often the site's root.
        urls += _urls(site, relative.partition("/")[2])
    return list(dict.fromkeys(urls))


def _urls(site: Routes, relative: str) -> list[str]:
    folder, _, name = relative.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    if stem in _INDEX_NAMES:
        urls = [f"/{folder}/" if folder else "/"]
    else:
        # The other generators' form second: a site whose generator was not detected.
        pages = [f"/{_join(folder, stem)}/", f"/{_join(folder, stem)}.html"]
        urls = pages if site.directory_urls else pages[::-1]
    return [*urls, *(url.lower() for url in urls)]


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


def hugo_routes(folder: str, path: str, data: bytes) -> Routes | None:
    """The routes of the Hugo site in ``folder`` whose config is ``path``: its content
    roots (module mounts onto ``content``, each language's ``contentDir``, ``contentDir``),
    the path of its ``baseURL`` and ``autoDefinitionTermID``."""
    config = hugo_config(path.rpartition("/")[2], data)
    if config is None:
        return None
    roots: list[str] = []
    mounted: list[str] = []
    module = config.get("module")
    mounts = module.get("mounts", []) if isinstance(module, dict) else []
    for mount in mounts if isinstance(mounts, list) else []:
        target = str(mount.get("target", "")).strip("/") if isinstance(mount, dict) else ""
        if target.startswith("content/") and target.endswith(MARKDOWN_SUFFIXES):
            mounted.append(target.removeprefix("content/"))  # one file: AGENTS.md from above
        elif target == "content":
            source = posixpath.normpath(_join(folder, str(mount.get("source", "content"))))
            if not source.startswith("../"):
                roots.append(source.strip("/"))
    languages = config.get("languages")
    for language in languages.values() if isinstance(languages, dict) else []:
        if isinstance(language, dict) and isinstance(language.get("contentdir"), str):
            roots.append(_join(folder, language["contentdir"].strip("/")))
    if isinstance(config.get("contentdir"), str):
        roots.append(_join(folder, config["contentdir"].strip("/")))
    markup = config.get("markup")
    goldmark = markup.get("goldmark") if isinstance(markup, dict) else None
    parser = goldmark.get("parser") if isinstance(goldmark, dict) else None
    terms = isinstance(parser, dict) and parser.get("autodefinitiontermid") is True
    return Routes(
        "hugo",
        tuple(dict.fromkeys(roots)) or (_join(folder, "content"),),
        True,
        terms,
        _url_path(config.get("baseurl")),
        mounted=tuple(mounted),
    )


def _url_path(url: object) -> str:
    """The path of a site's base URL (``https://x.org/docs/`` -> ``docs``)."""
    if not isinstance(url, str):
        return ""
    return urlsplit(url).path.strip("/")


def _jekyll(folder: str, data: bytes) -> Routes:
    """Jekyll: ``baseurl``; ``permalink: pretty`` (or one ending in ``/``) publishes
    ``a/page.md`` at ``/a/page/``, the default at ``/a/page.html``."""
    config = load_yaml(data)
    config = config if isinstance(config, dict) else {}
    permalink = config.get("permalink")
    folders = isinstance(permalink, str) and (permalink == "pretty" or permalink.endswith("/"))
    return Routes("jekyll", (folder,), folders, prefix=_url_path(config.get("baseurl")))


_JS_STRING = r"""\s*:\s*['"`]([^'"`]*)['"`]"""
_DOCS_PATH = lazy(r"\bdocs\s*:\s*\{[^{}]*?\bpath" + _JS_STRING)
_ROUTE_BASE = lazy(r"\brouteBasePath" + _JS_STRING)
_BASE_URL = lazy(r"\bbaseUrl" + _JS_STRING)


def _docusaurus(folder: str, data: bytes) -> Routes:
    """Docusaurus, its config read as text (it is code, never run): the docs plugin's
    ``path`` (``docs``) and ``routeBasePath`` (``docs``), the site's ``baseUrl``."""
    text = data.decode("utf-8", "replace")
    path = _DOCS_PATH.search(text)
    docs = posixpath.normpath(_join(folder, path.group(1) if path else "docs"))
    route = _ROUTE_BASE.search(text)
    base = route.group(1).strip("/") if route else "docs"
    roots = tuple(dict.fromkeys((docs, folder)))  # "../docs" one folder down is resolved there
    prefix = _BASE_URL.search(text)
    return Routes(
        "docusaurus",
        tuple("" if r == "." else r for r in roots) or ("",),
        prefix=prefix.group(1).strip("/") if prefix else "",
        base=base,
    )


def vitepress_routes(path: str, data: bytes) -> Routes:
    """The routes of the VitePress site whose config is ``path`` (``x/.vitepress/config.ts``):
    ``a/page.md`` is ``/a/page.html``, or ``/a/page`` with ``cleanUrls``; both are
    relative to the page's folder, as a file path is."""
    site = posixpath.dirname(posixpath.dirname(path))
    source = vitepress_source(data)
    return Routes("vitepress", (_join(site, source) if source else site,))


def _toml_value(data: bytes, key: str) -> str | None:
    match = re.search(
        rb"^\s*" + re.escape(key.encode()) + rb"\s*=\s*['\"]([^'\"]+)['\"]", data, re.M
    )
    return match.group(1).decode("utf-8", "replace").strip("/") if match else None
