"""GitHub Actions output of ``check``: annotations and a Markdown job summary section.

GitHub shows few annotations per step (see ``report.annotations``), so the
worst come first: errors before warnings, and within a severity by the
priority each rule declares (unreadable files, then content that should never
be embedded, then unstable IDs, then sizes and the manifest; then path and
line). A last notice says how many were not annotated and where they are
listed. The job summary lists every violation in the same order, so that when
it must be cut to stay within its share of GitHub's 1 MiB the worst are kept.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import IO

from chunkgate import rules
from chunkgate.core.model import CheckResult, Violation
from chunkgate.report.annotations import (
    PER_STEP,
    Annotation,
    escape_data,
    escape_property,
    write_annotations,
)
from chunkgate.report.check import known_line, one_line, plural, totals, unverified_line
from chunkgate.report.summary import SUMMARY_LIMIT, Fitted, append_summary

__all__ = ["escape_data", "escape_property"]

MAX_ANNOTATIONS = PER_STEP  # per severity and step
VIOLATIONS = "violations"  # what a check summary section lists
CHECK_ALL = "`chunkgate check --format text`"


def priority(violation: Violation) -> tuple[int, int, str, str, int, str]:
    return (
        0 if violation.severity == "error" else 1,
        rule_rank(violation.rule),
        violation.rule,
        violation.path,
        violation.line,
        violation.chunk_id or "",
    )


def by_priority(violations: Iterable[Violation]) -> list[Violation]:
    return sorted(violations, key=priority)


def to_annotation(violation: Violation, index: int = 0, *, rank: int = 2) -> Annotation:
    """``index`` is the violation's place in priority order (the summary lists the first
    ones); ``rank`` puts it among the other annotations of one step."""
    message = violation.message
    if violation.fix:
        message += f" (fix: {violation.fix})"
    return Annotation(
        "error" if violation.severity == "error" else "warning",
        message,
        title=f"{violation.rule} {violation.name}",
        file=violation.path,
        line=violation.line,
        end_line=violation.end_line,
        rank=(rank, *priority(violation)),
        key=(VIOLATIONS, index),
    )


def annotation(violation: Violation) -> str:
    return to_annotation(violation).command()


def rule_rank(code: str) -> int:
    return rules.RANK.get(code, len(rules.RANK))


def violation_annotations(
    result: CheckResult, *, quiet: bool = False
) -> list[tuple[Annotation, Violation]]:
    ordered = by_priority(result.violations)
    return [
        (to_annotation(violation, index), violation)
        for index, violation in enumerate(ordered)
        if not quiet or violation.severity == "error"
    ]


def annotations_of(result: CheckResult, *, quiet: bool = False) -> list[Annotation]:
    return [annotation for annotation, _ in violation_annotations(result, quiet=quiet)]


def where_listed(hidden: Iterable[Annotation], listed: Mapping[str, int], commands: str) -> str:
    """Where the annotations GitHub does not show can be read, counted exactly."""
    hidden = list(hidden)
    in_summary = sum(1 for a in hidden if a.key is not None and a.key[1] < listed.get(a.key[0], 0))
    if not listed:
        return f"{commands} lists them all"
    if in_summary == len(hidden):
        return "all are listed in the job summary"
    return f"{in_summary:,} are listed in the job summary; {commands} lists them all"


def write_github(
    result: CheckResult,
    stream: IO[str],
    *,
    quiet: bool = False,
    env: Mapping[str, str] | None = None,
) -> None:
    """``check --format github`` run as its own step: its own annotation caps and summary."""
    env = os.environ if env is None else env
    listed: Mapping[str, int] = {}
    summary_path = env.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        (fitted,), problem = append_summary(summary_path, [partial(check_summary, result)])
        listed = fitted.listed
        if problem:
            stream.write(Annotation("warning", problem, title="chunkgate").command() + "\n")
    write_annotations(
        annotations_of(result, quiet=quiet),
        stream,
        failing=bool(result.errors),
        where=lambda hidden: where_listed(hidden, listed, CHECK_ALL),
    )
    if not quiet:
        stream.write(totals(result.summary) + "\n")
        unverified = unverified_line(result)
        if unverified:
            stream.write(unverified + "\n")
    for note in result.notes if not quiet or result.manifest_changed else ():
        stream.write(note + "\n")


def cell(text: str) -> str:
    """Table-cell text: Markdown and HTML inert, ``|`` escaped, line breaks as ``<br>``."""
    out = []
    for char in text.replace("\r\n", "\n").replace("\r", "\n"):
        if char in "\\`*_[]<>|~&#!$":
            out.append("\\" + char)
        elif char == "\n":
            out.append("<br>")
        else:
            out.append(char)
    return "".join(out)


def code_cell(text: str) -> str:
    """A code span holding ``text`` verbatim, usable inside a table cell."""
    text = one_line(text).replace("|", "\\|")
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _rule_rows(violations: Sequence[Violation]) -> list[str]:
    counts = Counter((v.rule, v.name, v.severity) for v in violations)
    rows = ["| rule | name | severity | count |", "|---|---|---|--:|"]
    rows += [
        f"| {rule} | {cell(name)} | {severity} | {count:,} |"
        for (rule, name, severity), count in sorted(counts.items())
    ]
    return rows


def _violation_row(violation: Violation) -> str:
    location = code_cell(f"{violation.path}:{violation.line}")
    chunk = code_cell(violation.chunk_id) if violation.chunk_id else ""
    rule = f"{violation.rule} {cell(violation.name)}"
    if violation.severity != "error":
        rule += f" ({violation.severity})"
    return f"| {location} | {rule} | {chunk} | {cell(violation.message)} | {cell(violation.fix)} |"


def job_summary(result: CheckResult, *, limit: int = SUMMARY_LIMIT) -> str:
    """The ``## chunkgate`` section in at most ``limit`` UTF-8 bytes ("" if its head won't fit)."""
    return check_summary(result, limit).text


def check_summary(result: CheckResult, limit: int = SUMMARY_LIMIT) -> Fitted:
    """``job_summary`` and how many violations it lists: the worst first, whole table rows
    while they fit, then a line that counts the rest."""
    violations = by_priority(result.violations)
    head = ["", "## chunkgate", "", f"**{cell(totals(result.summary))}**", ""]
    head += [f"- {cell(note)}" for note in result.notes]
    known = known_line(result)
    if known:
        rules = Counter(v.rule for v in result.known)
        by_rule = ", ".join(f"{code} ×{count}" for code, count in sorted(rules.items()))
        head.append(f"- {cell(known)}: {cell(by_rule)}")
    unverified = unverified_line(result)
    if unverified:
        head.append(f"- {cell(unverified)}")
    if result.notes or known or unverified:
        head.append("")
    if violations:
        head += [*_rule_rows(violations), "", "| location | rule | chunk | message | fix |"]
        head.append("|---|---|---|---|---|")
    text = "\n".join(head) + "\n"
    # Reserve room for the longest possible footer before adding any row.
    footer_room = len(_omitted(len(violations)).encode("utf-8", "surrogateescape"))
    budget = limit - len(text.encode("utf-8", "surrogateescape")) - footer_room
    if budget < 0:
        return Fitted("", {})
    rows: list[str] = []
    for violation in violations:
        row = _violation_row(violation) + "\n"
        size = len(row.encode("utf-8", "surrogateescape"))
        if size > budget:
            break
        rows.append(row)
        budget -= size
    omitted = len(violations) - len(rows)
    markdown = text + "".join(rows) + (_omitted(omitted) if omitted else "")
    return Fitted(markdown, {VIOLATIONS: len(rows)})


def _omitted(count: int) -> str:
    return (
        f"\n_{plural(count, 'more violation')} not listed: a job summary holds at most 1 MiB. "
        f"Run {CHECK_ALL} to see them all._\n"
    )
