"""Where things live in the manifest folder (SPEC §5, format 2).

The manifest is a folder, ``chunkgate.manifest/`` by default, committed with
the corpus. Each corpus file has its own shard, named after the file so that
a pull request's file list pairs them up::

    chunkgate.manifest/manifest.json        the header: format, settings
    chunkgate.manifest/docs/setup.md.jsonl  the shard of docs/setup.md

Two branches that change different corpus files change different shards, so
plain ``git merge`` (and GitHub's test merge, which runs no merge driver)
merges them; a shard is small, so a commit adds to git what its files take.
A name too long for a file system (over 255 bytes with the suffix) is
shortened to a digest of the path; the shard's first line always names its
file.
"""

from __future__ import annotations

import hashlib
import posixpath

HEADER = "manifest.json"
SUFFIX = ".jsonl"
_NAME_MAX = 255  # bytes, on every common file system


def shard_name(path: str) -> str:
    """The shard of corpus file ``path``, relative to the manifest folder."""
    folder, _, name = path.rpartition("/")
    shard = name + SUFFIX
    if len(shard.encode("utf-8", "surrogateescape")) > _NAME_MAX:
        digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        shard = f"~{digest}{SUFFIX}"
    return f"{folder}/{shard}" if folder else shard


def source_name(shard: str) -> str | None:
    """The corpus file a shard name stands for, when the name says it (None for a
    shortened name or anything that is not a shard)."""
    if not shard.endswith(SUFFIX) or shard == HEADER:
        return None
    base = posixpath.basename(shard)
    if base.startswith("~") and len(base) == 1 + 32 + len(SUFFIX):
        return None
    return shard[: -len(SUFFIX)]
