"""Output of ``diff``: a rich view grouped by file, plain text, JSON (SPEC §6),
Markdown for a pull request comment or job summary, and GitHub annotations."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import groupby
from typing import IO

from chunkgate.diff import Change, ChangeKind, ChunkDiff
from chunkgate.model import Chunk
from chunkgate.report.console import make_console
from chunkgate.report.github import escape_data, escape_property

# GitHub shows at most this many annotations of each level per step.
ANNOTATION_LIMIT = 10
# A job summary may hold 1 MiB per step; leave room for what other steps append.
SUMMARY_BUDGET = 1024 * 1024 - 64 * 1024
# Per-file lists longer than this are folded into <details> in Markdown.
FOLD_AFTER = 10

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
    """Render ``diff`` as ``rich``, ``text``, ``json``, ``markdown`` or ``github``."""
    if fmt == "json":
        stream.write(json.dumps(diff.to_dict(), ensure_ascii=False, indent=2) + "\n")
    elif fmt == "markdown":
        stream.write(markdown(diff))
    elif fmt == "github":
        write_github(diff, stream, fail_on=fail_on, env=os.environ if env is None else env)
    elif fmt == "rich":
        _rich(diff, stream)
    else:
        for line in text_lines(diff):
            stream.write(line + "\n")


def short(rev: str) -> str:
    return rev[:12] if len(rev) >= 40 and rev.isalnum() else rev


def _title(diff: ChunkDiff) -> str:
    def name(sha: str, given: str) -> str:
        shown = short(sha)
        return shown if given in (sha, shown) else f"{given} ({shown})"

    return f"{name(diff.base, diff.base_name)} → {name(diff.head, diff.head_name)}"


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
    yield f"chunkgate diff {_title(diff)}"
    for change in diff.changes():
        yield f"{_SIGNS[change.kind]} {describe(diff, change)}"
    yield totals(diff)
    for note in diff.notes:
        yield f"note: {note}"


def _by_file(changes: Sequence[Change]) -> Iterator[tuple[str, list[Change]]]:
    for path, group in groupby(changes, key=lambda change: change.chunk.path):
        yield path, list(group)


def _rich(diff: ChunkDiff, stream: IO[str]) -> None:
    from rich.markup import escape
    from rich.table import Table

    console = make_console(stream)
    console.print(f"[bold]chunkgate diff[/bold] {escape(_title(diff))}")
    for path, changes in _by_file(diff.changes()):
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
    for label, count, style in _summary_rows(diff):
        table.add_row(f"[{style}]{label}[/{style}]" if style else label, str(count))
    console.print()
    console.print(table)
    for note in diff.notes:
        console.print(f"[dim]note: {escape(note)}[/dim]")


def _summary_rows(diff: ChunkDiff) -> list[tuple[str, int, str]]:
    return [
        ("+ added", len(diff.added), "green"),
        ("- removed", len(diff.removed), "red"),
        ("~ modified", len(diff.modified), "yellow"),
        ("→ moved", len(diff.moved), "cyan"),
        ("  of which unstable", len(diff.unstable), "bold red" if diff.unstable else ""),
        ("= unchanged", diff.unchanged, ""),
    ]


def _code(text: str) -> str:
    # CommonMark code spans: a fence longer than any backtick run inside (spec 6.1).
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown(diff: ChunkDiff, *, budget: int = SUMMARY_BUDGET) -> str:
    """A job summary or pull request comment: totals, unstable IDs, then changes per file."""
    head = [f"### chunkgate diff {_code(_title(diff))}", "", "| change | chunks |", "|---|---:|"]
    head += [f"| {label.strip()} | {count} |" for label, count, _ in _summary_rows(diff)]
    head.append("")
    if diff.unstable:
        count = len(diff.unstable)
        head.append(
            f"**{count} unstable chunk ID{'s' if count != 1 else ''}**: citations to the old "
            "IDs break. Keep the old ID (Markdown: `## Heading {#old-id}`) or record the move "
            "with `chunkgate update --accept-moves`."
        )
        head.append("")
    head += [f"> - {note}" for note in diff.notes]
    body: list[str] = []
    if diff.unstable:
        # Listed before the files so that a summary cut at its size limit keeps them.
        body += ["#### Unstable IDs", ""]
        body += [f"- {_markdown_item(diff, change)}" for change in diff.unstable]
        body.append("")
    for path, changes in _by_file(diff.changes()):
        items = [f"- {_markdown_item(diff, c)}" for c in changes]
        body.append(f"#### {_code(path)}")
        body.append("")
        if len(items) > FOLD_AFTER:
            body += [
                f"<details><summary>{len(items)} changes</summary>",
                "",
                *items,
                "",
                "</details>",
            ]
        else:
            body += items
        body.append("")
    return _fit("\n".join(head) + "\n", body, budget)


_ICONS = {
    ChangeKind.ADDED: "➕",
    ChangeKind.REMOVED: "➖",
    ChangeKind.MODIFIED: "✏️",
    ChangeKind.MOVED: "↪️",
}


def _markdown_item(diff: ChunkDiff, change: Change) -> str:
    icon, unit = _ICONS[change.kind], diff.unit
    if change.kind is ChangeKind.MOVED:
        assert change.before is not None
        how = "identical" if change.how == "identical" else f"{change.how}, {change.similarity:.0%}"
        state = "acknowledged" if change.acknowledged else "**unstable**"
        return f"{icon} {_code(change.before.id)} → {_code(change.chunk.id)} ({how}; {state})"
    if change.kind is ChangeKind.MODIFIED:
        old, new = _size(diff, change.before), _size(diff, change.after)
        return f"{icon} {_code(change.chunk.id)} {old} → {new} {unit} ({new - old:+d})"
    return f"{icon} {_code(change.chunk.id)} ({diff.size(change.chunk)} {unit})"


def _fit(head: str, body: list[str], budget: int) -> str:
    out = [head]
    used = len(head.encode())
    for index, line in enumerate(body):
        size = len(line.encode()) + 1
        if used + size > budget - 200:
            out.append(f"\n_… {len(body) - index} more lines left out (summary size limit)._\n")
            break
        out.append(line + "\n")
        used += size
    return "".join(out)


def annotation(level: str, message: str, **properties: str | int) -> str:
    """One workflow command, escaped as the runner requires."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return (
        f"::{level} {props}::{escape_data(message)}"
        if props
        else f"::{level}::{escape_data(message)}"
    )


def unstable_message(change: Change) -> str:
    assert change.before is not None
    assert change.after is not None
    old = change.before
    keep = (
        f"keep the old ID with {{#{old.identity}}}"
        if old.language == "markdown" and old.kind == "section"
        else f"keep the old name ({old.identity})"
    )
    if old.language == "rst" and old.kind == "section":  # issue 22
        keep = f"keep the old ID with `.. _{old.identity}:` above the title"
    return (
        f"ID changed from {old.id} to {change.after.id}: citations to {old.id} break; "
        f"{keep} or run `chunkgate update --accept-moves`"
    )


def write_github(
    diff: ChunkDiff,
    stream: IO[str],
    *,
    fail_on: Sequence[str] = (),
    env: Mapping[str, str],
    summary: Callable[[ChunkDiff], str] = markdown,
) -> None:
    """Annotations on unstable IDs (errors when ``unstable`` fails the run), a summary
    line, and the Markdown summary appended to ``$GITHUB_STEP_SUMMARY`` when set."""
    level = "error" if "unstable" in fail_on else "warning"
    unstable = diff.unstable
    for change in unstable[:ANNOTATION_LIMIT]:
        new = change.chunk
        stream.write(
            annotation(
                level,
                unstable_message(change),
                file=new.path,
                line=new.start_line,
                title="chunkgate: unstable chunk ID",
            )
            + "\n"
        )
    if len(unstable) > ANNOTATION_LIMIT:
        more = len(unstable) - ANNOTATION_LIMIT
        stream.write(f"chunkgate: {more} more unstable IDs are listed in the job summary\n")
    for note in diff.notes:
        stream.write(annotation("notice", note) + "\n")
    stream.write(f"chunkgate diff {_title(diff)}: {totals(diff)}\n")
    append_summary(env, summary(diff))


def append_summary(env: Mapping[str, str], text: str) -> None:
    """Append to ``$GITHUB_STEP_SUMMARY`` without taking it past GitHub's 1 MiB limit."""
    path = env.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    try:
        used = os.path.getsize(path)
    except OSError:
        used = 0
    room = 1024 * 1024 - used - 1024
    data = text.encode("utf-8")
    if room <= 0:
        return
    if len(data) > room:
        data = data[:room].decode("utf-8", "ignore").encode("utf-8")
    with open(path, "ab") as handle:
        handle.write(data if data.endswith(b"\n") else data + b"\n")
