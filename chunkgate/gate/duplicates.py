"""The rows CG501 compares: every checked chunk, and in a whole-corpus run the chunks of
unchanged files that share a hash with anything, found from the shards' summaries.

A run on named files (the hook) compares the files it checks with each other
only: the whole-corpus run (CI) compares every file with every other, reading
no shard but those holding a repeated hash.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import chain

from chunkgate.config.model import Config
from chunkgate.gate.copies import copy_judge
from chunkgate.gate.scope import Scope
from chunkgate.manifest import (
    ChunkEntry,
    FileEntry,
    ManifestSyntaxError,
    ShardSummary,
    WorkTreeManifest,
)
from chunkgate.manifest.summary import digests
from chunkgate.rules.duplicates import Folders, Row


def duplicate_rows(
    current: WorkTreeManifest,
    entries: Mapping[str, FileEntry | None],
    scope: Scope,
    *,
    explicit: bool,
) -> list[Row]:
    rows = [row(path, chunk) for path, entry in entries.items() if entry for chunk in entry.chunks]
    if explicit:
        return rows
    cached = [scope.summaries[path] for path in scope.cached]
    repeated = _repeated([row[0] for row in rows], cached)
    found = [row for row in rows if row[0] in repeated]
    for path in scope.cached:
        if repeated.isdisjoint(scope.summaries[path].hashes):
            continue
        try:
            entry = current.entry(path)
        except ManifestSyntaxError:
            continue  # its summary was read; a shard that changed since is the next run's
        if entry is not None:
            found.extend(row(path, chunk) for chunk in entry.chunks if chunk.hash in repeated)
    return found


def _repeated(checked: list[str], cached: list[ShardSummary]) -> set[str]:
    """The hashes that occur more than once among ``checked`` and the ``cached`` files'."""
    counts = Counter(chain(checked, digests(cached)))
    return {digest for digest, times in counts.items() if times > 1}


def row(path: str, chunk: ChunkEntry) -> Row:
    """A recorded chunk as CG501 compares it."""
    return (chunk.hash, chunk.id, path, chunk.lines[0], chunk.suppressed)


def copy_folders(config: Config, sizes: Mapping[str, int]) -> Folders:
    """What CG501 needs to tell a copied folder in this repository (``sizes``: each
    corpus file's chunk count)."""
    return Folders(sizes, copy_judge(config.root, config.generator_files))
