"""A site generator as chunking sees it: the files it publishes, how it makes their heading
anchors, and whether a template language runs over them; ``markdown.anchors`` chooses
among them (``style_of``). Found in the tree by ``chunkgate.sites.detect``.

How the same generator maps URLs to source files, for links, is ``sites.routes.Routes``;
the anchor algorithms themselves are ``chunkgate.chunking.anchors``' flavours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.chunking.anchors import DEFAULT_STYLE, AnchorStyle


class Site(NamedTuple):
    """A site generator's configuration and the files it publishes."""

    folder: str  # POSIX prefix of the files it publishes: "" (all) or "docs/"
    style: AnchorStyle
    liquid: bool = False  # Liquid or Jinja runs over its pages: `{{ x }}` lines are syntax
    # The Markdown extensions on that change blocks or make anchors (``MARKDOWN_FEATURES``).
    markdown: frozenset[str] = frozenset()


# What ``Site.markdown`` may hold: Python-Markdown's ``admonition`` (``!!!``),
# ``pymdownx.details`` (``???``) and ``pymdownx.tabbed`` (``===``), whose bodies are
# indented Markdown; footnotes; goldmark's block attributes (``{#id}`` below a block).
MARKDOWN_FEATURES = frozenset({"admonition", "details", "tabbed", "footnotes", "block-attributes"})


# `markdown.anchors` values besides "auto": a flavour, or flavour:variant.
SETTINGS = {
    "github": AnchorStyle("github"),
    "mkdocs": AnchorStyle("mkdocs", "toc"),
    "mkdocs:toc-unicode": AnchorStyle("mkdocs", "toc-unicode"),
    "kramdown": AnchorStyle("kramdown", "gfm"),
    "kramdown:kramdown": AnchorStyle("kramdown", "kramdown"),
    "hugo": AnchorStyle("hugo", "github"),
    "hugo:github-ascii": AnchorStyle("hugo", "github-ascii"),
    "hugo:blackfriday": AnchorStyle("hugo", "blackfriday"),
    "docusaurus": AnchorStyle("docusaurus"),
    "starlight": AnchorStyle("starlight", attributes=False),
    "vitepress": AnchorStyle("vitepress"),
}


def site_of(path: str, sites: Sequence[Site]) -> Site | None:
    """The site whose folder is the nearest above ``path``."""
    best: Site | None = None
    for site in sites:
        if path.startswith(site.folder) and (best is None or len(site.folder) > len(best.folder)):
            best = site
    return best


def style_of(path: str, setting: str, sites: Sequence[Site]) -> tuple[AnchorStyle, Site | None]:
    """The anchor style of the file at ``path`` and the site that publishes it.

    ``setting`` is ``markdown.anchors``: ``auto`` takes the nearest site's style,
    a flavour name forces it (with the site's details when it is of that flavour).
    """
    site = site_of(path, sites) if sites else None
    if setting == "auto":
        return (site.style if site else DEFAULT_STYLE), site
    forced = SETTINGS[setting]
    if site is not None and site.style.flavour == forced.flavour and setting == forced.flavour:
        return site.style._replace(source=f"markdown.anchors, {site.style.source}"), site
    return forced._replace(source="markdown.anchors"), site


def describe_settings(setting: str, sites: Sequence[Site]) -> str:
    """The anchor settings in a few readable words, for the manifest header and messages:
    ``mkdocs (docs/mkdocs.yml) for docs/, github elsewhere``."""
    if setting != "auto":
        forced = SETTINGS[setting]._replace(source="markdown.anchors")
        return forced.describe()
    if not sites:
        return "github"
    parts = [
        f"{site.style.describe()} for {site.folder or 'all files'}"
        for site in sorted(sites, key=lambda s: s.folder)
    ]
    if all(site.folder for site in sites):
        parts.append("github elsewhere")
    return ", ".join(parts)


def settings_key(setting: str, sites: Sequence[Site]) -> str:
    """Everything in the anchor settings that changes IDs or chunks, for the fingerprint."""
    found = ",".join(
        f"{site.folder}={site.style.key()}{'+liquid' if site.liquid else ''}"
        + "".join(f"+{feature}" for feature in sorted(site.markdown))
        for site in sorted(sites, key=lambda s: s.folder)
    )
    return f"{setting}[{found}]"
