"""The links of a Markdown file, as CommonMark parses them, with the line each is written on.

cmark finds them (``chunking/cmark.py`` renders with source positions), so a
link inside a code span, a fenced or indented code block or an HTML block is
not a link, and a reference link resolves to its definition exactly as a
renderer resolves it. cmark positions blocks, not inlines: a link's line is
found by looking for its destination in the lines of the block it is in
(``links.written``).

Reference definitions are links too (``[setup]: install.md#setup`` cites
``install.md#setup`` whether or not anything uses it); they render as
nothing, so they are found in the lines that no rendered block covers and
each is resolved by cmark on its own. A reference link that uses one is
reported at the definition, where the fix goes, once.

An admonition's body (MkDocs' ``!!! note`` and its indented lines) is read as
the Markdown it is where the site has the extension (``chunking.blocks``).

Raw HTML (``<a href>``) is not read: cmark's safe mode drops it, and it is
the site's template language more often than the author's link.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

from chunkgate.chunking import blocks as indented
from chunkgate.chunking import cmark
from chunkgate.chunking.frontmatter import parse_front_matter
from chunkgate.chunking.syntax import dialect_of
from chunkgate.core.regex import lazy
from chunkgate.links.written import Block, written_forms

if TYPE_CHECKING:
    from chunkgate.chunking.base import ChunkOptions


class Link(NamedTuple):
    """A link destination as the renderer resolves it (entities decoded, still
    percent-encoded), the 1-based line it is written on, and the text as written."""

    destination: str
    line: int
    written: str


# Percent-encoded UTF-8 beyond ASCII: what a renderer makes of "#über".
_ENCODED_TEXT = lazy(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")


def readable(destination: str) -> str:
    """``destination`` with its percent-encoded non-ASCII text decoded, as it was most
    likely written (``page.md#%C3%BCber`` is ``page.md#über``); ASCII escapes such as
    ``%20`` and ``%23`` stay, so that it still names the same URL."""
    if "%" not in destination:
        return destination

    def decoded(match: re.Match[str]) -> str:
        try:
            return unquote(match.group(0), errors="strict")
        except UnicodeDecodeError:
            return match.group(0)  # not UTF-8: leave it as written

    return _ENCODED_TEXT.sub(decoded, destination)


_HREF = lazy(rb'<a href="([^"]*)"')
# A link that may name an anchor of the corpus: a fragment and no scheme.
_LOCAL_HREF = lazy(
    rb'<a href="((?![A-Za-z][A-Za-z0-9+.-]*:|//)'
    rb'(?:[^"#]*#[^"]*|[^"#?]*\.(?:md|mdx|markdown)(?:\?[^"#]*)?))"'
)
# Every block cmark renders is positioned; a link belongs to the innermost
# (the last opened) block before it.
_POSITION = lazy(rb'data-sourcepos="(\d+):\d+-(\d+):\d+"')
# CommonMark 4.7: up to three spaces (more inside containers, which are stripped
# first), a label without unescaped brackets, a colon, the destination.
# The quote markers before it, ``[ \t]*(?:>[ \t]?)*[ \t]*``, written so that no two
# adjacent quantifiers take the same blanks (that was quadratic on a line of blanks).
_DEFINITION = lazy(r"^[ \t]*(?:(?:>[ \t]?)*>[ \t]*)?\[((?:[^\[\]\\\n]|\\.){1,999})\]:", re.M)


def _href(destination: str) -> bytes:
    return b'<a href="' + destination.encode("utf-8", "surrogateescape") + b'"'


def page_links(text: str, path: str, options: ChunkOptions) -> list[Link]:
    """The links of the page ``path`` that may name a corpus anchor, read as its site
    reads it (``options``: the chunking options, with the site generators found)."""
    return extract_links(text, local_only=True, blocks=dialect_of(path, options).blocks)


def extract_links(
    text: str, *, local_only: bool = False, blocks: Collection[str] = ()
) -> list[Link]:
    """Every link and reference definition of Markdown ``text``, in order of line.

    ``local_only`` keeps only those that may name an anchor or a page of the
    corpus (no scheme; a ``#fragment``, or a Markdown file): finding the line of
    each of a page's links to other sites would cost more than parsing the page.
    ``blocks`` are the indented blocks the site has (``Dialect.blocks``): their
    bodies' links are links.
    """
    if "](" not in text and "]:" not in text:
        return []  # a link needs "](", a reference link needs a definition
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    skip = _front_matter_lines(lines)
    if skip:
        # Blank out the front matter so that cmark's line numbers stay the file's.
        text = "\n" * skip + text.split("\n", skip)[-1]
    flat = indented.flatten(text, blocks) if blocks else None
    if flat is not None:
        text, lines = flat.text, flat.lines
    rendered = cmark.render(text)
    definitions = _definitions(lines, skip, text, rendered) if "]:" in text else []
    if local_only:
        definitions = [d for d in definitions if _LOCAL_HREF.fullmatch(_href(d.destination))]
    by_destination = {d.destination: d for d in definitions}
    defined_at = {(d.line, d.destination) for d in definitions}
    found: list[Link] = list(definitions)
    # Blocks and links both come in the order of the rendered HTML: one pass over
    # each (a search back from every link to its block was quadratic on a paragraph
    # of 18,750 links), and each line stripped once, shared by its links.
    positions = _POSITION.finditer(rendered)
    upcoming = next(positions, None)
    block: Block | None = None
    stripped: dict[int, str] = {}
    for match in (_LOCAL_HREF if local_only else _HREF).finditer(rendered):
        # The block the link is in: the last one cmark opened before it.
        opened = None
        while upcoming is not None and upcoming.start() < match.start():
            opened, upcoming = upcoming, next(positions, None)
        if opened is not None:
            block = Block(lines, int(opened[1]), int(opened[2]))
        destination = html.unescape(match[1].decode("utf-8", "surrogateescape"))
        place = block.place(destination) if block is not None else None
        if place is not None and (place, destination) in defined_at:
            # A reference link whose block holds its definition too (a tight list
            # item): the destination written there is the definition's.
            continue
        if place is None:
            if destination in by_destination:
                continue  # a reference link: reported at its definition
            place = block.first if block is not None and block.first else 1
        if place not in stripped:
            stripped[place] = lines[place - 1].strip()
        found.append(Link(destination, place, stripped[place]))
    found.sort(key=lambda link: link.line)
    return found


def _front_matter_lines(lines: Sequence[str]) -> int:
    """How many lines of front matter to blank: only one that looks like it holds a link
    needs parsing (as YAML, to tell it from a thematic break); the rest cannot mislead."""
    if not lines or lines[0].rstrip() not in ("---", "+++"):
        return 0
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "...", "+++"):
            block = "\n".join(lines[1:index])
            if "](" not in block and "]:" not in block:
                return 0
            break
    front = parse_front_matter(lines)
    return front.lines if front else 0


def _definitions(lines: Sequence[str], skip: int, text: str, rendered: bytes) -> list[Link]:
    """Reference definitions: the lines shaped like one whose label cmark resolves to them."""
    candidates: list[tuple[int, str]] = []
    position, number = 0, 1
    for match in _DEFINITION.finditer(text):
        number += text.count("\n", position, match.start())
        position = match.start()
        if number > skip:
            candidates.append((number, match.group(1)))
    if not candidates:
        return []
    # A definition renders as nothing, so a candidate inside a paragraph, a
    # heading or a code block is not one.
    covered = bytearray(len(lines) + 2)
    for start, end in _LEAF.findall(rendered):
        covered[int(start) : int(end) + 1] = b"\x01" * (int(end) - int(start) + 1)
    candidates = [(number, label) for number, label in candidates if not covered[number]]
    if not candidates:
        return []
    # What is left may still be paragraph continuation text in a tight list, or
    # HTML: ask cmark what each label resolves to, one paragraph per label after
    # the document, and keep the candidates whose own destination that is.
    base = len(lines) + 1
    probe = text + "\n\n" + "".join(f"[{label}]\n\n" for _, label in candidates)
    resolved: dict[int, str] = {}
    for line, href in _PROBE.findall(cmark.render(probe)):
        resolved[(int(line) - base - 1) // 2] = html.unescape(
            href.decode("utf-8", "surrogateescape")
        )
    links: list[Link] = []
    for position, (number, _) in enumerate(candidates):
        destination = resolved.get(position)
        if destination is None:
            continue
        line = lines[number - 1]
        written = line + ("\n" + lines[number] if number < len(lines) else "")
        if not any(form in written for form in written_forms(destination)):
            continue  # the label is defined, but by another line
        links.append(Link(destination, number, line.strip()))
    return links


_LEAF = lazy(rb'<(?:p|h[1-6]|pre|hr)\b[^>]*?data-sourcepos="(\d+):\d+-(\d+):\d+"')
_PROBE = lazy(rb'<p data-sourcepos="(\d+):1-\d+:\d+"><a href="([^"]*)"[^>]*>[^<]*</a></p>')
