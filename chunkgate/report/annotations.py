"""GitHub workflow-command annotations, shown within the runner's per-step caps.

GitHub shows at most 10 error, 10 warning and 10 notice annotations per
step, and a composite action is one step: ``check`` and ``diff`` share the
caps. When a step fails, the runner adds its own error ("Process completed
with exit code 1"), which takes one of the 10. So the caller collects every
annotation first and prints them here once: each level worst first (by
``rank``), one error slot left for the runner when the step will fail, and
one notice slot for a last annotation that says how many were not shown and
where they are listed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import IO, NamedTuple

PER_STEP = 10  # annotations of each level that GitHub shows per step
LEVELS = ("error", "warning", "notice")


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class Annotation(NamedTuple):
    level: str  # error | warning | notice
    message: str
    title: str = ""
    file: str = ""
    line: int = 0
    end_line: int = 0  # 0: a single line
    rank: tuple[object, ...] = ()  # lower is shown first within its level
    # What it is about: (kind, place in the order a summary section lists that kind).
    key: tuple[str, int] | None = None

    def command(self) -> str:
        """The workflow command, escaped as the runner requires."""
        props = []
        if self.file:
            props.append(f"file={escape_property(self.file)}")
            if self.line >= 1:
                props.append(f"line={self.line}")
                if self.end_line > self.line:
                    props.append(f"endLine={self.end_line}")
        if self.title:
            props.append(f"title={escape_property(self.title)}")
        head = f"::{self.level} {','.join(props)}" if props else f"::{self.level}"
        return f"{head}::{escape_data(self.message)}"


class Selection(NamedTuple):
    shown: list[Annotation]
    hidden: list[Annotation]


def select(annotations: Iterable[Annotation], *, failing: bool) -> Selection:
    """The annotations GitHub will show, worst first per level, and the rest."""
    annotations = list(annotations)
    room = {"error": PER_STEP - (1 if failing else 0), "warning": PER_STEP, "notice": PER_STEP - 1}
    shown: list[Annotation] = []
    hidden: list[Annotation] = []
    for level in LEVELS:
        group = sorted((a for a in annotations if a.level == level), key=lambda a: a.rank)
        shown += group[: room[level]]
        hidden += group[room[level] :]
    return Selection(shown, hidden)


def more_line(hidden: Sequence[Annotation], where: str) -> Annotation | None:
    """The last annotation: how many were not shown, by level, and where they are."""
    if not hidden:
        return None
    counts = Counter(a.level for a in hidden)
    parts = [
        f"{counts[level]:,} more {level}{'s' if counts[level] != 1 else ''}"
        for level in LEVELS
        if counts[level]
    ]
    message = (
        f"{' and '.join(parts)} not annotated "
        f"(GitHub shows {PER_STEP} of each level per step): {where}"
    )
    return Annotation("notice", message, title="chunkgate: more findings")


def write_annotations(
    annotations: Iterable[Annotation],
    stream: IO[str],
    *,
    failing: bool,
    where: Callable[[Sequence[Annotation]], str],
) -> Selection:
    """Print what GitHub will show, then the count of the rest (``where`` says where
    the hidden ones are listed); return the split."""
    selection = select(annotations, failing=failing)
    for annotation in selection.shown:
        stream.write(annotation.command() + "\n")
    last = more_line(selection.hidden, where(selection.hidden)) if selection.hidden else None
    if last is not None:
        stream.write(last.command() + "\n")
    return selection
