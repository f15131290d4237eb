from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from chunkgate.core.model import CheckResult, Summary, Violation
from chunkgate.report.check import problems, totals, write_check

OVERSIZED = Violation(
    "CG201",
    "oversized",
    "error",
    "docs/guide.md",
    12,
    "docs/guide.md#installation",
    "section is 9,214 chars, over size.max 2,000",
    "add a subheading to split it",
)
UNDERSIZED = Violation(
    "CG202",
    "undersized",
    "warning",
    "docs/guide.md",
    3,
    "docs/guide.md#~preamble",
    "preamble is 12 chars, under size.min 40",
    "merge it into the next section",
)
UNREADABLE = Violation(
    "CG001",
    "unreadable",
    "error",
    "src/bad.py",
    7,
    None,
    "invalid syntax at line 7; chunked as text",
    "fix the syntax error",
)
UNSTABLE = Violation(
    "CG402",
    "unstable-id",
    "error",
    "docs/ünïcode/set up.md",
    40,
    "docs/ünïcode/set up.md#set-up",
    "the content of docs/setup.md#setup moved here without a recorded move",
    "run `chunkgate update --accept-moves`",
)
VIOLATIONS = (OVERSIZED, UNDERSIZED, UNREADABLE, UNSTABLE)
NOTE = "manifest updated: stage chunkgate.manifest.jsonl"


def make_result(
    violations: tuple[Violation, ...] = VIOLATIONS,
    *,
    files: int = 12,
    chunks: int = 80,
    notes: tuple[str, ...] = (),
    manifest_changed: bool = False,
) -> CheckResult:
    errors = sum(1 for v in violations if v.severity == "error")
    return CheckResult(
        violations,
        Summary(files, chunks, errors, len(violations) - errors),
        "chunkgate.manifest.jsonl",
        manifest_changed,
        notes,
    )


def render(result: CheckResult, fmt: str, **kwargs: bool) -> str:
    stream = io.StringIO()
    write_check(result, fmt, stream, env={}, **kwargs)
    return stream.getvalue()


def test_text_is_one_sorted_line_per_violation_then_the_summary() -> None:
    assert render(make_result(notes=(NOTE,)), "text") == (
        "docs/guide.md:3: warning CG202 undersized: preamble is 12 chars, under size.min 40 "
        "[docs/guide.md#~preamble] (fix: merge it into the next section)\n"
        "docs/guide.md:12: error CG201 oversized: section is 9,214 chars, over size.max 2,000 "
        "[docs/guide.md#installation] (fix: add a subheading to split it)\n"
        "docs/ünïcode/set up.md:40: error CG402 unstable-id: the content of docs/setup.md#setup "
        "moved here without a recorded move [docs/ünïcode/set up.md#set-up] "
        "(fix: run `chunkgate update --accept-moves`)\n"
        "src/bad.py:7: error CG001 unreadable: invalid syntax at line 7; chunked as text "
        "(fix: fix the syntax error)\n"
        "\n"
        "12 files, 80 chunks: 3 errors, 1 warning\n"
        f"{NOTE}\n"
    )


def test_text_without_violations() -> None:
    assert render(make_result(()), "text") == "12 files, 80 chunks: no problems\n"


def test_text_keeps_a_multi_line_message_on_one_line() -> None:
    violation = Violation("CG201", "oversized", "error", "a.md", 1, None, "one\ntwo", "")
    assert render(make_result((violation,)), "text").splitlines()[0] == (
        "a.md:1: error CG201 oversized: one two"
    )


@pytest.mark.parametrize(
    ("summary", "expected"),
    [
        pytest.param(Summary(1, 1, 0, 0), "1 file, 1 chunk: no problems", id="singular"),
        pytest.param(Summary(2, 3, 1, 0), "2 files, 3 chunks: 1 error", id="one-error"),
        pytest.param(Summary(2, 3, 0, 1), "2 files, 3 chunks: 1 warning", id="one-warning"),
        pytest.param(Summary(0, 0, 2, 2), "0 files, 0 chunks: 2 errors, 2 warnings", id="zero"),
        pytest.param(
            Summary(1200, 34567, 1000, 0),
            "1,200 files, 34,567 chunks: 1,000 errors",
            id="thousands",
        ),
    ],
)
def test_totals(summary: Summary, expected: str) -> None:
    assert totals(summary) == expected


def test_problems_without_any() -> None:
    assert problems(Summary(5, 5, 0, 0)) == "no problems"


def test_quiet_text_prints_only_errors() -> None:
    out = render(make_result(notes=(NOTE,)), "text", quiet=True)
    assert [line.split(":")[0] for line in out.splitlines()] == [
        "docs/guide.md",
        "docs/ünïcode/set up.md",
        "src/bad.py",
    ]
    assert "warning" not in out
    assert "files" not in out


def test_quiet_still_says_that_the_manifest_was_rewritten() -> None:
    changed = make_result((UNDERSIZED,), notes=(NOTE,), manifest_changed=True)
    assert render(changed, "text", quiet=True) == f"{NOTE}\n"
    assert render(make_result((UNDERSIZED,), notes=(NOTE,)), "text", quiet=True) == ""


@pytest.mark.parametrize("quiet", [False, True])
def test_json_is_the_spec_schema_and_always_complete(quiet: bool) -> None:
    out = render(make_result(), "json", quiet=quiet)
    assert out.endswith("}\n")
    data = json.loads(out)
    assert set(data) == {"violations", "known", "unverified", "groups", "outside", "summary"}
    assert data["summary"] == {
        "files": 12,
        "chunks": 80,
        "errors": 3,
        "warnings": 1,
        "known": 0,
        "unverified": 0,
    }
    assert data["known"] == []
    assert len(data["violations"]) == 4
    for violation in data["violations"]:
        assert {"rule", "name", "severity", "path", "line", "chunk_id", "message"} <= set(violation)
    assert "docs/ünïcode/set up.md" in out  # not \u-escaped
    assert render(make_result(), "json", quiet=quiet) == out


def test_json_without_violations() -> None:
    data = json.loads(render(make_result(()), "json"))
    assert data == {
        "violations": [],
        "known": [],
        "unverified": [],
        "groups": [],
        "outside": [],
        "summary": {
            "files": 12,
            "chunks": 80,
            "errors": 0,
            "warnings": 0,
            "known": 0,
            "unverified": 0,
        },
    }


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="table"):
        write_check(make_result(), "table", io.StringIO())


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLORTERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "80")


@pytest.mark.usefixtures("terminal_env")
def test_rich_groups_by_file_with_fixes_rule_table_and_totals() -> None:
    out = render(make_result(notes=(NOTE,)), "rich")
    assert "\x1b[" not in out  # not a terminal
    lines = [line.rstrip() for line in out.splitlines()]
    assert all(len(line) <= 80 for line in lines)
    guide = lines.index("docs/guide.md")
    assert lines[guide + 1 : guide + 7] == [
        "  ⚠ CG202 undersized  line 3  #~preamble",
        "    preamble is 12 chars, under size.min 40",
        "    → merge it into the next section",
        "  ✖ CG201 oversized  line 12  #installation",
        "    section is 9,214 chars, over size.max 2,000",
        "    → add a subheading to split it",
    ]
    assert lines.index("docs/ünïcode/set up.md") > guide
    assert "  ✖ CG001 unreadable  line 7" in lines
    table = lines.index("rule   name         count")
    assert lines[table + 1 : table + 5] == [
        "CG001  unreadable       1",
        "CG201  oversized        1",
        "CG202  undersized       1",
        "CG402  unstable-id      1",
    ]
    assert lines[-2:] == ["✖ 12 files, 80 chunks: 3 errors, 1 warning", NOTE]


@pytest.mark.usefixtures("terminal_env")
def test_rich_wraps_long_messages_within_80_columns() -> None:
    long = Violation("CG201", "oversized", "error", "a.md", 1, "a.md#x", "word " * 60, "fix " * 40)
    lines = render(make_result((long,)), "rich").splitlines()
    assert all(len(line.rstrip()) <= 80 for line in lines)
    assert sum("word" in line for line in lines) >= 4


@pytest.mark.usefixtures("terminal_env")
def test_rich_without_violations_and_quiet() -> None:
    assert render(make_result(()), "rich").strip() == "✔ 12 files, 80 chunks: no problems"
    quiet = render(make_result(), "rich", quiet=True)
    assert "CG202" not in quiet
    assert "CG201" in quiet
    assert "chunks:" not in quiet


@pytest.mark.usefixtures("terminal_env")
def test_rich_colours_a_terminal_but_not_under_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    write_check(make_result(), "rich", stream)
    assert "\x1b[31m" in stream.getvalue() or "\x1b[1;31m" in stream.getvalue()

    monkeypatch.setenv("NO_COLOR", "1")
    stream = Terminal()
    write_check(make_result(), "rich", stream)
    assert "\x1b" not in stream.getvalue()
    assert "✖ CG201 oversized" in stream.getvalue()


@pytest.mark.usefixtures("terminal_env")
def test_markup_in_paths_and_messages_is_printed_verbatim() -> None:
    violation = Violation("CG201", "oversized", "error", "[bold]x.md", 1, None, "[red]boom", "")
    out = render(make_result((violation,)), "rich")
    assert "[bold]x.md" in out
    assert "[red]boom" in out


def test_importing_the_report_modules_does_not_import_rich() -> None:
    code = (
        "import sys\n"
        "import chunkgate.report.check, chunkgate.report.github, chunkgate.report.sarif\n"
        "import chunkgate.report.stats, chunkgate.stats\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'rich'], 'rich imported'\n"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
