"""Which chunks survived under another ID: the content match behind ``diff`` and CG402.

``find_moves`` pairs each removed chunk with at most one added chunk (and vice
versa), strongest evidence first:

1. ``identical``: the same text (equal ``hash``).
2. the same ID kept: a removed and an added chunk with the same ID whose bodies
   are equal or one mostly contains the other (overlap coefficient of their
   shingles at least ``threshold``). That is an edit, a section split in two or
   two merged into one, not a move; it is returned (``old.id == new.id``) so
   that neither chunk is paired again, and callers report it as modified.
3. ``body``: the same non-empty body, the text without its own heading or
   definition line (a heading renamed, a function renamed).
4. ``similar``: Jaccard similarity of the bodies' word 5-gram shingles at least
   ``threshold`` (0.5).

Why 5-grams and 0.5, measured on FastAPI's English docs (1,874 sections):
unrelated sections share short phrases ("you can use the", code boilerplate),
so with 3-grams one section in ten has a neighbour at 0.28 or more; with
5-grams one in ten reaches 0.16, and the 2% at 0.5 or more are templated
near-copies ("Forbid extra headers" / "Forbid extra query parameters"). A
section keeps 0.63 (median) when a fifth of it is rewritten in one place, 0.85
when a fifth is appended, and about 0.5 when a third is rewritten: past that a
reader no longer calls it "the same section, edited". Chunks of fewer than
five words (``## See also`` and a link) have no shingles: they only match
exactly, and a tiny body only within the same file.

Candidates are found without comparing every pair: the added chunks' shingles
go in an inverted index, and each removed chunk probes it with just the prefix
of its shingles (rarest first) that any set at least ``threshold`` similar must
share (prefix filtering); similarity is computed for those candidates only.

Ties go to the pair in the same file, then the same file name, then the
nearest line, then the smallest IDs, so results never depend on input order.

A unit over ``size.max`` is chunked into parts (``install``, ``install~2``,
...), and where the cuts fall depends on the text before them: an edit in the
first part moves every later boundary, and a section that shrinks loses its
last part. None of that is a move or a removal: compare units, not parts.
``join_parts`` makes each unit one chunk again (under the unit's ID, with its
parts' texts joined), ``gone_units`` says which IDs of a file belong to units
that are gone, and ``new_units`` which added chunks are units that were not
there before.
"""

from __future__ import annotations

import hashlib
import math
import posixpath
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy

SIMILARITY_THRESHOLD = 0.5
SHINGLE_WORDS = 5
# Equal texts repeated more often than this are paired in order, not all against all.
_MAX_GROUP_PAIRS = 100_000

MoveHow = Literal["identical", "body", "similar"]

# A CJK character is a word of its own: those scripts do not put spaces between words.
_WORD = lazy(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|\w+")


# A part suffix: "~" and a number from 2 after a non-empty identity. A text
# window's "~1", "~2" have no parent identity: windows are chunks of their own.
_PART = lazy(r"(?<=[^#])~([2-9]|[1-9]\d+)\Z")


def unit_id(chunk_id: str) -> str:
    """The ID of the unit a chunk is a part of: ``a.md#install~2`` -> ``a.md#install``."""
    if "~" not in chunk_id:
        return chunk_id
    return _PART.sub("", chunk_id)


def gone_units(before: Iterable[str], after: Iterable[str]) -> set[str]:
    """The IDs in ``before`` whose unit has no part in ``after`` (CG402/CG403 look at
    those only: a part that is gone while its unit remains is an edit of the unit)."""
    remaining = {unit_id(chunk_id) for chunk_id in after}
    return {chunk_id for chunk_id in before if unit_id(chunk_id) not in remaining}


def new_units(chunks: Sequence[Chunk], before: Collection[str]) -> list[Chunk]:
    """The units among ``chunks`` (joined) that no ID in ``before`` was a part of: a
    part added to a unit that was there is an edit of it, not a unit that may have
    moved in."""
    known = {unit_id(chunk_id) for chunk_id in before}
    return join_parts([chunk for chunk in chunks if unit_id(chunk.id) not in known])


def unit_groups(chunks: Sequence[Chunk]) -> list[Sequence[Chunk]]:
    """The chunks grouped by unit: each unit's consecutive parts, in order."""
    groups: list[Sequence[Chunk]] = []
    index = 0
    while index < len(chunks):
        first = chunks[index]
        base = unit_id(first.id)
        end = index + 1
        while (
            end < len(chunks) and chunks[end].path == first.path and unit_id(chunks[end].id) == base
        ):
            end += 1
        groups.append(chunks[index:end])
        index = end
    return groups


def join_parts(chunks: Sequence[Chunk]) -> list[Chunk]:
    """Each unit's consecutive parts as one chunk under the unit's ID, in order.

    A joined chunk spans its parts, sums their sizes, joins their texts with
    ``\\n`` and has ``part`` 0 and ``parts`` N. Its ``hash`` is over the text
    with every run of whitespace made one space, so that the same text cut in
    other places (between other paragraphs, inside a line) is the same unit;
    a unit of one part keeps its chunk as it is. Without the parts' texts
    (placeholders read from the manifest), the hash is over their hashes.
    """
    return [
        group[0] if len(group) == 1 and group[0].id == unit_id(group[0].id) else _joined(group)
        for group in unit_groups(chunks)
    ]


def _joined(group: Sequence[Chunk]) -> Chunk:
    first, last = group[0], group[-1]
    base = unit_id(first.id)
    text = "\n".join(chunk.text for chunk in group)
    if all(chunk.text for chunk in group):
        key = " ".join(text.split())
    else:
        key = "+".join(chunk.hash for chunk in group)
    suppressed = frozenset().union(*(chunk.suppressed for chunk in group))
    return first._replace(
        id=base,
        end_line=last.end_line,
        chars=sum(chunk.chars for chunk in group),
        tokens=sum(chunk.tokens for chunk in group),
        hash=hashlib.sha256(key.encode("utf-8")).hexdigest()[:16],
        text=text,
        suppressed=suppressed,
        part=0,
        parts=len(group),
        end_column=last.end_column,
        unsplittable=next((chunk.unsplittable for chunk in group if chunk.unsplittable), ""),
    )


@dataclass(frozen=True, slots=True)
class Move:
    old: Chunk
    new: Chunk
    similarity: float
    how: MoveHow


class _Profile:
    """A chunk with its stripped body; shingles are computed on first use (most
    pairs are settled by hash or body before any similarity is needed)."""

    __slots__ = ("_shingles", "body", "chunk")

    def __init__(self, chunk: Chunk) -> None:
        self.chunk = chunk
        self.body = chunk.body.strip()
        self._shingles: frozenset[int] | None = None

    @property
    def shingles(self) -> frozenset[int]:
        if self._shingles is None:
            # A body too short to compare (a heading over one line): compare the whole text.
            self._shingles = shingles(self.body) or shingles(self.chunk.text)
        return self._shingles

    @property
    def tiny_body(self) -> bool:
        return len(words(self.body)) < SHINGLE_WORDS


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def shingles(text: str) -> frozenset[int]:
    """Hashes of the word 5-grams of ``text``; empty for fewer than five words."""
    tokens = words(text)
    return frozenset(map(hash, zip(*(tokens[i:] for i in range(SHINGLE_WORDS)), strict=False)))


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of two texts' shingles (0.0 when either is tiny)."""
    return _jaccard(shingles(a), shingles(b))


def _jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    if not a or not b:
        return 0.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


def _overlap(a: frozenset[int], b: frozenset[int]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _tie_key(old: Chunk, new: Chunk) -> tuple[int, int, str, str]:
    if old.path == new.path:
        place = 0
    elif posixpath.basename(old.path) == posixpath.basename(new.path):
        place = 1
    else:
        place = 2
    return (place, abs(old.start_line - new.start_line), old.id, new.id)


class _Pairing:
    def __init__(self, removed: Sequence[_Profile], added: Sequence[_Profile]) -> None:
        self.removed = removed
        self.added = added
        self.free_old = set(range(len(removed)))
        self.free_new = set(range(len(added)))
        self.moves: list[Move] = []

    def take(
        self, pairs: Iterable[tuple[float, int, int]], how: Callable[[int, int], MoveHow]
    ) -> None:
        """Pair greedily: highest score first, then the tie-break order."""
        ranked = sorted(
            pairs,
            key=lambda p: (-p[0], _tie_key(self.removed[p[1]].chunk, self.added[p[2]].chunk)),
        )
        for score, i, j in ranked:
            if i in self.free_old and j in self.free_new:
                self.free_old.discard(i)
                self.free_new.discard(j)
                old, new = self.removed[i], self.added[j]
                self.moves.append(Move(old.chunk, new.chunk, round(score, 4), how(i, j)))

    def grouped(self, key: Callable[[_Profile], str | None]) -> Iterable[tuple[float, int, int]]:
        """Pairs of free chunks with the same non-None key, each scored 1."""
        olds: dict[str, list[int]] = defaultdict(list)
        news: dict[str, list[int]] = defaultdict(list)
        for i in sorted(self.free_old):
            value = key(self.removed[i])
            if value is not None:
                olds[value].append(i)
        for j in sorted(self.free_new):
            value = key(self.added[j])
            if value is not None:
                news[value].append(j)
        for value, left in olds.items():
            right = news.get(value)
            if not right:
                continue
            if len(left) * len(right) <= _MAX_GROUP_PAIRS:
                yield from ((1.0, i, j) for i in left for j in right)
                continue
            # Boilerplate repeated hundreds of times: pair it in document order.
            left.sort(key=lambda i: _place(self.removed[i].chunk))
            right.sort(key=lambda j: _place(self.added[j].chunk))
            yield from ((1.0, i, j) for i, j in zip(left, right, strict=False))


def _place(chunk: Chunk) -> tuple[str, int, str]:
    return (chunk.path, chunk.start_line, chunk.id)


def find_moves(
    removed: Sequence[Chunk],
    added: Sequence[Chunk],
    *,
    threshold: float = SIMILARITY_THRESHOLD,
) -> list[Move]:
    """Pair removed with added chunks by content; see the module docstring.

    Pairs that keep their ID (``old.id == new.id``) are edits for the caller to
    report as modified. The result is sorted by the new chunk's path and line.
    """
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    pairing = _Pairing([_Profile(c) for c in removed], [_Profile(c) for c in added])
    pairing.take(pairing.grouped(lambda p: p.chunk.hash), lambda i, j: "identical")
    pairing.take(_kept(pairing, threshold), lambda i, j: _kept_how(pairing, i, j))
    pairing.take(_same_body(pairing), lambda i, j: "body")
    pairing.take(_similar(pairing, threshold), lambda i, j: "similar")
    return sorted(pairing.moves, key=lambda m: (m.new.path, m.new.start_line, m.new.id, m.old.id))


def _kept(pairing: _Pairing, threshold: float) -> Iterable[tuple[float, int, int]]:
    by_id: dict[str, list[int]] = defaultdict(list)
    for j in sorted(pairing.free_new):
        by_id[pairing.added[j].chunk.id].append(j)
    for i in sorted(pairing.free_old):
        old = pairing.removed[i]
        for j in by_id.get(old.chunk.id, ()):
            new = pairing.added[j]
            if old.body and old.body == new.body:
                yield (1.0, i, j)
            elif _overlap(old.shingles, new.shingles) >= threshold:
                yield (_jaccard(old.shingles, new.shingles), i, j)


def _kept_how(pairing: _Pairing, i: int, j: int) -> MoveHow:
    return "body" if pairing.removed[i].body == pairing.added[j].body else "similar"


def _same_body(pairing: _Pairing) -> Iterable[tuple[float, int, int]]:
    for score, i, j in pairing.grouped(lambda p: p.body or None):
        old, new = pairing.removed[i], pairing.added[j]
        # Two tiny bodies ("TODO", a lone link) being equal proves little across files.
        if old.chunk.path == new.chunk.path or not old.tiny_body:
            yield (score, i, j)


def _similar(pairing: _Pairing, threshold: float) -> Iterable[tuple[float, int, int]]:
    olds = [i for i in sorted(pairing.free_old) if pairing.removed[i].shingles]
    news = [j for j in sorted(pairing.free_new) if pairing.added[j].shingles]
    # Index the smaller side; the other side probes it.
    if len(olds) <= len(news):
        found = _probe(
            [pairing.removed[i].shingles for i in olds],
            [pairing.added[j].shingles for j in news],
            threshold,
        )
        yield from ((score, olds[a], news[b]) for score, a, b in found)
    else:
        found = _probe(
            [pairing.added[j].shingles for j in news],
            [pairing.removed[i].shingles for i in olds],
            threshold,
        )
        yield from ((score, olds[b], news[a]) for score, a, b in found)


def _probe(
    indexed: Sequence[frozenset[int]], probes: Sequence[frozenset[int]], threshold: float
) -> Iterable[tuple[float, int, int]]:
    """Pairs ``(score, a, b)`` with Jaccard(indexed[a], probes[b]) >= threshold."""
    index: dict[int, list[int]] = defaultdict(list)
    for a, tokens in enumerate(indexed):
        for token in tokens:
            index[token].append(a)
    for b, tokens in enumerate(probes):
        size = len(tokens)
        # J(X, Y) >= t needs |X ∩ Y| >= t|Y|, and X ∩ Y lies within Y's indexed tokens.
        # So X holds one of the first n - ceil(t|Y|) + 1 of those n, in any order
        # (prefix filtering); rarest first keeps the posting lists short.
        need = math.ceil(threshold * size - 1e-9)
        present = [token for token in tokens if token in index]
        if len(present) < need:
            continue
        present.sort(key=lambda token: (len(index[token]), token))
        low, high = threshold * size - 1e-9, size / threshold + 1e-9
        seen: set[int] = set()
        for token in present[: len(present) - need + 1]:
            for a in index[token]:
                if a in seen:
                    continue
                seen.add(a)
                other = indexed[a]
                if low <= len(other) <= high:
                    score = _jaccard(other, tokens)
                    if score >= threshold:
                        yield (score, a, b)
