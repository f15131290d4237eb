"""The identities of one file's chunks: unique, unless the author wrote one twice.

A code chunker names a chunk after what it holds (``function-g``,
``module-after-g``), and ``Namer`` numbers a repeat ``-1``, ``-2``, ... in file
order. Such a suffix can make the name of another chunk: the code after a class
``g`` repeated (``class-g-1``) is ``module-after-g-1``, and so is the code after
the second ``g`` of any kind; a shell function may be called ``g-1``. A name
already handed out takes the next number of its own repeats instead, so the
first holder keeps it and a file without such a clash is numbered as before.

A Markdown section's ID is the anchor its site gives the heading, which the
site may have given another heading too (``distinct``).
"""

from __future__ import annotations

from collections.abc import Collection, Container, Sequence


class Namer:
    """Hands out one file's identities, suffixing repeats ``-1``, ``-2``, … in file order."""

    __slots__ = ("_issued", "_seen")

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._issued: set[str] = set()

    def __call__(self, identity: str) -> str:
        count = self._seen.get(identity, 0)
        candidate = identity if count == 0 else f"{identity}-{count}"
        while candidate in self._issued:
            count += 1
            candidate = f"{identity}-{count}"
        self._seen[identity] = count + 1
        self._issued.add(candidate)
        return candidate


def distinct(identities: Sequence[tuple[str, bool]], reserved: Collection[str] = ()) -> list[str]:
    """``identities`` (each with whether the author wrote it) with every made one that
    repeats an earlier made one given the smallest ``-N`` suffix that no identity of
    the file and nothing in ``reserved`` has.

    A site generator may give two headings one anchor: kramdown numbers repeats
    without looking at the anchors it made, so ``# a``, ``# a-1``, ``# a`` are
    ``a``, ``a-1``, ``a-1``. A link reaches only the first; the other's chunk still
    needs an ID of its own. An ID the author wrote is kept, also where it repeats
    another (their own ``{#id}`` twice, or one that another heading's text slugs to):
    that clash is theirs to fix, and CG101 says so.
    """
    taken = {identity for identity, _ in identities} | set(reserved)
    made: set[str] = set()
    out = []
    for identity, explicit in identities:
        chosen = identity
        if not explicit:
            if identity in made:
                chosen = numbered(identity, taken)
                taken.add(chosen)
            made.add(chosen)
        out.append(chosen)
    return out


def numbered(identity: str, taken: Container[str]) -> str:
    """``identity-N`` with the smallest ``N`` from 1 that ``taken`` does not hold."""
    number = 1
    while f"{identity}-{number}" in taken:
        number += 1
    return f"{identity}-{number}"
