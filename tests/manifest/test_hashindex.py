"""The count of chunk hashes the summary cache keeps for CG501: what ``updated`` makes is
what counting afresh makes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chunkgate.manifest.hashindex import HashIndex

POOL = [f"{random.Random(n).getrandbits(64):016x}" for n in range(40)]


def test_counts_and_repeats() -> None:
    a, b, c = POOL[:3]
    index = HashIndex.of([b, a, b, c, b])
    assert index.ordered == "".join(sorted([a, b, b, b, c]))
    assert index.repeats == {b: 3}
    assert [index.count(d) for d in (a, b, c, POOL[3])] == [1, 3, 1, 0]
    assert HashIndex.of([]).count(a) == 0


@pytest.mark.parametrize("seed", range(40))
def test_an_updated_index_is_the_index_of_what_remains(seed: int) -> None:
    rng = random.Random(seed)
    pool = POOL[: rng.randint(1, len(POOL))]  # few digests: many repeats
    held = [rng.choice(pool) for _ in range(rng.randint(0, 80))]
    index = HashIndex.of(held)
    for _ in range(6):
        removed = rng.sample(held, rng.randint(0, len(held)))
        added = [rng.choice(pool) for _ in range(rng.randint(0, 12))]
        remaining = Counter(held)
        remaining.subtract(removed)
        remaining.update(added)
        held = list(remaining.elements())
        index = index.updated(removed, added)
        assert index == HashIndex.of(held)
        assert all(index.count(d) == remaining[d] for d in pool)


def test_removing_what_it_does_not_hold_is_refused() -> None:
    index = HashIndex.of([POOL[0], POOL[1]])
    for removed in ([POOL[2]], [POOL[0], POOL[0]]):
        with pytest.raises(ValueError, match="fewer than"):
            index.updated(removed, [])
