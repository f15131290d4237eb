"""``diff``: which chunks were added, removed, modified or moved between two revisions.

Each side is a commit's tree or the working tree, read with that side's own
configuration and corpus rules. Blobs are streamed through one ``git cat-file
--batch`` process; nothing is checked out. Only files whose blob differs are
chunked, unless the two sides chunk differently (their fingerprints differ),
and then every file is.

Per chunk, in this order: unchanged (same ID, same hash); then by content,
through ``find_moves``: moved (another ID, the same or similar text) or kept
(same ID, related text: modified); then modified (same ID, new hash); what is
left is added or removed. A move is *acknowledged* when the head side's
manifest records ``moved_from`` for it; the others are *unstable* IDs.

Units are compared, not their parts (``moves.join_parts``): a section split
into ``install`` and ``install~2`` is one unit, so a cut that moves, or a
part that appears or goes as the section grows or shrinks, is a modification
of ``install``. The chunks reported are units (``part`` 0 and ``parts`` N
when there are several); ``oversized`` looks at their parts.
"""

from __future__ import annotations

import enum
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from chunkgate import git
from chunkgate.chunking import ChunkOptions, chunk_bytes
from chunkgate.chunking.sizes import TokenCounter, make_counter
from chunkgate.config import Config, load_config, load_config_at
from chunkgate.core.errors import ChunkgateError, GitError, ManifestError, UnreadableError
from chunkgate.core.model import Chunk
from chunkgate.corpus.select import select_with_tree
from chunkgate.diff.moves import MoveHow, find_moves, join_parts, unit_id
from chunkgate.git.revisions import WORKING_TREE, Revisions, resolve_revisions
from chunkgate.manifest import (
    RevisionManifest,
    ShardSummary,
    SummaryCache,
    WorkTreeManifest,
)

FAIL_CATEGORIES = ("unstable", "removed", "oversized")
# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_FILES = 64


class ChangeKind(str, enum.Enum):
    ADDED = "added"
    REMOVED = "removed"
    MODIFIED = "modified"
    MOVED = "moved"


@dataclass(frozen=True, slots=True)
class Change:
    kind: ChangeKind
    before: Chunk | None
    after: Chunk | None
    similarity: float | None = None
    how: MoveHow | None = None
    acknowledged: bool = False

    @property
    def chunk(self) -> Chunk:
        """The chunk as it is now (as it was, for a removal)."""
        chunk = self.after or self.before
        assert chunk is not None
        return chunk

    def sort_key(self) -> tuple[bytes, int, str, str]:
        chunk = self.chunk
        old = self.before.id if self.before else ""
        return (chunk.path.encode("utf-8", "surrogateescape"), chunk.start_line, chunk.id, old)


@dataclass(frozen=True, slots=True)
class ChunkDiff:
    base: str  # the base commit's sha
    head: str  # the head commit's sha, or "working tree"
    base_name: str  # as the user named them, for display
    head_name: str
    added: tuple[Chunk, ...]
    removed: tuple[Chunk, ...]
    modified: tuple[Change, ...]
    moved: tuple[Change, ...]
    unchanged: int
    unit: str = "chars"  # the head side's size unit and limit
    size_max: int = 2000
    notes: tuple[str, ...] = ()
    # The head side's parts of the units above that have several.
    head_parts: tuple[Chunk, ...] = ()
    options: ChunkOptions | None = None  # the head side's chunking settings, for fixes

    def changes(self) -> list[Change]:
        """Every change, sorted by path and line on the side where the chunk is now."""
        everything = [
            *(Change(ChangeKind.ADDED, None, chunk) for chunk in self.added),
            *(Change(ChangeKind.REMOVED, chunk, None) for chunk in self.removed),
            *self.modified,
            *self.moved,
        ]
        return sorted(everything, key=Change.sort_key)

    @property
    def unstable(self) -> tuple[Change, ...]:
        return tuple(change for change in self.moved if not change.acknowledged)

    def size(self, chunk: Chunk) -> int:
        return chunk.tokens if self.unit == "tokens" else chunk.chars

    def oversized(self, size_max: int | None = None) -> list[Chunk]:
        """Chunks new or changed on the head side that are over ``size.max``."""
        limit = self.size_max if size_max is None else size_max
        now = [*self.added, *(c.chunk for c in self.modified), *(c.chunk for c in self.moved)]
        units = {(c.path, c.id) for c in now if c.parts > 1}
        parts = [p for p in self.head_parts if (p.path, unit_id(p.id)) in units]
        chunks = [*(c for c in now if c.parts <= 1), *parts]
        return sorted(
            (c for c in chunks if self.size(c) > limit), key=lambda c: (c.path, c.start_line)
        )

    def to_dict(self) -> dict[str, object]:
        """The JSON of SPEC §6 (moved entries also carry ``how`` and ``acknowledged``)."""
        return {
            "base": self.base,
            "head": self.head,
            "added": [chunk.to_dict(text=False) for chunk in self.added],
            "removed": [chunk.to_dict(text=False) for chunk in self.removed],
            "modified": [
                {
                    "id": change.chunk.id,
                    "before": _dict(change.before),
                    "after": _dict(change.after),
                }
                for change in self.modified
            ],
            "moved": [
                {
                    "from": change.before.id if change.before else None,
                    "to": change.chunk.id,
                    "similarity": change.similarity,
                    "how": change.how,
                    "acknowledged": change.acknowledged,
                    "before": _dict(change.before),
                    "after": _dict(change.after),
                }
                for change in self.moved
            ],
            "unchanged": self.unchanged,
        }


def _dict(chunk: Chunk | None) -> dict[str, object] | None:
    return None if chunk is None else chunk.to_dict(text=False)


def parse_fail_on(text: str) -> tuple[str, ...]:
    """``--fail-on unstable,removed``: the categories, checked."""
    wanted = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [name for name in wanted if name not in FAIL_CATEGORIES]
    if unknown:
        raise ChunkgateError(
            f"--fail-on: unknown {', '.join(unknown)} (choose from {', '.join(FAIL_CATEGORIES)})"
        )
    return wanted


def fail_reasons(
    diff: ChunkDiff, fail_on: Iterable[str], config: Config | None = None
) -> list[str]:
    """One line per ``--fail-on`` category present in ``diff`` (empty: pass)."""
    wanted = parse_fail_on(",".join(fail_on))
    reasons = []
    if "unstable" in wanted and diff.unstable:
        count = len(diff.unstable)
        reasons.append(f"{count} chunk ID{'s' if count != 1 else ''} changed without `moved_from`")
    if "removed" in wanted and diff.removed:
        count = len(diff.removed)
        reasons.append(f"{count} chunk{'s' if count != 1 else ''} removed")
    if "oversized" in wanted:
        limit = config.chunking.max if config is not None else None
        big = diff.oversized(limit)
        if big:
            shown = limit if limit is not None else diff.size_max
            plural = "s" if len(big) != 1 else ""
            reasons.append(f"{len(big)} chunk{plural} over size.max ({shown} {diff.unit})")
    return reasons


@dataclass
class _Side:
    config: Config
    files: dict[str, str | None]  # corpus path -> blob id (None: read from disk)
    read: Callable[[str], bytes | None]  # any root-relative path, corpus or not
    rev: str | None = None  # None: the working tree
    tree: dict[str, str] | None = None  # a revision's every file and its blob
    work_tree: git.WorkTree | None = None  # the working side's, as git listed it
    manifest: WorkTreeManifest | RevisionManifest | None = None
    summaries: dict[str, ShardSummary] | None = (
        None  # the manifest's, when made as this side chunks
    )

    @property
    def fingerprint(self) -> str:
        return self.config.chunking.fingerprint()


def diff_revisions(
    root: Path,
    base: str | None = "HEAD",
    head: str | None = None,
    *,
    config_path: Path | None = None,
) -> ChunkDiff:
    """Compare the chunks of ``base`` with those of ``head`` (None: the working tree).

    ``A...B`` as ``base`` compares the merge base of A and B with B; ``A..B`` is
    A and B. ``config_path`` (``--config``) applies to both sides.
    """
    top = git.find_root(root)
    if top is None:
        raise GitError(
            f"not a git repository: {root} (`chunkgate diff` compares git revisions: run it "
            "inside a repository, or `git init` and commit first; `chunkgate check` and "
            "`chunkgate chunks` work without git)"
        )
    revisions = resolve_revisions(top, base or "HEAD", head)
    # The work tree's listing runs beside the reading of the base's manifest.
    listing = git.WorkTreeListing(top) if revisions.head is None else None
    notes: list[str] = []
    with git.BlobReader(top) as reader:
        old = _revision_side(top, revisions.base, revisions.base_name, reader, config_path)
        if revisions.head is not None:
            new = _revision_side(top, revisions.head, revisions.head_name, reader, config_path)
        else:
            new = _working_side(top, config_path, listing)
        _manifest(top, new, reader, notes)
        whole = old.fingerprint != new.fingerprint
        if whole:
            notes.append("the two sides chunk with different settings: every file compared")
        jobs, unchanged = _plan(old, new, whole=whole, notes=notes)
    # Chunk once the blob reader is closed: worker processes must not inherit its pipes.
    before, after, counted = _run(jobs, notes)
    with git.BlobReader(top, lazy=True) as reader:
        if isinstance(new.manifest, RevisionManifest):
            new.manifest.reader = reader  # the moves it records, read if any is asked for
        return _classify(
            before, after, unchanged + counted, revisions=revisions, new=new, notes=notes
        )


def _revision_side(
    root: Path, sha: str, name: str, reader: git.BlobReader, config_path: Path | None
) -> _Side:
    tree = git.tree_blobs(root, sha)

    def read(path: str) -> bytes | None:
        blob = tree.get(path)
        return None if blob is None else reader.read(blob)

    if config_path is not None:
        config = load_config(root, config_path=config_path)
    else:
        config = load_config_at(root, read, label=name, paths=tree)
    files: dict[str, str | None] = {p: b for p, b in tree.items() if config.selects(p)}
    return _Side(config, files, read, rev=sha, tree=tree)


def _working_side(
    root: Path, config_path: Path | None, listing: git.WorkTreeListing | None
) -> _Side:
    config = load_config(root, config_path=config_path, listing=listing)
    selection, work_tree = select_with_tree(config, listing=listing)
    files = {file.path: file.blob for file in selection.files}

    def read(path: str) -> bytes | None:
        try:
            return (root / path).read_bytes()
        except OSError:
            return None

    return _Side(config, files, read, work_tree=work_tree)


def _manifest(root: Path, side: _Side, reader: git.BlobReader, notes: list[str]) -> None:
    """The head side's manifest (for its moves), and its summaries when they describe the
    chunks this side makes (for the chunk counts of unchanged files)."""
    from chunkgate.gate.load import expected_header

    folder = side.config.manifest
    manifest: WorkTreeManifest | RevisionManifest
    if side.rev is None:
        in_git = git.installed()
        manifest = WorkTreeManifest(root, folder, in_git=in_git)
        if side.work_tree is not None and in_git:
            manifest.list_from(side.work_tree)  # the selection listed the folder too
    else:
        manifest = RevisionManifest(root, side.rev, folder, reader, tree=side.tree)
    try:
        header = manifest.header()
    except ManifestError as exc:
        notes.append(f"manifest ignored, so no move counts as acknowledged: {exc}")
        return
    if header is None:
        return
    side.manifest = manifest
    if header.same_chunking(expected_header(side.config)):
        cache = SummaryCache(root, folder)
        side.summaries = manifest.summaries(cache, reader).found
        cache.save()


@dataclass(frozen=True, slots=True)
class _Job:
    role: str  # "before", "after", or "count" (an unchanged file the manifest does not know)
    path: str
    data: bytes
    options: ChunkOptions


def _plan(old: _Side, new: _Side, *, whole: bool, notes: list[str]) -> tuple[list[_Job], int]:
    """Read what must be chunked; count the unchanged files the head manifest knows."""
    jobs: list[_Job] = []
    unchanged = 0
    known = _manifest_counts(new)

    def add(role: str, side: _Side, path: str) -> None:
        data = side.read(path)
        if data is None:
            return
        if len(data) > side.config.max_file_bytes:
            notes.append(f"{path}: skipped, over max_file_bytes ({side.config.max_file_bytes})")
            return
        jobs.append(_Job(role, path, data, side.config.chunking))

    for path, blob in old.files.items():
        if not whole and blob is not None and new.files.get(path) == blob:
            count = known(path, blob)
            if count is None:
                add("count", new, path)
            else:
                unchanged += count
        else:
            add("before", old, path)
    for path, blob in new.files.items():
        if whole or blob is None or old.files.get(path) != blob:
            add("after", new, path)
    return jobs, unchanged


def _run(jobs: Sequence[_Job], notes: list[str]) -> tuple[list[Chunk], list[Chunk], int]:
    before: list[Chunk] = []
    after: list[Chunk] = []
    counted = 0
    for job, (chunks, problem) in zip(jobs, _chunk_all(jobs), strict=True):
        if problem is not None:
            notes.append(problem)
        if job.role == "before":
            before.extend(chunks)
        elif job.role == "after":
            after.extend(chunks)
        else:
            counted += len(join_parts(chunks))
    return before, after, counted


def _chunk_all(jobs: Sequence[_Job]) -> list[tuple[tuple[Chunk, ...], str | None]]:
    for spec in {job.options.tokenizer for job in jobs}:
        _counter(spec)  # a missing tokenizer is a config error here, not in a worker
    workers = min(os.cpu_count() or 1, 8)
    if len(jobs) < _PARALLEL_FILES or workers < 2:
        return [_chunk_job(job) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        # map keeps the input order, so the result is the same as with one process.
        chunksize = max(1, len(jobs) // (workers * 8))
        return list(pool.map(_chunk_job, jobs, chunksize=chunksize))


def _chunk_job(job: _Job) -> tuple[tuple[Chunk, ...], str | None]:
    counter = _counter(job.options.tokenizer)
    try:
        return chunk_bytes(job.data, job.path, options=job.options, counter=counter).chunks, None
    except UnreadableError as exc:
        return (), f"{job.path}: skipped, {exc.reason}"


def _manifest_counts(side: _Side) -> Callable[[str, str], int | None]:
    """Chunk counts the head manifest's summaries know for a file at a blob."""
    summaries = side.summaries or {}

    def count(path: str, blob: str) -> int | None:
        summary = summaries.get(path)
        # Counted as units, like the chunks compared (see the module docstring).
        return summary.units if summary is not None and summary.blob == blob else None

    return count


_COUNTERS: dict[str, TokenCounter] = {}


def _counter(spec: str) -> TokenCounter:
    if spec not in _COUNTERS:
        _COUNTERS[spec] = make_counter(spec)
    return _COUNTERS[spec]


def _classify(
    before: list[Chunk],
    after: list[Chunk],
    unchanged: int,
    *,
    revisions: Revisions,
    new: _Side,
    notes: list[str],
) -> ChunkDiff:
    def key(chunk: Chunk) -> tuple[str, str]:
        return (chunk.id, chunk.hash)

    head_parts = tuple(chunk for chunk in after if chunk.id != unit_id(chunk.id) or chunk.parts > 1)
    before, after = join_parts(before), join_parts(after)
    same = Counter(map(key, before)) & Counter(map(key, after))
    unchanged += sum(same.values())
    old_rest = _drop(before, same, key)
    new_rest = _drop(after, same, key)
    modified: list[Change] = []
    moved: list[Change] = []
    paired: set[int] = set()
    acknowledged = _acknowledged(new)
    for move in find_moves(old_rest, new_rest):
        paired.update((id(move.old), id(move.new)))
        if move.old.id == move.new.id:
            modified.append(
                Change(ChangeKind.MODIFIED, move.old, move.new, move.similarity, move.how)
            )
        else:
            ack = acknowledged(move.new) == move.old.id
            moved.append(
                Change(ChangeKind.MOVED, move.old, move.new, move.similarity, move.how, ack)
            )
    by_id: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in old_rest:
        if id(chunk) not in paired:
            by_id[chunk.id].append(chunk)
    added: list[Chunk] = []
    for chunk in new_rest:
        if id(chunk) in paired:
            continue
        if by_id.get(chunk.id):
            modified.append(Change(ChangeKind.MODIFIED, by_id[chunk.id].pop(0), chunk))
        else:
            added.append(chunk)
    removed = [chunk for chunks in by_id.values() for chunk in chunks]
    place = Change.sort_key
    return ChunkDiff(
        base=revisions.base,
        head=revisions.head or WORKING_TREE,
        base_name=revisions.base_name,
        head_name=revisions.head_name,
        added=tuple(sorted(added, key=_place)),
        removed=tuple(sorted(removed, key=_place)),
        modified=tuple(sorted(modified, key=place)),
        moved=tuple(sorted(moved, key=place)),
        unchanged=unchanged,
        unit=new.config.chunking.unit,
        size_max=new.config.chunking.max,
        notes=tuple(dict.fromkeys(notes)),
        head_parts=head_parts,
        options=new.config.chunking,
    )


def _drop(
    chunks: list[Chunk], same: Counter[tuple[str, str]], key: Callable[[Chunk], tuple[str, str]]
) -> list[Chunk]:
    left = Counter(same)
    rest = []
    for chunk in chunks:
        k = key(chunk)
        if left[k] > 0:
            left[k] -= 1
        else:
            rest.append(chunk)
    return rest


def _place(chunk: Chunk) -> tuple[bytes, int, str]:
    return (chunk.path.encode("utf-8", "surrogateescape"), chunk.start_line, chunk.id)


def _acknowledged(side: _Side) -> Callable[[Chunk], str | None]:
    """The ``moved_from`` the head manifest records for a chunk, if any."""
    manifest = side.manifest
    cache: dict[str, dict[str, str]] = {}

    def moved_from(chunk: Chunk) -> str | None:
        if manifest is None:
            return None
        if chunk.path not in cache:
            try:
                entry = manifest.entry(chunk.path)
            except ManifestError:
                entry = None
            cache[chunk.path] = {
                c.id: c.moved_from for c in (entry.chunks if entry else ()) if c.moved_from
            }
        return cache[chunk.path].get(chunk.id)

    return moved_from
