"""The URL each page is published at where its front matter sets it, and the inverse.

``sites.routes.candidates`` finds a page from its path; a page whose front
matter moves it is found here instead: Hugo's ``url``, ``slug`` and ``aliases``,
Jekyll's ``permalink`` and ``redirect_from`` (and its collections, ``_recipes/x.md``
at ``/recipes/x/``), Docusaurus' ``slug`` and ``id`` under its ``routeBasePath``.
A link written as a site URL (``/docs/ruby-101/#gems``, ``../#setup``) is then
resolved against the URL of the linking page, and looked up among the URLs.

URLs are compared as keys: no slashes at either end, no ``index.html`` or
``.html`` at the end, in lower case (Hugo lowers them; the others only in a
rare clash, where a link is the more likely to work than not).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from chunkgate.core.regex import lazy
from chunkgate.sites.routes import MARKDOWN_SUFFIXES, Routes

Route = tuple[tuple[str, str], ...]  # chunking.frontmatter.FrontMatter.route
_NUMBER_PREFIX = lazy(r"^\d+[-_.]")  # Docusaurus drops `01-` from file and folder names
_PLACEHOLDER = lazy(r":[A-Za-z_]")


def url_key(url: str) -> str:
    key = url.partition("#")[0].partition("?")[0].strip("/")
    if key == "index.html" or key.endswith("/index.html"):
        key = key[: -len("index.html")].rstrip("/")
    elif key.endswith(".html"):
        key = key[: -len(".html")]
    return key.lower()


class PageUrls(NamedTuple):
    """``pages``: a page's URL key where front matter sets it; ``urls``: every URL key
    of a site (its pages' own, front matter's, aliases) -> the page."""

    pages: Mapping[str, str] = {}
    urls: Mapping[tuple[Routes, str], str] = {}

    def page_url(self, site: Routes, source: str) -> str:
        """The URL key ``source`` is published at."""
        return self.pages.get(source) or default_url(site, source)

    def lookup(self, site: Routes, source: str, path: str) -> str | None:
        """The page a rendered link ``path`` (no fragment) in ``source`` names, or None."""
        if not self.urls or path.lower().endswith(MARKDOWN_SUFFIXES):
            return None
        if path.startswith("/"):
            key = url_key(path)
            if site.prefix and (key == site.prefix or key.startswith(f"{site.prefix}/")):
                key = key[len(site.prefix) :].strip("/")
        else:
            here = self.page_url(site, source)
            folder = here if site.directory_urls else posixpath.dirname(here)
            joined = posixpath.normpath(posixpath.join("/", folder, path))
            key = url_key(joined)
        return self.urls.get((site, key))


def default_url(site: Routes, source: str) -> str:
    """The URL key a page is published at by its path alone."""
    relative = source
    for root in sorted(site.roots, key=len, reverse=True):
        if not root or source.startswith(f"{root}/"):
            relative = source[len(root) + 1 :] if root else source
            break
    stem = relative.rsplit(".", 1)[0] if "." in relative.rpartition("/")[2] else relative
    folder, _, name = stem.rpartition("/")
    if site.generator == "jekyll" and folder.startswith("_"):
        folder = folder[1:]  # a collection: _recipes/x.md is /recipes/x
    if site.generator == "docusaurus":
        folder = "/".join(_NUMBER_PREFIX.sub("", part) for part in folder.split("/") if part)
        name = _NUMBER_PREFIX.sub("", name)
    if name.lower() in ("index", "_index", "readme"):
        name = ""
    url = posixpath.join(site.base, folder, name) if site.base else posixpath.join(folder, name)
    return url_key(url)


def published(site: Routes, source: str, route: Route) -> tuple[str, ...]:
    """The URL keys of ``source`` given its front matter ``route``: first its own URL."""
    default = default_url(site, source)
    folder = default.rpartition("/")[0] if default else ""
    own: str | None = None
    others: list[str] = []
    for key, value in route:
        if _PLACEHOLDER.search(value):
            continue  # a pattern (`/:year/:title/`): not a URL of its own
        if key in ("url", "permalink") and own is None:
            own = url_key(value)
        elif key == "slug" and own is None:
            if site.generator == "docusaurus" and value.startswith("/"):
                own = url_key(posixpath.join(site.base, value.lstrip("/")))
            elif site.generator in ("docusaurus", "hugo"):
                own = url_key(posixpath.join(folder, value))
        elif key == "id" and site.generator == "docusaurus" and own is None:
            if not any(k == "slug" for k, _ in route) and "/" not in value:
                own = url_key(posixpath.join(folder, value))
        elif key in ("aliases", "redirect_from"):
            base = "/" if value.startswith("/") else f"/{folder}"
            others.append(url_key(posixpath.normpath(posixpath.join(base, value))))
    return tuple(dict.fromkeys([own or default, *others]))


def page_urls(site_of: Callable[[str], Routes], routes: Iterable[tuple[str, Route]]) -> PageUrls:
    """The URL table of the pages ``routes`` lists (path, front matter route), each in
    the site ``site_of(path)``."""
    pages: dict[str, str] = {}
    urls: dict[tuple[Routes, str], str] = {}
    for source, route in routes:
        site = site_of(source)
        keys = published(site, source, route)
        if keys[0] != default_url(site, source):
            pages[source] = keys[0]
        for key in keys:
            urls.setdefault((site, key), source)
    return PageUrls(pages, urls)
