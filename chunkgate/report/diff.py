"""Output of ``diff``: a rich view grouped by file, plain text, JSON (SPEC §6),
Markdown for a pull request comment or job summary, and GitHub annotations."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from typing import IO

from chunkgate.chunking.base import ChunkOptions
from chunkgate.core.model import Chunk
from chunkgate.diff.compare import fail_reasons
from chunkgate.diff.model import Change, ChangeKind, ChunkDiff
from chunkgate.report.annotations import Annotation, escape_data, escape_property, write_annotations
from chunkgate.report.console import make_console
from chunkgate.report.diffmarkdown import (
    FOLD_AFTER,
    UNSTABLE,
    by_file,
    fit_markdown,
    short,
    summary_rows,
    title,
)
from chunkgate.report.fit import whole_headers
from chunkgate.report.formats import DIFF, DiffWriter
from chunkgate.report.github import rule_rank, where_listed
from chunkgate.report.printable import printable
from chunkgate.report.summary import SUMMARY_LIMIT, append_summary
from chunkgate.rules.stability import keep_advice

__all__ = ["FOLD_AFTER", "short"]

DIFF_ALL = "`chunkgate diff`"

_SIGNS = {
    ChangeKind.ADDED: "+",
    ChangeKind.REMOVED: "-",
    ChangeKind.MODIFIED: "~",
    ChangeKind.MOVED: "→",
}
_STYLES = {
    ChangeKind.ADDED: "green",
    ChangeKind.REMOVED: "red",
    ChangeKind.MODIFIED: "yellow",
    ChangeKind.MOVED: "cyan",
}


def write_diff(
    diff: ChunkDiff,
    fmt: str,
    stream: IO[str],
    *,
    fail_on: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> None:
    """Write ``diff`` in one of ``formats.DIFF``'s formats (not ``auto``)."""
    writer: DiffWriter = DIFF.writer(fmt)
    writer(diff, stream, fail_on=fail_on, env=os.environ if env is None else env)


def write_json(
    diff: ChunkDiff, stream: IO[str], *, fail_on: Sequence[str], env: Mapping[str, str]
) -> None:
    stream.write(json.dumps(diff.to_dict(), ensure_ascii=False, indent=2) + "\n")


def write_markdown(
    diff: ChunkDiff, stream: IO[str], *, fail_on: Sequence[str], env: Mapping[str, str]
) -> None:
    stream.write(markdown(diff))


def write_rich(
    diff: ChunkDiff, stream: IO[str], *, fail_on: Sequence[str], env: Mapping[str, str]
) -> None:
    _rich(diff, stream)


def write_text(
    diff: ChunkDiff, stream: IO[str], *, fail_on: Sequence[str], env: Mapping[str, str]
) -> None:
    for line in text_lines(diff):
        stream.write(printable(line) + "\n")


def _size(diff: ChunkDiff, chunk: Chunk | None) -> int:
    return 0 if chunk is None else diff.size(chunk)


def describe(diff: ChunkDiff, change: Change) -> str:
    """What happened to one chunk, without its sign: used by every plain format."""
    unit = diff.unit
    if change.kind is ChangeKind.MOVED:
        assert change.before is not None
        assert change.after is not None
        how = f"{change.how}, {change.similarity:.0%}" if change.how != "identical" else "identical"
        note = "acknowledged" if change.acknowledged else "unstable"
        return f"{change.before.id} → {change.after.id} ({how}; {note})"
    if change.kind is ChangeKind.MODIFIED:
        old, new = _size(diff, change.before), _size(diff, change.after)
        return f"{change.chunk.id} {old} → {new} {unit} ({new - old:+d})"
    return f"{change.chunk.id} ({diff.size(change.chunk)} {unit})"


def totals(diff: ChunkDiff) -> str:
    unstable = len(diff.unstable)
    moved = f"{len(diff.moved)} moved" + (f" ({unstable} unstable)" if unstable else "")
    return (
        f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.modified)} modified, "
        f"{moved}, {diff.unchanged} unchanged"
    )


def text_lines(diff: ChunkDiff) -> Iterator[str]:
    yield f"chunkgate diff {title(diff)}"
    for change in diff.changes():
        yield f"{_SIGNS[change.kind]} {describe(diff, change)}"
    yield totals(diff)
    for note in diff.notes:
        yield f"note: {note}"


def _rich(diff: ChunkDiff, stream: IO[str]) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.markup import escape
    from rich.table import Table  # rich: terminal output only

    console = make_console(stream)
    console.print(f"[bold]chunkgate diff[/bold] {escape(title(diff))}")
    for path, changes in by_file(diff.changes()):
        console.print(f"\n[bold]{escape(path)}[/bold]")
        for change in changes:
            style = _STYLES[change.kind]
            line = escape(describe(diff, change))
            if change.kind is ChangeKind.MOVED:
                mark = "[green]✓[/green]" if change.acknowledged else "[bold red]![/bold red]"
                line = f"{line} {mark}"
            console.print(f"  [{style}]{_SIGNS[change.kind]}[/{style}] {line}")
    table = Table(title="summary", title_justify="left", show_edge=False)
    table.add_column("change")
    table.add_column("chunks", justify="right")
    for label, count, style in summary_rows(diff):
        table.add_row(f"[{style}]{label}[/{style}]" if style else label, str(count))
    console.print()
    console.print(whole_headers(table))
    for note in diff.notes:
        console.print(f"[dim]note: {escape(note)}[/dim]")


def markdown(diff: ChunkDiff, *, budget: int = SUMMARY_LIMIT) -> str:
    """A job summary or pull request comment: totals, unstable IDs, then changes per file."""
    return fit_markdown(diff, budget).text


def annotation(level: str, message: str, **properties: str | int) -> str:
    """One workflow command, escaped as the runner requires."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return (
        f"::{level} {props}::{escape_data(message)}"
        if props
        else f"::{level}::{escape_data(message)}"
    )


def unstable_message(
    change: Change, base: str = "HEAD", options: ChunkOptions | None = None
) -> str:
    """``base``: the revision the diff started from; moves already committed are recorded
    against it (``HEAD``'s manifest may already have the new ID)."""

    assert change.before is not None
    assert change.after is not None
    old = change.before
    since = "" if base == "HEAD" else f" --baseline {short(base)}"
    keep = keep_advice(old, change.after, options)
    return (
        f"ID changed from {old.id} to {change.after.id}: citations to {old.id} break; "
        f"{keep} or run `chunkgate update --accept-moves{since}`"
    )


def annotations_of(diff: ChunkDiff, fail_on: Sequence[str] = ()) -> list[Annotation]:
    """Why the run fails (first), each unstable ID (errors when ``unstable`` fails the
    run, else warnings), and the diff's notes."""
    out = [
        Annotation("error", f"chunkgate diff: {reason}", title="chunkgate diff", rank=(0, index))
        for index, reason in enumerate(fail_reasons(diff, fail_on))
    ]

    level = "error" if "unstable" in fail_on else "warning"
    severity = 0 if level == "error" else 1
    for index, change in enumerate(diff.unstable):
        new = change.chunk
        # Ranked as check's CG402 would be: among the other findings by RULE_PRIORITY.
        rank = (2, severity, rule_rank("CG402"), "CG402", new.path, new.start_line, new.id)
        out.append(
            Annotation(
                level,
                unstable_message(change, diff.base_name, diff.options),
                title="chunkgate: unstable chunk ID",
                file=new.path,
                line=new.start_line,
                end_line=new.end_line,
                rank=rank,
                key=(UNSTABLE, index),
            )
        )
    out += [Annotation("notice", note, rank=(0, index)) for index, note in enumerate(diff.notes)]
    return out


def write_github(
    diff: ChunkDiff,
    stream: IO[str],
    *,
    fail_on: Sequence[str],
    env: Mapping[str, str],
) -> None:
    """``diff --format github`` run as its own step: its annotations within the step's
    caps, a totals line, and its section of the job summary when there is one."""

    listed: Mapping[str, int] = {}
    path = env.get("GITHUB_STEP_SUMMARY")
    if path:
        (fitted,), problem = append_summary(path, [partial(fit_markdown, diff)])
        listed = fitted.listed
        if problem:
            stream.write(Annotation("warning", problem, title="chunkgate").command() + "\n")
    write_annotations(
        annotations_of(diff, fail_on),
        stream,
        failing=bool(fail_reasons(diff, fail_on)),
        where=lambda hidden: where_listed(hidden, listed, DIFF_ALL),
    )
    stream.write(f"chunkgate diff {title(diff)}: {totals(diff)}\n")
