"""Parsed configuration documents, cached on disk by the bytes they were parsed from.

Importing PyYAML takes longer than a pre-commit run of chunkgate spends on
everything else but Python and click, and a repository's config changes
rarely. So the parsed document is kept as JSON in the cache folder
(``chunkgate.cache.store``), in a file named by the SHA-256 of the config's
bytes: an edited config has another name, so an entry is never stale. Only
documents that JSON gives back exactly (string keys; strings, numbers,
booleans, null, lists) are cached, and invalid YAML is never cached, so its
errors are reported every time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from chunkgate.cache import store

# Part of every key: a chunkgate that parses differently starts afresh.
_KEY_VERSION = b"chunkgate-config-cache-1\0"
_MISSING = object()


def _entry(raw: bytes) -> Path | None:
    return store.cache_file("config", f"{hashlib.sha256(_KEY_VERSION + raw).hexdigest()}.json")


def lookup(raw: bytes) -> object:
    """The cached document for a config file's bytes, or one ``is_missing`` is true of."""
    return store.load(_entry(raw), json.loads, _MISSING)


def remember(raw: bytes, document: object) -> None:
    """Keep the document parsed from ``raw``, if JSON can give it back unchanged."""
    entry = _entry(raw)
    if entry is None:
        return
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False)
        if json.loads(text) != document:
            return  # e.g. a non-string key, which JSON would turn into a string
    except (TypeError, ValueError):
        return  # a date, a set or another type JSON has no word for
    store.save(entry, text.encode("utf-8"))


def is_missing(value: object) -> bool:
    return value is _MISSING
