"""The scope of a run: which files it reads and checks, which it knows from the manifest, and which
are gone.

A whole-corpus run reads no file whose git blob matches what the current
manifest recorded for it (and whose shard is as committed, made under the
current settings): its chunks are known, and what the file-level rules
found in it is recorded too. A shard made under other settings (merged in
from a branch that had them) is checked again, as a changed file is. A run on
named files (the hook) checks exactly those, and learns the deleted ones
from git (what the commit deletes) and from the paths it was given, never
by listing the corpus.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.corpus.select import Selection
from chunkgate.gate.load import Loaded
from chunkgate.git import objects
from chunkgate.manifest import ManifestSyntaxError, ShardSummary, Summaries, path_key


class Scope(NamedTuple):
    work: list[tuple[str, str | None]]  # (path, blob) of the files to read and check
    cached: list[str]  # the files known from the manifest (whole-corpus runs)
    deleted: list[str]  # files the manifest lists that are gone (or left the corpus)
    gone: set[str]  # those of them that are not on disk any more
    summaries: dict[str, ShardSummary]  # whole-corpus runs: the current manifest's, by path
    broken: dict[str, ManifestSyntaxError]  # shards that could not be read, by path


def scope_whole(
    config: Config,
    loaded: Loaded,
    selection: Selection,
    summaries: Summaries,
    *,
    cache: bool,
    settings: str,
) -> Scope:
    """Every corpus file: cached when its blob is the recorded one and its shard was made
    under ``settings`` (a format-2 shard, under its header's), else work."""
    selected = {file.path: file.blob for file in selection.files}
    found = summaries.found
    baseline = loaded.baseline
    committed = baseline.listing() if baseline is not None else {}
    listed = loaded.current.listing() if baseline is not None else {}
    unknown = [path for path, blob in selected.items() if blob is None and path in found]
    if unknown and loaded.reader is not None:
        selected.update(objects.hash_blobs(config.root, unknown))
    work: list[tuple[str, str | None]] = []
    # Outside a sparse checkout: kept as recorded, neither read nor deleted.
    cached = [path for path in selection.sparse if path in found and config.selects(path)]
    for path, blob in selected.items():
        summary = found.get(path)
        # A shard other than the committed one: the file's IDs may have moved since.
        settled = baseline is None or (
            path in listed and listed[path].blob is not None and committed.get(path) == listed[path]
        )
        if (
            cache
            and summary is not None
            and blob is not None
            and blob == summary.blob
            and summary.settings in (None, settings)
            and settled
        ):
            cached.append(path)
        else:
            work.append((path, blob))
    known = set(found) | set(summaries.broken) | set(committed)
    deleted = _sorted(known - selected.keys() - selection.sparse)
    gone = {path for path in deleted if not os.path.lexists(config.root / path)}
    return Scope(work, _sorted(cached), deleted, gone, found, dict(summaries.broken))


def scope_files(
    config: Config, loaded: Loaded, selection: Selection, staged_deletions: Iterable[str]
) -> Scope:
    """The named files, and the deletions a commit of them makes (``staged_deletions``:
    git's, in a repository)."""
    selected = {file.path: file.blob for file in selection.files}
    deleted = set(selection.missing)
    # What the commit deletes: a rename split over several hook runs still shows its
    # old path in each, so the move is seen in the run that has the new one.
    deleted.update(path for path in staged_deletions if config.selects(path))
    for folder in selection.named:
        deleted.update(_gone_under(config, loaded, folder))
    deleted -= selection.sparse
    # A named file the configuration now leaves out (an `exclude` added) leaves the
    # manifest, as a deleted one does.
    deleted.update(path for path in selection.unselected if loaded.current.raw(path) is not None)
    deleted -= selected.keys()
    gone = {path for path in deleted if not os.path.lexists(config.root / path)}
    return Scope(list(selected.items()), [], _sorted(deleted), gone, {}, {})


def _gone_under(config: Config, loaded: Loaded, folder: str) -> Iterable[str]:
    """Files under a named folder that the current manifest lists and the disk lacks."""
    shards = loaded.current.path / folder
    if folder in ("", ".") or not shards.is_dir():
        return ()
    prefix = "" if folder in ("", ".") else folder.rstrip("/") + "/"
    listed = (
        path
        for path in loaded.current.listing()
        if path.startswith(prefix) and not os.path.lexists(config.root / path)
    )
    return list(listed)


def _sorted(paths: Iterable[str]) -> list[str]:
    return sorted(paths, key=path_key)
