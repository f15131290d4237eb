"""Heading anchors as the site that publishes a page makes them (SPEC §2).

A flavour turns a document's headings into identities, all at once: some
generators number repeats across the whole page (``-1`` or ``_1``), and
MkDocs first reserves every explicit ID. Each flavour is a pure function in
its own module, looked up in ``FLAVOURS`` by name and imported when first
used, so a hook run on GitHub-flavoured files loads none of the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import NamedTuple


class AnchorStyle(NamedTuple):
    """How one site makes heading anchors, and why chunkgate thinks so."""

    flavour: str = "github"  # a key of FLAVOURS
    variant: str = ""  # the flavour's own setting: MkDocs' slugify, Hugo's autoHeadingIDType
    separator: str = "-"  # MkDocs toc's separator
    attributes: bool = True  # whether `{#id}` after a heading's text sets its ID
    source: str = ""  # the generator config or setting it comes from ("" for the default)

    def key(self) -> str:
        """Everything that changes IDs, for the chunking fingerprint (not ``source``)."""
        return f"{self.flavour}:{self.variant}:{self.separator}:{int(self.attributes)}"

    def explicit(self, identity: str) -> str | None:
        """How an author pins this ID on a heading so that the site keeps it, as a fix
        says it; None where the site has no explicit IDs (GitHub, Starlight)."""
        if self.flavour == "sphinx":
            return f"a target `({identity})=` on the line above the heading"
        if not self.attributes or self.flavour in ("github", "starlight"):
            return None
        if self.flavour == "mkdocs":
            return f"`{{ #{identity} }}` at the end of the heading"
        if self.flavour == "kramdown":
            return f"`{{: #{identity}}}` on the line below the heading"
        return f"`{{#{identity}}}` at the end of the heading"

    def describe(self) -> str:
        """``mkdocs (docs/mkdocs.yml)``: what ``outline`` and ``chunks`` show."""
        name = self.flavour
        if self.variant and self.variant != DEFAULT_VARIANTS.get(self.flavour):
            name = f"{name} {self.variant}"
        if self.separator != "-":
            name = f"{name} separator={self.separator!r}"
        return f"{name} ({self.source})" if self.source else name


class HeadingSource(NamedTuple):
    """One heading as a flavour sees it: template syntax already removed."""

    text: str  # rendered plain text (markup removed, entities decoded, soft breaks kept)
    raw: str  # the source text: ATX markers or setext underline removed, lines joined by "\n"
    below: str = ""  # the line below the heading (kramdown's block attribute list)
    level: int = 0  # 1 to 6 (MyST slugs headings down to a configured level)
    above: str = ""  # the label of a MyST target ``(label)=`` right above the heading


class Anchor(NamedTuple):
    text: str  # the heading text shown and kept in heading paths (an explicit ID removed)
    identity: str
    explicit: bool = False  # the author's own ID (``{#id}``, a target), not one made of text


Flavour = Callable[[Sequence[HeadingSource], AnchorStyle], list[Anchor]]

DEFAULT_STYLE = AnchorStyle()
DEFAULT_VARIANTS = {"mkdocs": "toc", "hugo": "github", "kramdown": "gfm", "sphinx": "0"}
_MODULES = {
    "github": "github",
    "mkdocs": "mkdocs",
    "kramdown": "kramdown",
    "hugo": "hugo",
    "docusaurus": "slugger",
    "starlight": "slugger",
    "vitepress": "vitepress",
    "sphinx": "sphinx",
}
FLAVOURS = tuple(_MODULES)
_loaded: dict[str, Flavour] = {}


def flavour(name: str) -> Flavour:
    found = _loaded.get(name)
    if found is None:
        module = importlib.import_module(f"{__name__}.{_MODULES[name]}")
        found = _loaded[name] = module.anchors
    return found


def anchors(headings: Sequence[HeadingSource], style: AnchorStyle = DEFAULT_STYLE) -> list[Anchor]:
    """The text and identity of every heading of one document, in order."""
    return flavour(style.flavour)(headings, style)
