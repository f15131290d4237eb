"""``diff`` as Markdown for a job summary or a pull request comment, within a byte limit.

Totals first, then the unstable IDs (so a cut keeps them), then the changes
per file, folded into ``<details>`` past ``FOLD_AFTER``. What does not fit
is dropped as whole list items, never half a code span or an unclosed
``<details>``, and a last line counts exactly what was left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import groupby

from chunkgate.core.model import Chunk
from chunkgate.diff.model import Change, ChangeKind, ChunkDiff
from chunkgate.report.summary import SUMMARY_LIMIT, Fitted

# Per-file lists longer than this are folded into <details>.
FOLD_AFTER = 10
UNSTABLE, CHANGES = "unstable", "changes"  # what a diff section lists

_ICONS = {
    ChangeKind.ADDED: "➕",
    ChangeKind.REMOVED: "➖",
    ChangeKind.MODIFIED: "✏️",
    ChangeKind.MOVED: "↪️",
}


def code(text: str) -> str:
    """A code span holding ``text`` on one line (CommonMark 6.1: a fence longer than any
    backtick run inside, padded when the text starts or ends with one)."""
    text = " ".join(text.splitlines())
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def short(rev: str) -> str:
    return rev[:12] if len(rev) >= 40 and rev.isalnum() else rev


def title(diff: ChunkDiff) -> str:
    def name(sha: str, given: str) -> str:
        shown = short(sha)
        return shown if given in (sha, shown) else f"{given} ({shown})"

    return f"{name(diff.base, diff.base_name)} → {name(diff.head, diff.head_name)}"


def summary_rows(diff: ChunkDiff) -> list[tuple[str, int, str]]:
    return [
        ("+ added", len(diff.added), "green"),
        ("- removed", len(diff.removed), "red"),
        ("~ modified", len(diff.modified), "yellow"),
        ("→ moved", len(diff.moved), "cyan"),
        ("  of which unstable", len(diff.unstable), "bold red" if diff.unstable else ""),
        ("= unchanged", diff.unchanged, ""),
    ]


def by_file(changes: Sequence[Change]) -> Iterator[tuple[str, list[Change]]]:
    for path, group in groupby(changes, key=lambda change: change.chunk.path):
        yield path, list(group)


def _size(diff: ChunkDiff, chunk: Chunk | None) -> int:
    return 0 if chunk is None else diff.size(chunk)


def item(diff: ChunkDiff, change: Change) -> str:
    icon, unit = _ICONS[change.kind], diff.unit
    if change.kind is ChangeKind.MOVED:
        assert change.before is not None
        how = "identical" if change.how == "identical" else f"{change.how}, {change.similarity:.0%}"
        state = "acknowledged" if change.acknowledged else "**unstable**"
        return f"- {icon} {code(change.before.id)} → {code(change.chunk.id)} ({how}; {state})\n"
    if change.kind is ChangeKind.MODIFIED:
        old, new = _size(diff, change.before), _size(diff, change.after)
        return f"- {icon} {code(change.chunk.id)} {old} → {new} {unit} ({new - old:+d})\n"
    return f"- {icon} {code(change.chunk.id)} ({diff.size(change.chunk)} {unit})\n"


def _head(diff: ChunkDiff) -> str:
    lines = [f"### chunkgate diff {code(title(diff))}", "", "| change | chunks |", "|---|---:|"]
    lines += [f"| {label.strip()} | {count} |" for label, count, _ in summary_rows(diff)]
    lines.append("")
    if diff.unstable:
        count = len(diff.unstable)
        lines.append(
            f"**{count} unstable chunk ID{'s' if count != 1 else ''}**: citations to the old "
            "IDs break. Keep the old ID (Markdown: `## Heading {#old-id}`) or record the move "
            "with `chunkgate update --accept-moves`."
        )
        lines.append("")
    lines += [f"> - {' '.join(note.splitlines())}" for note in diff.notes]
    if diff.notes:
        lines.append("")
    return "\n".join(lines) + "\n"


def _short_head(diff: ChunkDiff) -> str:
    counts = ", ".join(f"{count} {label.strip(' +-~→=')}" for label, count, _ in summary_rows(diff))
    return f"### chunkgate diff {code(title(diff))}\n\n{counts}\n\n"


def _footer(diff: ChunkDiff, changes: int, unstable: int, total: int, why: str) -> str:
    parts = []
    if changes:
        parts.append(f"{changes:,} of {total:,} changes")
    if unstable:
        parts.append(f"{unstable:,} of {len(diff.unstable):,} unstable IDs")
    return (
        f"\n_{' and '.join(parts)} not listed: {why}. "
        f"Run `chunkgate diff {short(diff.base)}` to see them all._\n"
    )


class _Writer:
    """Appends whole pieces while they fit in ``room`` bytes."""

    def __init__(self, room: int) -> None:
        self.parts: list[str] = []
        self.room = room

    def fits(self, *pieces: str) -> bool:
        return sum(len(piece.encode("utf-8", "surrogateescape")) for piece in pieces) <= self.room

    def add(self, piece: str) -> None:
        self.parts.append(piece)
        self.room -= len(piece.encode("utf-8", "surrogateescape"))


def fit_markdown(
    diff: ChunkDiff,
    limit: int = SUMMARY_LIMIT,
    *,
    why: str = "a job summary holds at most 1 MiB",
) -> Fitted:
    """The Markdown in at most ``limit`` UTF-8 bytes, and how many unstable IDs and file
    changes it lists ("" when not even a one-line head fits)."""
    changes = diff.changes()
    unstable = diff.unstable
    footer = _footer(diff, len(changes), len(unstable), len(changes), why)
    out = _Writer(limit - len(footer.encode("utf-8", "surrogateescape")))
    head = _head(diff)
    if not out.fits(head):
        head = _short_head(diff)
        if not out.fits(head):
            return Fitted("", {})
    out.add(head)
    listed_unstable = listed = 0
    complete = True
    if unstable:
        start, end = "#### Unstable IDs\n\n", "\n"
        if out.fits(start, end):
            out.add(start)
            for change in unstable:
                line = item(diff, change)
                if not out.fits(line, end):
                    complete = False
                    break
                out.add(line)
                listed_unstable += 1
            out.add(end)
        else:
            complete = False
    for path, group in by_file(changes) if complete else ():
        lines = [item(diff, change) for change in group]
        heading = f"#### {code(path)}\n\n"
        folded = len(lines) > FOLD_AFTER
        # The label is written last; reserve its longest form.
        widest = f"<details><summary>{len(lines)} changes, {len(lines)} listed</summary>\n\n"
        close = "\n</details>\n\n" if folded else "\n"
        if not out.fits(heading, widest if folded else "", lines[0], close):
            complete = False
            break
        body: list[str] = []
        for line in lines:
            if not out.fits(heading, widest if folded else "", *body, line, close):
                break
            body.append(line)
        complete = len(body) == len(lines)
        out.add(heading)
        if folded:
            shown = "" if complete else f", {len(body)} listed"
            out.add(f"<details><summary>{len(lines)} changes{shown}</summary>\n\n")
        for line in body:
            out.add(line)
        out.add(close)
        listed += len(body)
        if not complete:
            break
    if listed < len(changes) or listed_unstable < len(unstable):
        out.add(
            _footer(diff, len(changes) - listed, len(unstable) - listed_unstable, len(changes), why)
        )
    return Fitted("".join(out.parts), {UNSTABLE: listed_unstable, CHANGES: listed})
