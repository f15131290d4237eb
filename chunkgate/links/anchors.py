"""Every anchor a published Markdown page has, for checking links to it (CG404).

A page's anchors are its headings' IDs (every heading, also one inside a
list, an admonition or without a chunk of its own), HTML ``id``/``name``
attributes, the ids of attribute lists and footnotes (``ids``), and, on Hugo
sites with ``autoDefinitionTermID``, its definition-list terms. Pages
that include other files (Hugo's ``{{% include "file.md" %}}``, MkDocs
snippets' ``--8<-- "file.md"``) have the included headings too, numbered in
page order as the generator numbers them, so the include is expanded first.
A site's own hooks or macros make the anchors ``links.anchors`` declares. What
else a page holds that makes anchors at build time leaves it open
(``chunkgate.links.openings``): its anchors are then not all known.

The heading IDs are the ones chunkgate gives chunks today (issue 14 adds
anchor flavours per generator; the lookup is injected where it is used, so
a flavour plugs in there).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking import context_for
from chunkgate.chunking.anchors.hugo import slug as hugo_slug
from chunkgate.chunking.frontmatter import parse_front_matter
from chunkgate.chunking.markdown import headings
from chunkgate.chunking.sizes import estimate_tokens
from chunkgate.chunking.slugs import Slugger, github_slug, split_explicit_id
from chunkgate.chunking.spans import without_inline_markup
from chunkgate.chunking.syntax import dialect_of
from chunkgate.core.regex import lazy
from chunkgate.links.broken import NO_SETTINGS, LinkSettings, Sites, as_sites
from chunkgate.links.ids import AttributeSyntax, attribute_ids, footnote_ids
from chunkgate.links.openings import PageAnchors, open_reason
from chunkgate.sites.model import style_of
from chunkgate.sites.routes import GITHUB, Routes

if TYPE_CHECKING:
    from chunkgate.chunking.base import ChunkOptions
    from chunkgate.chunking.markdown import _Heading
    from chunkgate.sites.mkdocstrings import Sources

_HTML_ID = lazy(r"""<[A-Za-z][^<>]*?\s(?:id|name)\s*=\s*["']([^"'<>]+)["']""")
_INCLUDE = lazy(
    r"""^[ \t]*(?:\{\{[%<]\s*include\s+["']([^"']+)["']\s*[%>]\}\}"""
    r"""|--8<--\s+["']([^"']+)["'])[ \t]*$""",
    re.M,
)
# A definition term: a line of text, then (after at most one blank line) ": definition".
_TERM = lazy(r"^(?!```|~~~)([^\s:>|#-][^\n]*)\n(?:[ \t]*\n)?:[ \t]", re.M)
_MAX_DEPTH = 4  # includes of includes; deeper (or circular) ones are left out
# The attribute lists that set ids outside headings, by anchor flavour (``ids``).
_ATTRIBUTE_SYNTAX: dict[str, AttributeSyntax] = {
    "mkdocs": "attr_list",
    "kramdown": "kramdown",
    "hugo": "goldmark",
}
# The flavours whose footnotes are an extension the site's config turns on.
_OPTIONAL_FOOTNOTES = frozenset({"mkdocs", "hugo"})


def anchors_reader(
    sites: Sites,
    read: Callable[[str], str | None],
    *,
    options: ChunkOptions,
    settings: LinkSettings,
    source: Sources | None,
) -> Callable[[str, str], PageAnchors]:
    """``file_anchors`` of a page ``(text, path)`` of a corpus whose files ``read``
    gives, in the flavour of the site that publishes it."""

    def anchors(text: str, path: str) -> PageAnchors:
        return file_anchors(
            text, path, sites.of(path), read, options=options, settings=settings, source=source
        )

    return anchors


def file_anchors(
    text: str,
    path: str,
    site: Routes = GITHUB,
    read: Callable[[str], str | None] | None = None,
    *,
    options: ChunkOptions,
    settings: LinkSettings = NO_SETTINGS,
    source: Sources | None = None,
) -> PageAnchors:
    """The anchors of the page ``path`` whose source is ``text``; ``read(path)`` gives
    another corpus file's text (or None), for the files it includes, ``source`` any
    repository file's, for the Python modules its autodoc blocks document. ``options``
    are the configuration's chunking options (with the site generators found): the
    headings get the anchors their chunk IDs have, in the flavour of the site that
    publishes them. ``settings`` are the configuration's ``links``: the anchors a
    site's own hooks or macros make (``links.anchors``) and its shortcodes whose
    templates write no id.

    The page is open (``PageAnchors.open`` says why) when something makes anchors its
    text does not show: autodoc blocks documenting what is not in the repository
    (``links.autodoc``), MyST directives (``links.myst``), template calls
    (``links.openings``).
    """

    if read is not None and ("include" in text or "--8<--" in text):
        text = expand_includes(text, path, site, read)
    _, found = headings(context_for(text, path, options=options, counter=estimate_tokens))
    if site.term_ids and "\n:" in text:
        anchors = _numbered_with_terms(text, found)
    else:
        anchors = {heading.identity for heading in found}
    if site.generator == "hugo":
        # Hugo since 0.148 at the latest slugs the heading's rendered text, not its source
        # line (Debian's 0.111 does): an anchor of either is one the site may have.
        anchors.update(hugo_slug(heading.text, "github") for heading in found)
    if "=" in text and "<" in text:
        anchors.update(_HTML_ID.findall(text))
    # A Sphinx page's footnotes and targets are MyST's (``links.myst``).
    if ("{" in text or "[^" in text) and site.generator != "sphinx":
        anchors |= _body_ids(text, path, options)
    lines: set[int] = set()
    for rule in settings.anchors:
        for match in rule.pattern.finditer(text):
            anchors.add(match.expand(rule.anchor))
            lines.add(text.count("\n", 0, match.start()))
    opened: str | None = None
    if site.generator == "sphinx":
        from chunkgate.links.myst import myst_anchors  # deferred: the hook's start-up time

        targets = myst_anchors(text, (heading.text for heading in found))
        if targets is None:
            opened = "a MyST directive writes what the page's text does not hold"
        else:
            anchors.update(targets)
    if site.autodoc is not None and source is not None and has_includes(text, site):
        from chunkgate.links.autodoc import autodoc_anchors  # deferred: the hook's start-up

        documented = autodoc_anchors(text, source, site.autodoc)
        anchors.update(documented.anchors)
        if documented.unresolved:
            opened = opened or (
                f"an autodoc block `::: {documented.unresolved[0]}` documents what is not "
                "in the repository"
            )
        else:  # every block's anchors are known
            lines.update(_autodoc_lines(text))
    reason = opened or open_reason(
        text,
        [(heading.first, heading.last) for heading in found],
        dialect_of(path, options),
        declared=lines,
        includes=_unexpanded(text),
        shortcodes=settings.shortcodes,
    )
    return PageAnchors(frozenset(anchors), reason)


def _autodoc_lines(text: str) -> list[int]:
    return [n for n, line in enumerate(text.split("\n")) if line.lstrip().startswith(":::")]


def _unexpanded(text: str) -> list[tuple[int, str]]:
    if "include" not in text and "--8<--" not in text:
        return []
    return [
        (text.count("\n", 0, match.start()), match.group(1) or match.group(2))
        for match in _INCLUDE.finditer(text)
    ]


def _body_ids(text: str, path: str, options: ChunkOptions) -> set[str]:
    """The anchors of attribute lists and footnotes (``ids``) in the site's Markdown."""
    style, site = style_of(path, options.anchors, options.sites)
    flavour = style.flavour
    # Without the site's config its extensions are unknown: an anchor they could make
    # is taken as made.
    on = site.markdown if site is not None and site.style.flavour == flavour else None
    found: set[str] = set()
    syntax = _ATTRIBUTE_SYNTAX.get(flavour)
    if syntax == "goldmark" and on is not None and "block-attributes" not in on:
        syntax = None
    if syntax is not None and (flavour != "mkdocs" or style.attributes):
        found |= attribute_ids(text, syntax)
    # MyST's footnotes are among a Sphinx page's targets (``links.myst``).
    if flavour != "sphinx" and (
        flavour not in _OPTIONAL_FOOTNOTES or on is None or "footnotes" in on
    ):
        found |= footnote_ids(text, flavour)
    return found


def has_includes(text: str, site: Routes = GITHUB) -> bool:
    """Whether ``text`` has an include line or, on a site with mkdocstrings, an autodoc
    block (its anchors then depend on other files)."""
    if site.autodoc is not None and ":::" in text:
        from chunkgate.links.autodoc import has_autodoc  # deferred: the hook's start-up time

        if has_autodoc(text):
            return True
    return ("include" in text or "--8<--" in text) and _INCLUDE.search(text) is not None


def expand_includes(
    text: str, path: str, site: Routes, read: Callable[[str], str | None], depth: int = 0
) -> str:
    """``text`` with each include line replaced by the included file (without front matter)."""
    if depth >= _MAX_DEPTH:
        return text

    def included(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        for candidate in _include_paths(name, path, site):
            found = read(candidate)
            if found is not None:
                return expand_includes(
                    _without_front_matter(found), candidate, site, read, depth + 1
                )
        return match.group(0)

    return _INCLUDE.sub(included, text)


def include_graph(
    texts: Mapping[str, str], site: Routes | Sites, paths: Collection[str] | None = None
) -> dict[str, set[str]]:
    """Which pages include each file (directly or through other includes); ``paths`` are
    the files that can be included (default: those of ``texts``)."""
    sites = as_sites(site)
    corpus = texts if paths is None else paths
    direct: dict[str, set[str]] = {}
    for path, text in texts.items():
        if "include" not in text and "--8<--" not in text:
            continue
        for match in _INCLUDE.finditer(text):
            name = match.group(1) or match.group(2)
            included = _include_paths(name, path, sites.of(path))
            child = next((c for c in included if c in corpus), None)
            if child is not None:
                direct.setdefault(child, set()).add(path)
    graph: dict[str, set[str]] = {}
    for child, parents in direct.items():
        seen: set[str] = set()
        todo = list(parents)
        while todo:
            parent = todo.pop()
            if parent not in seen:
                seen.add(parent)
                todo.extend(direct.get(parent, ()))
        graph[child] = seen
    return graph


def _include_paths(name: str, path: str, site: Routes) -> list[str]:
    relative = name.lstrip("/")
    options = [posixpath.join(root, relative) if root else relative for root in site.roots]
    options.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), name)))
    options.append(posixpath.normpath(relative))
    return list(dict.fromkeys(options))


def _without_front_matter(text: str) -> str:

    lines = text.split("\n")
    front = parse_front_matter(lines)
    return "\n".join(lines[front.lines :]) if front else text


def _numbered_with_terms(text: str, found: Sequence[_Heading]) -> set[str]:
    """Heading and term IDs from one counter in page order, as Hugo numbers them
    (a term `matchers` takes `matchers`, a later heading "Matchers" `matchers-1`)."""

    items: list[tuple[int, str, str | None]] = []  # line, text to slug, explicit ID
    for heading in found:
        auto = re.fullmatch(re.escape(github_slug(heading.text)) + r"(?:-\d+)?", heading.identity)
        explicit = None if auto else heading.identity
        items.append((heading.first, heading.text, explicit))
    for match in _TERM.finditer(text):
        plain, explicit = split_explicit_id(match.group(1).strip())
        plain = without_inline_markup(plain)
        items.append((text.count("\n", 0, match.start()), plain, explicit))
    slug = Slugger().slug
    return {explicit or slug(plain) for _, plain, explicit in sorted(items, key=lambda i: i[0])}
