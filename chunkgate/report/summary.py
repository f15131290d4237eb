"""The job summary (``$GITHUB_STEP_SUMMARY``): sections that share GitHub's 1 MiB.

GitHub refuses a step summary over 1 MiB and shows none of it. The action
writes two sections, ``check``'s and ``diff``'s, from one step, so neither
may take it all: each gets what it needs up to an equal share of the room
left, and what one leaves goes to the other. A section cut to its share
drops whole rows or list items (never half a table cell, code span or
``<details>`` block) and says how many it left out.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

SUMMARY_LIMIT = 1024 * 1024  # bytes GitHub accepts per step summary


class Fitted(NamedTuple):
    """A section's Markdown, at most the bytes it was given, and how many of each kind
    of finding it lists (the first N, in the order the section lists them)."""

    text: str
    listed: Mapping[str, int]


Render = Callable[[int], Fitted]


def room_left(path: str) -> int:
    try:
        used = os.path.getsize(path)
    except OSError:
        used = 0
    return max(0, SUMMARY_LIMIT - used)


def share(room: int, needs: Sequence[int]) -> list[int]:
    """Split ``room`` bytes: each gets its need up to an equal share; the surplus of
    the small ones is split again among the rest, until nothing is left to give."""
    limits = [0] * len(needs)
    open_ = [i for i, need in enumerate(needs) if need > 0]
    while open_ and room > 0:
        each = room // len(open_)
        if each == 0:
            break
        still = []
        for i in open_:
            give = min(each, needs[i] - limits[i])
            limits[i] += give
            room -= give
            if limits[i] < needs[i]:
                still.append(i)
        if len(still) == len(open_):
            break  # everyone took a full share: the room is used up
        open_ = still
    return limits


def fit_sections(renders: Sequence[Render], room: int) -> list[Fitted]:
    """Render each section within its share of ``room`` bytes."""
    full = [render(room) for render in renders]
    needs = [len(fitted.text.encode("utf-8", "surrogateescape")) for fitted in full]
    if sum(needs) <= room:
        return full
    limits = share(room, needs)
    return [
        fitted if need <= limit else render(limit)
        for render, fitted, need, limit in zip(renders, full, needs, limits, strict=True)
    ]


def append_summary(path: str, renders: Sequence[Render]) -> tuple[list[Fitted], str | None]:
    """Append the sections to the summary file; the second value is a problem to report
    (the summary is full, or cannot be written), else None."""
    fitted = fit_sections(renders, room_left(path))
    text = "".join(section.text for section in fitted)
    missing = sum(1 for section in fitted if not section.text)
    try:
        if text:
            with open(path, "a", encoding="utf-8", errors="backslashreplace", newline="\n") as file:
                file.write(text)
    except OSError as exc:
        return [Fitted("", {}) for _ in fitted], f"job summary not written: {exc}"
    if missing:
        return fitted, (
            "the job summary is full (GitHub takes 1 MiB a step): "
            f"{missing} of chunkgate's {len(fitted)} summary sections left out"
        )
    return fitted, None
