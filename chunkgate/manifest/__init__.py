"""The committed manifest, ``chunkgate.manifest.jsonl`` (SPEC §5).

UTF-8, ``\\n`` line endings, one JSON object per line with its keys in exactly
the order shown, ``", "`` and ``": "`` between items, no other spaces. Lines
broken here are one line in the file::

    {"chunkgate_manifest": 1, "chunking": 1, "config": "<16 hex>", "rules": "<16 hex>"}
    {"file": "docs/a.md", "blob": "<git blob id>", "chunks": 2,
     "findings": [{"rule": "CG201", "line": 12, "chunk": "docs/a.md#install",
                   "message": "section is 2,345 chars, over size.max 2,000",
                   "fix": "add a subheading to split it"}]}
    {"id": "docs/a.md#setup", "lines": [1, 10], "chars": 812, "tokens": 203,
     "hash": "<16 hex>"}
    {"id": "docs/a.md#install", "lines": [12, 60], "chars": 2345, "tokens": 590,
     "hash": "<16 hex>", "moved_from": "docs/a.md#installing", "suppressed": ["CG501"]}
    {"file": "docs/b.md", "blob": null, "chunks": 0}

Line 1 is the header: the format version (1), chunkgate's chunking version,
and fingerprints (16 hex digits of SHA-256) of the config options that change
chunking and of those that change what the file-level rules find. Then, for
each file in the byte order of its UTF-8 path, its file line followed by
exactly ``chunks`` chunk lines, in document order.

A file line holds the path, the git blob ID (40 or 64 hex digits) of the
content that was checked, or null, and the number of chunks. ``findings``,
present only when the file-level rules found something, records each finding
in full so that a whole-corpus check can report it again without re-reading a
file whose blob has not changed: ``rule`` (a code ``CG`` + 3 digits), ``line``
(≥ 1), ``chunk`` (the ID of the chunk it is about, or null for the whole
file), ``message`` and ``fix``; sorted by line, rule, chunk (null first),
message and fix, without repeats. Findings an inline suppression turned off
are not recorded; severities are not recorded (they come from the config).

A chunk line holds the chunk ID (``path#identity``), its first and last line,
its size in characters and tokens and the first 16 hex digits of the SHA-256
of its text. Two optional keys follow, in this order: ``moved_from``, the ID
it was acknowledged as moved from, and ``suppressed``, the rule codes an
inline ``chunkgate: disable=`` comment turns off for it (sorted, no
repeats, non-empty).

No timestamps, and no line numbers other than a chunk's ``lines`` and a
finding's ``line``, which belong to the file's own block: an edit to one file
changes only that file's lines, so the manifest diffs and merges per file.
Path bytes that are not UTF-8 (``git.py`` decodes them with
``surrogateescape``) are written as ``\\udcXX`` escapes, so the file stays
UTF-8 and such paths round-trip.

Reading is tolerant of two things git or an editor may do to a text file:
CRLF line endings and a missing final newline. Everything else that is not
what ``render`` writes (bad JSON, keys, types, counts, order, other spacing at
the start of a line) is a ``ManifestSyntaxError`` (a ``ManifestError``) whose
message reads ``name:line: what``; ``chunkgate update`` rebuilds the file.
"""

from __future__ import annotations

from chunkgate.manifest.codec import parse, read, render, render_blocks
from chunkgate.manifest.index import ManifestIndex
from chunkgate.manifest.lines import ManifestSyntaxError
from chunkgate.manifest.records import (
    FORMAT_VERSION,
    ChunkEntry,
    FileEntry,
    Header,
    Manifest,
    StoredFinding,
    fingerprint,
    path_key,
)
from chunkgate.manifest.storage import LOCK_TIMEOUT, STALE_LOCK_AGE, manifest_lock, write_atomic

__all__ = [
    "FORMAT_VERSION",
    "LOCK_TIMEOUT",
    "STALE_LOCK_AGE",
    "ChunkEntry",
    "FileEntry",
    "Header",
    "Manifest",
    "ManifestIndex",
    "ManifestSyntaxError",
    "StoredFinding",
    "fingerprint",
    "manifest_lock",
    "parse",
    "path_key",
    "read",
    "render",
    "render_blocks",
    "write_atomic",
]
