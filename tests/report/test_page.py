"""The report page as a browser shows it: headless Chromium (Debian's ``chromium``,
installed by tests/sites/install-generators) renders the page ``chunkgate report``
wrote, and the tests read its DOM, its network log and a screenshot's pixels."""

from __future__ import annotations

import json
import posixpath
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import invoke
from PIL import Image
from reportrepo import NEAR_COPIES, exported, report_repo

from chunkgate.report.charts import size_bins

CHROMIUM = shutil.which("chromium") or "chromium"
BAR_GREEN = (0x2D, 0xA4, 0x4E)  # .bar.within's fill


def chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Chromium on ``page``, with a fresh profile, its own background requests off and
    no name resolving to anything, so a page that asked for the network could not get it."""
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            f"--user-data-dir={profile}",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--force-device-scale-factor=1",
            "--hide-scrollbars",
            *args,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


class Elements(HTMLParser):
    """Every element's tag, attributes and the text directly inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str], list[str]]] = []
        self._open: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        text: list[str] = []
        self.found.append((tag, {k: v or "" for k, v in attrs}, text))
        self._open.append(text)

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for text in self._open:
            text.append(data)

    def having(self, tag: str, cls: str) -> list[dict[str, str]]:
        return [a for t, a, _ in self.found if t == tag and cls in a.get("class", "").split()]

    def text_of(self, tag: str, **attrs: str) -> str:
        return "".join(
            "".join(text)
            for t, a, text in self.found
            if t == tag and all(a.get(k) == v for k, v in attrs.items())
        )


def page_requests(net_log: Path) -> list[str]:
    """The URLs the page itself asked for (not the browser's own), file: aside."""
    log = json.loads(net_log.read_text(encoding="utf-8"))
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    return sorted(
        event["params"]["url"]
        for event in log["events"]
        if event["type"] == start
        and event.get("params", {}).get("network_isolation_key", "").startswith("file://")
        and not event["params"]["url"].startswith("file:")
    )


def rendered(page: Path, tmp: Path) -> tuple[Elements, list[str]]:
    net_log = tmp / "net.json"
    dom = chromium(page, tmp / "profile", f"--log-net-log={net_log}", "--dump-dom").stdout
    elements = Elements()
    elements.feed(dom)
    return elements, page_requests(net_log)


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    report_repo(tmp_path, monkeypatch)
    page = tmp_path / "report.html"
    assert invoke("report", "-o", str(page)).exit_code == 0
    return page


def test_the_network_check_sees_a_page_that_asks(tmp_path: Path) -> None:
    page = tmp_path / "asks.html"
    page.write_text('<!DOCTYPE html><img src="https://example.com/x.png"><p>hi</p>')
    _, requests = rendered(page, tmp_path)
    assert requests == ["https://example.com/x.png"]


def test_chromium_shows_the_histogram_treemap_largest_and_clusters(
    report: Path, tmp_path: Path
) -> None:
    dom, requests = rendered(report, tmp_path)
    assert requests == []
    assert not [a for _, a, _ in dom.found if any("://" in a.get(k, "") for k in ("src", "href"))]
    records = exported()
    sizes = [int(record["chars"]) for record in records]  # type: ignore[call-overload]

    bars = dom.having("rect", "bar")
    expected = size_bins(sizes, min_size=40, max_size=400)
    assert len(bars) == len(expected)
    peak = max(b.count for b in expected)
    tallest = max(float(bar["height"]) for bar in bars)
    for bar, want in zip(bars, expected, strict=True):
        low, high = int(bar["data-low"]), bar["data-high"]
        count = sum(1 for s in sizes if s >= low and (not high or s <= int(high)))
        assert int(bar["data-count"]) == count == want.count
        assert float(bar["height"]) == pytest.approx(count / peak * tallest, abs=0.01)
    marks = {a["class"]: int(a["data-size"]) for a in dom.having("line", "mark")}
    assert marks == {"mark min": 40, "mark max": 400}  # chars: the token limit is not drawn

    largest = max(records, key=lambda r: (r["chars"], r["id"]))
    assert largest["id"] in dom.text_of("div", id="largest-table")
    assert f"{largest['path']}:{largest['lines'][0]}" in dom.text_of("div", id="largest-table")

    folders: Counter[str] = Counter()
    for record in records:
        folder = posixpath.dirname(str(record["path"]))
        folders[f"{folder}/" if folder else "(root)"] += int(record["chars"])  # type: ignore[call-overload]
    tiles = dom.having("rect", "folder")
    assert sorted(tile["data-folder"] for tile in tiles) == sorted(folders)
    area = sum(float(t["width"]) * float(t["height"]) for t in tiles)
    for tile in tiles:
        share = folders[tile["data-folder"]] / sum(folders.values())
        assert float(tile["width"]) * float(tile["height"]) / area == pytest.approx(share, abs=1e-3)

    clusters = dom.having("h3", "cluster")
    assert len(clusters) == 1
    assert all(chunk_id in dom.text_of("span", **{"class": "id"}) for chunk_id in NEAR_COPIES)


def test_the_screenshot_shows_each_bar_at_its_height(report: Path, tmp_path: Path) -> None:
    """The green columns of the screenshot, left to right: one run of columns per
    non-empty bar within the limits, as tall as the page says it is."""
    shot = tmp_path / "shot.png"
    chromium(report, tmp_path / "profile", "--window-size=1100,700", f"--screenshot={shot}")
    dom, _ = rendered(report, tmp_path)
    want = [
        round(float(bar["height"]))
        for bar in dom.having("rect", "within")
        if int(bar["data-count"])
    ]
    image = Image.open(shot).convert("RGB")
    pixels = image.load()
    heights = [
        sum(1 for y in range(image.height) if pixels[x, y] == BAR_GREEN) for x in range(image.width)
    ]
    runs: list[list[int]] = []
    for x, height in enumerate(heights):
        if height and runs and heights[x - 1]:
            runs[-1].append(height)
        elif height:
            runs.append([height])
    shown = [max(run) for run in runs if len(run) > 2]  # a bar, not a stray pixel
    assert len(shown) == len(want)
    for got, expected in zip(shown, want, strict=True):
        assert abs(got - expected) <= 2
