"""Output of ``check``/``update``: plain text, a rich terminal view, JSON, or the CI formats.

``quiet`` keeps only the errors (and the notes of a run that rewrote the
manifest, since that alone fails it); ``json`` and ``sarif`` are always complete.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import IO, TYPE_CHECKING

from chunkgate.core.model import CheckResult, Group, Summary, Unverified, Violation
from chunkgate.report.console import make_console
from chunkgate.report.fit import whole_headers
from chunkgate.report.formats import CHECK, CheckWriter
from chunkgate.report.printable import printable

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


def write_check(
    result: CheckResult,
    fmt: str,
    stream: IO[str],
    *,
    quiet: bool = False,
    env: Mapping[str, str] | None = None,
) -> None:
    """Write ``result`` in one of ``formats.CHECK``'s formats (not ``auto``)."""
    writer: CheckWriter = CHECK.writer(fmt)
    writer(result, stream, quiet=quiet, env=os.environ if env is None else env)


def write_json(
    result: CheckResult, stream: IO[str], *, quiet: bool, env: Mapping[str, str]
) -> None:
    stream.write(json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n")


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def problems(summary: Summary) -> str:
    """``2 errors, 1 warning``, or ``no problems``."""
    parts = [
        plural(count, noun)
        for count, noun in ((summary.errors, "error"), (summary.warnings, "warning"))
        if count
    ]
    return ", ".join(parts) or "no problems"


def totals(summary: Summary) -> str:
    """``12 files, 80 chunks: 2 errors, 1 warning``."""
    files, chunks = plural(summary.files, "file"), plural(summary.chunks, "chunk")
    return f"{files}, {chunks}: {problems(summary)}"


def known_line(result: CheckResult) -> str | None:
    """The one line about the problems the manifest already records, if there are any."""
    count = len(result.known)
    if not count:
        return None
    listed = any(v.known for v in result.violations)
    how = "listed above" if listed else "`chunkgate check --show-known` lists them"
    return (
        f"{plural(count, 'known problem')} the manifest records (they fail nothing; "
        f"{how}; `--strict` fails on them)"
    )


def unverified_line(result: CheckResult) -> str | None:
    """The one line about the links into open pages, if there are any."""
    count = len(result.unverified)
    if not count:
        return None
    how = "listed above" if result.listing else "`chunkgate check --show-unverified` lists them"
    return (
        f"{plural(count, 'unverified link')} into pages with anchors made at build time "
        f"(they fail nothing; {how})"
    )


def outside_lines(result: CheckResult) -> list[str]:
    """``PATH: not in the corpus: WHY``, for each named path the run left out."""
    return [printable(f"{item.path}: not in the corpus: {item.reason}") for item in result.outside]


def unverified_text(item: Unverified) -> str:
    """``path:line: unverified CG404: link DEST: TARGET not found; the page is open: WHY``."""
    page = item.target.partition("#")[0]
    return printable(
        f"{item.path}:{item.line}: unverified CG404: link {one_line(item.destination)}: "
        f"#{item.target.partition('#')[2]} not found in {page}, which may have it once "
        f"built: {item.reason}"
    )


def one_line(text: str) -> str:
    return " ".join(text.splitlines())


def shown(result: CheckResult, *, quiet: bool) -> list[Violation]:
    """The violations a human view lists, by path and line."""
    violations = result.errors if quiet else result.violations
    return sorted(violations, key=Violation.sort_key)


def shown_notes(result: CheckResult, *, quiet: bool) -> tuple[str, ...]:
    return result.notes if not quiet or result.manifest_changed else ()


def text_line(violation: Violation) -> str:
    """``path:line: severity CODE name: message [chunk id] (fix: ...)``, one line for grep."""
    severity = f"{violation.severity} (known)" if violation.known else violation.severity
    line = (
        f"{violation.path}:{violation.line}: {severity} {violation.rule} "
        f"{violation.name}: {one_line(violation.message)}"
    )
    if violation.chunk_id:
        line += f" [{violation.chunk_id}]"
    if violation.fix:
        line += f" (fix: {one_line(violation.fix)})"
    return printable(line)


def group_line(group: Group) -> str:
    """``path:line: severity moved: MESSAGE (fix: ...)``: one line for a group's findings."""
    return printable(
        f"{group.path}:{group.line}: {group.severity} {group.kind}: {one_line(group.message)} "
        f"(fix: {one_line(group.fix)})"
    )


def folded(result: CheckResult, violations: Iterable[Violation]) -> Iterable[Violation | Group]:
    """The violations in order, each group's members as its line at the first of them
    (followed by them, with ``detail``)."""
    of: dict[Violation, Group] = {}
    for group in result.groups:
        of.update(dict.fromkeys(group.members, group))
    done: set[str] = set()
    for violation in violations:
        cause = of.get(violation)
        if cause is None:
            yield violation
        elif cause.cause not in done:
            done.add(cause.cause)
            yield cause
            if result.detail:
                yield from cause.members


def write_text(
    result: CheckResult, stream: IO[str], *, quiet: bool, env: Mapping[str, str]
) -> None:
    violations = shown(result, quiet=quiet)
    for entry in folded(result, violations):
        shown_line = group_line(entry) if isinstance(entry, Group) else text_line(entry)
        stream.write(shown_line + "\n")
    listed = result.unverified if result.listing and not quiet else ()
    for item in listed:
        stream.write(unverified_text(item) + "\n")
    if not quiet:
        if violations or listed:
            stream.write("\n")
        for left_out in outside_lines(result):
            stream.write(left_out + "\n")
        stream.write(totals(result.summary) + "\n")
        for line in (known_line(result), unverified_line(result)):
            if line:
                stream.write(line + "\n")
    for note in shown_notes(result, quiet=quiet):
        stream.write(printable(note) + "\n")


def rich_console(stream: IO[str]) -> Console:
    """``make_console``, but with no ANSI codes at all under NO_COLOR.

    rich's own NO_COLOR support drops colours and keeps bold and dim, which
    still litters logs and pipes with escape codes.
    """
    console = make_console(stream)
    if console.no_color and console.color_system is not None:
        console = make_console(stream, color_system=None)
    return console


_MARKS = {"error": ("✖", "bold red"), "warning": ("⚠", "bold yellow")}


def _chunk_label(violation: Violation) -> str:
    """The chunk ID, short (``#identity``) under its own file's header."""
    chunk_id = violation.chunk_id or ""
    prefix = f"{violation.path}#"
    return chunk_id[len(prefix) - 1 :] if chunk_id.startswith(prefix) else chunk_id


def _rich_violation(violation: Violation) -> list[RenderableType]:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.padding import Padding
    from rich.text import Text  # rich: terminal output only

    mark, style = _MARKS.get(violation.severity, ("·", "dim"))
    if violation.known:
        mark, style = "·", "dim"
    head = Text.assemble(
        (mark, style),
        " ",
        (violation.rule, style),
        " ",
        (violation.name, "bold"),
        "  ",
        (f"line {violation.line}", "dim"),
    )
    label = _chunk_label(violation)
    if label:
        head.append("  ")
        head.append(printable(label), style="cyan")
    parts: list[RenderableType] = [Padding(head, (0, 0, 0, 2), expand=False)]
    parts.append(Padding(Text(printable(violation.message)), (0, 0, 0, 4), expand=False))
    if violation.fix:
        fix = Text.assemble(("→ ", "green"), printable(violation.fix))
        parts.append(Padding(fix, (0, 0, 0, 4), expand=False))
    return parts


def _rich_group(group: Group) -> list[RenderableType]:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.padding import Padding
    from rich.text import Text  # rich: terminal output only

    mark, style = _MARKS.get(group.severity, ("·", "dim"))
    head = Text.assemble(
        (mark, style),
        " ",
        (group.kind, style),
        "  ",
        (f"line {group.line}", "dim"),
        "  ",
        (f"{len(group.members):,} findings", "dim"),
    )
    fix = Text.assemble(("→ ", "green"), printable(group.fix))
    return [
        Padding(head, (0, 0, 0, 2), expand=False),
        Padding(Text(printable(group.message)), (0, 0, 0, 4), expand=False),
        Padding(fix, (0, 0, 0, 4), expand=False),
    ]


def _by_file(items: Iterable[Violation | Group]) -> dict[str, list[Violation | Group]]:
    files: dict[str, list[Violation | Group]] = {}
    for item in items:
        files.setdefault(item.path, []).append(item)
    return files


def _rule_table(violations: list[Violation]) -> RenderableType:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.table import Table
    from rich.text import Text  # rich: terminal output only

    counts = Counter((v.rule, v.name, v.severity) for v in violations)
    table = Table(show_edge=False, box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column("rule", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("count", justify="right")
    for (rule, name, severity), count in sorted(counts.items()):
        _, style = _MARKS.get(severity, ("·", "dim"))
        table.add_row(Text(rule, style=style), name, f"{count:,}")
    return whole_headers(table)


def write_rich(
    result: CheckResult, stream: IO[str], *, quiet: bool, env: Mapping[str, str]
) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.text import Text

    console = rich_console(stream)
    violations = shown(result, quiet=quiet)
    for path, entries in _by_file(folded(result, violations)).items():
        console.print(Text(printable(path), style="bold"), overflow="fold")
        for entry in entries:
            parts = _rich_group(entry) if isinstance(entry, Group) else _rich_violation(entry)
            for part in parts:
                console.print(part, overflow="fold")
        console.print()
    if result.listing and not quiet and result.unverified:
        for item in result.unverified:
            console.print(Text(unverified_text(item), style="dim"), overflow="fold")
        console.print()
    if not quiet:
        if violations:
            console.print(_rule_table(violations))
            console.print()
        summary = result.summary
        for left_out in outside_lines(result):
            console.print(Text(left_out, style="yellow"), overflow="fold")
        if summary.errors:
            style, mark = "bold red", "✖"
        elif summary.warnings:
            style, mark = "bold yellow", "⚠"
        else:
            style, mark = "bold green", "✔"
        console.print(Text(f"{mark} {totals(summary)}", style=style))
        for line in (known_line(result), unverified_line(result)):
            if line:
                console.print(Text(line, style="dim"), overflow="fold")
    for note in shown_notes(result, quiet=quiet):
        console.print(Text(printable(note), style="cyan"), overflow="fold")
