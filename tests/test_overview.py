"""The report's figures: findings by rule and by folder, CG502's findings as clusters."""

from __future__ import annotations

from chunkgate.core.model import Violation
from chunkgate.listing import SizedChunk
from chunkgate.overview import FolderCount, Member, RuleCount, clusters, folder_counts, rule_counts


def _near(copy: str, original: str, percent: int = 90) -> Violation:
    path = copy.partition("#")[0]
    return Violation(
        "CG502", "near-duplicate", "warning", path, 1, copy,
        f"{percent}% the same text as {original}", "keep one copy",
    )  # fmt: skip


def _chunk(chunk_id: str, line: int = 1, size: int = 100) -> SizedChunk:
    return SizedChunk(chunk_id, size, chunk_id.partition("#")[0], line)


def test_near_copies_of_near_copies_are_one_cluster() -> None:
    chunks = [_chunk("a.md#x"), _chunk("b.md#y"), _chunk("c/d.md#z", 5), _chunk("e.md#w")]
    findings = [
        _near("b.md#y", "a.md#x"),
        _near("c/d.md#z", "b.md#y", 85),
        _near("e.md#w", "e.md#v"),  # its original is outside the named files
        Violation("CG202", "undersized", "warning", "a.md", 1, "a.md#x", "tiny"),
    ]
    found = clusters(chunks, findings)
    assert [[m.chunk.id for m in group] for group in found] == [
        ["a.md#x", "b.md#y", "c/d.md#z"],
        ["e.md#v", "e.md#w"],
    ]
    assert found[0][0] == Member(chunks[0], "")
    assert found[0][2].similar == "85% the same text as b.md#y"
    assert clusters(chunks, findings[3:]) == ()


def test_findings_by_rule_and_by_folder_count_new_and_known_apart() -> None:
    chunks = [_chunk("README.md#a", size=50), _chunk("docs/x.md#b"), _chunk("docs/x.md#c", 3)]
    findings = [
        Violation("CG201", "oversized", "error", "docs/x.md", 3, "docs/x.md#c", "big"),
        Violation("CG201", "oversized", "error", "docs/x.md", 1, "docs/x.md#b", "big", known=True),
        Violation("CG001", "unreadable", "error", "data/y.md", 1, None, "binary"),
    ]
    assert rule_counts(findings) == (
        RuleCount("CG001", "unreadable", "error", 1, 0),
        RuleCount("CG201", "oversized", "error", 1, 1),
    )
    assert folder_counts(chunks, findings) == (
        FolderCount(".", 1, 1, 50, 0, 0, 0),
        FolderCount("data", 1, 0, 0, 1, 0, 0),
        FolderCount("docs", 1, 2, 200, 1, 0, 1),
    )
