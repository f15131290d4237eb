"""``eval`` end to end: the golden queries against the corpus now and, with a base
revision, against the corpus then; what got worse and whether that fails the run."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from chunkgate.diff.sides import Snapshot, at_revision, working_tree
from chunkgate.evaluate.golden import EvalRun, QueryResult, evaluate, load_golden


class Regression(NamedTuple):
    query: str
    before: QueryResult
    after: QueryResult


class EvalReport(NamedTuple):
    head: EvalRun
    base: EvalRun | None
    max_drop: float  # fail when recall@k falls by more than this (0.0: any drop)
    min_recall: float | None  # fail when recall@k is below this
    notes: tuple[str, ...] = ()

    @property
    def drop(self) -> float | None:
        return None if self.base is None else self.base.recall - self.head.recall

    @property
    def regressions(self) -> list[Regression]:
        """Queries whose recall@k fell, or whose first hit moved down."""
        if self.base is None:
            return []
        out = []
        for before, after in zip(self.base.results, self.head.results, strict=True):
            worse_rank = before.rank is not None and (after.rank or 1 << 30) > before.rank
            if after.recall < before.recall or worse_rank:
                out.append(Regression(after.query, before, after))
        return out

    def failures(self) -> list[str]:
        reasons = []
        drop = self.drop
        if drop is not None and drop > self.max_drop + 1e-9:
            base = self.base
            assert base is not None
            reasons.append(
                f"recall@{self.head.k} fell from {base.recall:.3f} at {base.name} to "
                f"{self.head.recall:.3f} (by {drop:.3f}, more than --max-drop {self.max_drop:g})"
            )
        if self.min_recall is not None and self.head.recall < self.min_recall - 1e-9:
            reasons.append(
                f"recall@{self.head.k} is {self.head.recall:.3f}, "
                f"under --min-recall {self.min_recall:g}"
            )
        return reasons

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "k": self.head.k,
            "head": _run_dict(self.head),
            "base": _run_dict(self.base) if self.base is not None else None,
            "regressions": [
                {
                    "query": r.query,
                    "recall_before": r.before.recall,
                    "recall_after": r.after.recall,
                    "rank_before": r.before.rank,
                    "rank_after": r.after.rank,
                }
                for r in self.regressions
            ],
            "failures": self.failures(),
        }
        return out


def _run_dict(run: EvalRun) -> dict[str, object]:
    return {
        "name": run.name,
        "chunks": run.chunks,
        "recall": run.recall,
        "mrr": run.mrr,
        "queries": [
            {
                "query": r.query,
                "expected": list(r.expected),
                "found": list(r.found),
                "rank": r.rank,
                "recall": r.recall,
                "reciprocal_rank": r.reciprocal_rank,
                "retrieved": list(r.retrieved),
            }
            for r in run.results
        ],
    }


def run_eval(
    root: Path,
    golden_path: Path,
    *,
    k: int = 5,
    base: str | None = None,
    max_drop: float = 0.0,
    min_recall: float | None = None,
    config_path: Path | None = None,
) -> EvalReport:
    golden = load_golden(golden_path)
    head = working_tree(root, config_path=config_path)
    notes = list(_notes(head))
    base_run = None
    if base is not None:
        old = at_revision(root, base, config_path=config_path)
        notes.extend(_notes(old))
        # Moves either side recorded join the same IDs on both sides.
        moves = head.moves + old.moves
        base_run = evaluate(old.name, old.chunks, golden, k=k, moves=moves, embed=old.embed)
    else:
        moves = head.moves
    head_run = evaluate(head.name, head.chunks, golden, k=k, moves=moves, embed=head.embed)
    return EvalReport(head_run, base_run, max_drop, min_recall, tuple(notes))


def _notes(snapshot: Snapshot) -> list[str]:
    return [f"{snapshot.name}: {reason}" for reason in snapshot.skipped]
