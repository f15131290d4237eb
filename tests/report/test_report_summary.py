"""The job summary at any size: both sections present, valid Markdown, exact counts."""

from __future__ import annotations

import re
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.core.model import CheckResult, Chunk, Summary, Violation
from chunkgate.diff.model import Change, ChangeKind, ChunkDiff
from chunkgate.report.diffmarkdown import CHANGES, UNSTABLE, fit_markdown
from chunkgate.report.github import VIOLATIONS, check_summary
from chunkgate.report.summary import SUMMARY_LIMIT, append_summary, share
from chunkgate.rules import RULES


@pytest.mark.parametrize(
    ("room", "needs", "expected"),
    [
        pytest.param(100, [30, 30], [30, 30], id="all-fit"),
        pytest.param(100, [500, 500], [50, 50], id="equal-halves"),
        pytest.param(100, [10, 500], [10, 90], id="small-leaves-the-rest"),
        pytest.param(100, [500, 10, 20], [70, 10, 20], id="three"),
        pytest.param(0, [5, 5], [0, 0], id="no-room"),
        pytest.param(101, [500, 500], [50, 50], id="odd-byte-unused"),
    ],
)
def test_share(room: int, needs: list[int], expected: list[int]) -> None:
    assert share(room, needs) == expected


@given(st.integers(0, 10_000), st.lists(st.integers(0, 10_000), max_size=4))
def test_share_never_gives_more_than_room_or_need(room: int, needs: list[int]) -> None:
    limits = share(room, needs)
    assert sum(limits) <= room
    assert all(0 <= limit <= need for limit, need in zip(limits, needs, strict=True))
    if sum(needs) <= room:
        assert limits == needs


def violation(i: int) -> Violation:
    severity = "warning" if i % 3 else "error"
    rule = "CG202" if severity == "warning" else "CG201"
    path = f"docs/part `{i % 97}`/a | b_{i}.md"
    return Violation(
        rule,
        RULES[rule].name,
        severity,  # type: ignore[arg-type]
        path,
        i + 1,
        f"{path}#heading-{i}",
        f"chunk is {i:,} chars <b>*long*</b>\nsecond line",
        "add a subheading to split it",
    )


def chunk(i: int, name: str) -> Chunk:
    path = f"docs/`page {i % 50}`.md"
    return Chunk(
        f"{path}#{name}-{i}", path, "section", "markdown", None, (name,), 2,
        i + 1, i + 3, 120, 30, f"{i:016x}", "text", i + 2,
    )  # fmt: skip


def big_diff(count: int) -> ChunkDiff:
    moved = tuple(
        Change(ChangeKind.MOVED, chunk(i, "old"), chunk(i, "new"), 1.0, "body")
        for i in range(count // 10)
    )
    added = tuple(chunk(i, "added") for i in range(count - len(moved)))
    return ChunkDiff("a" * 40, "working tree", "a" * 40, "working tree", added, (), (), moved, 7)


def assert_valid(markdown: str) -> None:
    """Whole constructs only: balanced <details>, every code span closed (no stray
    backtick in the text), five cells in every row of the violations table."""
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    assert html.count("<details>") == html.count("</details>")
    text = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    assert "`" not in text
    for table in re.findall(r"<table>.*?</table>", html, flags=re.S):
        for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S):
            cells = len(re.findall(r"<t[dh][ >]", row))
            assert cells in (2, 4, 5), row


def listed_rows(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("| `"))


def test_both_sections_are_present_and_valid_at_50000_findings(tmp_path: Path) -> None:
    violations = [violation(i) for i in range(50_000)]
    errors = sum(1 for v in violations if v.severity == "error")
    result = CheckResult(
        tuple(violations), Summary(90, 60_000, errors, len(violations) - errors), "m.jsonl"
    )
    diff = big_diff(50_000)
    path = tmp_path / "summary.md"
    path.write_text("# An earlier step\n", encoding="utf-8")
    (check, changes), problem = append_summary(
        str(path), [lambda room: check_summary(result, room), lambda room: fit_markdown(diff, room)]
    )
    assert problem is None
    data = path.read_bytes()
    assert len(data) <= SUMMARY_LIMIT
    text = data.decode("utf-8")
    assert text.count("\n## chunkgate\n") == 1
    assert text.count("### chunkgate diff ") == 1
    # Each got about half of the room: neither pushed the other out.
    assert len(check.text.encode()) > SUMMARY_LIMIT // 3
    assert len(changes.text.encode()) > SUMMARY_LIMIT // 3
    assert_valid(check.text)
    assert_valid(changes.text)
    # Counts that match what is listed.
    rows = listed_rows(check.text)
    assert rows == check.listed[VIOLATIONS]
    assert f"_{50_000 - rows:,} more violations not listed" in check.text
    assert all("(warning)" not in row for row in check.text.splitlines()[:errors] if "| `" in row)
    unstable = changes.listed[UNSTABLE]
    listed = changes.listed[CHANGES]
    assert unstable == len(diff.unstable)  # the unstable IDs come first and all fit
    items = changes.text.split("#### Unstable IDs", 1)[1].count("\n- ")
    assert items == unstable + listed
    assert f"_{50_000 - listed:,} of 50,000 changes not listed" in changes.text


@pytest.mark.parametrize("limit", [400, 700, 1_000, 3_000, 10_000, 40_000])
def test_a_diff_section_cut_anywhere_is_whole(limit: int) -> None:
    diff = big_diff(300)
    fitted = fit_markdown(diff, limit)
    assert len(fitted.text.encode()) <= limit
    assert fitted.text.startswith("### chunkgate diff ")
    assert_valid(fitted.text)
    body = fitted.text.split("\n#### ", 1)
    shown = body[1].count("\n- ") if len(body) > 1 else 0
    assert shown == fitted.listed.get(UNSTABLE, 0) + fitted.listed.get(CHANGES, 0)


def test_a_folded_file_cut_short_says_how_many_it_lists() -> None:
    chunks = tuple(chunk(i * 50, "added") for i in range(40))  # one file, 40 changes
    diff = ChunkDiff("a" * 40, "working tree", "a" * 40, "working tree", chunks, (), (), (), 0)
    fitted = fit_markdown(diff, 1_500)
    listed = fitted.listed[CHANGES]
    assert 0 < listed < 40
    assert f"<details><summary>40 changes, {listed} listed</summary>" in fitted.text
    assert fitted.text.count("</details>") == 1
    assert_valid(fitted.text)


def test_a_full_summary_leaves_out_sections_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_bytes(b"x" * (SUMMARY_LIMIT - 100))
    diff = big_diff(10)
    fitted, problem = append_summary(str(path), [lambda room: fit_markdown(diff, room)])
    assert fitted[0].text == ""
    assert problem == (
        "the job summary is full (GitHub takes 1 MiB a step): "
        "1 of chunkgate's 1 summary sections left out"
    )
    assert path.stat().st_size == SUMMARY_LIMIT - 100


def test_the_sizes_section_is_the_histogram_as_a_table_of_bars() -> None:
    from chunkgate.report.stats import sizes_summary
    from chunkgate.stats import corpus_stats

    sizes = [("a.md#x", 10), *((f"a.md#w{i}", 900) for i in range(4)), ("a.md#big", 2500)]
    stats = corpus_stats(sizes, max_size=2000, min_size=40, unit="chars")
    fitted = sizes_summary(stats)
    assert fitted.listed == {}
    rows = [line for line in fitted.text.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == len(stats.histogram)
    for row, bucket in zip(rows, stats.histogram, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[0] == bucket.label
        assert cells[2] == f"{bucket.count:,}"
        bar = max(1, round(bucket.count / 4 * 30)) if bucket.count else 0  # 4: the peak
        assert cells[1] == "█" * bar
    assert "below size.min (CG202)" in rows[0]
    assert "over size.max (CG201)" in rows[-1]
    rendered = cmarkgfm.github_flavored_markdown_to_html(fitted.text)
    assert rendered.count("<tr>") == len(stats.histogram) + 1
    assert sizes_summary(stats, limit=50).text == ""


def test_the_sizes_section_names_the_models_tokens() -> None:
    """With ``embed.model`` named, the job summary's sizes are in its tokenizer's tokens,
    and its heading says so, as ``stats`` does."""
    from chunkgate.report.stats import sizes_summary
    from chunkgate.stats import corpus_stats

    sizes = [("a.md#x", 120), ("a.md#y", 600)]
    model = "bge-small-en-v1.5"
    stats = corpus_stats(sizes, max_size=384, min_size=10, unit="tokens", model=model)
    lines = sizes_summary(stats).text.splitlines()
    assert lines[1] == f"### chunk sizes (tokens of {model})"
    assert lines[3].startswith(f"2 chunks, 720 tokens of {model} in total")
    plain = corpus_stats(sizes, max_size=384, min_size=10, unit="tokens")
    assert sizes_summary(plain).text.splitlines()[1] == "### chunk sizes (tokens)"
