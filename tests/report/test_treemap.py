"""The squarified treemap: areas proportional to the values, filling the room, no overlap."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.report.treemap import Tile, squarify


def _overlap(a: Tile, b: Tile) -> float:
    width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    return max(width, 0) * max(height, 0)


def _assert_laid_out(items: list[tuple[str, float]], width: float, height: float) -> None:
    tiles = squarify(items, width, height)
    positive = {key: value for key, value in items if value > 0}
    assert sorted(tile.key for tile in tiles) == sorted(positive)
    total = sum(positive.values())
    for tile in tiles:
        assert tile.width * tile.height == pytest.approx(
            positive[tile.key] / total * width * height, rel=1e-6, abs=1e-6
        )
        assert tile.x >= -1e-6
        assert tile.x + tile.width <= width + 1e-6
        assert tile.y >= -1e-6
        assert tile.y + tile.height <= height + 1e-6
    for a, b in itertools.combinations(tiles, 2):
        assert _overlap(a, b) < 1e-6 * width * height


def test_the_paper_example_is_laid_in_near_squares() -> None:
    items = [(f"f{n}", value) for n, value in enumerate((6, 6, 4, 3, 2, 2, 1))]
    tiles = squarify(items, 6, 4)
    _assert_laid_out(items, 6, 4)
    # Bruls et al.'s figure: the two 6s share the first column, 3 wide by 2 high each.
    assert [(t.x, t.y, t.width, t.height) for t in tiles[:2]] == [(0, 0, 3, 2), (0, 2, 3, 2)]
    assert max(max(t.width / t.height, t.height / t.width) for t in tiles) < 3


def test_largest_first_ties_by_key_and_nothing_for_zero_or_empty() -> None:
    tiles = squarify([("b", 1), ("a", 1), ("c", 2), ("z", 0)], 10, 10)
    assert [tile.key for tile in tiles] == ["c", "a", "b"]
    assert squarify([], 10, 10) == []
    assert squarify([("a", 0)], 10, 10) == []


@given(
    st.lists(st.integers(1, 10_000), min_size=1, max_size=40),
    st.integers(1, 2000),
    st.integers(1, 2000),
)
def test_any_values_fill_the_room_in_proportion(values: list[int], width: int, height: int) -> None:
    _assert_laid_out([(f"k{i:03}", v) for i, v in enumerate(values)], width, height)
