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
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from chunkgate.cache.blobs import MarshalCache
from chunkgate.core.regex import lazy
from chunkgate.corpus.paths import problem
from chunkgate.diff.moves import unit_id
from chunkgate.manifest.codec import parse_block
from chunkgate.manifest.hashindex import WIDTH, HashIndex
from chunkgate.manifest.lines import listed_codes

_STRING = r'"[^"\\\x00-\x1f]+"'
_NUMBER = r"(?:0|[1-9][0-9]{0,11})"  # no number a manifest holds needs more digits
_POSITIVE = r"[1-9][0-9]{0,11}"
# Every chunk line's ID is the file line's path (a path that needs no JSON escape is
# its own JSON form), "#" and a non-empty identity: the \1.
_SHARD = lazy(
    r'\{"file": "([^"\\\x00-\x1f]+)", "blob": (null|"[0-9a-f]{40}"|"[0-9a-f]{64}"), '
    r'"chunks": (' + _NUMBER + r')(?:, "settings": "([0-9a-f]{16})")?\}\n'
    r'(?:\{"id": "\1#[^"\\\x00-\x1f]+", "lines": \[' + _POSITIVE + ", " + _POSITIVE + r"\], "
    r'"chars": ' + _NUMBER + r', "tokens": ' + _NUMBER + r', "hash": "[0-9a-f]{16}"'
    r'(?:, "moved_from": ' + _STRING + r')?(?:, "suppressed": \["CG[0-9]{3}"(?:, "CG[0-9]{3}")*\])?'
    r"\}\n)*"
)
# One match a chunk line (a string holds no quote, so none inside an ID).
_ROW = lazy(
    r'"lines": \[([0-9]+), ([0-9]+)\], "chars": [0-9]+, "tokens": [0-9]+, "hash": "([0-9a-f]{16})"'
)
_SUPPRESSED = lazy(r'"suppressed": \[([^\]]*)\]')
_IDENTITY = lazy(r'\{"id": "[^#"]*#([^"]*)"')  # a path that needs no escape holds no quote
_CACHE_VERSION = "chunkgate-summaries-8"  # 8: the hash index; 7: columns; 6: settings


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


class SummaryCache(MarshalCache[Summary]):
    """Summaries by shard blob ID, kept between runs in one file per repository: a
    column a field, and the ``HashIndex`` of their chunk hashes."""

    def __init__(self, root: Path, folder: str) -> None:
        super().__init__("summaries", f"{_CACHE_VERSION}\0{root}\0{folder}")
        self._index: HashIndex | None = None

    def hash_index(self) -> tuple[HashIndex, list[Summary]] | None:
        """The index of the hashes of the summaries the file held, and those summaries
        (the objects ``get`` returns); None when it held none."""
        if not self._loaded:
            self._load()
        return None if self._index is None else (self._index, list(self._known.values()))

    def _entries(self, record: object) -> dict[str, Summary]:
        if not (isinstance(record, tuple) and len(record) == 3 + len(Summary._fields)):
            raise ValueError("a damaged cache file")
        blobs, *fields, ordered, repeats = record
        hashes = fields[Summary._fields.index("hashes")]
        if not (isinstance(ordered, str) and isinstance(repeats, dict)) or len(ordered) != (
            WIDTH * sum(map(len, hashes))
        ):
            raise ValueError("a damaged cache file")
        summaries = map(Summary._make, zip(*fields, strict=True))
        known = dict(zip(blobs, summaries, strict=True))
        self._index = HashIndex(ordered, repeats)
        return known

    def _record(self, entries: dict[str, Summary]) -> tuple[Any, ...]:
        values = entries.values()
        fields = ([summary[i] for summary in values] for i in range(len(Summary._fields)))
        index = self._index_of(entries)
        return (list(entries), *fields, index.ordered, index.repeats)

    def _index_of(self, entries: dict[str, Summary]) -> HashIndex:
        """The index of ``entries``: the file's own, updated by what changed, when that is
        little (sorting 750,000 hashes afresh takes 0.4-0.6 s)."""
        if self._index is not None:
            removed = [summary for blob, summary in self._known.items() if blob not in entries]
            added = [summary for blob, summary in entries.items() if blob not in self._known]
            if 8 * (len(removed) + len(added)) <= len(entries):
                with contextlib.suppress(ValueError):  # it did not hold them: start afresh
                    return self._index.updated(digests(removed), digests(added))
        return HashIndex.of(digests(entries.values()))


def digests(summaries: Iterable[Summary]) -> Iterator[str]:
    """The chunk hashes of ``summaries``, one after the other."""
    return chain.from_iterable(summary.hashes for summary in summaries)
