"""Duplicate content across the corpus.

CG501 duplicate-content
    Two or more chunks have the same hash (the same text, line endings
    normalised), in one file or across files. The first in path order is
    taken as the original; every other copy is reported, naming it.

    Why: duplicates crowd retrieval results with the same passage, waste
    embedding and context budget, and drift apart when only one copy is
    edited.

    Fix: keep one copy and link to it, or make the copies differ where they
    should (for example a translated page that still holds the original). A
    copy of the same page under another language folder (``docs/de/...`` and
    ``docs/uk/...``) is an untranslated passage: translate it, or exclude the
    other languages if the index holds one.

    Passes: two sections with different text.

    Fires: ``docs/a.md#setup`` and ``docs/b.md#setup`` hold the same text.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from chunkgate.core.model import Violation
from chunkgate.core.regex import lazy
from chunkgate.rules.base import Rule, exclude_hint, literal_name

if TYPE_CHECKING:
    from chunkgate.config.model import Config

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
                _fix(path, original),
            )


# A language folder: "de", "pt-BR", "zh_Hant" (the segments translated sites use).
_LANGUAGE = lazy(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")


def _fix(path: str, original: str) -> str:
    folder = _language_folder(path, original.partition("#")[0])
    if folder is not None:
        # A translation that still holds the original's text: the same page in
        # another language folder, untranslated here.
        return (
            "translate it, or, if the index is meant to hold one language, exclude the "
            f"others in .chunkgate.yaml: {exclude_hint(literal_name(folder) + '/**')}"
        )
    return f"keep one copy and link to {original}, or make the copies differ"


def _language_folder(path: str, other: str) -> str | None:
    """The folder of ``path``'s language when ``other`` is the same page under another
    language folder (``docs/uk/docs/a.md`` and ``docs/de/docs/a.md``), else None."""
    mine, theirs = path.split("/"), other.split("/")
    if len(mine) != len(theirs):
        return None
    differ = [index for index, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
    if len(differ) != 1 or differ[0] == len(mine) - 1:
        return None
    index = differ[0]
    if not (_LANGUAGE.fullmatch(mine[index]) and _LANGUAGE.fullmatch(theirs[index])):
        return None
    return "/".join(mine[: index + 1])
