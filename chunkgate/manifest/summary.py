"""What a whole-corpus run needs of a shard, without decoding its chunk lines.

A ``ShardSummary`` holds a shard's file line (path, blob, chunk count, the settings
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

import re
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from chunkgate.cache.blobs import MarshalCache
from chunkgate.core.regex import lazy
from chunkgate.corpus.paths import problem
from chunkgate.diff.moves import unit_id
from chunkgate.manifest import fields
from chunkgate.manifest.codec import parse_block
from chunkgate.manifest.kinds import Where, listed_codes

_SUPPRESSED = lazy(r'"suppressed": \[([^\]]*)\]')
_IDENTITY = lazy(r'\{"id": "[^#"]*#([^"]*)"')  # a path that needs no escape holds no quote
_CACHE_VERSION = "chunkgate-summaries-9"  # 9: no hash index, the fields' signature


class _Patterns(NamedTuple):
    shard: re.Pattern[str]  # a whole shard, file line and chunk lines, as written
    row: re.Pattern[str]  # a chunk line: its span and hash captured


_made: list[tuple[fields.Line, fields.Line, _Patterns]] = []  # the last lines' patterns


def _patterns(file_line: fields.Line, chunk_line: fields.Line) -> _Patterns:
    """The summary's patterns, derived from the lines' tables (made again when a table
    is another): every chunk line's ID is the file line's path (group 1: a path that
    needs no JSON escape is its own JSON form), "#" and a non-empty identity."""
    if _made and _made[0][0] is file_line and _made[0][1] is chunk_line:
        return _made[0][2]
    head = file_line.pattern()
    rows = chunk_line.pattern(capture=frozenset(), first=r'"\1#[^"\\\x00-\x1f]+"')
    shard = re.compile(f"{head}\n(?:{rows}\n)*")
    row = re.compile(
        chunk_line.pattern(capture=frozenset(("lines", "hash")), run=("lines", "hash"))
    )
    _made[:] = [(file_line, chunk_line, _Patterns(shard, row))]
    return _made[0][2]


class ShardSummary(NamedTuple):
    path: str
    blob: str | None  # the corpus file's blob when it was checked
    chunks: int
    findings: bool  # its file line records findings: read the shard to report them
    hashes: tuple[str, ...]
    units: int = 0  # the units its chunks are parts of (``moves.unit_id``)
    moves: bool = False  # a chunk records ``moved_from``: read the shard for the moves
    settings: str | None = None  # the digest of the settings it was made under (None: format 2)


def summarise(data: bytes, name: str) -> ShardSummary:
    """The summary of a shard's bytes; a corrupt shard raises ``ManifestSyntaxError``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""  # the strict reader names the line
    patterns = _patterns(fields.FILE_LINE, fields.CHUNK_LINE)
    shape = patterns.shard.fullmatch(text)
    if shape is not None and problem(shape[1]) is None:
        head = fields.FILE_LINE.values(shape.groups(), Where(name, 1, ""))
        rows = patterns.row.findall(text)
        if head is not None and len(rows) == head["chunks"] and _in_order(rows, text):
            return ShardSummary(
                head["path"],
                head["blob"],
                head["chunks"],
                False,
                tuple([digest for _, _, digest in rows]),
                _units(text),
                '"moved_from"' in text,
                head.get("settings"),
            )
    entry = parse_block(data, name)  # strict: names the line that is wrong
    return ShardSummary(
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


class SummaryCache(MarshalCache[ShardSummary]):
    """Summaries by shard blob ID, kept between runs in one file per repository: a
    column a field."""

    def __init__(self, root: Path, folder: str) -> None:
        lines = f"{fields.FILE_LINE.signature()}\0{fields.CHUNK_LINE.signature()}"
        super().__init__("summaries", f"{_CACHE_VERSION}\0{lines}\0{root}\0{folder}")

    def _entries(self, record: object) -> dict[str, ShardSummary]:
        if not (isinstance(record, tuple) and len(record) == 1 + len(ShardSummary._fields)):
            raise ValueError("a damaged cache file")
        blobs, *columns = record
        if not all(isinstance(column, list) for column in record):
            raise ValueError("a damaged cache file")
        return dict(zip(blobs, map(ShardSummary._make, zip(*columns, strict=True)), strict=True))

    def _record(self, entries: dict[str, ShardSummary]) -> tuple[Any, ...]:
        values = entries.values()
        columns = ([summary[i] for summary in values] for i in range(len(ShardSummary._fields)))
        return (list(entries), *columns)


def digests(summaries: Iterable[ShardSummary]) -> Iterator[str]:
    """The chunk hashes of ``summaries``, one after the other."""
    return chain.from_iterable(summary.hashes for summary in summaries)
