"""The report's SVG: the size bins against the limits, the histogram's bars, the treemap."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.report.charts import (
    Bin,
    Folder,
    histogram_svg,
    label_lines,
    size_bins,
    treemap_svg,
)


def test_bins_follow_the_limits() -> None:
    bins = size_bins(
        [0, 39, 40, 199, 200, 2000, 2001, 2200, 2201, 9000], min_size=40, max_size=2000
    )
    assert bins[0] == Bin(0, 39, 2, "under")
    assert bins[1] == Bin(40, 199, 2, "within")
    assert [b.low for b in bins if b.kind == "within"] == [40, *range(200, 2000, 200)]
    assert bins[10] == Bin(1800, 2000, 1, "within")
    over = [b for b in bins if b.kind == "over"]
    assert over[0] == Bin(2001, 2200, 2, "over")
    assert over[-1].high is None  # the last one is open: the 9,000 is counted
    assert sum(b.count for b in bins) == 10


def test_no_bin_under_a_zero_minimum_and_one_over_bin_when_none_is_over() -> None:
    bins = size_bins([5, 10], min_size=0, max_size=100)
    assert bins[0] == Bin(0, 9, 1, "within")
    assert [b for b in bins if b.kind == "over"] == [Bin(101, 110, 0, "over")]


@given(
    st.lists(st.integers(0, 50_000), max_size=200),
    st.integers(1, 10_000),
    st.data(),
)
def test_every_size_is_in_exactly_one_bin(
    sizes: list[int], max_size: int, data: st.DataObject
) -> None:
    min_size = data.draw(st.integers(0, max_size))
    bins = size_bins(sizes, min_size=min_size, max_size=max_size)
    for size in sizes:
        holding = [b for b in bins if b.low <= size and (b.high is None or size <= b.high)]
        assert len(holding) == 1
        assert holding[0].kind == (
            "under" if size < min_size else "over" if size > max_size else "within"
        )
    assert sum(b.count for b in bins) == len(sizes)


def _rects(svg: str, kind: str) -> list[dict[str, str]]:
    return [
        dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        for tag in re.findall(rf'<rect class="{kind}[^>]*>', svg)
    ]


def test_bar_heights_are_proportional_to_counts_and_the_limits_are_marked() -> None:
    bins = size_bins([10, 50, 50, 50, 900, 1500, 1500, 2500], min_size=40, max_size=2000)
    svg = histogram_svg(bins, min_size=40, max_size=2000, limit=2400, unit="tokens")
    bars = _rects(svg, "bar")
    assert [int(bar["data-count"]) for bar in bars] == [b.count for b in bins]
    tallest = max(float(bar["height"]) for bar in bars)
    for bar in bars:
        assert float(bar["height"]) == pytest.approx(int(bar["data-count"]) / 3 * tallest, abs=0.01)
    assert 'class="mark min" data-size="40"' in svg
    assert 'class="mark max" data-size="2000"' in svg
    assert 'class="mark limit" data-size="2400"' in svg
    without = histogram_svg(bins, min_size=40, max_size=2000, limit=None, unit="chars")
    assert "mark limit" not in without


def test_one_tile_per_folder_its_area_its_size_and_names_escaped() -> None:
    folders = [Folder("docs/", 300, 3, 0), Folder("<b>/", 100, 1, 1), Folder("api/", 600, 9, 9)]
    svg = treemap_svg(folders, "chars")
    tiles = _rects(svg, "folder")
    assert sorted(tile["data-folder"] for tile in tiles) == ["&lt;b&gt;/", "api/", "docs/"]
    total = sum(float(t["width"]) * float(t["height"]) for t in tiles)
    for tile in tiles:
        share = int(tile["data-size"]) / 1000
        assert float(tile["width"]) * float(tile["height"]) / total == pytest.approx(
            share, abs=0.001
        )
    assert 'class="folder many"' in svg
    assert 'class="folder clean"' in svg
    assert "<b>" not in svg


@pytest.mark.parametrize(
    ("width", "height", "lines"),
    [
        pytest.param(400, 100, ["docs/es/docs/tutorial/"], id="one-line"),
        pytest.param(100, 100, ["docs/es/docs/", "tutorial/"], id="broken-after-a-slash"),
        pytest.param(72, 100, ["docs/es/", "docs/", "tutorial/"], id="three-lines"),
        pytest.param(72, 50, ["…/docs/", "tutorial/"], id="too-low-for-all"),
        pytest.param(60, 400, [], id="a-part-too-wide"),
        pytest.param(72, 20, [], id="too-low"),
    ],
)
def test_a_label_is_the_whole_path_in_the_lines_the_tile_holds(
    width: float, height: float, lines: list[str]
) -> None:
    assert label_lines("docs/es/docs/tutorial/", width, height) == lines
    assert label_lines("(root)", 400, 100) == ["(root)"]


def test_the_label_lines_are_tspans_of_the_tile() -> None:
    svg = treemap_svg([Folder("docs/es/docs/tutorial/", 1, 1, 0), Folder("b/", 9, 1, 0)], "chars")
    (label,) = re.findall(r'<text class="label"[^>]*>(.*?)</text>', svg.split("</g>")[1])
    assert re.findall(r">([^<]+)</tspan>", label) == ["docs/es/docs/", "tutorial/"]  # 96 wide
