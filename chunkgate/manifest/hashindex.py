"""How often each chunk hash occurs across a set of shard summaries, kept with the
summary cache so that a whole-corpus CG501 looks up only what changed since the last run
instead of counting every hash of the corpus (750,000 hashes at 100,000 files: 0.4 s).

The hashes are one string of fixed-width digests, sorted, with repeats: ``count``
bisects it. ``repeats`` names the digests that occur more than once. ``updated``
applies the digests of removed and added summaries in one pass over the string, so
keeping the index costs what changed, not what the corpus holds.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise
from typing import NamedTuple

WIDTH = 16  # a chunk hash: 16 hexadecimal digits


class HashIndex(NamedTuple):
    ordered: str  # every digest, sorted, repeats kept, joined
    repeats: dict[str, int]  # digest -> how many times, for those there more than once

    @classmethod
    def of(cls, digests: Iterable[str]) -> HashIndex:
        ordered = sorted(digests)
        pairs = Counter(d for d, following in pairwise(ordered) if d == following)
        return cls("".join(ordered), {digest: n + 1 for digest, n in pairs.items()})

    @property
    def size(self) -> int:
        return len(self.ordered) // WIDTH

    def count(self, digest: str) -> int:
        if digest in self.repeats:
            return self.repeats[digest]
        at = self._first(digest)
        return int(self._at(at) == digest)

    def updated(self, removed: Iterable[str], added: Iterable[str]) -> HashIndex:
        """The index without the digests ``removed`` (which it must hold) and with those
        ``added``; raises ``ValueError`` when it does not hold what is removed."""
        events: list[tuple[int, int, str]] = []  # (place, 0: insert / 1: cut, digest)
        gone = Counter(removed)
        for digest, times in gone.items():
            at = self._first(digest)
            if self._at(at + times - 1) != digest:
                raise ValueError(f"the index holds {digest} fewer than {times} times")
            events.append((at, 1, digest))
        new = list(added)
        events.extend((self._first(digest), 0, digest) for digest in new)
        events.sort()
        pieces: list[str] = []
        cursor = 0  # the next place of the old string to copy
        for place, kind, digest in events:
            # No insert falls inside a cut: it would be the cut digest, placed before it.
            pieces.append(self.ordered[cursor * WIDTH : place * WIDTH])
            cursor = place
            if kind == 0:
                pieces.append(digest)
            else:
                cursor = place + gone[digest]
        pieces.append(self.ordered[cursor * WIDTH :])
        result = HashIndex("".join(pieces), dict(self.repeats))
        for digest in {*gone, *new}:
            times = result._span(digest)
            if times > 1:
                result.repeats[digest] = times
            else:
                result.repeats.pop(digest, None)
        return result

    def _at(self, place: int) -> str:
        return self.ordered[place * WIDTH : (place + 1) * WIDTH]

    def _first(self, digest: str) -> int:
        return bisect.bisect_left(range(self.size), digest, key=self._at)

    def _span(self, digest: str) -> int:
        return bisect.bisect_right(range(self.size), digest, key=self._at) - self._first(digest)
