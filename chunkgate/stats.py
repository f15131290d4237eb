"""The chunk size distribution against the configured limits (``chunkgate stats``).

Percentiles are nearest-rank: ``p90`` is the smallest size that at least 90%
of chunks do not exceed, always the size of a real chunk. The median is the
usual one (the mean of the two middle sizes for an even count). An empty
corpus gives zeros everywhere.

The histogram's buckets follow the limits: below ``min`` (CG202), then the
quarters of ``max`` (those above ``min``), the last one ending at ``max``
inclusive, then above ``max`` (CG201).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

BucketKind = Literal["under", "within", "over"]


@dataclass(frozen=True, slots=True)
class Bucket:
    """Sizes ``low..high`` inclusive; ``high`` None means no upper bound."""

    low: int
    high: int | None
    count: int
    kind: BucketKind

    @property
    def label(self) -> str:
        if self.kind == "under":
            return f"< {self.high + 1 if self.high is not None else 0:,}"
        if self.high is None:
            return f"> {self.low - 1:,}"
        return f"{self.low:,}–{self.high:,}"

    def to_dict(self) -> dict[str, object]:
        return {"low": self.low, "high": self.high, "count": self.count, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class Stats:
    unit: str
    max_size: int
    min_size: int
    count: int
    total: int
    mean: float
    median: float
    p90: int
    p99: int
    max: int
    largest: tuple[tuple[str, int], ...]
    over_max: int
    under_min: int
    histogram: tuple[Bucket, ...]
    known: tuple[tuple[str, int], ...] = ()  # (rule, count) of what the manifest records
    model: str | None = None  # embed.model: tokens are its tokenizer's

    def to_dict(self) -> dict[str, object]:
        return {
            "unit": self.unit,
            "model": self.model,
            "limits": {"min": self.min_size, "max": self.max_size},
            "count": self.count,
            "total": self.total,
            "mean": round(self.mean, 2),
            "median": self.median,
            "p90": self.p90,
            "p99": self.p99,
            "max": self.max,
            "over_max": self.over_max,
            "under_min": self.under_min,
            "largest": [{"id": chunk_id, "size": size} for chunk_id, size in self.largest],
            "histogram": [bucket.to_dict() for bucket in self.histogram],
            "known": dict(self.known),
        }


def percentile(ordered: Sequence[int], percent: float) -> int:
    """Nearest-rank percentile of sizes sorted ascending (0 for none)."""
    if not ordered:
        return 0
    rank = max(1, math.ceil(percent / 100 * len(ordered)))
    return ordered[rank - 1]


def bucket_edges(*, max_size: int, min_size: int) -> list[tuple[int, int | None, BucketKind]]:
    """``(low, high, kind)`` of every bucket, ``high`` inclusive."""
    edges: list[tuple[int, int | None, BucketKind]] = []
    if min_size > 0:
        edges.append((0, min_size - 1, "under"))
    starts = [min_size] + [
        point for point in (max_size // 4, max_size // 2, max_size * 3 // 4) if point > min_size
    ]
    ends = [start - 1 for start in starts[1:]] + [max_size]
    edges += [(low, high, "within") for low, high in zip(starts, ends, strict=True)]
    edges.append((max_size + 1, None, "over"))
    return edges


def corpus_stats(
    sizes: Sequence[tuple[str, int]],
    *,
    max_size: int,
    min_size: int,
    unit: str,
    largest: int = 10,
    known: Mapping[str, int] | None = None,
    model: str | None = None,
) -> Stats:
    ordered = sorted(size for _, size in sizes)
    total = sum(ordered)
    histogram = tuple(
        Bucket(
            low,
            high,
            sum(1 for size in ordered if low <= size and (high is None or size <= high)),
            kind,
        )
        for low, high, kind in bucket_edges(max_size=max_size, min_size=min_size)
    )
    return Stats(
        unit=unit,
        max_size=max_size,
        min_size=min_size,
        count=len(ordered),
        total=total,
        mean=total / len(ordered) if ordered else 0.0,
        median=statistics.median(ordered) if ordered else 0,
        p90=percentile(ordered, 90),
        p99=percentile(ordered, 99),
        max=ordered[-1] if ordered else 0,
        largest=tuple(sorted(sizes, key=lambda item: (-item[1], item[0]))[: max(largest, 0)]),
        over_max=sum(1 for size in ordered if size > max_size),
        under_min=sum(1 for size in ordered if size < min_size),
        histogram=histogram,
        known=tuple(sorted((known or {}).items())),
        model=model,
    )
