"""A git merge driver for the manifest's files, for the cases plain git leaves conflicted.

Two branches that changed different corpus files changed different shards,
which git merges on its own. What is left is one file changed on both sides:
its shard conflicts (and the header, when both changed settings). Set the
driver up once per repository (the attribute is committed, the driver is per
clone)::

    # .gitattributes
    chunkgate.manifest/** merge=chunkgate eol=lf

    git config merge.chunkgate.name "chunkgate manifest"
    git config merge.chunkgate.driver "chunkgate merge-driver %O %A %B %P"

A shard: when one side left it as it was in the merge base (or only wrote it
again under new settings), the other side's is taken. When both changed it,
its source was merged too: the driver merges the source's blobs again as git
does and writes the merged file's shard (``hooks.remerge``); where it cannot
(the source conflicts too, other settings), ours is kept and the merge is
reported as conflicted, to be settled with ``chunkgate update FILE``. The
header: one side's change is taken; when both sides changed only the record of
site configs, the record keeps what either added and drops what either
removed; other different changes keep ours, reported.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shlex
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import ManifestError
from chunkgate.git import process
from chunkgate.hooks.remerge import remerged
from chunkgate.manifest import (
    FileEntry,
    Header,
    parse_block,
    parse_header,
    render_block,
    render_header,
    write_atomic,
)
from chunkgate.manifest.layout import HEADER

_UPDATE = "run `chunkgate update` after the merge"


class MergeOutcome(NamedTuple):
    """git's convention: ``status`` 0 is a clean merge, 1 leaves the file conflicted."""

    status: int
    messages: list[str]


# Given the base's, ours and theirs entries of a file both sides changed: the merged
# file's entry, or None when only ``chunkgate update`` can tell (``hooks.remerge``).
Remerge = Callable[[FileEntry, FileEntry, FileEntry], FileEntry | None]


def merge_shards(
    base: bytes, ours: bytes, theirs: bytes, remerge: Remerge | None = None
) -> tuple[bytes, list[str]]:
    """One corpus file's merged shard, and what still needs ``chunkgate update``."""
    try:
        mine, other = parse_block(ours, "ours"), parse_block(theirs, "theirs")
        common: FileEntry | None = parse_block(base, "base") if base else None
    except ManifestError as exc:
        return ours, [f"cannot merge the shard ({exc}); kept ours; {_UPDATE}"]
    if other in (mine, common) or _restamped(other, common):
        return ours, []
    if mine == common or _restamped(mine, common):
        return theirs, []
    merged = remerge(common, mine, other) if remerge is not None and common is not None else None
    if merged is not None:
        return render_block(merged), []
    return ours, [
        f"{mine.path}: both sides changed its chunks; run `chunkgate update "
        f"{shlex.quote(f'./{mine.path}' if mine.path.startswith('-') else mine.path)}` "
        "after the merge"
    ]


def _restamped(side: FileEntry, base: FileEntry | None) -> bool:
    """``side`` is the base's entry, only written again under other settings (a settings
    change rewrites every shard): the other side's entry stands, with its own settings,
    which the gate checks again when they are not the merged header's."""
    return base is not None and dataclasses.replace(side, settings=base.settings) == base


def merge_headers(base: bytes, ours: bytes, theirs: bytes) -> tuple[bytes, list[str]]:
    try:
        mine, other = parse_header(ours, "ours"), parse_header(theirs, "theirs")
        common: Header | None = parse_header(base, "base") if base else None
    except ManifestError as exc:
        return ours, [f"cannot merge the manifest's header ({exc}); kept ours; {_UPDATE}"]
    if other in (mine, common):
        return ours, []
    if mine == common:
        return theirs, []
    if _settings_only(mine) == _settings_only(other):  # both changed the site configs
        return render_header(_merged_sites(mine, other, common)), []
    differ = [
        what
        for what, a, b in (
            ("chunking version", mine.chunking, other.chunking),
            ("settings", mine.config, other.config),
            ("rule settings", mine.rules, other.rules),
            ("heading anchors", mine.anchors, other.anchors),
        )
        if a != b
    ]
    return ours, [f"the two sides were made with different {' and '.join(differ)}; {_UPDATE}"]


def _settings_only(header: Header) -> Header:
    return dataclasses.replace(header, site_configs=None, untracked_configs=())


def _merged_sites(mine: Header, other: Header, base: Header | None) -> Header:
    """``mine`` recording the site configs either side added and none that one removed."""

    def merged(a: Iterable[str], b: Iterable[str], common: Iterable[str]) -> set[str]:
        ours, theirs, was = set(a), set(b), set(common)
        return (ours & theirs) | (ours - was) | (theirs - was)

    was = base.site_configs or () if base is not None else ()
    was_untracked = base.untracked_configs if base is not None else ()
    listed = merged(mine.site_configs or (), other.site_configs or (), was)
    untracked = merged(mine.untracked_configs, other.untracked_configs, was_untracked)
    return mine.with_sites(tuple(listed), tuple(listed - untracked))


def run_merge_driver(
    base_path: str | os.PathLike[str],
    ours_path: str | os.PathLike[str],
    theirs_path: str | os.PathLike[str],
    name: str | None = None,
) -> MergeOutcome:
    """Merge as git's ``%O %A %B %P`` driver: the result replaces ``ours_path`` atomically.
    ``name`` (``%P``, the file's path in the repository) tells a header from a shard; without
    it the content does."""
    base, ours, theirs = (_read(Path(p)) for p in (base_path, ours_path, theirs_path))
    is_header = name.rsplit("/", 1)[-1] == HEADER if name else ours.lstrip().startswith(b"{\n")
    if is_header:
        merged, messages = merge_headers(base, ours, theirs)
    else:
        # git runs a driver at the top of the work tree
        root = process.find_root(Path.cwd())
        merged, messages = merge_shards(
            base, ours, theirs, None if root is None else functools.partial(remerged, root)
        )
    if merged != ours:
        write_atomic(Path(ours_path), merged)
    return MergeOutcome(1 if messages else 0, messages)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read: {exc.strerror}") from None
