"""Anchors a page's body makes besides its headings: attribute lists and footnotes.

Attribute lists, by the site's Markdown:

- Python-Markdown's ``attr_list`` (MkDocs with ``attr_list`` or ``extra``) sets an id on
  the block whose last line is the list alone (a paragraph, a list item: ``{: #id}``),
  on a table cell or definition term it ends (``| a {#id} |``), and on the inline
  element it follows (``[text](url){#id}``); ``#id`` and ``id=x`` alike, the last wins;
- kramdown (Jekyll) block and span IALs, which start ``{:``;
- goldmark (Hugo) with ``markup.goldmark.parser.attribute.block``: a list alone on the
  line below a block.

Any list of such a shape counts wherever it stands outside code: the few that the
generator would leave as text only make a link to them unchecked, never an error.

Footnotes, by the generator that renders them (each checked against its source or its
build; ``L`` the label as written, ``N`` its number in the order of first reference,
``k`` the reference's number among those to the same label):

- Python-Markdown ``footnotes``: ``fn:L`` for every definition, ``fnref:L`` then
  ``fnref2:L``, ``fnref3:L``... for the references;
- goldmark (Hugo): ``fn:N``, ``fnref:N`` then ``fnref1:N``, ``fnref2:N``...;
- kramdown (Jekyll): ``fn:L``, ``fnref:L`` then ``fnref:L:1``, ``fnref:L:2``... (a
  label of letters, digits, ``_`` and ``-`` only);
- markdown-it-footnote (VitePress): ``fnN``, ``fnrefN`` then ``fnrefN:1``...;
- remark-gfm / mdast-util-to-hast (Docusaurus, Starlight) and GitHub:
  ``user-content-fn-l``, ``user-content-fnref-l`` then ``-2``, ``-3``... (``l``
  lower-cased), and ``footnote-label``; GitHub's page script also follows the
  links without the ``user-content-`` prefix, as it does for headings, so both count.

Only defined and referenced footnotes are rendered (Python-Markdown renders every
definition).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from chunkgate.chunking.blocks import fence_step
from chunkgate.chunking.slugs import attribute_id
from chunkgate.chunking.spans import blank_code_spans
from chunkgate.core.regex import lazy

_LIST = lazy(r"\{(:?)([^{}\n]*)\}")
_DEFINITION = lazy(r"[ ]{0,3}\[\^([^\[\]\n]+)\]:")
_REFERENCE = lazy(r"\[\^([^\[\]\n]+)\](?!:)")
_ESCAPE = lazy(r"\\([!-/:-@\[-`{-~])")  # CommonMark's escapable ASCII punctuation
_INLINE_ENDS = frozenset(")]*_`^~=")  # the characters an inline element ends with
_KRAMDOWN_LABEL = lazy(r"[A-Za-z0-9_-]+")  # kramdown's ALD_ID_NAME
# Whose attribute lists: Python-Markdown's, kramdown's IALs, goldmark's block attributes.
AttributeSyntax = Literal["attr_list", "kramdown", "goldmark"]


def _prose_lines(text: str, needle: str) -> Iterator[str]:
    """The lines of ``text`` outside fenced code that hold ``needle`` outside code spans,
    code spans blanked."""
    fence: str | None = None
    for line in text.split("\n"):
        fence, code = fence_step(fence, line)
        if code or needle not in line:
            continue
        outside = blank_code_spans(line) if "`" in line else line
        if needle in outside:
            yield outside


def attribute_ids(text: str, syntax: AttributeSyntax) -> set[str]:
    """The ids the attribute lists of ``text`` set, read as ``syntax``."""
    found: set[str] = set()
    if "{" not in text:
        return found
    for line in _prose_lines(text, "{"):
        for match in _LIST.finditer(line):
            colon, inner = match.groups()
            if syntax == "kramdown" and not colon:
                continue
            if syntax == "goldmark" and (colon or line.strip() != match[0]):
                continue
            if syntax != "goldmark" and not _placed(line, match):
                continue
            identity = attribute_id(inner.strip(" \t"))
            if identity is not None:
                # A backslash escape is the character (`{#\_fn_1}` is `_fn_1`).
                found.add(_ESCAPE.sub(r"\1", identity) if "\\" in identity else identity)
    return found


def _placed(line: str, match: re.Match[str]) -> bool:
    """Whether an attribute list sits where Python-Markdown's ``attr_list`` (and kramdown)
    takes it: alone on its line (the block's), right after an inline element
    (``[](){#x}``, ``*a*{#x}``), or closing a table cell; after a space at the end of a
    paragraph's or list item's line it is text."""
    if line.strip() == match[0]:
        return True
    before = line[match.start() - 1] if match.start() else ""
    if before in _INLINE_ENDS:
        return True
    return "|" in line and line[match.end() :].lstrip().startswith("|")


def _footnotes(text: str) -> tuple[list[str], list[str]]:
    """The labels of the footnote definitions and of the references to them, in order."""
    defined: list[str] = []
    references: list[str] = []
    for line in _prose_lines(text, "[^"):
        definition = _DEFINITION.match(line)
        if definition:
            defined.append(definition[1])
        references.extend(_REFERENCE.findall(line, definition.end() if definition else 0))
    known = set(defined)
    return defined, [label for label in references if label in known]


def _numbered(references: Sequence[str]) -> Iterator[tuple[str, int, int]]:
    """(label, its number by first reference, the reference's number for the label)."""
    numbers: dict[str, int] = {}
    counts: dict[str, int] = {}
    for label in references:
        number = numbers.setdefault(label, len(numbers) + 1)
        counts[label] = counts.get(label, 0) + 1
        yield label, number, counts[label]


def _python_markdown(defined: list[str], references: list[str]) -> set[str]:
    ids = {f"fn:{label}" for label in defined}
    for label, _, k in _numbered(references):
        ids.add(f"fnref:{label}" if k == 1 else f"fnref{k}:{label}")
    return ids


def _goldmark(defined: list[str], references: list[str]) -> set[str]:
    ids: set[str] = set()
    for _, number, k in _numbered(references):
        ids.add(f"fn:{number}")
        ids.add(f"fnref:{number}" if k == 1 else f"fnref{k - 1}:{number}")
    return ids


def _kramdown(defined: list[str], references: list[str]) -> set[str]:
    ids: set[str] = set()
    for label, _, k in _numbered([r for r in references if _KRAMDOWN_LABEL.fullmatch(r)]):
        ids.add(f"fn:{label}")
        ids.add(f"fnref:{label}" if k == 1 else f"fnref:{label}:{k - 1}")
    return ids


def _markdown_it(defined: list[str], references: list[str]) -> set[str]:
    ids: set[str] = set()
    # markdown-it-footnote ends a label at a space: no footnote.
    for _, number, k in _numbered([r for r in references if " " not in r]):
        ids.add(f"fn{number}")
        ids.add(f"fnref{number}" if k == 1 else f"fnref{number}:{k - 1}")
    return ids


def _remark(defined: list[str], references: list[str]) -> set[str]:
    ids: set[str] = set()
    for label, _, k in _numbered([label.lower() for label in references]):
        ids.add(f"fn-{label}")
        ids.add(f"fnref-{label}" if k == 1 else f"fnref-{label}-{k}")
    if ids:
        ids.add("footnote-label")
    return ids | {f"user-content-{identity}" for identity in ids}


# By anchor flavour (``chunking.anchors``); VitePress's is markdown-it's.
FOOTNOTES: dict[str, Callable[[list[str], list[str]], set[str]]] = {
    "mkdocs": _python_markdown,
    "hugo": _goldmark,
    "kramdown": _kramdown,
    "vitepress": _markdown_it,
    "github": _remark,
    "docusaurus": _remark,
    "starlight": _remark,
}


def footnote_ids(text: str, flavour: str) -> set[str]:
    """The anchors the footnotes of ``text`` make on a site of anchor ``flavour``."""
    make = FOOTNOTES.get(flavour)
    if make is None or "[^" not in text:
        return set()
    defined, references = _footnotes(text)
    return make(defined, references) if defined else set()
