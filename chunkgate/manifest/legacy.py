"""Format 1: the whole manifest in one file, ``chunkgate.manifest.jsonl``, read only to
migrate it (``chunkgate update`` writes format 2 and deletes it).

Line 1 was a header (``{"chunkgate_manifest": 1, ...}``), then each file's
block in byte order of path: the same file and chunk lines a format-2 shard
holds. What ``update`` keeps from it are the acknowledged moves.
"""

from __future__ import annotations

from pathlib import Path

from chunkgate.manifest.codec import normalise, read_block, text_lines
from chunkgate.manifest.lines import ManifestSyntaxError, json_object
from chunkgate.manifest.records import FileEntry

FILE_NAME = "chunkgate.manifest.jsonl"


def read_legacy(path: Path) -> dict[str, FileEntry]:
    """The entries of a format-1 manifest; raises ``ManifestError`` when it is not one."""
    name = path.name
    lines = text_lines(normalise(path.read_bytes(), name), name, 1)
    head = json_object(lines[0], name, 1) if lines else {}
    if head.get("chunkgate_manifest") != 1:
        raise ManifestSyntaxError(name, 1, "not a format-1 chunkgate manifest")
    entries: dict[str, FileEntry] = {}
    at = 1
    while at < len(lines):
        entry, at = read_block(lines, at, name, 1)
        entries[entry.path] = entry
    return entries
