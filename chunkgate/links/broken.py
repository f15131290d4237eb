"""Which links of the corpus are broken: resolved to a corpus file (as the site that
publishes the linking page would), and looked up among that file's anchors. CG404's
logic; ``chunkgate.rules.references`` declares the rule and words its findings."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import NamedTuple
from urllib.parse import unquote

from chunkgate.core.regex import lazy
from chunkgate.links.extract import Link, readable
from chunkgate.sites.routes import GITHUB, Routes, candidates

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
    destination: str, source: str, exists: Callable[[str], str | None], site: Routes = GITHUB
) -> Target | None:
    """The corpus file and fragment ``destination`` (in ``source``) points at, or None
    when it points outside the corpus, at another site, or has no fragment.

    ``exists(path)`` gives the corpus path of a Markdown file (spelled as the
    corpus spells it, for sites that publish paths in lowercase) or None.
    """
    if site.generator == "sphinx" and destination.startswith("project:"):
        destination = destination.removeprefix("project:")  # MyST's link into the project
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
    anchors_of: Callable[[str], Collection[str] | None],
    paths: Collection[str],
    *,
    site: Routes | Sites = GITHUB,
    moved: Mapping[str, str] | None = None,
    includers: Mapping[str, Collection[str]] | None = None,
) -> Iterator[BrokenLink]:
    """The broken links among ``links`` (per corpus file), in path and line order.

    ``paths`` are the corpus's Markdown files; ``anchors_of(path)`` gives every
    anchor of one, or None when they cannot be known (the page is written by
    its template). ``moved`` maps an acknowledged old chunk ID to the ID it
    moved to (the manifest's ``moved_from``, inverted). ``includers`` maps a
    file to the pages that include it: its links to its own anchors may land
    on theirs.
    """
    sites = as_sites(site)
    moved = moved or {}
    includers = includers or {}
    lower: dict[str, str] = {}
    for path in paths:
        lower.setdefault(path.lower(), path)

    def exists(path: str) -> str | None:
        # Hugo publishes paths in lowercase: functions/css/Build.md is /functions/css/build/.
        return path if path in paths else lower.get(path.lower())

    cache: dict[str, Collection[str] | None] = {}

    def anchors(path: str) -> Collection[str] | None:
        if path not in cache:
            cache[path] = anchors_of(path)
        return cache[path]

    for path in sorted(links, key=lambda p: p.encode("utf-8", "surrogateescape")):
        for link in links[path]:
            target = resolve(link.destination, path, exists, sites.of(path))
            if target is None:
                continue
            known = anchors(target.path)
            if known is None or target.fragment in known:
                continue
            if link.destination.startswith("#") and sites.of(path).generator == "sphinx":
                continue  # a Sphinx cross-reference: it may name a target anywhere (links.myst)
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
                path, link.line, link, target, redirect, _closest(target.fragment, known)
            )


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
