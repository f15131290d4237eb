"""A run's answer, and what a rebuild and an incremental run both make of an entry."""

from __future__ import annotations

from collections.abc import Iterable

from chunkgate.config.model import Config
from chunkgate.core.model import CheckResult, Summary, Unverified, Violation
from chunkgate.gate.groups import grouped
from chunkgate.manifest import FileEntry


def result(
    config: Config,
    violations: Iterable[Violation],
    chunks: int,
    *,
    changed: bool,
    notes: list[str],
    known: Iterable[Violation] = (),
    unverified: Iterable[Unverified] = (),
) -> CheckResult:
    """The run's result; ``known`` are the problems the baseline already records, which fail
    nothing unless the configuration is strict; ``unverified`` the links the corpus rules
    could not judge, which fail nothing, strict or not."""
    known = sorted(known, key=Violation.sort_key)
    if config.strict:
        violations, known = [*violations, *known], []
    ordered = tuple(sorted(violations, key=Violation.sort_key))
    return CheckResult(
        violations=ordered,
        summary=Summary(
            files=0,  # the caller knows how many files the corpus selected
            chunks=chunks,
            errors=sum(v.severity == "error" for v in ordered),
            warnings=sum(v.severity == "warning" for v in ordered),
        ),
        manifest=config.manifest,
        manifest_changed=changed,
        notes=tuple(notes),
        known=tuple(known),
        unverified=tuple(sorted(unverified)),
        groups=grouped(ordered),
    )


def inherit_moves(entry: FileEntry, recorded: FileEntry | None) -> FileEntry:
    """Keep the ``moved_from`` acknowledgements the current manifest has for these IDs."""
    if recorded is None:
        return entry
    for chunk in recorded.chunks:
        if chunk.moved_from is not None:
            entry = entry.with_moved_from(chunk.id, chunk.moved_from)
    return entry
