"""A git merge driver for the manifest: a three-way merge keyed by file path.

Set up once per repository (the attribute is committed, the driver is per clone)::

    # .gitattributes
    chunkgate.manifest.jsonl merge=chunkgate eol=lf

    git config merge.chunkgate.name "chunkgate manifest"
    git config merge.chunkgate.driver "chunkgate merge-driver %O %A %B"

(``eol=lf`` keeps a Windows checkout byte-identical to what chunkgate
writes.) Without the driver git merges the manifest as text, which works for
unrelated changes and leaves conflict markers otherwise; ``chunkgate update``
rebuilds a manifest with markers.

A file's block (its file line with the recorded findings, and its chunk lines
with their moves and suppressions) is the unit: a side that left a file's
entry as it was in the merge base takes the other side's entry. When both
changed one file differently, its source was merged too and nobody knows its
chunks or findings yet, so our entry is kept and the merge is reported as
conflicted, to be settled with ``chunkgate update``. No source file is read.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import NamedTuple

from chunkgate.errors import ManifestError
from chunkgate.manifest import FileEntry, Header, Manifest, parse, path_key, render, write_atomic

_UPDATE = "run `chunkgate update` after the merge"
_SHOWN_PATHS = 5


class MergeOutcome(NamedTuple):
    """git's convention: ``status`` 0 is a clean merge, 1 leaves the file conflicted."""

    status: int
    messages: list[str]


def merge_manifests(base: bytes, ours: bytes, theirs: bytes) -> tuple[bytes, list[str]]:
    """The merged manifest and what still needs ``chunkgate update`` (empty when clean).

    ``base`` may be empty: git passes an empty file when both sides added the manifest.
    """
    try:
        mine = parse(ours, name="ours")
        other = parse(theirs, name="theirs")
        common = parse(base, name="base") if base else None
    except ManifestError as exc:
        return ours, [f"cannot merge the manifest ({exc}); kept ours; {_UPDATE}"]
    header, messages = _merge_header(common, mine, other)
    settings_reported = bool(messages)
    base_files = common.files if common is not None else {}
    files: dict[str, FileEntry] = {}
    suspect: list[str] = []
    makers: tuple[Header, ...]
    paths = set(base_files) | set(mine.files) | set(other.files)
    for path in sorted(paths, key=path_key):
        before = base_files.get(path)
        a, b = mine.files.get(path), other.files.get(path)
        if a == b:
            taken, makers = a, (mine.header, other.header)
        elif a == before:
            taken, makers = b, (other.header,)
        elif b == before:
            taken, makers = a, (mine.header,)
        else:
            taken, makers = a, ()
            messages.append(
                f"{path}: both sides changed its chunks; run `chunkgate update "
                f"{shlex.quote(path)}` after the merge"
            )
        if taken is None:
            continue
        files[path] = taken
        # An entry is only as good as the settings it was made with.
        if makers and all(maker.settings != header.settings for maker in makers):
            suspect.append(path)
    if suspect and not settings_reported:
        shown = ", ".join(suspect[:_SHOWN_PATHS]) + (", …" if len(suspect) > _SHOWN_PATHS else "")
        messages.append(
            f"{len(suspect)} file(s) were chunked with other settings than the merged "
            f"manifest's ({shown}); {_UPDATE}"
        )
    return render(Manifest(header, files)), messages


def _merge_header(
    base: Manifest | None, ours: Manifest, theirs: Manifest
) -> tuple[Header, list[str]]:
    mine, other = ours.header, theirs.header
    if mine == other:
        return mine, []
    if base is not None and mine == base.header:
        return other, []
    if base is not None and other == base.header:
        return mine, []
    merged = Header(
        max(mine.format, other.format), max(mine.chunking, other.chunking), mine.config, mine.rules
    )
    differ = [
        what
        for what, a, b in (
            ("chunking version", mine.chunking, other.chunking),
            ("config", mine.config, other.config),
            ("rules", mine.rules, other.rules),
        )
        if a != b
    ]
    if not differ:
        return merged, []
    return merged, [f"the two sides were made with different {' and '.join(differ)}; {_UPDATE}"]


def run_merge_driver(
    base_path: str | os.PathLike[str],
    ours_path: str | os.PathLike[str],
    theirs_path: str | os.PathLike[str],
) -> MergeOutcome:
    """Merge as git's ``%O %A %B`` driver: the result replaces ``ours_path`` atomically."""
    base, ours, theirs = (_read(Path(p)) for p in (base_path, ours_path, theirs_path))
    merged, messages = merge_manifests(base, ours, theirs)
    if merged != ours:
        write_atomic(Path(ours_path), merged)
    return MergeOutcome(1 if messages else 0, messages)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read: {exc.strerror}") from None
