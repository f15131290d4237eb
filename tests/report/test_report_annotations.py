from __future__ import annotations

import io

import pytest

from chunkgate.report.annotations import Annotation, more_line, select, write_annotations


def many(level: str, count: int) -> list[Annotation]:
    return [Annotation(level, f"{level} {i}", rank=(count - i,)) for i in range(count)]


@pytest.mark.parametrize(
    ("failing", "shown_errors"),
    [
        pytest.param(True, 9, id="failing-leaves-one-for-the-runner"),
        pytest.param(False, 10, id="passing"),
    ],
)
def test_select_per_level_worst_first(failing: bool, shown_errors: int) -> None:
    chosen = select(many("error", 15) + many("warning", 12) + many("notice", 12), failing=failing)
    levels = [a.level for a in chosen.shown]
    assert levels.count("error") == shown_errors
    assert levels.count("warning") == 10
    assert levels.count("notice") == 9  # one left for the count of the rest
    assert chosen.shown[0].message == "error 14"  # lowest rank first
    assert len(chosen.hidden) == 15 + 12 + 12 - len(chosen.shown)


def test_more_line_counts_by_level() -> None:
    assert more_line([], "anywhere") is None
    line = more_line(many("error", 1) + many("warning", 3), "in the summary")
    assert line is not None
    assert line.command() == (
        "::notice title=chunkgate%3A more findings::1 more error and 3 more warnings not "
        "annotated (GitHub shows 10 of each level per step): in the summary"
    )


def test_commands_escape_and_mark_spans() -> None:
    annotation = Annotation(
        "warning", "50%\r\nof it", title="T: a,b", file="a,b:c.md", line=3, end_line=9
    )
    assert annotation.command() == (
        "::warning file=a%2Cb%3Ac.md,line=3,endLine=9,title=T%3A a%2Cb::50%25%0D%0Aof it"
    )
    # An end line not after the start, or no line at all: no endLine.
    assert "endLine" not in annotation._replace(end_line=3).command()
    assert annotation._replace(line=0).command().startswith("::warning file=a%2Cb%3Ac.md,title=")


def test_write_annotations_prints_the_shown_then_the_count() -> None:
    out = io.StringIO()
    write_annotations(
        many("warning", 11), out, failing=False, where=lambda hidden: f"{len(hidden)}"
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 11
    assert lines[-1].endswith("per step): 1")
