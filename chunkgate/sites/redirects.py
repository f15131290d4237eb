"""Redirects for the pages and anchors that accepted moves took elsewhere, in the form
each generator builds them from: MkDocs' ``mkdocs-redirects`` ``redirect_maps``, Hugo's
``aliases`` and Jekyll's ``redirect_from`` (``jekyll-redirect-from``) in the new page's
front matter, Docusaurus' client-redirects entries (a JSON file its config requires);
and, since no generator redirects an anchor, a map from old URL#anchor to new that a
few lines of script on the site serve.

Every function here is pure: moves and texts in, texts out. A text is edited by
adding lines, never by rewriting what is there (comments, order and tags stay), and an
entry already present is not added again, so writing twice changes nothing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from chunkgate.core.errors import ChunkgateError
from chunkgate.core.regex import lazy
from chunkgate.sites.routes import Routes, page_urls

# The generators whose page redirects chunkgate writes, and where.
GENERATORS = ("mkdocs", "hugo", "jekyll", "docusaurus")
_KEY = lazy(r"(?m)^(?P<indent>[ \t]*)redirect_maps:[ \t]*(?:#.*)?$")
_PLUGINS = lazy(r"(?m)^plugins:[ \t]*(?:#.*)?$")
_ITEM = lazy(r"(?m)^(?P<indent>[ \t]*)- ")


class PageMove(NamedTuple):
    old: str  # the source path of the page that is gone
    new: str  # the page most of its sections went to


def page_moves(moves: Iterable[tuple[str, str]], exists: Callable[[str], bool]) -> list[PageMove]:
    """The pages that moved: an old page no longer there, with the page most of its
    recorded moves went to (``moves``: old ID -> new ID)."""
    went: dict[str, Counter[str]] = {}
    for old, new in moves:
        old_page, new_page = old.partition("#")[0], new.partition("#")[0]
        if old_page != new_page and not exists(old_page):
            went.setdefault(old_page, Counter())[new_page] += 1
    return sorted(
        PageMove(old, min(counts, key=lambda page: (-counts[page], page)))
        for old, counts in went.items()
    )


def anchor_map(site: Routes, moves: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``/old/url/#old-anchor`` -> ``/new/url/#new-anchor`` for each move that changed a
    section's anchor (not a preamble's) on pages this site publishes; a page moved with
    its anchors is the page redirect's to follow."""
    found: dict[str, str] = {}
    for old, new in moves:
        old_page, _, old_anchor = old.partition("#")
        new_page, _, new_anchor = new.partition("#")
        if not old_anchor or old_anchor.startswith("~") or new_anchor.startswith("~"):
            continue
        before, after = _url(site, old_page), _url(site, new_page)
        if before is None or after is None or old_anchor == new_anchor:
            continue  # the same anchor: the page's redirect keeps it
        found[f"{before}#{old_anchor}"] = f"{after}#{new_anchor}"
        # A page redirect keeps the fragment: the old anchor arrives at the new page too.
        found.setdefault(f"{after}#{old_anchor}", f"{after}#{new_anchor}")
    return dict(sorted(found.items()))


def _url(site: Routes, page: str) -> str | None:
    urls = page_urls(site, page)
    if not urls:
        return None
    return f"/{site.prefix.strip('/')}{urls[0]}" if site.prefix.strip("/") else urls[0]


def mkdocs_config(text: str, site: Routes, moves: Iterable[PageMove]) -> str:
    """``mkdocs.yml`` with a ``redirect_maps`` entry (``old.md: new.md``, relative to
    ``docs_dir``) for each page move it lacks; the ``redirects`` plugin is added to
    ``plugins`` (with ``search``, MkDocs' default, when there was no list) if needed."""
    root = site.roots[0] if site.roots else ""
    entries = {
        _inside(root, move.old): _inside(root, move.new)
        for move in moves
        if _inside(root, move.old) is not None and _inside(root, move.new) is not None
    }
    lines = [f"{_quoted(old)}: {_quoted(new)}" for old, new in entries.items()]
    key = _KEY.search(text)
    if key is not None:
        body_indent = key["indent"] + "  "
        end = key.end()
        rest = text[end:].split("\n")[1:]
        present: set[str] = set()
        taken = 0
        for line in rest:
            if line.strip() and not line.startswith(body_indent):
                break
            taken += 1
            if line.strip():
                body_indent = line[: len(line) - len(line.lstrip())]
                present.add(line.strip())
        while taken and not rest[taken - 1].strip():
            taken -= 1
        new = [f"{body_indent}{line}" for line in lines if line not in present]
        head = text[:end].split("\n")
        kept = rest[:taken]
        return "\n".join([*head, *kept, *new, *rest[taken:]])
    block = ["- redirects:", "    redirect_maps:", *(f"      {line}" for line in lines)]
    plugins = _PLUGINS.search(text)
    if plugins is None:
        ending = "" if text.endswith("\n") or not text else "\n"
        listed = ["plugins:", "  - search", *(f"  {line}" for line in block)]
        return text + ending + "\n".join(listed) + "\n"
    after = text[plugins.end() :]
    item = _ITEM.search(after)
    indent = item["indent"] if item is not None else "  "
    added = "".join(f"\n{indent}{line}" for line in block)
    return text[: plugins.end()] + added + after


def _inside(root: str, path: str) -> str | None:
    if not root:
        return path
    return path[len(root) + 1 :] if path.startswith(root + "/") else None


def _quoted(value: str | None) -> str:
    return "'" + (value or "").replace("'", "''") + "'"


def front_matter_list(text: str, key: str, values: Iterable[str]) -> str:
    """``text`` whose front matter lists ``values`` under ``key`` (Hugo's ``aliases``,
    Jekyll's ``redirect_from``): YAML between ``---`` lines, TOML between ``+++``; a
    page without front matter gets YAML front matter."""
    wanted = list(dict.fromkeys(values))
    if text.startswith("+++"):
        return _toml_list(text, key, wanted)
    if not text.startswith("---"):
        items = "".join(f"\n  - {json.dumps(v)}" for v in wanted)
        return f"---\n{key}:{items}\n---\n{text}" if wanted else text
    lines = text.split("\n")
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if close is None:
        raise ChunkgateError("front matter opened with --- is never closed")
    at = next((i for i in range(1, close) if lines[i].startswith(f"{key}:")), None)
    if at is None:
        listed = [f"  - {json.dumps(v)}" for v in wanted]
        return "\n".join([*lines[:close], f"{key}:", *listed, *lines[close:]])
    inline = lines[at][len(key) + 1 :].strip()
    if inline:
        have = json.loads(inline) if inline.startswith("[") else [inline.strip("'\"")]
        lines[at] = f"{key}: {json.dumps(list(dict.fromkeys([*have, *wanted])))}"
        return "\n".join(lines)
    end = at + 1
    while end < close and lines[end].lstrip().startswith("- "):
        end += 1
    have = {line.lstrip()[2:].strip().strip("'\"") for line in lines[at + 1 : end]}
    added = [f"  - {json.dumps(v)}" for v in wanted if v not in have]
    return "\n".join([*lines[:end], *added, *lines[end:]])


def _toml_list(text: str, key: str, wanted: list[str]) -> str:
    lines = text.split("\n")
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "+++"), None)
    if close is None:
        raise ChunkgateError("front matter opened with +++ is never closed")
    at = next((i for i in range(1, close) if lines[i].split("=")[0].strip() == key), None)
    if at is None:
        lines.insert(close, f"{key} = {json.dumps(wanted)}")
        return "\n".join(lines)
    value = lines[at].partition("=")[2].strip()
    if not (value.startswith("[") and value.endswith("]")):
        raise ChunkgateError(f"{key} in TOML front matter: write it as an array on one line")
    have = json.loads(value.replace("'", '"'))
    lines[at] = f"{key} = {json.dumps(list(dict.fromkeys([*have, *wanted])))}"
    return "\n".join(lines)


def alias_urls(site: Routes, moves: Iterable[PageMove]) -> dict[str, list[str]]:
    """For Hugo and Jekyll: each new page and the old URLs that should redirect to it."""
    found: dict[str, list[str]] = {}
    for move in moves:
        old = _url(site, move.old)
        if old is not None and page_urls(site, move.new):
            found.setdefault(move.new, []).append(old)
    return found


def docusaurus_entries(
    site: Routes, moves: Iterable[PageMove], have: Iterable[Mapping[str, str]] = ()
) -> list[dict[str, str]]:
    """The client-redirects plugin's ``redirects`` entries: ``{"from", "to"}`` URL paths,
    those already written first."""
    entries = [dict(entry) for entry in have]
    for move in moves:
        old, new = _url(site, move.old), _url(site, move.new)
        if old is not None and new is not None:
            entry = {"from": old.rstrip("/") or "/", "to": new.rstrip("/") or "/"}
            if entry not in entries:
                entries.append(entry)
    return entries
