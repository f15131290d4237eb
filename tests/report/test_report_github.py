from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from chunkgate.core.model import CheckResult, Summary, Unverified, Violation
from chunkgate.report.check import write_check
from chunkgate.report.github import (
    MAX_ANNOTATIONS,
    SUMMARY_LIMIT,
    annotation,
    by_priority,
    cell,
    code_cell,
    escape_data,
    escape_property,
    job_summary,
)
from chunkgate.rules import PRIORITY, RULES


def violation(
    rule: str = "CG201",
    severity: str = "error",
    path: str = "docs/a.md",
    line: int = 1,
    *,
    chunk_id: str | None = None,
    message: str = "section is 2,500 chars, over size.max 2,000",
    fix: str = "add a subheading to split it",
) -> Violation:
    name = RULES[rule].name if rule in RULES else "future-rule"
    return Violation(rule, name, severity, path, line, chunk_id, message, fix)  # type: ignore[arg-type]


def result_of(violations: list[Violation], *, notes: tuple[str, ...] = ()) -> CheckResult:
    errors = sum(1 for v in violations if v.severity == "error")
    return CheckResult(
        tuple(sorted(violations, key=Violation.sort_key)),
        Summary(3, 40, errors, len(violations) - errors),
        "chunkgate.manifest.jsonl",
        notes=notes,
    )


def render(result: CheckResult, env: dict[str, str], *, quiet: bool = False) -> list[str]:
    stream = io.StringIO()
    write_check(result, "github", stream, quiet=quiet, env=env)
    return stream.getvalue().splitlines()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("plain text", "plain text", id="plain"),
        pytest.param("100% done", "100%25 done", id="percent"),
        pytest.param("a\rb", "a%0Db", id="cr"),
        pytest.param("a\nb", "a%0Ab", id="lf"),
        pytest.param("a\r\nb", "a%0D%0Ab", id="crlf"),
        pytest.param("%0A", "%250A", id="percent-first"),
        pytest.param("a:b,c", "a:b,c", id="colon-comma-kept"),
        pytest.param("::error::x", "::error::x", id="command-like"),
        pytest.param("ünïcode ✖ 日本", "ünïcode ✖ 日本", id="unicode"),
    ],
)
def test_escape_data(text: str, expected: str) -> None:
    assert escape_data(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("docs/a.md", "docs/a.md", id="plain"),
        pytest.param("a:b", "a%3Ab", id="colon"),
        pytest.param("a,b", "a%2Cb", id="comma"),
        pytest.param("50%,\n:", "50%25%2C%0A%3A", id="all"),
        pytest.param("a\r\nb", "a%0D%0Ab", id="crlf"),
        pytest.param("dös/ü.md", "dös/ü.md", id="unicode"),
    ],
)
def test_escape_property(text: str, expected: str) -> None:
    assert escape_property(text) == expected


def test_annotation() -> None:
    assert annotation(violation(path="docs/a,b:c.md", line=12, message="50%\nof it")) == (
        "::error file=docs/a%2Cb%3Ac.md,line=12,title=CG201 oversized::"
        "50%25%0Aof it (fix: add a subheading to split it)"
    )
    assert annotation(violation("CG202", "warning", fix="")) == (
        "::warning file=docs/a.md,line=1,title=CG202 undersized::"
        "section is 2,500 chars, over size.max 2,000"
    )


def test_annotation_without_a_line() -> None:
    assert annotation(violation("CG401", line=0)).startswith(
        "::error file=docs/a.md,title=CG401 stale-manifest::"
    )


def test_every_rule_has_a_priority() -> None:
    assert sorted(PRIORITY) == sorted(RULES)
    assert len(set(PRIORITY)) == len(PRIORITY)


def test_priority_errors_first_then_rule_order_then_path_and_line() -> None:
    ordered = by_priority(
        [
            violation("CG501", "warning"),
            violation("CG101", path="b.md"),
            violation("CG201", path="b.md", line=9),
            violation("CG201", path="a.md", line=30),
            violation("CG201", path="a.md", line=4),
            violation("CG402"),
            violation("CG301"),
            violation("CG001"),
            violation("CG999"),
            violation("CG304", "warning"),
            violation("CG501", "error"),
        ]
    )
    assert [(v.rule, v.severity, v.path, v.line) for v in ordered] == [
        ("CG001", "error", "docs/a.md", 1),
        ("CG301", "error", "docs/a.md", 1),
        ("CG402", "error", "docs/a.md", 1),
        ("CG201", "error", "a.md", 4),
        ("CG201", "error", "a.md", 30),
        ("CG201", "error", "b.md", 9),
        ("CG101", "error", "b.md", 1),
        ("CG501", "error", "docs/a.md", 1),
        ("CG999", "error", "docs/a.md", 1),
        ("CG304", "warning", "docs/a.md", 1),
        ("CG501", "warning", "docs/a.md", 1),
    ]


def many() -> list[Violation]:
    errors = [violation("CG201", path=f"docs/{i:02}.md") for i in range(12)]
    errors += [violation("CG001", path="z.py"), violation("CG402", path="y.md")]
    warnings = [violation("CG202", "warning", path=f"w/{i:02}.md") for i in range(11)]
    warnings.append(violation("CG304", "warning", path="toc.md"))
    return errors + warnings


def test_at_most_ten_errors_and_ten_warnings_worst_first(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    lines = render(result_of(many()), {"GITHUB_STEP_SUMMARY": str(summary)})
    errors = [line for line in lines if line.startswith("::error ")]
    warnings = [line for line in lines if line.startswith("::warning ")]
    # The step fails: one error of the ten is the runner's "Process completed with exit code 1".
    assert len(errors) == MAX_ANNOTATIONS - 1
    assert len(warnings) == MAX_ANNOTATIONS
    assert lines[: len(errors)] == errors  # errors before warnings
    assert "file=z.py" in errors[0]
    assert "file=y.md" in errors[1]
    assert all("title=CG201" in line for line in errors[2:])
    assert "file=docs/00.md" in errors[2]
    assert "file=toc.md" in warnings[0]
    assert lines[19:] == [
        "::notice title=chunkgate%3A more findings::5 more errors and 2 more warnings not "
        "annotated (GitHub shows 10 of each level per step): all are listed in the job summary",
        "3 files, 40 chunks: 14 errors, 12 warnings",
    ]


def test_a_passing_step_shows_ten_errors() -> None:
    # Only warnings fail nothing; errors are what fail, so here: ten warnings, no reserve.
    warnings = [violation("CG202", "warning", path=f"w/{i:02}.md") for i in range(12)]
    lines = render(result_of(warnings), {})
    assert sum(line.startswith("::warning ") for line in lines) == MAX_ANNOTATIONS


def test_the_more_line_is_singular_and_without_a_summary_says_how_to_list() -> None:
    violations = [violation("CG201", path=f"docs/{i:02}.md") for i in range(10)]
    lines = render(result_of(violations), {})
    assert lines[-2] == (
        "::notice title=chunkgate%3A more findings::1 more error not annotated (GitHub shows "
        "10 of each level per step): `chunkgate check --format text` lists them all"
    )


def test_the_more_line_counts_what_the_summary_lists(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * (SUMMARY_LIMIT - 6_000))
    lines = render(result_of(flood(300)), {"GITHUB_STEP_SUMMARY": str(summary)})
    listed = sum(1 for line in summary.read_text().splitlines() if line.startswith("| `"))
    hidden = 300 - (MAX_ANNOTATIONS - 1) - MAX_ANNOTATIONS
    (more,) = [line for line in lines if line.startswith("::notice")]
    in_summary = listed - (MAX_ANNOTATIONS - 1)  # errors come first in both
    assert 0 < in_summary < hidden
    assert more.endswith(
        f"not annotated (GitHub shows 10 of each level per step): {in_summary} are listed in "
        "the job summary; `chunkgate check --format text` lists them all"
    )


def test_quiet_annotates_only_errors() -> None:
    lines = render(result_of(many()), {}, quiet=True)
    assert len(lines) == MAX_ANNOTATIONS
    assert all(line.startswith("::error ") for line in lines[:-1])
    assert lines[-1].startswith("::notice title=chunkgate%3A more findings::5 more errors not")


def test_no_violations() -> None:
    assert render(result_of([]), {}) == ["3 files, 40 chunks: no problems"]


def test_job_summary_is_appended(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("# Earlier step output\n", encoding="utf-8")
    tricky = violation(
        "CG304",
        "warning",
        path="docs/a|b.md",
        line=5,
        chunk_id="docs/a|b.md#toc",
        message="links | 90%\nof the text is links",
        fix="write *prose* <b>between</b> links",
    )
    result = result_of([violation(chunk_id="docs/a.md#install"), tricky], notes=("note one",))
    render(result, {"GITHUB_STEP_SUMMARY": str(summary)})
    render(result, {"GITHUB_STEP_SUMMARY": str(summary)})
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# Earlier step output\n\n## chunkgate\n")
    assert text.count("## chunkgate") == 2
    assert "**3 files, 40 chunks: 1 error, 1 warning**" in text
    assert "- note one" in text
    assert "| CG201 | oversized | error | 1 |" in text
    assert "| CG304 | link-farm | warning | 1 |" in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows[:2] == [
        "| `docs/a.md:1` | CG201 oversized | `docs/a.md#install` "
        "| section is 2,500 chars, over size.max 2,000 | add a subheading to split it |",
        "| `docs/a\\|b.md:5` | CG304 link-farm (warning) | `docs/a\\|b.md#toc` "
        "| links \\| 90%<br>of the text is links "
        "| write \\*prose\\* \\<b\\>between\\</b\\> links |",
    ]
    for row in rows:  # five cells: no unescaped pipe inside one
        assert len(re.split(r"(?<!\\)\|", row)) == 7


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("a|b", "a\\|b", id="pipe"),
        pytest.param("a\nb\r\nc\rd", "a<br>b<br>c<br>d", id="newlines"),
        pytest.param("__init__.py", "\\_\\_init\\_\\_.py", id="emphasis"),
        pytest.param("<script>&amp;", "\\<script\\>\\&amp;", id="html"),
        pytest.param("$x$ [a](b)", "\\$x\\$ \\[a\\](b)", id="math-and-links"),
        pytest.param("ünïcode", "ünïcode", id="unicode"),
    ],
)
def test_cell(text: str, expected: str) -> None:
    assert cell(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("a.md:1", "`a.md:1`", id="plain"),
        pytest.param("a`b", "``a`b``", id="backtick"),
        pytest.param("`a", "`` `a ``", id="leading-backtick"),
        pytest.param("a|b\nc", "`a\\|b c`", id="pipe-and-newline"),
    ],
)
def test_code_cell(text: str, expected: str) -> None:
    assert code_cell(text) == expected


def test_job_summary_without_violations_has_no_tables() -> None:
    text = job_summary(result_of([]))
    assert "**3 files, 40 chunks: no problems**" in text
    assert "|" not in text


def flood(count: int) -> list[Violation]:
    out = []
    for i in range(count):
        severity = "warning" if i % 3 else "error"
        rule = "CG202" if severity == "warning" else "CG201"
        out.append(
            violation(
                rule,
                severity,
                path=f"docs/section-{i:05}/a rather long file name.md",
                line=i + 1,
                chunk_id=f"docs/section-{i:05}/a rather long file name.md#heading-{i}",
                message=f"chunk is {i:,} chars, which is a long way from the configured limit",
                fix="add a subheading to split it where the topic changes",
            )
        )
    return out


def test_job_summary_stays_under_one_mib_with_20000_violations(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    violations = flood(20_000)
    render(result_of(violations), {"GITHUB_STEP_SUMMARY": str(summary)})
    data = summary.read_bytes()
    assert len(data) <= SUMMARY_LIMIT
    text = data.decode("utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    omitted = re.search(r"_([\d,]+) more violations not listed", text)
    assert omitted is not None
    assert len(rows) + int(omitted.group(1).replace(",", "")) == 20_000
    assert len(rows) > 1000
    errors = sum(1 for v in violations if v.severity == "error")
    assert all("(warning)" not in row for row in rows[:errors])  # the worst are kept


def test_job_summary_counts_what_the_step_already_wrote(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * 1_000_000)
    render(result_of(flood(2_000)), {"GITHUB_STEP_SUMMARY": str(summary)})
    assert SUMMARY_LIMIT - 2_000 < summary.stat().st_size <= SUMMARY_LIMIT


def test_a_full_job_summary_is_left_alone(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * SUMMARY_LIMIT)
    lines = render(result_of(flood(30)), {"GITHUB_STEP_SUMMARY": str(summary)})
    assert summary.stat().st_size == SUMMARY_LIMIT
    assert lines[0].startswith("::warning title=chunkgate::the job summary is full")
    assert lines[-2].endswith("`chunkgate check --format text` lists them all")


def test_an_unwritable_job_summary_is_a_warning(tmp_path: Path) -> None:
    lines = render(result_of([violation()]), {"GITHUB_STEP_SUMMARY": str(tmp_path)})
    assert lines[0].startswith("::warning title=chunkgate::job summary not written")
    assert lines[-1] == "3 files, 40 chunks: 1 error"


def test_job_summary_limit_is_exact() -> None:
    result = result_of(flood(50))
    full = job_summary(result)
    for limit in (len(full.encode()) - 1, 3000, 1500):
        text = job_summary(result, limit=limit)
        assert 0 < len(text.encode()) <= limit
        assert "more violation" in text
    assert job_summary(result, limit=10) == ""


def test_job_summary_counts_the_known_problems_by_rule_and_annotates_none() -> None:
    known = (
        violation("CG201", path="a.md", line=3),
        violation("CG201", path="b.md"),
        violation("CG302"),
    )
    result = result_of([violation("CG202", "warning", "c.md", 2)])._replace(known=known)
    text = job_summary(result)
    assert "3 known problems the manifest records" in text
    assert "CG201 ×2, CG302 ×1" in text
    lines = render(result, {})
    assert not any("CG201" in line or "CG302" in line for line in lines if line.startswith("::"))


def test_unverified_links_are_counted_under_the_totals_and_in_the_job_summary(
    tmp_path: Path,
) -> None:
    item = Unverified("a.md", 3, "b.md#x", "b.md#x", "an autodoc block `::: p` (line 2)")
    result = result_of([])._replace(unverified=(item,))
    summary = tmp_path / "summary.md"
    lines = render(result, {"GITHUB_STEP_SUMMARY": str(summary)})
    counted = (
        "1 unverified link into pages with anchors made at build time (they fail nothing; "
        "`chunkgate check --show-unverified` lists them)"
    )
    assert lines == ["3 files, 40 chunks: no problems", counted]
    assert "- 1 unverified link into pages" in summary.read_text(encoding="utf-8")
