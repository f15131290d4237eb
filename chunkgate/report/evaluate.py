"""``eval`` output: a table per query (rich on a terminal, plain text), JSON, and
the GitHub job summary section."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import IO

from chunkgate.evaluate.retrieval import EvalReport
from chunkgate.report.console import make_console
from chunkgate.report.fit import middle, room, whole_headers, widest
from chunkgate.report.formats import EVAL, EvalWriter
from chunkgate.report.github import cell, code_cell


def write_eval(
    report: EvalReport, fmt: str, stream: IO[str], *, env: Mapping[str, str] | None = None
) -> None:
    """Write ``report`` in one of ``formats.EVAL``'s formats (not ``auto``)."""
    writer: EvalWriter = EVAL.writer(fmt)
    writer(report, stream, env=os.environ if env is None else env)


def write_json(report: EvalReport, stream: IO[str], *, env: Mapping[str, str]) -> None:
    stream.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")


def write_rich(report: EvalReport, stream: IO[str], *, env: Mapping[str, str]) -> None:
    _rich(report, stream)


def write_text(report: EvalReport, stream: IO[str], *, env: Mapping[str, str]) -> None:
    _text(report, stream)


def write_github(report: EvalReport, stream: IO[str], *, env: Mapping[str, str]) -> None:
    """The text report, the job summary's section, and an error annotation per failure."""
    _text(report, stream)
    summary = env.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a", encoding="utf-8", newline="\n") as file:
                file.write(job_summary(report))
        except OSError as exc:
            stream.write(f"::warning title=chunkgate eval::job summary not written: {exc}\n")
    for reason in report.failures():
        stream.write(f"::error title=chunkgate eval::{reason}\n")


def _headline(report: EvalReport) -> str:
    head = report.head
    line = (
        f"recall@{head.k} {head.recall:.3f}, MRR@{head.k} {head.mrr:.3f} "
        f"over {len(head.results)} queries and {head.chunks:,} chunks"
    )
    if report.base is not None:
        base = report.base
        line += f" (at {base.name}: recall@{base.k} {base.recall:.3f}, MRR {base.mrr:.3f})"
    return line


def _rows(report: EvalReport) -> list[tuple[str, str, str, str]]:
    rows = []
    before = report.base.results if report.base is not None else (None,) * len(report.head.results)
    for result, old in zip(report.head.results, before, strict=True):
        rank = str(result.rank) if result.rank else "-"
        recall = f"{result.recall:.2f}"
        if old is not None and (old.recall != result.recall or old.rank != result.rank):
            recall = f"{old.recall:.2f} -> {recall}"
            rank = f"{old.rank or '-'} -> {rank}"
        missing = [e for e in result.expected if e not in result.found]
        rows.append((result.query, recall, rank, ", ".join(missing)))
    return rows


def _text(report: EvalReport, stream: IO[str]) -> None:
    for query, recall, rank, missing in _rows(report):
        line = f"{recall:>12}  rank {rank:>8}  {query}"
        if missing:
            line += f"  (not in the top {report.head.k}: {missing})"
        stream.write(line + "\n")
    stream.write(_headline(report) + "\n")
    for note in report.notes:
        stream.write(note + "\n")


_SCORES = ("recall", "first hit")


def _rich(report: EvalReport, stream: IO[str]) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.table import Table

    console = make_console(stream)
    rows = _rows(report)
    table = Table(title=f"chunkgate eval (k={report.head.k})")
    scores = [widest(name, [row[i] for row in rows]) for i, name in enumerate(_SCORES, 1)]
    # The missing IDs share a line with the query: each gets at most half of what is left.
    id_room = room(console.width, [*scores, room(console.width, scores) // 2])
    table.add_column("query", overflow="fold")
    for name in _SCORES:
        table.add_column(name, no_wrap=True)
    table.add_column("not found", overflow="fold")
    for query, recall, rank, missing in rows:
        style = "red" if "->" in recall or recall.startswith("0.00") else None
        shown = ", ".join(middle(found, id_room) for found in missing.split(", ") if found)
        table.add_row(query, recall, rank, shown, style=style)
    table = whole_headers(table)
    console.print(table)
    console.print(_headline(report))
    for note in report.notes:
        console.print(note, markup=False)


def job_summary(report: EvalReport) -> str:
    head = report.head
    lines = ["", "## chunkgate eval", "", f"**{cell(_headline(report))}**", ""]
    for reason in report.failures():
        lines.append(f"- :x: {cell(reason)}")
    if report.failures():
        lines.append("")
    lines += [f"| query | recall@{head.k} | first hit | not found |", "|---|--:|--:|---|"]
    for query, recall, rank, missing in _rows(report):
        shown = ", ".join(code_cell(m) for m in missing.split(", ")) if missing else ""
        lines.append(f"| {cell(query)} | {cell(recall)} | {cell(rank)} | {shown} |")
    return "\n".join(lines) + "\n"
