"""``chunkgate report``: the corpus as one self-contained HTML page.

Everything the page shows is in the file: its style is inline, its pictures inline
SVG, and it has no script, no font and no address to fetch, so it opens offline and
from a CI artifact. The same corpus gives the same bytes (no time, everything sorted).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from chunkgate import __version__
from chunkgate.overview import ROOT, Member, Overview
from chunkgate.report.charts import Folder, axis_end, histogram_svg, size_bins, treemap_svg
from chunkgate.report.check import plural
from chunkgate.report.stats import figures, headline, limits, unit_name

NEAR_DUPLICATES_OFF = (
    "CG502 (near-duplicate) is off, so no clusters are shown. To see them, turn it on "
    "(<code>rules: {CG502: warning}</code> in the configuration) and install the "
    "<code>neardup</code> extra (<code>pip install 'chunkgate[neardup]'</code>), then run "
    "<code>chunkgate report</code> again."
)

_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;
max-width:1000px;padding:0 16px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;
border-bottom:1px solid #d0d7de;padding-bottom:4px}
.lead{color:#57606a;margin:0 0 4px}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{padding:3px 10px 3px 0;text-align:left;vertical-align:top;border-bottom:1px solid #eaeef2}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
code,.id{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
.over{color:#cf222e}.dim{color:#57606a}
svg text{font:11px system-ui,sans-serif;fill:#1f2328}
svg .tick,svg .count{text-anchor:middle;fill:#57606a}svg .unit{text-anchor:end;fill:#57606a}
.bar.under{fill:#d4a72c}.bar.within{fill:#2da44e}.bar.over{fill:#cf222e}
.axis{stroke:#8c959f}.mark{stroke-width:1.5;stroke-dasharray:4 3}
line.min{stroke:#9a6700}line.max{stroke:#cf222e}line.limit{stroke:#6e40c9}
text.mark{text-anchor:middle;font-weight:600}text.min{fill:#9a6700}text.max{fill:#cf222e}
text.limit{fill:#6e40c9}
.folder{stroke:#fff;stroke-width:1.5}.clean{fill:#aceebb;background:#aceebb}
.few{fill:#fae17d;background:#fae17d}.some{fill:#ffb77c;background:#ffb77c}
.many{fill:#ff8182;background:#ff8182}
.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:-1px}
"""


def report_page(overview: Overview) -> str:
    """The whole page."""
    stats = overview.stats
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>chunkgate report: {escape(overview.name)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>chunkgate report: {escape(overview.name)}</h1>",
        f'<p class="lead">{escape(_totals(overview))}</p>',
        f'<p class="lead">{escape(headline(stats))}</p>',
        *_sizes(overview),
        *_treemap(overview),
        *_largest(overview),
        *_rules(overview),
        *_clusters(overview),
        *_folders(overview),
        f'<p class="dim">made by chunkgate {escape(__version__)}</p>',
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _totals(overview: Overview) -> str:
    summary = overview.summary
    known = sum(rule.known for rule in overview.rules)
    return (
        f"{plural(summary.files, 'file')}, {plural(summary.chunks, 'chunk')}: "
        f"{plural(summary.errors, 'error')}, {plural(summary.warnings, 'warning')}, "
        f"{known:,} known (recorded by the manifest)"
    )


def _sizes(overview: Overview) -> list[str]:
    stats = overview.stats
    out = [f'<h2 id="sizes">Chunk sizes ({escape(unit_name(stats))})</h2>']
    if not stats.count:
        return [*out, "<p>no chunks</p>"]
    tokens = stats.unit == "tokens"
    bins = size_bins(
        [chunk.size for chunk in overview.chunks],
        min_size=stats.min_size,
        max_size=stats.max_size,
    )
    out.append(
        histogram_svg(
            bins,
            min_size=stats.min_size,
            max_size=stats.max_size,
            limit=overview.limit if tokens else None,
            unit=stats.unit,
        )
    )
    out.append("<p>" + " · ".join(f"{name} {value}" for name, value in figures(stats)) + "</p>")
    out.append(f"<p>{escape(limits(stats))}.")
    if not tokens:
        where = f"not drawn: these sizes are {escape(stats.unit)}"
    elif overview.limit < axis_end(bins, stats.max_size):
        where = "drawn above"
    else:
        where = "past the histogram's right end"
    out.append(
        f" The hard limit, the embedding model's input, is {overview.limit:,} tokens of the "
        f"embed text ({where}); over it CG201 is an error, between size.max and it a warning.</p>"
    )
    return out


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], numeric: set[int]) -> str:
    def cells(tag: str, values: Sequence[str]) -> str:
        return "".join(
            f'<{tag} class="n">{value}</{tag}>' if i in numeric else f"<{tag}>{value}</{tag}>"
            for i, value in enumerate(values)
        )

    body = "".join(f"<tr>{cells('td', row)}</tr>" for row in rows)
    return f"<table><thead><tr>{cells('th', head)}</tr></thead><tbody>{body}</tbody></table>"


def _largest(overview: Overview) -> list[str]:
    stats = overview.stats
    if not stats.largest:
        return []
    by_id = {chunk.id: chunk for chunk in overview.chunks}
    rows = []
    for rank, (chunk_id, size) in enumerate(stats.largest, 1):
        chunk = by_id[chunk_id]
        over = ' class="over"' if size > stats.max_size else ""
        rows.append(
            (
                str(rank),
                f'<span class="id">{escape(chunk_id)}</span>',
                f"<span{over}>{size:,}</span>",
                f"<code>{escape(chunk.path)}:{chunk.line}</code>",
            )
        )
    table = _table(("#", "chunk", escape(stats.unit), "where"), rows, {0, 2})
    return ['<h2 id="largest">Largest chunks</h2>', f'<div id="largest-table">{table}</div>']


def _rules(overview: Overview) -> list[str]:
    out = ['<h2 id="rules">Findings by rule</h2>']
    if not overview.rules:
        return [*out, "<p>no findings</p>"]
    rows = [
        (f"<code>{r.rule}</code>", escape(r.name), r.severity, f"{r.new:,}", f"{r.known:,}")
        for r in overview.rules
    ]
    out.append(_table(("rule", "name", "severity", "new", "known"), rows, {3, 4}))
    return out


def _folders(overview: Overview) -> list[str]:
    out = ['<h2 id="folders">Findings by folder</h2>']
    if not overview.folders:
        return [*out, "<p>no files</p>"]
    rows = [
        (
            f"<code>{escape(_folder_name(f.folder))}</code>",
            f"{f.files:,}",
            f"{f.chunks:,}",
            f"{f.size:,}",
            f"{f.errors:,}",
            f"{f.warnings:,}",
            f"{f.known:,}",
        )
        for f in overview.folders
    ]
    head = ("folder", "files", "chunks", escape(overview.stats.unit), "errors", "warnings", "known")
    out.append(_table(head, rows, {1, 2, 3, 4, 5, 6}))
    return out


def _folder_name(folder: str) -> str:
    return "(root)" if folder == ROOT else folder + "/"


def _treemap(overview: Overview) -> list[str]:
    unit = overview.stats.unit
    folders = [
        Folder(_folder_name(f.folder), f.size, f.chunks, f.errors + f.warnings + f.known)
        for f in overview.folders
        if f.size > 0
    ]
    out = [
        '<h2 id="treemap">The corpus by folder</h2>',
        f"<p>Each folder's area is its chunks' size in {escape(unit)} (the files directly in "
        "it); its colour, its findings per chunk.</p>",
    ]
    if not folders:
        return [*out, "<p>no chunks</p>"]
    out.append(treemap_svg(folders, unit))
    out.append(
        '<p class="key dim"><span class="clean"></span>none<span class="few"></span>'
        'under 1 in 10<span class="some"></span>under 1 in 2<span class="many"></span>more</p>'
    )
    return out


def _clusters(overview: Overview) -> list[str]:
    out = ['<h2 id="near-duplicates">Near-duplicate clusters (CG502)</h2>']
    if overview.clusters is None:
        return [*out, f"<p>{NEAR_DUPLICATES_OFF}</p>"]
    if not overview.clusters:
        return [*out, "<p>none: no chunk body is nearly the same as another's</p>"]
    out.append(f"<p>{plural(len(overview.clusters), 'cluster')} of near copies.</p>")
    for number, members in enumerate(overview.clusters, 1):
        out.append(f'<h3 class="cluster">{number}. {plural(len(members), "chunk")}</h3>')
        out.append(_table(("chunk", "where", "similar to"), map(_member_row, members), set()))
    return out


def _member_row(member: Member) -> tuple[str, str, str]:
    chunk = member.chunk
    return (
        f'<span class="id">{escape(chunk.id)}</span>',
        f"<code>{escape(chunk.path)}:{chunk.line}</code>",
        escape(member.similar) if member.similar else '<span class="dim">the original</span>',
    )
