"""What a whole-corpus run needs of a shard, without decoding its chunk lines.

A ``Summary`` holds a shard's file line (path, blob, chunk count, the settings
it was made under, whether it records findings) and its chunks' hashes (for
CG501). ``summarise`` checks
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
from chunkgate.manifest.lines import listed_codes
from chunkgate.moves import unit_id
from chunkgate.paths import cache_file_allowed, problem

_STRING = r'"[^"\\\x00-\x1f]+"'
_NUMBER = r"(?:0|[1-9][0-9]{0,11})"  # no number a manifest holds needs more digits
_POSITIVE = r"[1-9][0-9]{0,11}"
# Every chunk line's ID is the file line's path (a path that needs no JSON escape is
# its own JSON form), "#" and a non-empty identity: the \1.
_SHARD = re.compile(
    r'\{"file": "([^"\\\x00-\x1f]+)", "blob": (null|"[0-9a-f]{40}"|"[0-9a-f]{64}"), '
    r'"chunks": (' + _NUMBER + r')(?:, "settings": "([0-9a-f]{16})")?\}\n'
    r'(?:\{"id": "\1#[^"\\\x00-\x1f]+", "lines": \[' + _POSITIVE + ", " + _POSITIVE + r"\], "
    r'"chars": ' + _NUMBER + r', "tokens": ' + _NUMBER + r', "hash": "[0-9a-f]{16}"'
    r'(?:, "moved_from": ' + _STRING + r')?(?:, "suppressed": \["CG[0-9]{3}"(?:, "CG[0-9]{3}")*\])?'
    r"\}\n)*"
)
# One match a chunk line (a string holds no quote, so none inside an ID).
_ROW = re.compile(
    r'"lines": \[([0-9]+), ([0-9]+)\], "chars": [0-9]+, "tokens": [0-9]+, "hash": "([0-9a-f]{16})"'
)
_SUPPRESSED = re.compile(r'"suppressed": \[([^\]]*)\]')
_IDENTITY = re.compile(r'\{"id": "[^#"]*#([^"]*)"')  # a path that needs no escape holds no quote
_CACHE_VERSION = "chunkgate-summaries-6"  # 6: paths are validated, shards record settings


class Summary(NamedTuple):
    path: str
    blob: str | None  # the corpus file's blob when it was checked
    chunks: int
    findings: bool  # its file line records findings: read the shard to report them
    hashes: tuple[str, ...]
    units: int = 0  # the units its chunks are parts of (``moves.unit_id``)
    moves: bool = False  # a chunk records ``moved_from``: read the shard for the moves
    settings: str | None = None  # the digest of the settings it was made under (None: format 2)


def summarise(data: bytes, name: str) -> Summary:
    """The summary of a shard's bytes; a corrupt shard raises ``ManifestSyntaxError``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""  # the strict reader names the line
    shape = _SHARD.fullmatch(text)
    if shape is not None and problem(shape[1]) is None:
        path, blob, count, settings = shape.groups()
        rows = _ROW.findall(text)
        if len(rows) == int(count) and _in_order(rows, text):
            return Summary(
                path,
                None if blob == "null" else blob[1:-1],
                int(count),
                False,
                tuple([digest for _, _, digest in rows]),
                _units(text),
                '"moved_from"' in text,
                settings,
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
        entry.settings,
    )


def _units(text: str) -> int:
    """Each unit's first part keeps its ID, later ones add ``~N``; text windows are all
    ``~N`` and make one unit of the file. A repeated ID (CG101) is one unit."""
    return len({unit_id("#" + identity) for identity in _IDENTITY.findall(text)})


def _in_order(rows: list[tuple[str, str, str]], text: str) -> bool:
    """What the pattern cannot say and the strict reader checks: each chunk's first line
    is not after its last, its suppressed codes are sorted without repeats."""
    for start, end, _ in rows:
        if int(start) > int(end):
            return False
    if '"suppressed": [' not in text:
        return True
    return all(listed_codes(codes) is not None for codes in suppressed_lists(text))


def suppressed_lists(text: str) -> list[str]:
    # Only up to the last "]": an opener with no "]" after it matches nothing, and a run
    # of them would each be scanned to the end.
    return _SUPPRESSED.findall(text[: text.rfind("]") + 1])


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
            if not isinstance(raw, dict):
                raise TypeError("not an object")
            self._known = {blob: _summary(item) for blob, item in raw.items()}
        except (OSError, ValueError, TypeError, KeyError):
            self._known = {}  # missing or damaged: an optimisation only

    def save(self) -> None:
        """Keep what this run used (a whole-corpus run uses every shard), if it changed."""
        if self._file is None or self._used.keys() == self._known.keys():
            return
        base = configcache.folder()
        if base is None or not cache_file_allowed(base, self._file):
            return
        entries = {
            blob: [*s[:4], "".join(s.hashes), s.units, s.moves, s.settings]
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
    path, blob, chunks, findings, hashes, units, moves, settings = item
    if not (
        isinstance(path, str)
        and (settings is None or isinstance(settings, str))
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
    return Summary(path, blob, chunks, findings, split, units, moves, settings)
