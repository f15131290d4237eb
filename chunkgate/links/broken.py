"""Which links of the corpus are broken: resolved to a corpus file (as the site that
publishes the linking page would), and looked up among that file's anchors. CG404's
logic; ``chunkgate.rules.references`` declares the rule and words its findings."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import NamedTuple
from urllib.parse import unquote, urljoin

from chunkgate.core.model import DeclaredAnchor
from chunkgate.core.regex import lazy
from chunkgate.links import relink
from chunkgate.links.closest import Suggestions
from chunkgate.links.extract import Link, readable
from chunkgate.links.openings import PageAnchors
from chunkgate.sites.built import BuiltSite
from chunkgate.sites.routes import GITHUB, MARKDOWN_SUFFIXES, Routes, candidates, page_urls
from chunkgate.sites.urls import PageUrls

_EXTERNAL = lazy(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:|//")
# A destination a template writes (`{{ site.baseurl }}/x/`, `{% link x.md %}`): not checkable.
_TEMPLATED = lazy(r"\{\{|\{%|%7B%7B|%7B%25", re.I)
NO_URLS = PageUrls()
# Why a MyST `[text](#x)` no page has is unverified on a Sphinx site with intersphinx.
_CROSS_REFERENCE = (
    "on a Sphinx site, `#x` is a cross-reference: no page here has it, but through "
    "intersphinx it may name a target in another project"
)


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


NO_SETTINGS = LinkSettings()


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
    moved_to: str | None  # the ID a detected or recorded move takes the fragment to
    closest: str | None  # the closest anchor the target has
    # Why the target page may have anchors chunkgate cannot see: the link is then
    # unverified, not broken (None: its anchors are complete, the link is broken).
    open: str | None = None
    # The link's destination rewritten to the section the move took it to, in the form
    # it was written in (None: the move's target is gone too, or the form cannot say it).
    replacement: str | None = None

    @property
    def message(self) -> str:
        where = "this file" if self.target.path == self.path else self.target.path
        link = readable(self.link.destination)
        return f"link {link}: {where} has no anchor #{self.target.fragment}"

    @property
    def fix(self) -> str:
        if self.replacement is not None:
            return (
                f"the section moved to {self.moved_to}: link to {readable(self.replacement)} "
                "(`chunkgate fix-links` rewrites it)"
            )
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
    if site.generator == "sphinx" and destination.startswith("project:"):
        destination = destination.removeprefix("project:")  # MyST's link into the project
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
    moved_to: str | None  # where the page went, when a detected or recorded move says so
    closest: str | None  # the corpus page whose path is the closest
    # The link's destination rewritten to the page (and section) it moved to, in the
    # form it was written in; None when the form cannot say it (a site URL).
    replacement: str | None = None
    # The linking page's old path, when it moved and its relative link landed there
    # (on ``moved_to``) from where it was.
    moved_from: str | None = None

    @property
    def message(self) -> str:
        return f"link {readable(self.link.destination)}: no page {self.target}"

    @property
    def fix(self) -> str:
        if self.moved_from is not None and self.replacement is not None:
            return (
                f"this page moved from {self.moved_from}, where the link named {self.moved_to}: "
                f"link to {readable(self.replacement)} (`chunkgate fix-links` rewrites it)"
            )
        if self.replacement is not None:
            return (
                f"the page moved to {self.moved_to}: link to {readable(self.replacement)} "
                "(`chunkgate fix-links` rewrites it)"
            )
        if self.moved_to is not None:
            return f"the page moved to {self.moved_to}: link there"
        if self.closest is not None:
            return f"link to an existing page (the closest: {self.closest}), or remove the link"
        return "link to an existing page, or remove the link"


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
    urls: PageUrls = NO_URLS,
    absent: Callable[[str], bool] | None = None,
    gone: Collection[str] = (),
) -> Iterator[BrokenLink | MissingPage]:
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
    ``urls`` are the pages' URLs where front matter sets them. ``absent(path)``: no
    such file exists at all (not even outside the corpus); given, a Markdown file
    link to such a page is a ``MissingPage``, as is any link (a site URL too) to a
    page of ``gone``, the pages a commit deletes.
    """
    if built is not None:
        anchors_of = from_built_site(anchors_of, built, site)
    sites = as_sites(site)
    moved = {} if moved is None else moved
    includers = includers or {}
    lower: dict[str, str] = {}
    for path in paths:
        lower.setdefault(path.lower(), path)

    def exists(path: str) -> str | None:
        # Hugo publishes paths in lowercase: functions/css/Build.md is /functions/css/build/.
        return path if path in paths or path in gone else lower.get(path.lower())

    cache: dict[str, PageAnchors | None] = {}

    def page(path: str) -> PageAnchors | None:
        if path not in cache:
            cache[path] = anchors_of(path)
        return cache[path]

    union: list[frozenset[str]] = []
    folders: dict[str, set[str]] = {}  # filled on the first link to a missing page

    def everywhere() -> frozenset[str]:
        if not union:
            union.append(frozenset().union(*(anchors(each) for each in paths)))
        return union[0]

    def anchors(path: str) -> Collection[str]:
        found = page(path)
        return () if found is None else found.anchors

    suggest = Suggestions(paths)
    renamed: dict[str, str | None] = {}
    for path in sorted(links, key=lambda p: p.encode("utf-8", "surrogateescape")):
        routes = sites.of(path)
        suggest.start()
        for link in links[path]:
            if ignore and any(pattern.search(link.destination) for pattern in ignore):
                continue
            found = targets(link.destination, path, exists, routes, urls)
            if not found and built is not None:
                # A URL only the built site knows (a permalink, a generated page).
                landed = on_built_site(link.destination, path, built, routes)
                if landed is None or any(pattern.search(landed[0].path) for pattern in ignore):
                    continue
                if landed[0].fragment not in landed[1]:
                    closest = suggest.anchor(landed[0].path, landed[0].fragment, landed[1])
                    yield BrokenLink(path, link.line, link, landed[0], None, closest)
                continue
            if all(each.path in gone for each in found):
                page_gone = found[0].path if found else None
                if page_gone is None and absent is not None:
                    page_gone = _missing(link.destination, path, routes, absent)
                    # A translation's link to a page only another language has: the
                    # site may fall back to it (MkDocs i18n, fastapi's language sites).
                    if not folders:
                        folders.update(_folders(paths))
                    # (A page that moved, or a link from one, is no fallback: the move's.)
                    if page_gone and not relink.moving(moved, page_gone, path):
                        page_gone = None if _translated(page_gone, folders, absent) else page_gone
                origin = relink.moved_from_page(moved, path) if page_gone is not None else None
                if page_gone is not None and origin is not None:
                    # The linking page moved: its relative link landed from where it was.
                    was = targets(link.destination, origin, exists, routes, urls)
                    if was and was[0].path not in gone:
                        new_id = f"{was[0].path}#{was[0].fragment}".rstrip("#")
                        new = relink.relinked(link.destination, path, page_gone, new_id)
                        if new is not None:
                            yield MissingPage(
                                path, link.line, link, page_gone, was[0].path, None, new, origin
                            )
                            continue
                if page_gone is not None:
                    if page_gone not in renamed:
                        renamed[page_gone] = relink.moved_page(moved, page_gone)
                    went = renamed[page_gone]
                    closest = None if went else suggest.page(page_gone)
                    new = relink.into_moved_page(moved, link.destination, path, page_gone, went)
                    yield MissingPage(path, link.line, link, page_gone, went, closest, new)
                continue
            found = [
                each
                for each in found
                if each.path not in gone and not any(p.search(each.path) for p in ignore)
            ]
            if not found or not found[0].fragment:
                continue
            if any(_lands(each, page(each.path)) for each in found):
                continue
            target = found[0]
            cross_reference = link.destination.startswith("#") and routes.generator == "sphinx"
            if cross_reference and target.fragment in everywhere():
                continue  # a Sphinx cross-reference finds its target on any page
            known = page(target.path)
            if target.path == path and any(
                target.fragment in anchors(parent) for parent in includers.get(path, ())
            ):
                continue  # an included file's link to the page that includes it
            # A move (detected now, or recorded) names where the section went; the link
            # stays broken on the site until it is rewritten, acknowledged or not.
            redirect = relink.follow(moved, f"{target.path}#{target.fragment}")
            new = None
            if redirect is not None:
                redirect_path, _, redirect_anchor = redirect.partition("#")
                if redirect_anchor in anchors(redirect_path):
                    new = relink.relinked(link.destination, path, target.path, redirect)
            closest = suggest.anchor(target.path, target.fragment, known.anchors if known else ())
            opened = known.open if known else None
            if cross_reference and routes.other_projects:
                opened = opened or _CROSS_REFERENCE
            yield BrokenLink(path, link.line, link, target, redirect, closest, opened, new)


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


def _lands(target: Target, known: PageAnchors | None) -> bool:
    return known is None or target.fragment in known.anchors


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


def _translated(page: str, folders: Mapping[str, set[str]], absent: Callable[[str], bool]) -> bool:
    """Whether a file exists that differs from ``page`` in one folder name alone, one of
    the folders the corpus has there (``docs/en/`` for ``docs/de/``); ``folders`` maps a
    folder ("" the root) to the names of the folders in it (``_folders``)."""
    parts = page.split("/")
    for depth in range(len(parts) - 1):
        names = folders.get("/".join(parts[:depth]), set())
        for name in names - {parts[depth]}:
            if not absent("/".join([*parts[:depth], name, *parts[depth + 1 :]])):
                return True
    return False


def _folders(paths: Collection[str]) -> dict[str, set[str]]:
    """Each folder of ``paths`` ("" the root) and the names of the folders in it."""
    found: dict[str, set[str]] = {}
    for path in paths:
        parts = path.split("/")
        for depth in range(len(parts) - 1):
            found.setdefault("/".join(parts[:depth]), set()).add(parts[depth])
    return found
