"""The manifest's bytes read by shape: lines exactly as ``render`` writes them are
found and taken apart by regular expressions, without decoding JSON. A line of
another shape is left to the strict readers of ``lines``."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator

from chunkgate.manifest.lines import listed_codes
from chunkgate.manifest.records import HEX16

Row = tuple[str, str, str, int, tuple[str, ...]]  # hash, id, path, start line, suppressed

# A file line as ``render`` writes it when its path needs no escape; findings are
# skipped, not read. Any other file line matches the bare prefix (no groups) and
# is read the slow way.
HEAD = re.compile(
    rb'\n\{"file": (?:"([^"\\\x00-\x1f]+)", "blob": (?:null|"([0-9a-f]{40}|[0-9a-f]{64})"), '
    rb'"chunks": (0|[1-9][0-9]*)(, "findings": \[\{[^\n]*\])?\}(?=\n))?'
)
CHUNK_START = b'\n{"id": '
# Unrolled ("normal* (special normal*)*") so that each character matches one way only.
_STRING = rb'"([^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*)"'
# A chunk line as ``render`` writes it: the fields a row holds, the others by shape.
ROW = re.compile(
    rb'\n\{"id": ' + _STRING + rb', "lines": \[([1-9][0-9]*), [1-9][0-9]*\], '
    rb'"chars": (?:0|[1-9][0-9]*), "tokens": (?:0|[1-9][0-9]*), "hash": "([0-9a-f]{16})"'
    rb'(?:, "moved_from": ' + _STRING.replace(b"(", b"(?:", 1) + rb")?"
    rb'(?:, "suppressed": \[("CG[0-9]{3}"(?:, "CG[0-9]{3}")*)\])?\}(?=\n)'
)
HASH = re.compile(rb'"hash": "([0-9a-f]{16})"')
_TRIE_LIMIT = 1000  # beyond this many, testing every hash in Python is as fast


def hash_positions(data: bytes, hashes: Collection[str]) -> Iterator[int]:
    """Where ``"hash": "<one of hashes>"`` stands in ``data``, in order."""
    wanted = sorted(digest.encode("ascii") for digest in hashes if HEX16.fullmatch(digest))
    if len(wanted) > _TRIE_LIMIT:
        known = set(wanted)
        yield from (hit.start() for hit in HASH.finditer(data) if hit.group(1) in known)
    elif wanted:
        # The hashes as a trie-shaped pattern: the regular expression engine
        # rejects every other hash after a character or two, in C.
        pattern = re.compile(rb'"hash": "' + _trie(wanted) + rb'"')
        yield from (hit.start() for hit in pattern.finditer(data))


def _trie(words: list[bytes]) -> bytes:
    """A pattern matching exactly ``words`` (sorted, distinct, of one length)."""
    if len(words) == 1:
        return words[0]
    groups: dict[bytes, list[bytes]] = {}
    for word in words:
        groups.setdefault(word[:1], []).append(word[1:])
    if len(groups) == 1:
        ((first, rests),) = groups.items()
        return first + _trie(rests)
    return b"(?:" + b"|".join(first + _trie(rests) for first, rests in groups.items()) + b")"


def read_rows(data: bytes, pos: int, end: int, path: str) -> list[Row]:
    """The rows of the chunk lines of ``path`` in ``data[pos:end]`` (``pos`` at the
    newline before the first), up to the first line that needs the slow way (or is
    wrong)."""
    rows: list[Row] = []
    prefix = path + "#"
    for raw_id, start, digest, listed in ROW.findall(data, pos, end):
        chunk_id = _json_string(raw_id)
        if chunk_id is None or len(chunk_id) <= len(prefix) or not chunk_id.startswith(prefix):
            break
        codes = listed_codes(listed.decode("ascii")) if listed else ()
        if codes is None:
            break
        rows.append((digest.decode("ascii"), chunk_id, path, int(start), codes))
    return rows


def _json_string(raw: bytes) -> str | None:
    try:
        if b"\\" not in raw:
            return raw.decode("utf-8")
        value = json.loads(b'"' + raw + b'"')
    except ValueError:  # UnicodeDecodeError and JSONDecodeError both are
        return None
    return value if isinstance(value, str) else None
