"""The corpus at a glance (``chunkgate report``): what ``stats`` and ``check`` find, by folder.

Nothing here is measured a second way: the sizes are ``stats``'s (the manifest's
where current), the findings ``check``'s (new and known), and the near-duplicate
clusters are CG502's findings joined into groups, so the page and the commands
always agree.
"""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from chunkgate.config.load import load_config
from chunkgate.core.classes import representatives
from chunkgate.core.model import Summary, Violation
from chunkgate.gate.runs import check_run
from chunkgate.listing import SizedChunk, corpus_sizes, stats_of
from chunkgate.rules.nearduplicates import CODE as NEAR_DUPLICATE
from chunkgate.rules.nearduplicates import original_of
from chunkgate.stats import Stats

ROOT = "."  # the folder of the files at the repository's root


class RuleCount(NamedTuple):
    rule: str
    name: str
    severity: str
    new: int
    known: int  # recorded by the committed manifest: failing nothing


class FolderCount(NamedTuple):
    folder: str
    files: int
    chunks: int
    size: int  # the chunks' sizes added up, in the configured unit
    errors: int
    warnings: int
    known: int


class Member(NamedTuple):
    chunk: SizedChunk
    similar: str  # the CG502 message ("85% the same text as ..."); "" for the original


class Overview(NamedTuple):
    name: str  # the repository folder's name
    stats: Stats
    limit: int  # the hard limit: the embedding model's input, in tokens
    chunks: tuple[SizedChunk, ...]
    summary: Summary
    rules: tuple[RuleCount, ...]
    folders: tuple[FolderCount, ...]
    # CG502's findings joined into groups of near copies; None when CG502 is off
    clusters: tuple[tuple[Member, ...], ...] | None


def folder_of(path: str) -> str:
    return posixpath.dirname(path) or ROOT


def corpus_overview(
    paths: Sequence[str],
    *,
    config_path: Path | None,
    largest: int,
    jobs: int,
    env: Mapping[str, str],
) -> Overview:
    """The corpus (or the named files and folders) as ``stats`` and ``check`` see it."""
    checked = check_run(
        paths,
        whole=not paths,
        hook=False,
        update=False,
        jobs=jobs,
        baseline=None,
        select=None,
        ignore=None,
        strict=False,
        show_known=False,
        config_path=config_path,
        output=None,
        listing=None,
        env=env,
    )
    result = checked.result
    config = load_config(Path.cwd(), config_path=config_path)
    found = corpus_sizes(config, list(paths) or None)
    chunks = tuple(found.chunks)
    findings = (*result.violations, *(v._replace(known=True) for v in result.known))
    near = config.severity(NEAR_DUPLICATE) != "off"
    return Overview(
        name=config.root.name,
        stats=stats_of(config.chunking, found, largest=largest),
        limit=config.chunking.limit,
        chunks=chunks,
        summary=result.summary,
        rules=rule_counts(findings),
        folders=folder_counts(chunks, findings),
        clusters=clusters(chunks, findings) if near else None,
    )


def rule_counts(findings: Iterable[Violation]) -> tuple[RuleCount, ...]:
    counts: Counter[tuple[str, str, str, bool]] = Counter(
        (v.rule, v.name, v.severity, v.known) for v in findings
    )
    rules = sorted({(rule, name, severity) for rule, name, severity, _ in counts})
    return tuple(
        RuleCount(
            rule,
            name,
            severity,
            counts[rule, name, severity, False],
            counts[rule, name, severity, True],
        )
        for rule, name, severity in rules
    )


def folder_counts(
    chunks: Iterable[SizedChunk], findings: Iterable[Violation]
) -> tuple[FolderCount, ...]:
    files: defaultdict[str, set[str]] = defaultdict(set)
    sizes: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for chunk in chunks:
        folder = folder_of(chunk.path)
        files[folder].add(chunk.path)
        sizes[folder] += chunk.size
        counts[folder] += 1
    found: Counter[tuple[str, str]] = Counter()
    for finding in findings:
        folder = folder_of(finding.path)
        files[folder].add(finding.path)
        found[folder, "known" if finding.known else finding.severity] += 1
    return tuple(
        FolderCount(
            folder,
            len(files[folder]),
            counts[folder],
            sizes[folder],
            found[folder, "error"],
            found[folder, "warning"],
            found[folder, "known"],
        )
        for folder in sorted(files)
    )


def clusters(
    chunks: Iterable[SizedChunk], findings: Iterable[Violation]
) -> tuple[tuple[Member, ...], ...]:
    """Each group of chunks CG502 links (a copy to its original, transitively), its
    members in path order, the groups by their first member."""
    similar: dict[str, str] = {}
    links: list[tuple[str, str]] = []
    for finding in findings:
        original = original_of(finding)
        if original is not None and finding.chunk_id is not None:
            similar[finding.chunk_id] = finding.message
            links.append((finding.chunk_id, original))
    by_id = {chunk.id: chunk for chunk in chunks}
    groups: defaultdict[str, list[Member]] = defaultdict(list)
    for chunk_id, representative in sorted(representatives(links).items()):
        chunk = by_id.get(chunk_id, SizedChunk(chunk_id, 0, chunk_id.partition("#")[0], 0))
        groups[representative].append(Member(chunk, similar.get(chunk_id, "")))
    ordered = (tuple(sorted(group, key=_place)) for group in groups.values())
    return tuple(sorted(ordered, key=lambda group: _place(group[0])))


def _place(member: Member) -> tuple[str, int, str]:
    return (member.chunk.path, member.chunk.line, member.chunk.id)
