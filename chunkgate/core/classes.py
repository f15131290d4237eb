"""Equivalence classes of linked names (union-find), for chains of moves or near copies."""

from __future__ import annotations

from collections.abc import Iterable


def representatives(links: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each name in ``links`` -> one representative of the names linked to it, directly
    or through others: the smallest, so the answer does not depend on the order."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for new, old in links:
        a, b = find(new), find(old)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return {x: find(x) for x in list(parent)}
