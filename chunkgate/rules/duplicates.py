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

    A folder that copies another (a build output committed beside its source:
    a theme's ``material/`` built from ``src/``) is one finding, not one per
    chunk: when two folders hold at least 20 of the same chunks at the same
    paths below them, in at least 2 files, and those are at least half the
    chunks of the smaller folder, the copy's findings are shown as one line
    naming both folders, how many chunks they share, and the ``exclude`` line
    that leaves the copy out. The copy is the folder that looks built, asked
    in this order: a build or package folder (a build output folder CG301
    knows: ``build/``, ``dist/``, ``site/``, ``public/``, ``_site/``,
    ``out/``, ``_build/``, ...; or the folder ``pyproject.toml`` ships as the
    package); the output folder or an ignore pattern of a site generator's
    configuration (``site_dir`` and ``exclude_docs`` of MkDocs and Zensical,
    Jekyll's ``destination`` and ``exclude``, Hugo's ``publishDir``); the
    folder git added later. When none of these tells, both folders are named
    and which to keep is the author's choice. Two language folders
    (``docs/de/``, ``docs/uk/``) are a translation, not a copy: their shared
    chunks stay one finding each. ``--verbose`` lists every chunk
    under the line, and ``--format json`` lists them all: each finding with
    ``cause`` ``copies:COPY>ORIGINAL`` (``copies:A|B`` when unsure), and the
    group with ``pairs``, every (copy, original) chunk ID pair.

    Passes: two sections with different text.

    Fires: ``docs/a.md#setup`` and ``docs/b.md#setup`` hold the same text.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.core.model import Severity, Violation
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
Row = tuple[str, str, str, int, tuple[str, ...]]  # hash, id, path, first line, suppressed

# Two folders are a copy and its original when they hold this many of the same chunks at
# the same paths below them, in this many files, and the chunks are this share of the
# smaller folder's. On the 18 corpora (the shared ones, seven Python projects' sdists
# and the standard library) the most any two folders share is 40 chunks, 15% of the
# smaller (Sphinx's C and C++ domains: code written twice, not a build); past 50% the
# most is 14 chunks (two variants of one example app). A build copy shares nearly all.
MIN_SHARED = 20
MIN_SHARE = 0.5
MIN_FILES = 2
# A chunk at one relative path below more folders than this is boilerplate many places
# share (a license header in every package's __init__.py), not one folder's copy; past
# it the folder pairs would grow as the square of the folders.
_MANY_FOLDERS = 16
COPIES = "copies:"  # ``Violation.cause`` of a copied folder's findings


class Verdict(NamedTuple):
    """Which of two folders holding the same chunks is the copy (None: nothing tells)."""

    copy: str | None
    reason: str = ""


# Which of two folders is the copy: (first, second) in path order -> the verdict.
Judge = Callable[[str, str], Verdict]


def unsure(first: str, second: str) -> Verdict:
    return Verdict(None)


class FolderPair(NamedTuple):
    first: str  # in path order
    second: str
    pairs: tuple[tuple[str, str], ...]  # (chunk ID below first, the same chunk's below second)


class Folders(NamedTuple):
    """What tells a copied folder: each corpus file's chunk count, and the judge."""

    sizes: Mapping[str, int]
    judge: Judge = unsure


def copied_folders(rows: Iterable[Row], sizes: Mapping[str, int]) -> list[FolderPair]:
    """The folder pairs that hold at least ``MIN_SHARED`` of the same chunks at the same
    relative paths (``src/a/x.md`` and ``material/a/x.md``), in ``MIN_FILES`` files or more,
    and at least ``MIN_SHARE`` of the chunks of the smaller (``sizes``: chunks by path).

    A chunk pairs with the one of the same ID below the other folder (a copied file
    keeps its IDs), so a section repeated within a file pairs with its own copy. Only
    the longest shared relative path counts, so ``src/a`` and ``material/a`` are not a
    pair of their own; two language folders (``docs/de``, ``docs/uk``) are not a copy
    but a translation, which CG501's per-chunk fix addresses.
    """
    below: dict[tuple[str, str, str], dict[str, str]] = defaultdict(dict)
    for chunk_hash, chunk_id, path, _line, _disabled in rows:
        parts = path.split("/")
        identity = chunk_id[len(path) :]  # "#setup"
        for cut in range(1, len(parts)):
            key = (chunk_hash, "/".join(parts[cut:]), identity)
            below[key]["/".join(parts[:cut])] = chunk_id
    shared: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    files: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (_hash, relative, _identity), folders in below.items():
        if not 2 <= len(folders) <= _MANY_FOLDERS:
            continue
        for first, second in combinations(sorted(folders, key=_path_key), 2):
            if _last(first) == _last(second) or _translations(first, second):
                continue
            shared[first, second].append((folders[first], folders[second]))
            files[first, second].add(relative)
    found = [
        FolderPair(first, second, tuple(sorted(pairs)))
        for (first, second), pairs in shared.items()
        if len(pairs) >= MIN_SHARED and len(files[first, second]) >= MIN_FILES
    ]
    if found:
        found = [pair for pair in found if _share(pair, sizes) >= MIN_SHARE]
    return sorted(found, key=lambda pair: (-len(pair.pairs), pair.first, pair.second))


def _share(pair: FolderPair, sizes: Mapping[str, int]) -> float:
    """The shared chunks' share of the smaller folder's chunks."""
    totals = [
        sum(count for path, count in sizes.items() if path.startswith(folder + "/"))
        for folder in (pair.first, pair.second)
    ]
    return len(pair.pairs) / max(min(totals), 1)


def _last(folder: str) -> str:
    return folder.rpartition("/")[2]


def _path_key(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _translations(first: str, second: str) -> bool:
    return all(_LOCALE.fullmatch(_last(folder)) for folder in (first, second))


class _Copied(NamedTuple):
    original: str  # the chunk ID it copies
    cause: str
    fix: str


def _copied_chunks(rows: list[Row], folders: Folders | None) -> dict[str, _Copied]:
    """The chunks of copied folders, by ID, each with the chunk it copies."""
    copied: dict[str, _Copied] = {}
    if folders is None:
        return copied
    for pair in copied_folders(rows, folders.sizes):
        verdict = folders.judge(pair.first, pair.second)
        if verdict.copy is None:
            cause = f"{COPIES}{pair.second}|{pair.first}"
            fix = (
                f"leave one out: add {_exclude(pair.first)} or {_exclude(pair.second)} to "
                ".chunkgate.yaml; nothing tells which is built, so which to keep is your choice"
            )
        else:
            original = pair.first if verdict.copy == pair.second else pair.second
            cause = f"{COPIES}{verdict.copy}>{original}"
            fix = (
                f"leave the copy out: add {_exclude(verdict.copy)} to .chunkgate.yaml; "
                f"{verdict.copy}/ looks built: {verdict.reason}"
            )
        copy_side = 0 if verdict.copy == pair.first else 1
        for ids in pair.pairs:
            copied.setdefault(ids[copy_side], _Copied(ids[1 - copy_side], cause, fix))
    return copied


def _exclude(folder: str) -> str:
    return exclude_hint(literal_name(folder) + "/**")


def copies_message(cause: str, count: int) -> str:
    """The one line a copied folder's findings are shown as (``cause``: their cause)."""
    folders = cause.removeprefix(COPIES)
    chunks = f"{count:,} chunk{'s' if count != 1 else ''}"
    if ">" in folders:
        copy, _, original = folders.partition(">")
        return f"{copy}/ holds a copy of {original}/: {chunks} the same (CG501)"
    second, _, first = folders.partition("|")
    return f"{first}/ and {second}/ hold {chunks} the same, at the same paths (CG501)"


def original_of(violation: Violation) -> str:
    """The chunk ID a CG501 finding names as the one its chunk copies."""
    return violation.message.removeprefix(_SAME)


_SAME = "same text as "


def duplicate_violations(
    config: Config,
    rows: Iterable[Row],
    *,
    only: set[str] | None = None,
    folders: Folders | None = None,
) -> Iterator[Violation]:
    """``rows`` are (hash, id, path, line, suppressed codes) of every chunk of the corpus.

    With ``only`` (the files of a commit), report just the copies in those
    files, each naming another copy, so that a hook run points at the file
    being committed. With ``folders``, a folder that copies another has its
    findings caused by the copy (``cause``), to be shown as one.
    """
    severity = config.severity(CODE)
    if severity == "off":
        return
    rows = rows if isinstance(rows, list) else list(rows)
    # Group only the hashes that repeat: a corpus has few, and a cold update
    # would otherwise build a list for every one of its chunks.
    counts = Counter(row[0] for row in rows)
    repeated = [row for row in rows if counts[row[0]] > 1]
    copied = _copied_chunks(repeated, folders)
    groups: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    suppressed: set[str] = set()
    for chunk_hash, chunk_id, path, line, disabled in repeated:
        if CODE in disabled:
            suppressed.add(chunk_id)
        if chunk_id in copied:
            if (only is None or path in only) and chunk_id not in suppressed:
                found = copied[chunk_id]
                copy = _finding(
                    severity, path, line, chunk_id, original=found.original, fix=found.fix
                )
                yield copy._replace(cause=found.cause)
            continue
        groups[chunk_hash].append((path, chunk_id, line))
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda m: (_path_key(m[0]), m[2], m[1]))
        for index, (path, chunk_id, line) in enumerate(members):
            if only is None and index == 0:
                continue  # the original
            if only is not None and path not in only:
                continue
            if chunk_id in suppressed:
                continue
            original = members[1][1] if index == 0 else members[0][1]
            yield _finding(
                severity, path, line, chunk_id, original=original, fix=_fix(path, original)
            )


def _finding(
    severity: Severity, path: str, line: int, chunk_id: str, *, original: str, fix: str
) -> Violation:
    return Violation(CODE, RULES[0].name, severity, path, line, chunk_id, _SAME + original, fix)


# A language folder: "de", "pt-BR", "zh_Hant" (the segments translated sites use).
_LANGUAGE = lazy(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
# Two letters only, for telling translations from copies: "src" and "out" are folders.
_LOCALE = lazy(r"[a-z]{2}(?:[-_][A-Za-z]{2,4})?")


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
