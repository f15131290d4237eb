"""``diff``: which chunks were added, removed, modified or moved between two revisions.

Each side is a commit's tree or the working tree, read with that side's own
configuration and corpus rules (``sides``). Blobs are streamed through one
``git cat-file --batch`` process; nothing is checked out. Only files whose
blob differs are chunked, unless the two sides chunk differently (their
fingerprints differ), and then every file is. ``classify`` says what became
of each chunk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from chunkgate.chunking import ChunkOptions
from chunkgate.config.load import load_config
from chunkgate.core.errors import ChunkgateError, GitError
from chunkgate.core.model import Chunk
from chunkgate.core.progress import tracked
from chunkgate.diff.classify import classify
from chunkgate.diff.model import ChunkDiff
from chunkgate.diff.moves import join_parts
from chunkgate.diff.sides import (
    Side,
    chunk_file,
    counter,
    read_manifest,
    revision_side,
    working_side,
)
from chunkgate.git import listings, objects, process
from chunkgate.git.revisions import resolve_revisions
from chunkgate.manifest import RevisionManifest

FAIL_CATEGORIES = ("unstable", "removed", "oversized")
# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_FILES = 64


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
    top = process.find_root(root)
    if top is None:
        raise GitError(
            f"not a git repository: {root} (`chunkgate diff` compares git revisions: run it "
            "inside a repository, or `git init` and commit first; `chunkgate check` and "
            "`chunkgate chunks` work without git)"
        )
    revisions = resolve_revisions(top, base or "HEAD", head)
    # The work tree's listing runs beside the reading of the base's manifest.
    listing = listings.WorkTreeListing(top) if revisions.head is None else None
    notes: list[str] = []
    given = load_config(top, config_path=config_path) if config_path is not None else None
    with objects.BlobReader(top) as reader:
        old = revision_side(top, revisions.base, revisions.base_name, reader, given)
        if revisions.head is not None:
            new = revision_side(top, revisions.head, revisions.head_name, reader, given)
        else:
            new = working_side(top, config_path, listing)
        read_manifest(top, new, reader, notes)
        whole = old.fingerprint != new.fingerprint
        if whole:
            notes.append("the two sides chunk with different settings: every file compared")
        jobs, unchanged = _plan(old, new, whole=whole, notes=notes)
    # Chunk once the blob reader is closed: worker processes must not inherit its pipes.
    before, after, counted = _run(jobs, notes)
    with objects.BlobReader(top, lazy=True) as reader:
        if isinstance(new.manifest, RevisionManifest):
            new.manifest.reader = reader  # the moves it records, read if any is asked for
        return classify(
            before, after, unchanged + counted, revisions=revisions, new=new, notes=notes
        )


@dataclass(frozen=True, slots=True)
class _Job:
    role: str  # "before", "after", or "count" (an unchanged file the manifest does not know)
    path: str
    data: bytes
    options: ChunkOptions


def _plan(old: Side, new: Side, *, whole: bool, notes: list[str]) -> tuple[list[_Job], int]:
    """Read what must be chunked; count the unchanged files the head manifest knows."""
    jobs: list[_Job] = []
    unchanged = 0
    known = _manifest_counts(new)

    def add(role: str, side: Side, path: str) -> None:
        data, problem = side.load(path)
        if problem is not None:
            notes.append(problem)
        if data is not None:
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
        counter(spec)  # a missing tokenizer is a config error here, not in a worker
    workers = min(os.cpu_count() or 1, 8)
    if len(jobs) < _PARALLEL_FILES or workers < 2:
        return list(tracked(map(_chunk_job, jobs), len(jobs), "chunking"))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # map keeps the input order, so the result is the same as with one process.
        chunksize = max(1, len(jobs) // (workers * 8))
        results = pool.map(_chunk_job, jobs, chunksize=chunksize)
        return list(tracked(results, len(jobs), "chunking"))


def _chunk_job(job: _Job) -> tuple[tuple[Chunk, ...], str | None]:
    return chunk_file(job.data, job.path, job.options)


def _manifest_counts(side: Side) -> Callable[[str, str], int | None]:
    """Chunk counts the head manifest's summaries know for a file at a blob."""
    summaries = side.summaries or {}

    def count(path: str, blob: str) -> int | None:
        summary = summaries.get(path)
        # Counted as units, like the chunks compared (see ``classify``).
        return summary.units if summary is not None and summary.blob == blob else None

    return count


def parse_fail_on(text: str) -> tuple[str, ...]:
    """``--fail-on unstable,removed``: the categories, checked."""
    wanted = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [name for name in wanted if name not in FAIL_CATEGORIES]
    if unknown:
        raise ChunkgateError(
            f"--fail-on: unknown {', '.join(unknown)} (choose from {', '.join(FAIL_CATEGORIES)})"
        )
    return wanted


def fail_reasons(diff: ChunkDiff, fail_on: Iterable[str]) -> list[str]:
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
        big = diff.oversized()
        if big:
            plural = "s" if len(big) != 1 else ""
            reasons.append(f"{len(big)} chunk{plural} over size.max ({diff.size_max} {diff.unit})")
    return reasons
