"""The committed manifest (SPEC §5): a folder with one shard per corpus file.

A shard (``layout.py`` says where it lives) is UTF-8 JSON lines, ``\\n`` line
endings, keys in exactly the order shown, ``", "`` and ``": "`` between items
and no other spaces. Lines broken here are one line in the file::

    {"file": "docs/a.md", "blob": "<git blob id>", "chunks": 3, "settings": "<16 hex>",
     "findings": [{"rule": "CG201", "line": 12, "chunk": "docs/a.md#install",
                   "message": "...", "fix": "..."}]}
    {"id": "docs/a.md#setup", "lines": [1, 10], "chars": 812, "tokens": 203,
     "hash": "<16 hex>"}
    {"id": "docs/a.md#install", "lines": [12, 60], "chars": 2345, "tokens": 590,
     "hash": "<16 hex>", "moved_from": "docs/a.md#installing", "suppressed": ["CG501"]}
    {"id": "docs/a.md#usage", "lines": [62, 70], "chars": 310, "tokens": 78,
     "hash": "<16 hex>", "merged": ["docs/a.md#options", "docs/a.md#limits"]}

The file line holds the path, the git blob ID (40 or 64 hex digits) of the
content that was checked, or null, the number of chunk lines that follow,
and ``settings``, what the shard was made under: the first 16 hex digits of
the SHA-256 of the header's chunking version, ``config`` and ``rules``
(``Header.digest``), so that a shard merged in from a branch with other
settings is told apart and checked again. A format-2 shard has no
``settings`` and counts as made under its header's. ``findings``, present
only when the file-level rules found something, records each finding in
full, so that a whole-corpus check can report it again without re-reading a
file whose blob has not changed: ``rule``, ``line`` (≥ 1), ``chunk`` (the ID
of the chunk it is about, or null for the whole file), ``message`` and
``fix``, sorted; a finding made twice is recorded twice. A chunk line holds the chunk ID
(``path#identity``), its first and last line, its size in characters and
tokens and the first 16 hex digits of the SHA-256 of its text; then, when
there are, ``moved_from`` (the ID it was acknowledged as moved from) and
``suppressed`` (the rule codes an inline ``chunkgate: disable=`` turns off
for it) and ``merged`` (with ``markdown.merge_small``: the IDs of the
sections under ``size.min`` the chunk took in, in document order; citations of
them resolve to it). A manifest made before ``merged`` existed reads as it
did: no chunk merged anything.

The folder's ``manifest.json`` is the header: the format (3; 2 is read as
well), chunkgate's chunking version, the settings that change chunks, the
heading anchors in words, and what changes the findings, all as readable
text, so that a settings change is named. No timestamps, and no line numbers
but a chunk's ``lines`` and a finding's ``line``.

Reading is tolerant of CRLF line endings and a missing final newline, which
git or an editor may leave. Anything else that is not what the writer writes
is a ``ManifestSyntaxError`` naming the shard and the line; ``chunkgate
update`` rewrites that shard.
"""

from __future__ import annotations

from chunkgate.manifest.codec import parse_block, parse_header, render_block, render_header
from chunkgate.manifest.folder import RevisionManifest, Shard, Summaries, WorkTreeManifest
from chunkgate.manifest.layout import HEADER, shard_name
from chunkgate.manifest.lines import ManifestSyntaxError
from chunkgate.manifest.lock import LOCK_TIMEOUT, STALE_LOCK_AGE, manifest_lock
from chunkgate.manifest.records import (
    FORMAT_VERSION,
    ChunkEntry,
    FileEntry,
    Header,
    StoredFinding,
    path_key,
)
from chunkgate.manifest.storage import write_atomic
from chunkgate.manifest.summary import ShardSummary, SummaryCache, summarise

__all__ = [
    "FORMAT_VERSION",
    "HEADER",
    "LOCK_TIMEOUT",
    "STALE_LOCK_AGE",
    "ChunkEntry",
    "FileEntry",
    "Header",
    "ManifestSyntaxError",
    "RevisionManifest",
    "Shard",
    "ShardSummary",
    "StoredFinding",
    "Summaries",
    "SummaryCache",
    "WorkTreeManifest",
    "manifest_lock",
    "parse_block",
    "parse_header",
    "path_key",
    "render_block",
    "render_header",
    "shard_name",
    "summarise",
    "write_atomic",
]
