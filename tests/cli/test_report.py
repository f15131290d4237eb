"""``chunkgate report``: the page agrees with ``check`` and ``stats``, is the same bytes
every run, in process and as a process, and replaces its file only when it is whole."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from helpers import check_json, cli_process, invoke, run, write
from reportrepo import NEAR_COPIES, report_repo

from chunkgate.report.page import NEAR_DUPLICATES_OFF


def _rule_rows(page: str) -> dict[str, tuple[int, int]]:
    section = page.partition('id="rules"')[2].partition("<h2")[0]
    rows = re.findall(
        r"<tr><td><code>(CG\d+)</code></td><td>[^<]*</td><td>\w+</td>"
        r'<td class="n">([\d,]+)</td><td class="n">([\d,]+)</td></tr>',
        section,
    )
    return {
        rule: (int(new.replace(",", "")), int(known.replace(",", ""))) for rule, new, known in rows
    }


def test_the_page_agrees_with_check_and_stats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = report_repo(tmp_path, monkeypatch)
    code, output = run("report", "-o", "out/report.html")
    assert code == 0, output
    assert output == "out/report.html: 5 files, 10 chunks\n"
    page = (repo / "out" / "report.html").read_text(encoding="utf-8")
    _, checked = check_json("--show-known")
    expected: dict[str, list[int]] = {}
    for finding in checked["violations"]:  # the known ones listed too (--show-known)
        expected.setdefault(finding["rule"], [0, 0])[0] += 1
    for finding in checked["known"]:
        expected[finding["rule"]][0] -= 1
        expected[finding["rule"]][1] += 1
    assert _rule_rows(page) == {rule: tuple(counts) for rule, counts in expected.items()}
    assert _rule_rows(page)["CG202"] == (1, 1)  # docs/new.md's is new, docs/guide.md's known
    stats = json.loads(invoke("stats", "--format", "json").output)
    largest = stats["largest"][0]["id"]
    assert f'<span class="id">{html.escape(largest)}</span>' in page
    assert largest == "docs/guide.md#wide"
    cluster = page.partition('id="near-duplicates"')[2]
    assert all(chunk_id in cluster for chunk_id in NEAR_COPIES)
    assert "the same text as docs/api/linux.md#linux" in cluster
    assert not re.search(r"(src|href)=|https?:|@import|url\(|<script", page)


def test_the_same_corpus_gives_the_same_bytes_in_process_and_as_a_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = report_repo(tmp_path, monkeypatch)
    assert run("report", "-o", str(tmp_path / "first.html"))[0] == 0
    assert run("report", "-q", "-o", str(tmp_path / "second.html")) == (0, "")
    done = cli_process(repo, "report")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == "chunkgate-report.html: 5 files, 10 chunks\n"
    first = (tmp_path / "first.html").read_bytes()
    assert first == (tmp_path / "second.html").read_bytes()
    assert first == (repo / "chunkgate-report.html").read_bytes()


def test_named_paths_narrow_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = report_repo(tmp_path, monkeypatch)
    assert run("report", "docs/api", "-o", "api.html")[0] == 0
    page = (repo / "api.html").read_text(encoding="utf-8")
    assert "2 files, 2 chunks" in page
    assert "docs/guide.md" not in page
    assert all(chunk_id in page for chunk_id in NEAR_COPIES)


def test_near_duplicates_off_says_how_to_turn_them_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = report_repo(tmp_path, monkeypatch)
    write(repo, ".chunkgate.yaml", "size: {max: 400, min: 40}\n")
    assert run("report")[0] == 0
    page = (repo / "chunkgate-report.html").read_text(encoding="utf-8")
    assert NEAR_DUPLICATES_OFF in page
    assert "rules: {CG502: warning}" in page
    assert "chunkgate[neardup]" in page


def test_a_failed_run_leaves_the_old_page_and_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = report_repo(tmp_path, monkeypatch)
    out = tmp_path / "pages"
    out.mkdir()
    (out / "report.html").write_text("the old page")
    write(repo, ".chunkgate.yaml", "size: {max: nope}\n")
    code, output = run("report", "-o", str(out / "report.html"))
    assert code == 2
    assert "size.max" in output
    assert [p.name for p in out.iterdir()] == ["report.html"]
    assert (out / "report.html").read_text() == "the old page"


def test_report_is_a_command() -> None:
    code, output = run("--help")
    assert code == 0
    assert re.search(r"^\s+report\s+Write the corpus", output, re.M)


@pytest.mark.parametrize(("limit", "where"), [(160, "drawn above"), (5000, "past the histogram")])
def test_token_sizes_draw_the_hard_limit_when_it_is_on_the_axis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int, where: str
) -> None:
    repo = report_repo(tmp_path, monkeypatch)
    write(repo, ".chunkgate.yaml", f"size: {{unit: tokens, max: 100, min: 10, limit: {limit}}}\n")
    assert run("report")[0] == 0
    page = (repo / "chunkgate-report.html").read_text(encoding="utf-8")
    assert "Chunk sizes (tokens)" in page
    assert (f'class="mark limit" data-size="{limit}"' in page) == (where == "drawn above")
    assert f"is {limit:,} tokens of the embed text ({where}" in page
