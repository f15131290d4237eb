"""Duplicate content across the corpus.

CG501 duplicate-content
    Two or more chunks have the same hash (the same text, line endings
    normalised), in one file or across files. The first in path order is
    taken as the original; every other copy is reported, naming it.

    Why: duplicates crowd retrieval results with the same passage, waste
    embedding and context budget, and drift apart when only one copy is
    edited.

    Fix: keep one copy and link to it, or make the copies differ where they
    should (for example a translated page that still holds the original).

    Passes: two sections with different text.

    Fires: ``docs/a.md#setup`` and ``docs/b.md#setup`` hold the same text.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from chunkgate.model import Violation
from chunkgate.rules.base import Rule

if TYPE_CHECKING:
    from chunkgate.config import Config

RULES = (
    Rule(
        "CG501",
        "duplicate-content",
        "warning",
        "two or more chunks have the same hash",
        priority=52,
    ),
)
CODE = RULES[0].code


def duplicate_violations(
    config: Config,
    rows: Iterable[tuple[str, str, str, int, tuple[str, ...]]],
    *,
    only: set[str] | None = None,
) -> Iterator[Violation]:
    """``rows`` are (hash, id, path, line, suppressed codes) of every chunk of the corpus.

    With ``only`` (the files of a commit), report just the copies in those
    files, each naming another copy, so that a hook run points at the file
    being committed.
    """
    severity = config.severity(CODE)
    if severity == "off":
        return
    rows = rows if isinstance(rows, list) else list(rows)
    # Group only the hashes that repeat: a corpus has few, and a cold update
    # would otherwise build a list for every one of its chunks.
    counts = Counter(row[0] for row in rows)
    groups: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    suppressed: set[str] = set()
    for chunk_hash, chunk_id, path, line, disabled in rows:
        if counts[chunk_hash] < 2:
            continue
        groups[chunk_hash].append((path, chunk_id, line))
        if CODE in disabled:
            suppressed.add(chunk_id)
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda m: (m[0].encode("utf-8", "surrogateescape"), m[2], m[1]))
        for index, (path, chunk_id, line) in enumerate(members):
            if only is None and index == 0:
                continue  # the original
            if only is not None and path not in only:
                continue
            if chunk_id in suppressed:
                continue
            original = members[1][1] if index == 0 else members[0][1]
            yield Violation(
                CODE,
                RULES[0].name,
                severity,
                path,
                line,
                chunk_id,
                f"same text as {original}",
                f"keep one copy and link to {original}, or make the copies differ",
            )
