"""What a whole-corpus run needs of a shard, without decoding its chunk lines.

A ``Summary`` holds a shard's file line (path, blob, chunk count, whether it
records findings) and its chunks' hashes (for CG501). ``summarise`` checks
the whole shard's shape with one regular expression, so a corrupt line is
still refused, and falls back to the strict reader for anything else (an
escaped path, recorded findings, another spacing).

Summaries are cached under the user's cache folder by the shard's git blob
ID: content-addressed, so an entry is never stale, and deleting the cache is
always safe. A fresh clone (CI) reads every shard once; later whole-corpus
runs read only the shards that changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import NamedTuple

from chunkgate import configcache
from chunkgate.manifest.codec import parse_block
from chunkgate.moves import unit_id

_STRING = rb'"[^"\\\x00-\x1f]+"'
_NUMBER = rb"(?:0|[1-9][0-9]{0,11})"  # no number a manifest holds needs more digits
_SHARD = re.compile(
    rb'\{"file": "([^"\\\x00-\x1f]+)", "blob": (null|"[0-9a-f]{40}"|"[0-9a-f]{64}"), '
    rb'"chunks": (' + _NUMBER + rb")\}\n"
    rb'(?:\{"id": ' + _STRING + rb", \"lines\": \[[1-9][0-9]{0,11}, [1-9][0-9]{0,11}\], "
    rb'"chars": ' + _NUMBER + rb', "tokens": ' + _NUMBER + rb', "hash": "[0-9a-f]{16}"'
    rb'(?:, "moved_from": '
    + _STRING
    + rb')?(?:, "suppressed": \["CG[0-9]{3}"(?:, "CG[0-9]{3}")*\])?'
    rb"\}\n)*"
)
_HASH = re.compile(rb'"hash": "([0-9a-f]{16})"')
_PART_ID = re.compile(rb'\{"id": "[^"]*~[0-9]+"')  # a later part: `~2`, `~3` (or a window)
_ID = rb'{"id": "'
_CACHE_VERSION = "chunkgate-summaries-3"


class Summary(NamedTuple):
    path: str
    blob: str | None  # the corpus file's blob when it was checked
    chunks: int
    findings: bool  # its file line records findings: read the shard to report them
    hashes: tuple[str, ...]
    units: int = 0  # the units its chunks are parts of (``moves.unit_id``)
    moves: bool = False  # a chunk records ``moved_from``: read the shard for the moves


def summarise(data: bytes, name: str) -> Summary:
    """The summary of a shard's bytes; a corrupt shard raises ``ManifestSyntaxError``."""
    shape = _SHARD.fullmatch(data)
    if shape is not None:
        raw, blob, count = shape.groups()
        hashes = _HASH.findall(data)
        # Every chunk line's ID starts with the file's path (a path that needs no
        # JSON escape is its own JSON form) and every line was counted.
        if len(hashes) == int(count) == data.count(_ID + raw + b"#"):
            parts = len(_PART_ID.findall(data))
            return Summary(
                raw.decode("utf-8"),
                None if blob == b"null" else blob[1:-1].decode("ascii"),
                int(count),
                False,
                tuple(digest.decode("ascii") for digest in hashes),
                _units(int(count), parts, data, raw),
                b'"moved_from"' in data,
            )
    entry = parse_block(data, name)  # strict: names the line that is wrong
    return Summary(
        entry.path,
        entry.blob,
        len(entry.chunks),
        bool(entry.findings),
        tuple(chunk.hash for chunk in entry.chunks),
        len({unit_id(chunk.id) for chunk in entry.chunks}),
        any(chunk.moved_from is not None for chunk in entry.chunks),
    )


def _units(chunks: int, parts: int, data: bytes, raw_path: bytes) -> int:
    """Each unit's first part keeps its ID, later ones add ``~N``; text windows are all
    ``~N`` and make one unit of the file."""
    if not parts:
        return chunks
    ids = re.findall(rb'\{"id": "' + re.escape(raw_path) + rb'#([^"]*)"', data)
    return len({unit_id("#" + raw.decode("utf-8")) for raw in ids})


class SummaryCache:
    """Summaries by shard blob ID, kept between runs in one file per repository."""

    def __init__(self, root: Path, folder: str) -> None:
        base = configcache.folder()
        key = hashlib.sha256(f"{_CACHE_VERSION}\0{root}\0{folder}".encode()).hexdigest()[:24]
        self._file = None if base is None else base / "summaries" / f"{key}.json"
        self._known: dict[str, Summary] = {}
        self._used: dict[str, Summary] = {}
        self._loaded = False

    def get(self, blob: str) -> Summary | None:
        if not self._loaded:
            self._load()
        found = self._known.get(blob)
        if found is not None:
            self._used[blob] = found
        return found

    def put(self, blob: str, summary: Summary) -> None:
        self._used[blob] = summary

    def _load(self) -> None:
        self._loaded = True
        if self._file is None:
            return
        try:
            raw = json.loads(self._file.read_bytes())
            self._known = {blob: _summary(item) for blob, item in raw.items()}
        except (OSError, ValueError, TypeError, KeyError):
            self._known = {}  # missing or damaged: an optimisation only

    def save(self) -> None:
        """Keep what this run used (a whole-corpus run uses every shard), if it changed."""
        if self._file is None or self._used.keys() == self._known.keys():
            return
        entries = {
            blob: [s.path, s.blob, s.chunks, s.findings, "".join(s.hashes), s.units, s.moves]
            for blob, s in sorted(self._used.items())
        }
        data = json.dumps(entries).encode("ascii")  # escapes even an undecodable path's bytes
        temp = self._file.with_name(f".{self._file.name}.{os.urandom(6).hex()}.tmp")
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(data)
            os.replace(temp, self._file)
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)


def _summary(item: list[object]) -> Summary:
    path, blob, chunks, findings, hashes, units, moves = item
    if not (
        isinstance(path, str)
        and (blob is None or isinstance(blob, str))
        and type(chunks) is int
        and isinstance(findings, bool)
        and isinstance(hashes, str)
        and len(hashes) == 16 * chunks
        and type(units) is int
        and isinstance(moves, bool)
    ):
        raise ValueError("a damaged cache entry")
    split = tuple(hashes[i : i + 16] for i in range(0, len(hashes), 16))
    return Summary(path, blob, chunks, findings, split, units, moves)
