"""Which links of the corpus are broken: resolved to a corpus file (as the site that
publishes the linking page would), and looked up among that file's anchors. CG404's
logic; ``chunkgate.rules.references`` declares the rule and words its findings."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import NamedTuple
from urllib.parse import unquote

from chunkgate.core.regex import lazy
from chunkgate.links.extract import Link, readable
from chunkgate.sites.routes import GITHUB, MARKDOWN_SUFFIXES, Routes, candidates
from chunkgate.sites.urls import PageUrls

_EXTERNAL = lazy(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
# A destination a template writes (`{{ site.baseurl }}/x/`, `{% link x.md %}`): not checkable.
_TEMPLATED = lazy(r"\{\{|\{%|%7B%7B|%7B%25", re.I)
NO_URLS = PageUrls()


class Sites(NamedTuple):
    """The sites that publish the corpus (a repository may hold several: ``a/mkdocs.yml``
    and ``b/mkdocs.yml``). A file is published by the site whose content root holds it
    (the deepest one); a file outside every root, by the first site."""

    all: tuple[Routes, ...] = (GITHUB,)

    def of(self, path: str) -> Routes:
        best: tuple[int, Routes] | None = None
        for site in self.all:
            for root in site.roots:
                inside = not root or path == root or path.startswith(root + "/")
                if inside and (best is None or len(root) > best[0]):
                    best = (len(root), site)
        return best[1] if best is not None else self.all[0]


def as_sites(site: Routes | Sites) -> Sites:
    return site if isinstance(site, Sites) else Sites((site,))


class Target(NamedTuple):
    """What a link points at: a corpus file and a percent-decoded fragment."""

    path: str
    fragment: str


class BrokenLink(NamedTuple):
    path: str  # the linking file
    line: int
    link: Link
    target: Target
    moved_to: str | None  # the ID a recorded move redirects the fragment to (gone too)
    closest: str | None  # the closest anchor the target has

    @property
    def message(self) -> str:
        where = "this file" if self.target.path == self.path else self.target.path
        link = readable(self.link.destination)
        return f"link {link}: {where} has no anchor #{self.target.fragment}"

    @property
    def fix(self) -> str:
        if self.moved_to is not None:
            return (
                f"the section moved to {self.moved_to}, which is gone too: link to its section now"
            )
        if self.closest is not None:
            return f"link to #{self.closest} (the closest anchor of {self.target.path})"
        return f"link to an existing heading of {self.target.path}, or remove the fragment"


def resolve(
    destination: str,
    source: str,
    exists: Callable[[str], str | None],
    site: Routes = GITHUB,
    urls: PageUrls = NO_URLS,
) -> Target | None:
    """The corpus file and fragment ``destination`` (in ``source``) points at, or None
    when it points outside the corpus, at another site, or has no fragment.

    ``exists(path)`` gives the corpus path of a Markdown file (spelled as the
    corpus spells it, for sites that publish paths in lowercase) or None.
    """
    found = targets(destination, source, exists, site, urls)
    return found[0] if found and found[0].fragment else None


def targets(
    destination: str,
    source: str,
    exists: Callable[[str], str | None],
    site: Routes = GITHUB,
    urls: PageUrls = NO_URLS,
) -> list[Target]:
    """Every corpus file ``destination`` may name, most likely first: where a site's
    routes leave a choice (Hugo's link hook, or the browser, resolving a relative URL),
    the link works when one of them has the anchor."""
    if _EXTERNAL.match(destination) or _TEMPLATED.search(destination):
        return []
    path, _, fragment = destination.partition("#")
    path = unquote(path.partition("?")[0])
    fragment = unquote(fragment)
    found = [hit for candidate in candidates(site, source, path) if (hit := exists(candidate))]
    by_url = urls.lookup(site, source, path) if path else None
    if by_url is not None:
        found.append(by_url)
    return [Target(hit, fragment) for hit in dict.fromkeys(found)]


class MissingPage(NamedTuple):
    """A link to a Markdown page that is not there (deleted, moved, or never written)."""

    path: str  # the linking file
    line: int
    link: Link
    target: str  # the page it names, as the site resolves it
    moved_to: str | None  # where the page went, when a recorded move says so
    closest: str | None  # the corpus page whose path is the closest

    @property
    def message(self) -> str:
        return f"link {readable(self.link.destination)}: no page {self.target}"

    @property
    def fix(self) -> str:
        if self.moved_to is not None:
            return f"the page moved to {self.moved_to}: link there"
        if self.closest is not None:
            return f"link to an existing page (the closest: {self.closest}), or remove the link"
        return "link to an existing page, or remove the link"


def check_references(
    links: Mapping[str, Sequence[Link]],
    anchors_of: Callable[[str], Collection[str] | None],
    paths: Collection[str],
    *,
    site: Routes | Sites = GITHUB,
    moved: Mapping[str, str] | None = None,
    includers: Mapping[str, Collection[str]] | None = None,
    urls: PageUrls = NO_URLS,
    absent: Callable[[str], bool] | None = None,
    gone: Collection[str] = (),
) -> Iterator[BrokenLink | MissingPage]:
    """The broken links among ``links`` (per corpus file), in path and line order.

    ``paths`` are the corpus's Markdown files; ``anchors_of(path)`` gives every
    anchor of one, or None when they cannot be known (the page is written by
    its template). ``moved`` maps an acknowledged old chunk ID to the ID it
    moved to (the manifest's ``moved_from``, inverted). ``includers`` maps a
    file to the pages that include it: its links to its own anchors may land
    on theirs. ``urls`` are the pages' URLs where front matter sets them.
    ``absent(path)``: no such file exists at all (not even outside the corpus);
    given, a Markdown file link to such a page is a ``MissingPage``, as is any link
    (a site URL too) to a page of ``gone``, the pages a commit deletes.
    """
    sites = as_sites(site)
    moved = moved or {}
    includers = includers or {}
    lower: dict[str, str] = {}
    for path in paths:
        lower.setdefault(path.lower(), path)

    def exists(path: str) -> str | None:
        # Hugo publishes paths in lowercase: functions/css/Build.md is /functions/css/build/.
        return path if path in paths or path in gone else lower.get(path.lower())

    cache: dict[str, Collection[str] | None] = {}

    def anchors(path: str) -> Collection[str] | None:
        if path not in cache:
            cache[path] = anchors_of(path)
        return cache[path]

    for path in sorted(links, key=lambda p: p.encode("utf-8", "surrogateescape")):
        routes = sites.of(path)
        for link in links[path]:
            found = targets(link.destination, path, exists, routes, urls)
            if all(each.path in gone for each in found):
                page = found[0].path if found else None
                if page is None and absent is not None:
                    page = _missing(link.destination, path, routes, absent)
                    # A translation's link to a page only another language has: the
                    # site may fall back to it (MkDocs i18n, fastapi's language sites).
                    page = None if page and _translated(page, paths, absent) else page
                if page is not None:
                    went = _renamed(moved, page)
                    closest = None if went else _closest_page(page, paths)
                    yield MissingPage(path, link.line, link, page, went, closest)
                continue
            found = [each for each in found if each.path not in gone]
            target = found[0]
            if not target.fragment or any(_lands(t, anchors(t.path)) for t in found):
                continue
            known = anchors(target.path)
            if target.path == path and any(
                target.fragment in (anchors(parent) or ()) for parent in includers.get(path, ())
            ):
                continue  # an included file's link to the page that includes it
            redirect = _follow(moved, f"{target.path}#{target.fragment}")
            if redirect is not None:
                redirect_path, _, redirect_anchor = redirect.partition("#")
                if redirect_anchor in (anchors(redirect_path) or ()):
                    continue  # acknowledged: the section moved there
            yield BrokenLink(
                path, link.line, link, target, redirect, _closest(target.fragment, known or ())
            )


def _lands(target: Target, known: Collection[str] | None) -> bool:
    return known is None or target.fragment in known


def _missing(
    destination: str, source: str, site: Routes, absent: Callable[[str], bool]
) -> str | None:
    """The page a link to a Markdown file names when no such file exists at all (a
    rendered URL may name a generated page, a tag list or an API page: never one)."""
    if _EXTERNAL.match(destination) or _TEMPLATED.search(destination):
        return None
    path = unquote(destination.partition("#")[0].partition("?")[0])
    if not path.lower().endswith(MARKDOWN_SUFFIXES):
        return None
    found = candidates(site, source, path)
    if not found or not all(absent(candidate) for candidate in found) or _elsewhere(site, found):
        return None
    return found[0]


def _elsewhere(site: Routes, found: Sequence[str]) -> bool:
    """Whether the site makes one of these pages from a file elsewhere: Hugo mounts it."""
    for candidate in found:
        for root in site.roots:
            inside = candidate.removeprefix(f"{root}/") if root else candidate
            if (inside != candidate or not root) and inside in site.mounted:
                return True
    return False


def _closest_page(page: str, paths: Collection[str]) -> str | None:
    """The corpus page most like ``page`` among those in its folder or of its name (a
    scan of the corpus, not a fuzzy match against every path: many links may be gone)."""
    folder, _, name = page.rpartition("/")
    near = [p for p in paths if p.rpartition("/")[0] == folder or p.endswith(f"/{name}")]
    return _closest(page, near)


def _translated(page: str, paths: Collection[str], absent: Callable[[str], bool]) -> bool:
    """Whether a file exists that differs from ``page`` in one folder name alone, one of
    the folders the corpus has there (``docs/en/`` for ``docs/de/``)."""
    parts = page.split("/")
    for depth in range(len(parts) - 1):
        above = "/".join(parts[:depth])
        names = {
            path.split("/")[depth]
            for path in paths
            if path.startswith(f"{above}/" if above else "") and path.count("/") > depth
        }
        for name in names - {parts[depth]}:
            if not absent("/".join([*parts[:depth], name, *parts[depth + 1 :]])):
                return True
    return False


def _renamed(moved: Mapping[str, str], page: str) -> str | None:
    """Where the recorded moves took the sections of ``page``, when they went to one page."""
    went = {
        new.partition("#")[0]
        for old, new in moved.items()
        if old.partition("#")[0] == page and new.partition("#")[0] != page
    }
    return went.pop() if len(went) == 1 else None


def _follow(moved: Mapping[str, str], chunk_id: str) -> str | None:
    seen: set[str] = set()
    current = moved.get(chunk_id)
    while current is not None and current in moved and current not in seen:
        seen.add(current)
        current = moved[current]
    return current


def _closest(word: str, choices: Collection[str]) -> str | None:
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return found[0] if found else None
