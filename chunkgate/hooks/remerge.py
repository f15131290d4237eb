"""A shard both sides of a merge changed, made again from the file as git merges it.

Both branches edited one corpus file (say different sections, which git
merges cleanly): each side's shard describes that side's file, neither the
merged one, and no union of their chunks would (a section added above another
moves its lines). The merged file's shard is the one ``chunkgate update``
writes for it: the file merged again from the three blobs the shards record
(``git.mergefile``: git writes the work tree only once every path is merged,
so the driver cannot read it), then chunked and checked under the
repository's settings, keeping the moves either side recorded.

Left to ``chunkgate update`` (None) when the file conflicts too, when the
shards were made under settings other than the repository's (a merge that
changes them rewrites every shard), or when the sides record different
findings of the corpus rules (links, copies: the whole corpus decides those).
"""

from __future__ import annotations

from pathlib import Path

from chunkgate.config.load import load_config
from chunkgate.core.errors import ChunkgateError
from chunkgate.gate.filecheck import check_bytes
from chunkgate.gate.load import expected_header
from chunkgate.gate.result import inherit_moves
from chunkgate.git import objects
from chunkgate.git.attributes import gitattributes_flags
from chunkgate.git.mergefile import merged_file
from chunkgate.manifest import FileEntry, StoredFinding
from chunkgate.rules import CORPUS_RULES


def remerged(root: Path, base: FileEntry, mine: FileEntry, other: FileEntry) -> FileEntry | None:
    """The shard of the file ``mine`` and ``other`` describe, as merged from ``base``'s;
    None when only ``chunkgate update`` after the merge can tell."""
    path = mine.path
    if base.blob is None or mine.blob is None or other.blob is None:
        return None
    if mine.settings is None or mine.settings != other.settings:
        return None
    found = _corpus_findings(mine)
    if found != _corpus_findings(other):
        return None
    try:
        config = load_config(root)
        settings = expected_header(config).digest()
        if settings != mine.settings:
            return None
        data = merged_file(root, path, base.blob, mine.blob, other.blob)
        if data is None:
            return None
        flags = gitattributes_flags(root, [path]).get(path, set())
    except ChunkgateError:  # a configuration being merged too, git's complaint: not ours
        return None
    too_big = len(data) > config.max_file_bytes
    outcome = check_bytes(
        config,
        path,
        len(data),
        None if too_big else data,
        blob=objects.hash_bytes(data),
        known=None,
        attributes=frozenset(flags),
        settings=settings,
    )
    entry = outcome.entry
    if found:
        entry = FileEntry(entry.path, entry.blob, entry.chunks, (*entry.findings, *found), settings)
    for side in (mine, other):
        entry = inherit_moves(entry, side)
    return entry


def _corpus_findings(entry: FileEntry) -> tuple[StoredFinding, ...]:
    return tuple(finding for finding in entry.findings if finding.rule in CORPUS_RULES)
