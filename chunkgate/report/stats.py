"""Output of ``stats``: a histogram against the limits, the largest chunks, percentiles."""

from __future__ import annotations

import json
from typing import IO, TYPE_CHECKING

from chunkgate.report.check import plural, rich_console
from chunkgate.report.fit import middle, room, whole_headers, widest
from chunkgate.report.formats import STATS, StatsWriter
from chunkgate.report.printable import printable
from chunkgate.report.summary import SUMMARY_LIMIT, Fitted
from chunkgate.stats import Bucket, Stats

if TYPE_CHECKING:
    from rich.text import Text

BAR_WIDTH = 30
_STYLES = {"under": "yellow", "within": "green", "over": "red"}


def write_stats(stats: Stats, fmt: str, stream: IO[str]) -> None:
    """Write ``stats`` in one of ``formats.STATS``'s formats (not ``auto``)."""
    writer: StatsWriter = STATS.writer(fmt)
    writer(stats, stream)


def write_json(stats: Stats, stream: IO[str]) -> None:
    stream.write(json.dumps(stats.to_dict(), ensure_ascii=False, indent=2) + "\n")


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def unit_name(stats: Stats) -> str:
    """The unit sizes are in: ``tokens of bge-small-en-v1.5`` when a model is named."""
    if stats.model and stats.unit == "tokens":
        return f"{stats.unit} of {stats.model}"
    return stats.unit


def headline(stats: Stats) -> str:
    return (
        f"{plural(stats.count, 'chunk')}, {stats.total:,} {unit_name(stats)} in total "
        f"(size.min {stats.min_size:,}, size.max {stats.max_size:,} {stats.unit})"
    )


def figures(stats: Stats) -> list[tuple[str, str]]:
    return [
        ("mean", _number(stats.mean)),
        ("median", _number(stats.median)),
        ("p90", f"{stats.p90:,}"),
        ("p99", f"{stats.p99:,}"),
        ("max", f"{stats.max:,}"),
    ]


def limits(stats: Stats) -> str:
    return f"{stats.over_max:,} over size.max (CG201), {stats.under_min:,} under size.min (CG202)"


def known_line(stats: Stats) -> str:
    """The problems the manifest records (known: they fail nothing), by rule; "" for none."""
    if not stats.known:
        return ""
    total = sum(count for _, count in stats.known)
    rules = ", ".join(f"{rule} {count:,}" for rule, count in stats.known)
    return f"{plural(total, 'known problem')} the manifest records: {rules}"


def _bar(count: int, peak: int, char: str) -> str:
    if not count:
        return ""
    return char * max(1, round(count / peak * BAR_WIDTH))


def _percent(count: int, total: int) -> str:
    return f"{count / total:.0%}" if total else "0%"


def write_text(stats: Stats, stream: IO[str]) -> None:
    stream.write(headline(stats) + "\n")
    if not stats.count:
        return
    stream.write("  ".join(f"{name} {value}" for name, value in figures(stats)) + "\n")
    stream.write(limits(stats) + "\n")
    if stats.known:
        stream.write(known_line(stats) + "\n")
    stream.write("\n")
    stream.write(f"histogram ({stats.unit})\n")
    peak = max(bucket.count for bucket in stats.histogram)
    width = max(len(bucket.label) for bucket in stats.histogram)
    for bucket in stats.histogram:
        bar = _bar(bucket.count, peak, "#").ljust(BAR_WIDTH)
        count = f"{bucket.count:,}"
        stream.write(f"  {bucket.label.rjust(width)}  {bar}  {count:>7} {_marker(bucket)}".rstrip())
        stream.write("\n")
    stream.write(f"\nlargest chunks ({stats.unit})\n")
    size_width = max(len(f"{size:,}") for _, size in stats.largest)
    for chunk_id, size in stats.largest:
        stream.write(f"  {size:>{size_width},}  {chunk_id}\n")


def _marker(bucket: Bucket) -> str:
    if bucket.kind == "under":
        return "below size.min (CG202)"
    if bucket.kind == "over":
        return "over size.max (CG201)"
    return ""


def _limit_line(label: str, style: str) -> Text:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.text import Text

    return Text(f"┄┄ {label} ".ljust(BAR_WIDTH, "┄"), style=style)


def write_rich(stats: Stats, stream: IO[str]) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.table import Table
    from rich.text import Text  # rich: terminal output only

    console = rich_console(stream)
    console.print(Text(headline(stats), style="bold"), overflow="fold")
    if not stats.count:
        console.print(Text("no chunks", style="dim"))
        return
    line = Text()
    for name, value in figures(stats):
        line.append(f"{name} ", style="dim")
        line.append(f"{value}  ")
    console.print(line)
    console.print(Text(limits(stats), style="red" if stats.over_max else "dim"), overflow="fold")
    if stats.known:
        console.print(Text(known_line(stats), style="dim"), overflow="fold")
    console.print()

    peak = max(bucket.count for bucket in stats.histogram)
    histogram = Table(
        title=f"sizes ({stats.unit})",
        title_justify="left",
        show_header=False,
        show_edge=False,
        box=None,
        padding=(0, 1),
    )
    histogram.add_column("size", justify="right", no_wrap=True)
    histogram.add_column("bar", no_wrap=True, min_width=BAR_WIDTH)
    histogram.add_column("count", justify="right", no_wrap=True)
    histogram.add_column("share", justify="right", no_wrap=True, style="dim")
    for bucket in stats.histogram:
        style = _STYLES[bucket.kind]
        if bucket.kind == "over":
            histogram.add_row("", _limit_line(f"size.max {stats.max_size:,}", "red"), "", "")
        histogram.add_row(
            Text(bucket.label, style=style if bucket.kind != "within" else ""),
            Text(_bar(bucket.count, peak, "█"), style=style),
            f"{bucket.count:,}",
            _percent(bucket.count, stats.count),
        )
        if bucket.kind == "under":
            histogram.add_row("", _limit_line(f"size.min {stats.min_size:,}", "yellow"), "", "")
    console.print(histogram)
    console.print()

    largest = Table(title="largest chunks", title_justify="left", show_edge=False, box=None)
    sizes = [f"{size:,}" for _, size in stats.largest]
    id_room = room(console.width, [widest(stats.unit, sizes)])
    largest.add_column(stats.unit, justify="right", no_wrap=True)
    largest.add_column("chunk", no_wrap=True)
    for (chunk_id, size), shown in zip(stats.largest, sizes, strict=True):
        largest.add_row(
            Text(shown, style="red" if size > stats.max_size else ""),
            Text(printable(middle(chunk_id, id_room))),
        )
    console.print(whole_headers(largest))


def sizes_summary(stats: Stats, limit: int = SUMMARY_LIMIT) -> Fitted:
    """The job summary's ``### chunk sizes`` section: the histogram as a Markdown table of
    Unicode bars, within ``limit`` UTF-8 bytes ("" when it does not fit)."""
    lines = ["", f"### chunk sizes ({unit_name(stats)})", "", headline(stats), ""]
    if stats.count:
        peak = max(bucket.count for bucket in stats.histogram)
        lines += ["| size | | chunks | share | |", "|--:|:--|--:|--:|:--|"]
        lines += [
            f"| {bucket.label} | {_bar(bucket.count, peak, '█')} | {bucket.count:,} "
            f"| {_percent(bucket.count, stats.count)} | {_marker(bucket)} |"
            for bucket in stats.histogram
        ]
        lines += ["", limits(stats)]
    text = "\n".join(lines) + "\n"
    if len(text.encode("utf-8")) > limit:
        return Fitted("", {})
    return Fitted(text, {})
