"""Whether a page may have anchors chunkgate cannot see: what makes it open.

A page's anchors are complete when every element id it will have comes from
what chunkgate reads (headings, attribute lists, literal HTML ids). A page is
open when it holds a construct whose output is made at build time and may
carry ids: a link into it whose anchor is not found is then unverified, not
broken. Each construct is judged by what it can produce:

- an autodoc block (``::: package.module``, mkdocstrings and Zensical; told
  from a VitePress or Docusaurus container by having no closing ``:::``) and
  MyST's ``{include}``, ``{eval-rst}`` and ``{auto...}`` directives write
  headings;
- a template call alone on its line (a block: a Hugo shortcode, a Liquid or
  Jinja tag or output, an MDX component) may write headings and ids; one
  inside a sentence writes inline content, never a heading, and neither do
  the built-in calls that only format, link or branch (``ref``, ``highlight``,
  ``if``, ``assign``, ``<Tabs>``, ``<Aside>``...), nor a shortcode whose
  template in the repository writes none (``chunkgate.links.shortcodes``);
- a heading holding template syntax or an HTML comment gets its anchor at
  build time (a site hook or plugin reads ``#### <!-- md:setting x -->``);
- raw HTML whose ``id`` is an expression (``id={slug}``, ``:id="x"``,
  ``id="{{ .Anchor }}"``) writes an id that has no literal value here;
- an include line whose file is not in the corpus hides that file's headings.

A line a configured ``links.anchors`` pattern matches is declared: what it
makes is known, so it opens nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import NamedTuple

from chunkgate.chunking.syntax import Dialect, syntax_lines
from chunkgate.core.regex import lazy

_CONTAINER = lazy(r":{3,}[ \t]*(.*)")  # fullmatched against a stripped line
_AUTODOC = lazy(r"(?<![ \t])[ \t]+([A-Za-z_][\w.:/-]*)")
_SHORTCODE = lazy(r"\{\{[<%]-?\s*(/?)([\w./-]+)")
_TAG = lazy(r"\{%-?\s*(\w+)(?!\w)\s*([^%]*?)-?%\}")
_OUTPUT = lazy(r"\{\{(?![<%])")
_COMPONENT = lazy(r"<([A-Z][\w.]*)")
_DIRECTIVE = lazy(r"^[ \t]*(?:`{3,}|~{3,}|:{3,})\{(include|eval-rst|auto\w+)\}[ \t]*(\S*)", re.M)
_ID_EXPRESSION = lazy(
    r"""<[A-Za-z][^<>]*?\s(?:(?::|v-bind:)(?:id|name)\s*=|(?:id|name)\s*=\s*"""
    r"""(?:\{|["'][^"'<>]*(?:\{\{|\{%|\$\{)))"""
)
_FENCE = lazy(r"[ \t]{0,3}(`{3,}|~{3,})(.*)")
_LAST_LIST = lazy(r"\{:?([^{}]*)\}[ \t]*$")  # an attribute list closing a heading
_SETS_ID = lazy(r"#|\bid=")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


class PageAnchors(NamedTuple):
    """A page's anchors as chunkgate reads them; ``open`` says why the built page may
    have more than these (``open_reason``), None when they are complete."""

    anchors: frozenset[str]
    open: str | None = None


# Hugo's shortcodes that format, embed or link, never writing an element id or a heading.
_HUGO_INLINE = _words(
    "ref relref param highlight figure gist instagram tweet twitter x vimeo youtube "
    "qr comment details"
)
# Liquid and Jinja tags that branch, loop, assign or format: their output is the page's text.
_QUIET_TAGS = _words(
    "if elsif elif else endif unless endunless case when endcase for endfor break "
    "continue assign capture endcapture raw endraw comment endcomment highlight "
    "endhighlight link post_url set endset macro endmacro import from with endwith "
    "filter endfilter cycle increment decrement"
)
_INCLUDE_TAGS = frozenset(("include", "include_relative", "include_cached"))
# The generators' own components: asides, tabs, cards, code and file trees, never a heading.
_QUIET_COMPONENTS = _words(
    "Aside Badge Card CardGrid Code FileTree Icon LinkButton LinkCard Steps Tabs "
    "TabItem Admonition CodeBlock Details BrowserWindow"
)


def open_reason(
    text: str,
    headings: Sequence[tuple[int, int]],
    dialect: Dialect,
    *,
    declared: Collection[int] = (),
    includes: Sequence[tuple[int, str]] = (),
    shortcodes: Collection[str] = (),
) -> str | None:
    """Why the page whose source is ``text`` may have anchors it does not show (the
    first construct found, with its line), or None: its anchors are complete.

    ``headings`` are its headings' first and last lines (0-based), ``declared`` the
    lines a ``links.anchors`` pattern matched, ``includes`` the include lines left
    unexpanded (0-based line, the file named), ``shortcodes`` the site's shortcodes whose
    templates write no id (``chunkgate.links.shortcodes``).
    """
    found: list[tuple[int, str]] = [
        (line, f"it includes {name}, which is not in the corpus") for line, name in includes
    ]
    lines = text.split("\n")
    if "{" in text or "<" in text or ":::" in text:
        found.extend(_block_constructs(text, lines, dialect, shortcodes))
        found.extend(_in_headings(lines, headings))
        found.extend(_expressions(text))
    found = [(line, why) for line, why in found if line not in declared]
    if not found:
        return None
    line, why = min(found)
    return f"{why} (line {line + 1})"


def _block_constructs(
    text: str, lines: list[str], dialect: Dialect, shortcodes: Collection[str]
) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    named = "{include}" in text or "{eval-rst}" in text or "{auto" in text
    directives = list(_DIRECTIVE.finditer(text)) if named else []
    if directives:
        code = _code_lines(lines)
        for match in directives:
            at, why = _directive(match, text)
            if at not in code:
                found.append((at, why))
    # Most pages hold none of the block constructs: not worth a line scan.
    calls = "{{" in text or "{%" in text or ":::" in text or (dialect.mdx and "<" in text)
    if not calls:
        return found
    flags = syntax_lines(lines, dialect)
    containers: list[tuple[int, str]] = []
    for index, syntax in enumerate(flags):
        if not syntax:
            continue
        line = lines[index].strip()
        container = _CONTAINER.fullmatch(line)
        if container is not None:
            if container.group(1):
                containers.append((index, container.group(1)))
            elif containers:
                containers.pop()  # a closing `:::`: the last opened one was a container
            continue
        reason = _block(line, dialect, shortcodes)
        if reason is not None:
            found.append((index, reason))
    for index, name in containers:
        autodoc = _AUTODOC.fullmatch(" " + name)
        if autodoc is not None:
            found.append((index, f"an autodoc block `::: {autodoc.group(1)}` writes headings"))
    return found


def _directive(match: re.Match[str], text: str) -> tuple[int, str]:
    line = text.count("\n", 0, match.start())
    kind, argument = match.group(1), match.group(2)
    if kind == "include":
        return line, f"a MyST {{include}} of {argument or 'a file'} adds its headings"
    return line, f"a MyST {{{kind}}} directive writes targets"


def _block(line: str, dialect: Dialect, shortcodes: Collection[str]) -> str | None:
    """Why a syntax line on its own may write a heading or an id, or None."""
    shortcode = _SHORTCODE.match(line)
    if shortcode is not None:
        closing, name = shortcode.groups()
        if closing or name in _HUGO_INLINE or name in shortcodes:
            return None
        closer = ">}}" if line[2] == "<" else "%}}"
        return f"the shortcode {line[:3]} {name} {closer} may write headings or ids"
    tag = _TAG.match(line)
    if tag is not None:
        name, argument = tag.group(1), tag.group(2).strip()
        if name in _QUIET_TAGS:
            return None
        if name in _INCLUDE_TAGS:
            return f"the template includes {argument.split()[0] if argument else 'a file'}"
        return f"the template tag {{% {name} %}} may write headings or ids"
    if dialect.liquid and _OUTPUT.match(line):
        return f"the template output {line[:40]} may write headings"
    component = _COMPONENT.match(line)
    if dialect.mdx and component is not None:
        name = component.group(1)
        if name.rpartition(".")[2] in _QUIET_COMPONENTS:
            return None
        return f"the component <{name}> may write headings or ids"
    return None


def _in_headings(lines: list[str], headings: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for first, last in headings:
        source = "\n".join(lines[first : last + 1])
        closing = _LAST_LIST.search(source)
        if closing is not None and _SETS_ID.search(closing.group(1)):
            continue  # `## {{% param x %}} {#x}`: the explicit ID is the anchor
        if "<!--" in source:
            found.append((first, "a heading holds an HTML comment a site hook may make an id of"))
        elif "{{" in source or "{%" in source:
            found.append((first, "a heading holds template syntax: its anchor is made at build"))
    return found


def _expressions(text: str) -> list[tuple[int, str]]:
    matches = list(_ID_EXPRESSION.finditer(text)) if "=" in text else []
    if not matches:
        return []
    code = _code_lines(text.split("\n"))
    found = []
    for match in matches:
        line = text.count("\n", 0, match.start())
        if line not in code:
            found.append((line, "raw HTML writes an id from an expression"))
    return found


def _code_lines(lines: list[str]) -> set[int]:
    """The 0-based lines of fenced code blocks (fences included). A MyST directive's
    fence (```` ````{note} ````) holds Markdown, fences of its own included, not code."""
    inside: set[int] = set()
    open_fences: list[tuple[str, bool]] = []  # each fence's mark, and whether a directive's
    for index, line in enumerate(lines):
        found = _FENCE.match(line)
        in_code = bool(open_fences) and not open_fences[-1][1]
        if in_code:
            inside.add(index)
        if found is None:
            continue
        mark, info = found.group(1), found.group(2).strip()
        if open_fences and not info:
            last = open_fences[-1][0]
            if mark[0] == last[0] and len(mark) >= len(last):
                open_fences.pop()
                continue
        if not in_code:
            open_fences.append((mark, info.startswith("{")))
            if not info.startswith("{"):
                inside.add(index)
    return inside
