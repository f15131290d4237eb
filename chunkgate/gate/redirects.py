"""``redirects SITE...``: the redirects of the pages and anchors the manifest's recorded
moves (``moved_from``: accepted moves) took elsewhere, written for the named sites.

Opt-in per site: only the generator configurations named are written to (or, for
Hugo and Jekyll, the front matter of their moved pages; for Docusaurus, a JSON file
beside its config that the client-redirects plugin requires). The anchors map is
written only when asked for (``anchors``). Each file is replaced at once and shown as
a diff; a second run writes nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.core.errors import ChunkgateError
from chunkgate.gate.corpus import moves_of
from chunkgate.gate.relink import unified
from chunkgate.git import process
from chunkgate.links.corpus import sites_of
from chunkgate.manifest import WorkTreeManifest, write_atomic
from chunkgate.sites import redirects
from chunkgate.sites.routes import Routes

# Docusaurus' client-redirects entries, beside its config (the config requires it).
DOCUSAURUS_FILE = "chunkgate-redirects.json"


class Written(NamedTuple):
    path: str
    diff: str


class Redirects(NamedTuple):
    files: tuple[Written, ...]  # the files changed (or, with ``write`` off, to change)
    pages: int  # page redirects in force for the named sites
    anchors: int  # entries of the anchors map
    written: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "files": [{"path": f.path, "diff": f.diff} for f in self.files],
            "pages": self.pages,
            "anchors": self.anchors,
            "written": self.written,
        }


def write_redirects(
    config: Config, sites: Sequence[str], *, anchors: str | None, write: bool
) -> Redirects:
    """Write the redirects of every recorded move for the ``sites`` (their generator
    config files, repository-relative), and the anchors map to ``anchors`` when given."""
    manifest = WorkTreeManifest(config.root, config.manifest, in_git=process.installed())
    moves = sorted(moves_of(manifest.entry(path) for path in manifest.listing()).items())
    exists = lambda path: os.path.lexists(config.root / path)  # noqa: E731
    texts: dict[str, str] = {}
    pages = 0
    mapped: dict[str, str] = {}
    for name in sites:
        site = _site(config, name)
        moved = [m for m in redirects.page_moves(moves, exists) if _publishes(site, m.new)]
        pages += len(moved)
        _site_files(config, name, site, moved, texts)
        mapped.update(redirects.anchor_map(site, moves))
    if anchors is not None:
        texts[anchors] = json.dumps(mapped, indent=2, ensure_ascii=False) + "\n"
    changed = [_written(config, path, text, write=write) for path, text in sorted(texts.items())]
    files = tuple(item for item in changed if item is not None)
    return Redirects(files, pages, len(mapped), write)


def _site(config: Config, name: str) -> Routes:
    if not (config.root / name).is_file():
        raise ChunkgateError(f"{name}: no such site configuration file")
    site = sites_of(config.root, [name]).all[0]
    if site.generator not in redirects.GENERATORS:
        raise ChunkgateError(
            f"{name}: a {site.generator} site; chunkgate writes redirects for "
            f"{', '.join(redirects.GENERATORS)} sites (and the anchors map for any)"
        )
    return site


def _publishes(site: Routes, page: str) -> bool:
    return any(not root or page.startswith(root + "/") for root in site.roots)


def _site_files(
    config: Config, name: str, site: Routes, moved: list[redirects.PageMove], texts: dict[str, str]
) -> None:
    """The texts of the site's files with its redirects, added to ``texts``."""
    if site.generator == "mkdocs":
        texts[name] = redirects.mkdocs_config(_text(config, texts, name), site, moved)
    elif site.generator in ("hugo", "jekyll"):
        key = "aliases" if site.generator == "hugo" else "redirect_from"
        for page, urls in redirects.alias_urls(site, moved).items():
            texts[page] = redirects.front_matter_list(_text(config, texts, page), key, urls)
    else:
        path = f"{name.rpartition('/')[0]}/{DOCUSAURUS_FILE}".lstrip("/")
        have = json.loads(_text(config, texts, path) or "[]")
        entries = redirects.docusaurus_entries(site, moved, have)
        texts[path] = json.dumps(entries, indent=2, ensure_ascii=False) + "\n"


def _text(config: Config, texts: dict[str, str], path: str) -> str:
    if path in texts:
        return texts[path]
    try:
        return (config.root / path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ChunkgateError(f"{path}: cannot read: {exc}") from None


def _written(config: Config, path: str, text: str, *, write: bool) -> Written | None:
    old = _text(config, {}, path)
    if old == text:
        return None
    diff = unified(path, old, text)
    if write:
        target = config.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, text.encode("utf-8"))
    return Written(path, diff)
