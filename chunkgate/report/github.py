"""GitHub Actions output: workflow-command annotations and a Markdown job summary.

GitHub shows at most 10 error and 10 warning annotations per step, so the
worst come first: errors before warnings, and within a severity by rule in
``RULE_PRIORITY`` order (then path and line):

1. CG001 unreadable: the file could not be checked at all;
2. CG301, CG302, CG303, CG305, CG304: content that should never be embedded;
3. CG402 unstable-id, CG404 broken-reference: a silent break of citations;
4. CG201 oversized, CG101 duplicate-id, CG401 stale-manifest;
5. the faults of exported chunks (``lint``): CG601, CG604, CG608, CG602;
6. CG403 removed-id, CG202 undersized, CG501 duplicate-content, CG502
   near-duplicate, then the exports' warnings CG603, CG605, CG606, CG607;

and rules not listed here after those, by code. A last plain line says how
many problems were not annotated. The job summary lists every violation in
the same order, so that when it must be cut to stay under GitHub's 1 MiB
limit the worst are kept.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import IO

from chunkgate.model import CheckResult, Violation
from chunkgate.report.check import one_line, plural, totals

RULE_PRIORITY = (
    "CG001",
    "CG301",
    "CG302",
    "CG303",
    "CG305",
    "CG304",
    "CG402",
    "CG404",
    "CG201",
    "CG101",
    "CG401",
    "CG601",
    "CG604",
    "CG608",
    "CG602",
    "CG403",
    "CG202",
    "CG501",
    "CG502",
    "CG603",
    "CG605",
    "CG606",
    "CG607",
)
MAX_ANNOTATIONS = 10  # per severity and step
SUMMARY_LIMIT = 1024 * 1024  # bytes per step summary

_RANK = {code: rank for rank, code in enumerate(RULE_PRIORITY)}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def priority(violation: Violation) -> tuple[int, int, str, str, int, str]:
    return (
        0 if violation.severity == "error" else 1,
        _RANK.get(violation.rule, len(_RANK)),
        violation.rule,
        violation.path,
        violation.line,
        violation.chunk_id or "",
    )


def by_priority(violations: Iterable[Violation]) -> list[Violation]:
    return sorted(violations, key=priority)


def annotation(violation: Violation) -> str:
    command = "error" if violation.severity == "error" else "warning"
    properties = [f"file={escape_property(violation.path)}"]
    if violation.line >= 1:
        properties.append(f"line={violation.line}")
    properties.append(f"title={escape_property(f'{violation.rule} {violation.name}')}")
    message = violation.message
    if violation.fix:
        message += f" (fix: {violation.fix})"
    return f"::{command} {','.join(properties)}::{escape_data(message)}"


def write_github(
    result: CheckResult,
    stream: IO[str],
    *,
    quiet: bool = False,
    env: Mapping[str, str] | None = None,
) -> None:
    env = os.environ if env is None else env
    ordered = by_priority(result.violations)
    errors = [v for v in ordered if v.severity == "error"]
    warnings = [] if quiet else [v for v in ordered if v.severity != "error"]
    annotated = errors[:MAX_ANNOTATIONS] + warnings[:MAX_ANNOTATIONS]
    for violation in annotated:
        stream.write(annotation(violation) + "\n")

    summary_path = env.get("GITHUB_STEP_SUMMARY")
    summarised = _append_summary(result, summary_path, stream) if summary_path else False

    hidden = len(errors) + len(warnings) - len(annotated)
    if hidden:
        more = plural(hidden, "more problem")
        verb = "is" if hidden == 1 else "are"
        if summarised:
            stream.write(f"chunkgate: {more} {verb} listed in the job summary\n")
        else:
            stream.write(
                f"chunkgate: {more} {verb} not annotated; "
                "`chunkgate check --format text` lists them all\n"
            )
    if not quiet:
        stream.write(totals(result.summary) + "\n")
    for note in result.notes if not quiet or result.manifest_changed else ():
        stream.write(note + "\n")


def _append_summary(result: CheckResult, path: str, stream: IO[str]) -> bool:
    try:
        used = os.path.getsize(path)
    except OSError:
        used = 0
    markdown = job_summary(result, limit=SUMMARY_LIMIT - used)
    if not markdown:
        stream.write(
            "::warning title=chunkgate::the job summary is full (1 MiB); "
            "chunkgate's summary was left out\n"
        )
        return False
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as file:
            file.write(markdown)
    except OSError as exc:
        message = escape_data(f"job summary not written: {exc}")
        stream.write(f"::warning title=chunkgate::{message}\n")
        return False
    return True


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
    """The ``## chunkgate`` section, at most ``limit`` UTF-8 bytes ("" if even the head won't fit).

    Violations are listed worst first; rows that do not fit are left out and counted.
    """
    violations = by_priority(result.violations)
    head = ["", "## chunkgate", "", f"**{cell(totals(result.summary))}**", ""]
    head += [f"- {cell(note)}" for note in result.notes]
    if result.notes:
        head.append("")
    if violations:
        head += [*_rule_rows(violations), "", "| location | rule | chunk | message | fix |"]
        head.append("|---|---|---|---|---|")
    text = "\n".join(head) + "\n"
    # Reserve room for the longest possible footer before adding any row.
    footer_room = len(_omitted(len(violations)).encode())
    budget = limit - len(text.encode()) - footer_room
    if budget < 0:
        return ""
    rows: list[str] = []
    for violation in violations:
        row = _violation_row(violation) + "\n"
        size = len(row.encode())
        if size > budget:
            break
        rows.append(row)
        budget -= size
    omitted = len(violations) - len(rows)
    return text + "".join(rows) + (_omitted(omitted) if omitted else "")


def _omitted(count: int) -> str:
    return (
        f"\n_{plural(count, 'more violation')} not listed: GitHub limits a job summary to 1 MiB. "
        "Run `chunkgate check --format text` to see them all._\n"
    )
