from __future__ import annotations

import io
import json

import pytest

from chunkgate.report.stats import write_stats
from chunkgate.stats import Bucket, Stats, bucket_edges, corpus_stats, percentile


def stats_of(sizes: list[int], *, max_size: int = 2000, min_size: int = 40, **kw: int) -> Stats:
    pairs = [(f"docs/f.md#s{i:03}", size) for i, size in enumerate(sizes)]
    return corpus_stats(pairs, max_size=max_size, min_size=min_size, unit="chars", **kw)


def test_percentiles_on_one_to_a_hundred() -> None:
    stats = stats_of(list(range(100, 0, -1)))
    assert (stats.count, stats.total, stats.max) == (100, 5050, 100)
    assert stats.mean == 50.5
    assert stats.median == 50.5
    assert (stats.p90, stats.p99) == (90, 99)


@pytest.mark.parametrize(
    ("sizes", "percent", "expected"),
    [
        pytest.param([7], 90, 7, id="one"),
        pytest.param([1, 2], 50, 1, id="two-median-rank"),
        pytest.param([1, 2], 90, 2, id="two-p90"),
        pytest.param(list(range(1, 11)), 90, 9, id="ten-p90"),
        pytest.param(list(range(1, 11)), 99, 10, id="ten-p99"),
        pytest.param(list(range(1, 1001)), 99, 990, id="thousand-p99"),
        pytest.param([], 90, 0, id="none"),
    ],
)
def test_nearest_rank_percentile(sizes: list[int], percent: float, expected: int) -> None:
    assert percentile(sizes, percent) == expected


def test_median_of_an_odd_count_and_skewed_data() -> None:
    stats = stats_of([10, 10, 10, 10, 5000])
    assert stats.median == 10
    assert stats.mean == 1008
    assert stats.p90 == stats.p99 == stats.max == 5000


def test_empty_corpus() -> None:
    stats = stats_of([])
    assert (stats.count, stats.total, stats.mean, stats.median) == (0, 0, 0.0, 0)
    assert (stats.p90, stats.p99, stats.max, stats.over_max, stats.under_min) == (0, 0, 0, 0, 0)
    assert stats.largest == ()
    assert [bucket.count for bucket in stats.histogram] == [0] * 6
    json.dumps(stats.to_dict())


def test_histogram_buckets_follow_the_limits() -> None:
    assert bucket_edges(max_size=2000, min_size=40) == [
        (0, 39, "under"),
        (40, 499, "within"),
        (500, 999, "within"),
        (1000, 1499, "within"),
        (1500, 2000, "within"),
        (2001, None, "over"),
    ]


def test_histogram_boundaries() -> None:
    sizes = [0, 39, 40, 499, 500, 1999, 2000, 2001, 99999]
    stats = stats_of(sizes)
    assert [(b.label, b.count) for b in stats.histogram] == [
        ("< 40", 2),
        ("40–499", 2),
        ("500–999", 1),
        ("1,000–1,499", 0),
        ("1,500–2,000", 2),
        ("> 2,000", 2),
    ]
    assert sum(b.count for b in stats.histogram) == len(sizes)
    assert stats.under_min == stats.histogram[0].count == 2
    assert stats.over_max == stats.histogram[-1].count == 2


@pytest.mark.parametrize(
    ("max_size", "min_size", "edges"),
    [
        pytest.param(
            2000,
            600,
            [(0, 599, "under"), (600, 999, "within"), (1000, 1499, "within")],
            id="min-above-the-first-quarter",
        ),
        pytest.param(
            100, 0, [(0, 24, "within"), (25, 49, "within"), (50, 74, "within")], id="no-minimum"
        ),
        pytest.param(50, 50, [(0, 49, "under"), (50, 50, "within")], id="min-equals-max"),
    ],
)
def test_histogram_edges_with_unusual_limits(
    max_size: int, min_size: int, edges: list[tuple[int, int | None, str]]
) -> None:
    got = bucket_edges(max_size=max_size, min_size=min_size)
    assert got[: len(edges)] == edges
    assert got[-1] == (max_size + 1, None, "over")
    lows = [low for low, _, _ in got]
    assert lows == sorted(set(lows))


def test_largest_are_ordered_by_size_then_id() -> None:
    pairs = [("b.md#x", 50), ("a.md#y", 50), ("c.md#z", 900), ("d.md#w", 10)]
    stats = corpus_stats(pairs, max_size=100, min_size=20, unit="tokens", largest=3)
    assert stats.largest == (("c.md#z", 900), ("a.md#y", 50), ("b.md#x", 50))
    assert corpus_stats(pairs, max_size=100, min_size=20, unit="tokens", largest=0).largest == ()


def test_to_dict() -> None:
    data = stats_of([10, 100, 3000], largest=2).to_dict()
    assert data == {
        "unit": "chars",
        "model": None,
        "limits": {"min": 40, "max": 2000},
        "count": 3,
        "total": 3110,
        "mean": 1036.67,
        "median": 100,
        "p90": 3000,
        "p99": 3000,
        "max": 3000,
        "over_max": 1,
        "under_min": 1,
        "largest": [{"id": "docs/f.md#s002", "size": 3000}, {"id": "docs/f.md#s001", "size": 100}],
        "histogram": [
            {"low": 0, "high": 39, "count": 1, "kind": "under"},
            {"low": 40, "high": 499, "count": 1, "kind": "within"},
            {"low": 500, "high": 999, "count": 0, "kind": "within"},
            {"low": 1000, "high": 1499, "count": 0, "kind": "within"},
            {"low": 1500, "high": 2000, "count": 0, "kind": "within"},
            {"low": 2001, "high": None, "count": 1, "kind": "over"},
        ],
        "known": {},
    }


def test_known_problems_by_rule() -> None:
    stats = corpus_stats(
        [("a.md#x", 10)], max_size=100, min_size=20, unit="chars", known={"CG302": 2, "CG201": 1}
    )
    assert stats.known == (("CG201", 1), ("CG302", 2))
    assert stats.to_dict()["known"] == {"CG201": 1, "CG302": 2}
    out = io.StringIO()
    write_stats(stats, "text", out)
    assert "3 known problems the manifest records: CG201 1, CG302 2\n" in out.getvalue()


def test_bucket_labels() -> None:
    assert Bucket(0, 39, 0, "under").label == "< 40"
    assert Bucket(2001, None, 0, "over").label == "> 2,000"
    assert Bucket(1000, 1499, 0, "within").label == "1,000–1,499"


SAMPLE = [5, 30, 120, 480, 510, 900, 1200, 1800, 2000, 2400, 9214] + [300] * 20


def render(stats: Stats, fmt: str) -> str:
    stream = io.StringIO()
    write_stats(stats, fmt, stream)
    return stream.getvalue()


def test_text_report() -> None:
    lines = render(stats_of(SAMPLE, largest=3), "text").splitlines()
    assert lines[:3] == [
        "31 chunks, 24,659 chars in total (size.min 40, size.max 2,000 chars)",
        "mean 795.5  median 300  p90 1,800  p99 9,214  max 9,214",
        "2 over size.max (CG201), 2 under size.min (CG202)",
    ]
    histogram = lines.index("histogram (chars)")
    assert [line.split() for line in lines[histogram + 1 : histogram + 7]] == [
        ["<", "40", "###", "2", "below", "size.min", "(CG202)"],
        ["40–499", "#" * 30, "22"],
        ["500–999", "###", "2"],
        ["1,000–1,499", "#", "1"],
        ["1,500–2,000", "###", "2"],
        [">", "2,000", "###", "2", "over", "size.max", "(CG201)"],
    ]
    largest = lines.index("largest chunks (chars)")
    assert lines[largest + 1 :] == [
        "  9,214  docs/f.md#s010",
        "  2,400  docs/f.md#s009",
        "  2,000  docs/f.md#s008",
    ]


def test_text_report_of_an_empty_corpus() -> None:
    assert render(stats_of([]), "text") == (
        "0 chunks, 0 chars in total (size.min 40, size.max 2,000 chars)\n"
    )


def test_json_report() -> None:
    stats = stats_of(SAMPLE)
    assert json.loads(render(stats, "json")) == stats.to_dict()


@pytest.fixture
def plain_console(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "80")


@pytest.mark.usefixtures("plain_console")
def test_rich_report_marks_the_limits() -> None:
    out = render(stats_of(SAMPLE), "rich")
    assert "\x1b[" not in out
    lines = [line.rstrip() for line in out.splitlines()]
    assert all(len(line) <= 80 for line in lines)
    assert lines[0] == "31 chunks, 24,659 chars in total (size.min 40, size.max 2,000 chars)"
    min_line = next(i for i, line in enumerate(lines) if "size.min 40 ┄" in line)
    max_line = next(i for i, line in enumerate(lines) if "size.max 2,000 ┄" in line)
    assert "< 40" in lines[min_line - 1]
    assert "> 2,000" in lines[max_line + 1]
    assert "█" * 30 in lines[min_line + 1]
    assert any(line.endswith("docs/f.md#s010") and "9,214" in line for line in lines)


@pytest.mark.usefixtures("plain_console")
def test_rich_report_of_an_empty_corpus() -> None:
    assert render(stats_of([]), "rich").splitlines()[-1] == "no chunks"


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'sarif' for `chunkgate stats`"):
        write_stats(stats_of([]), "sarif", io.StringIO())
