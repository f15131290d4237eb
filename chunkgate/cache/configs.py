"""Parsed YAML configuration files, cached on disk by their content.

Importing PyYAML takes longer than a pre-commit run of chunkgate spends on
everything else but Python and click, and a repository's config changes
rarely. So the parsed document is kept as JSON under the user's cache folder
(``$CHUNKGATE_CACHE_DIR``, else ``$XDG_CACHE_HOME/chunkgate`` or
``~/.cache/chunkgate``; ``%LOCALAPPDATA%\\chunkgate`` on Windows), in a file
named by the SHA-256 of the config's bytes: an edited config has another
name, so an entry is never stale. Only documents that JSON gives back exactly
(string keys; strings, numbers, booleans, null, lists) are cached, and
invalid YAML is never cached, so its errors are reported every time. The
cache is an optimisation only: any failure to read or write it is ignored.
``CHUNKGATE_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from chunkgate.corpus import paths

# Part of every key: a chunkgate that parses differently starts afresh.
_KEY_VERSION = b"chunkgate-config-cache-1\0"
_MISSING = object()


def folder() -> Path | None:
    if os.environ.get("CHUNKGATE_NO_CACHE"):
        return None
    explicit = os.environ.get("CHUNKGATE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base, "chunkgate") if base else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "chunkgate")


def _entry(raw: bytes) -> Path | None:
    base = folder()
    if base is None:
        return None
    return base / "config" / f"{hashlib.sha256(_KEY_VERSION + raw).hexdigest()}.json"


def lookup(raw: bytes) -> object:
    """The cached document for a config file's bytes, or ``MISSING``."""
    entry = _entry(raw)
    if entry is None:
        return _MISSING
    try:
        return json.loads(entry.read_bytes())
    except (OSError, ValueError):
        return _MISSING


def store(raw: bytes, document: object) -> None:
    """Remember the document parsed from ``raw``, if JSON can give it back unchanged."""
    entry = _entry(raw)
    if entry is None:
        return
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False)
        if json.loads(text) != document:
            return  # e.g. a non-string key, which JSON would turn into a string
    except (TypeError, ValueError):
        return  # a date, a set or another type JSON has no word for
    base = folder()
    if base is None or not paths.cache_file_allowed(base, entry):
        return
    temp = entry.with_name(f".{entry.name}.{os.urandom(6).hex()}.tmp")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, entry)
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)


def is_missing(value: object) -> bool:
    return value is _MISSING
