"""Which links of the corpus are broken: resolved to a corpus file (as the site that
publishes the linking page would), and looked up among that file's anchors. CG404's
logic; ``chunkgate.rules.references`` declares the rule and words its findings."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import NamedTuple
from urllib.parse import unquote, urljoin

from chunkgate.core.model import DeclaredAnchor
from chunkgate.core.regex import lazy
from chunkgate.links.extract import Link, readable
from chunkgate.links.openings import PageAnchors
from chunkgate.sites.built import BuiltSite
from chunkgate.sites.routes import GITHUB, Routes, candidates, page_urls

_EXTERNAL = lazy(r"[A-Za-z][A-Za-z0-9+.-]*:|//")


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


class LinkSettings(NamedTuple):
    """The configuration's ``links`` table: the anchors a site's hooks or macros make
    (``links.anchors``) and the links not to check (``links.ignore``); and what the
    repository tells of its site: the built site when there is one, the shortcodes
    that write no id."""

    anchors: tuple[DeclaredAnchor, ...] = ()
    ignore: tuple[re.Pattern[str], ...] = ()
    # ``check --site DIR``: the built site, whose pages' ids are the anchors, exactly.
    built: BuiltSite | None = None
    # The site's shortcodes whose templates write no id (``chunkgate.links.shortcodes``).
    shortcodes: frozenset[str] = frozenset()

    def key(self) -> str:
        """What changes the anchors and findings, for the link cache's key."""
        declared = ";".join(f"{d.pattern.pattern}->{d.anchor}" for d in self.anchors)
        ignore = ";".join(pattern.pattern for pattern in self.ignore)
        return f"{declared}\0{ignore}\0{','.join(sorted(self.shortcodes))}"


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
    # Why the target page may have anchors chunkgate cannot see: the link is then
    # unverified, not broken (None: its anchors are complete, the link is broken).
    open: str | None = None

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
    destination: str, source: str, exists: Callable[[str], str | None], site: Routes = GITHUB
) -> Target | None:
    """The corpus file and fragment ``destination`` (in ``source``) points at, or None
    when it points outside the corpus, at another site, or has no fragment.

    ``exists(path)`` gives the corpus path of a Markdown file (spelled as the
    corpus spells it, for sites that publish paths in lowercase) or None.
    """
    if _EXTERNAL.match(destination):
        return None
    path, hash_sign, fragment = destination.partition("#")
    if not hash_sign or not fragment:
        return None
    path = unquote(path.partition("?")[0])
    for candidate in candidates(site, source, path):
        found = exists(candidate)
        if found is not None:
            return Target(found, unquote(fragment))
    return None


def check_references(
    links: Mapping[str, Sequence[Link]],
    anchors_of: Callable[[str], PageAnchors | None],
    paths: Collection[str],
    *,
    site: Routes | Sites = GITHUB,
    moved: Mapping[str, str] | None = None,
    includers: Mapping[str, Collection[str]] | None = None,
    ignore: Sequence[re.Pattern[str]] = (),
    built: BuiltSite | None = None,
) -> Iterator[BrokenLink]:
    """The broken links among ``links`` (per corpus file), in path and line order; those
    into an open page are yielded too, marked with why it is open (``BrokenLink.open``).

    ``paths`` are the corpus's Markdown files; ``anchors_of(path)`` gives a
    page's anchors, or None when it cannot be read. ``moved`` maps an
    acknowledged old chunk ID to the ID it moved to (the manifest's
    ``moved_from``, inverted). ``includers`` maps a file to the pages that
    include it: its links to its own anchors may land on theirs. A link whose
    destination, or the path of the page it lands on, an ``ignore`` pattern
    finds is not checked (``links.ignore``). With a ``built`` site, a page it serves
    has the ids the built page has, and nothing else (``from_built_site``).
    """
    if built is not None:
        anchors_of = from_built_site(anchors_of, built, site)
    sites = as_sites(site)
    moved = moved or {}
    includers = includers or {}
    lower: dict[str, str] = {}
    for path in paths:
        lower.setdefault(path.lower(), path)

    def exists(path: str) -> str | None:
        # Hugo publishes paths in lowercase: functions/css/Build.md is /functions/css/build/.
        return path if path in paths else lower.get(path.lower())

    cache: dict[str, PageAnchors | None] = {}

    def page(path: str) -> PageAnchors | None:
        if path not in cache:
            cache[path] = anchors_of(path)
        return cache[path]

    def anchors(path: str) -> Collection[str]:
        found = page(path)
        return () if found is None else found.anchors

    for path in sorted(links, key=lambda p: p.encode("utf-8", "surrogateescape")):
        for link in links[path]:
            if ignore and any(pattern.search(link.destination) for pattern in ignore):
                continue
            target = resolve(link.destination, path, exists, sites.of(path))
            if target is None and built is not None:
                # A URL only the built site knows (a permalink, a generated page).
                landed = on_built_site(link.destination, path, built, sites.of(path))
                if landed is None or any(pattern.search(landed[0].path) for pattern in ignore):
                    continue
                if landed[0].fragment not in landed[1]:
                    closest = _closest(landed[0].fragment, landed[1])
                    yield BrokenLink(path, link.line, link, landed[0], None, closest)
                continue
            if target is None or any(pattern.search(target.path) for pattern in ignore):
                continue
            found = page(target.path)
            if found is None or target.fragment in found.anchors:
                continue
            if target.path == path and any(
                target.fragment in anchors(parent) for parent in includers.get(path, ())
            ):
                continue  # an included file's link to the page that includes it
            redirect = _follow(moved, f"{target.path}#{target.fragment}")
            if redirect is not None:
                redirect_path, _, redirect_anchor = redirect.partition("#")
                if redirect_anchor in anchors(redirect_path):
                    continue  # acknowledged: the section moved there
            closest = _closest(target.fragment, found.anchors)
            yield BrokenLink(path, link.line, link, target, redirect, closest, found.open)


def from_built_site(
    anchors_of: Callable[[str], PageAnchors | None], built: BuiltSite, site: Routes | Sites
) -> Callable[[str], PageAnchors | None]:
    """``anchors_of`` answered by the built site: the ids of the page a source file was
    built into, complete (the build ran every hook, shortcode and autodoc block); a
    file whose page is not found at the URLs its generator gives it keeps the
    anchors chunkgate reads."""
    sites = as_sites(site)

    def anchors(path: str) -> PageAnchors | None:
        for url in page_urls(sites.of(path), path):
            ids = built.page(url)
            if ids is not None:
                return PageAnchors(ids)
        return anchors_of(path)

    return anchors


def on_built_site(
    destination: str, source: str, built: BuiltSite, site: Routes
) -> tuple[Target, frozenset[str]] | None:
    """The page of the ``built`` site a link from ``source`` lands on (its URL path and the
    fragment) and that page's ids; None when the link has no fragment, leaves the site,
    or the site serves no page there (or, for a relative link, none for ``source``)."""
    if _EXTERNAL.match(destination):
        return None
    path, hash_sign, fragment = destination.partition("#")
    if not hash_sign or not fragment or not path:
        return None
    served = (built.served(url) for url in page_urls(site, source))
    here = next((url for url in served if url is not None), None)
    if here is None and not path.startswith("/"):
        return None
    landed = built.served(urljoin(here or "/", path.partition("?")[0]))
    if landed is None:
        return None
    return Target(landed, unquote(fragment)), built.page(landed) or frozenset()


def _follow(moved: Mapping[str, str], chunk_id: str) -> str | None:
    seen: set[str] = set()
    current = moved.get(chunk_id)
    while current is not None and current in moved and current not in seen:
        seen.add(current)
        current = moved[current]
    return current


def _closest(fragment: str, anchors: Collection[str]) -> str | None:
    found = difflib.get_close_matches(fragment, list(anchors), n=1, cutoff=0.5)
    return found[0] if found else None
