"""A Hugo site's own shortcode templates, read so that a page calling one is open only
when the template can write an id.

A shortcode alone on its line may write anything, so a page calling one is
open (``chunkgate.links.openings``) unless its template is at hand and can
write no element id and no heading: no ``id=`` attribute, no ``<h1>``-``<h6>``
element or Markdown heading line, and no call that brings in other markup (a
partial, another template, a page's content, a file, Markdown rendered from a
string). The body between its tags (``.Inner``) is the page's own text, which
chunkgate reads where it stands.

Templates are looked for where Hugo looks: ``layouts/shortcodes/`` and
``layouts/_shortcodes/`` (``NAME.html`` or ``NAME.md``) of the site's folder
and of its themes (``themes/*/``); the site's folder is one of the folders
above its content root. A theme fetched as a module is not in the repository:
its shortcodes stay unknown, and their pages open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from chunkgate.core.regex import lazy
from chunkgate.links.broken import Sites

_WRITES = lazy(
    r"""\bid\s*=|<h[1-6]\b|^[ \t]*#{1,6}[ \t]|\bpartial(?:Cached)?\b|\btemplate\s+"|"""
    r"""\.RenderString|\breadFile\b|\.Content\b""",
    re.M,
)
_FOLDERS = ("layouts/shortcodes", "layouts/_shortcodes")
_SUFFIXES = (".html", ".md")


def quiet_shortcodes(root: Path, sites: Sites) -> frozenset[str]:
    """The shortcodes of the repository's Hugo sites whose templates write no id and no
    heading (a site's own template before its themes')."""
    templates = _templates(root, sites)
    return frozenset(name for name, text in templates.items() if not writes_ids(text))


def _templates(root: Path, sites: Sites) -> dict[str, str]:
    found: dict[str, str] = {}
    for folder in _site_folders(root, sites):
        for layouts in _layouts(folder):
            for template in sorted(layouts.iterdir()):
                if template.suffix in _SUFFIXES and template.stem not in found:
                    try:
                        found[template.stem] = template.read_text("utf-8", "replace")
                    except OSError:
                        continue
    return found


def writes_ids(template: str) -> bool:
    """Whether a shortcode template can write an element id or a heading."""
    return _WRITES.search(template) is not None


def _site_folders(root: Path, sites: Sites) -> list[Path]:
    folders: list[Path] = []
    for site in sites.all:
        if site.generator != "hugo":
            continue
        for content in site.roots:
            parts = content.split("/") if content else []
            for depth in range(len(parts), -1, -1):
                folder = root.joinpath(*parts[:depth])
                if folder not in folders:
                    folders.append(folder)
    return folders


def _layouts(folder: Path) -> Iterable[Path]:
    themes = folder / "themes"
    bases = [folder, *(sorted(themes.iterdir()) if themes.is_dir() else [])]
    for base in bases:
        for name in _FOLDERS:
            if (base / name).is_dir():
                yield base / name
