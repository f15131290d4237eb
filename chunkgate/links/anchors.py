"""Every anchor a published Markdown page has, for checking links to it (CG404).

A page's anchors are its headings' IDs (every heading, also one inside a
list or without a chunk of its own), HTML ``id``/``name`` attributes, and, on
Hugo sites with ``autoDefinitionTermID``, its definition-list terms. Pages
that include other files (Hugo's ``{{% include "file.md" %}}``, MkDocs
snippets' ``--8<-- "file.md"``) have the included headings too, numbered in
page order as the generator numbers them, so the include is expanded first.

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
from chunkgate.chunking.frontmatter import parse_front_matter
from chunkgate.chunking.markdown import headings
from chunkgate.chunking.sizes import estimate_tokens
from chunkgate.chunking.slugs import Slugger, github_slug, split_explicit_id
from chunkgate.chunking.spans import without_inline_markup
from chunkgate.core.regex import lazy
from chunkgate.links.broken import Sites, as_sites
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
# Template calls that can write a page's whole body: shortcodes, Liquid, MDX components.
_TEMPLATE = lazy(r"\{\{[%<]|\{%|^<[A-Z]\w*[\s/>]", re.M)
_MAX_DEPTH = 4  # includes of includes; deeper (or circular) ones are left out


def file_anchors(
    text: str,
    path: str,
    site: Routes = GITHUB,
    read: Callable[[str], str | None] | None = None,
    *,
    options: ChunkOptions,
    source: Sources | None = None,
) -> set[str] | None:
    """The anchors of the page ``path`` whose source is ``text``; ``read(path)`` gives
    another corpus file's text (or None), for the files it includes, ``source`` any
    repository file's, for the Python modules its autodoc blocks document. ``options``
    are the configuration's chunking options (with the site generators found): the
    headings get the anchors their chunk IDs have, in the flavour of the site that
    publishes them.

    None when the page's anchors are made by its template: a page without
    headings whose body calls the template language (Hugo's glossary page is
    ``{{% glossary %}}`` alone), whose autodoc blocks document what is not in
    the repository (``links.autodoc``), or whose MyST directives write what its
    text does not hold (``links.myst``), so its links cannot be checked.
    """

    if read is not None and ("include" in text or "--8<--" in text):
        text = expand_includes(text, path, site, read)
    _, found = headings(context_for(text, path, options=options, counter=estimate_tokens))
    if not found and _TEMPLATE.search(text):
        return None
    if site.term_ids and "\n:" in text:
        anchors = _numbered_with_terms(text, found)
    else:
        anchors = {heading.identity for heading in found}
    if "=" in text and "<" in text:
        anchors.update(_HTML_ID.findall(text))
    if site.generator == "sphinx":
        from chunkgate.links.myst import myst_anchors  # deferred: the hook's start-up time

        targets = myst_anchors(text, (heading.text for heading in found))
        if targets is None:
            return None
        anchors.update(targets)
    if site.autodoc is not None and source is not None and has_includes(text, site):
        from chunkgate.links.autodoc import autodoc_anchors  # deferred: the hook's start-up

        documented = autodoc_anchors(text, source, site.autodoc)
        if documented.unresolved:
            return None
        anchors.update(documented.anchors)
    return anchors


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
