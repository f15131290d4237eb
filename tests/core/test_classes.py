"""Equivalence classes of linked names: chains join, and the order of links does not matter."""

from __future__ import annotations

import itertools

from chunkgate.core.classes import representatives


def test_chains_join_into_one_class_with_the_smallest_name() -> None:
    links = [("c", "b"), ("b", "a"), ("y", "x"), ("d", "c")]
    for order in itertools.permutations(links):
        assert representatives(order) == {
            "a": "a", "b": "a", "c": "a", "d": "a", "x": "x", "y": "x",
        }  # fmt: skip
    assert representatives([]) == {}
