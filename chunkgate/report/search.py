"""``search`` output: each result in three lines that fit 80 columns (rich on a
terminal, plain text), and JSON.

A result: its rank, its chunk ID (shortened in the middle when it would not fit)
and score; where it is (heading path or symbol, lines, size); a snippet with the
query's words marked (``**word**`` in text, highlighted in rich). ``--explain``
adds the matched terms of one result with their weights, and a hint for each
result with a size or never-embed finding, by its code.
"""

from __future__ import annotations

import json
import textwrap
from typing import IO

from chunkgate.evaluate.search import Hit, SearchResult
from chunkgate.report.console import make_console
from chunkgate.report.fit import middle
from chunkgate.report.formats import SEARCH, SearchWriter
from chunkgate.report.printable import printable

WIDTH = 80
INDENT = "    "


def write_search(result: SearchResult, fmt: str, stream: IO[str]) -> None:
    """Write ``result`` in one of ``formats.SEARCH``'s formats (not ``auto``)."""
    writer: SearchWriter = SEARCH.writer(fmt)
    writer(result, stream)


def write_json(result: SearchResult, stream: IO[str]) -> None:
    stream.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")


def write_text(result: SearchResult, stream: IO[str]) -> None:
    stream.write(_headline(result) + "\n")
    for hit in result.hits:
        stream.write(f"{_title(hit, WIDTH)}\n{INDENT}{_place(hit, WIDTH - len(INDENT))}\n")
        marked = printable(hit.snippet.marked("**", "**"))
        for line in textwrap.wrap(marked, WIDTH, initial_indent=INDENT, subsequent_indent=INDENT):
            stream.write(line + "\n")
    for line in _explained(result):
        stream.write(line + "\n")
    for note in result.skipped:
        stream.write(f"skipped {note}\n")


def write_rich(result: SearchResult, stream: IO[str]) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.padding import Padding
    from rich.text import Text  # rich: terminal output only

    console = make_console(stream)
    width = max(console.width, 40)
    console.print(_headline(result), style="bold")
    for hit in result.hits:
        title = Text(printable(_title(hit, width)))
        title.stylize("bold cyan", 4, len(title) - len(_score(hit)))
        console.print(title)
        console.print(Text(INDENT + printable(_place(hit, width - len(INDENT))), style="dim"))
        passage = Text(printable(hit.snippet.text))
        for start, end in hit.snippet.marks:
            passage.stylize("bold yellow", start, end)
        console.print(Padding(passage, (0, 0, 0, len(INDENT))))
    for line in _explained(result):
        console.print(line, markup=False)
    for note in result.skipped:
        console.print(f"skipped {note}", markup=False, style="dim")


def _headline(result: SearchResult) -> str:
    noun = "chunk" if result.chunks == 1 else "chunks"
    where = f"{result.chunks:,} {noun} ({result.name})"
    if not result.terms:
        return f"no words to search for in {result.query!r} (all stopwords?), {where}"
    if not result.hits:
        return f"no chunk matches {', '.join(result.terms)} among {where}"
    return f"top {len(result.hits)} of {where} for {', '.join(dict.fromkeys(result.terms))}"


def _score(hit: Hit) -> str:
    return f"{hit.score:.2f}"


def _title(hit: Hit, width: int) -> str:
    """``rank  ID  score`` in ``width`` columns, the ID shortened in the middle."""
    rank, score = f"{hit.rank:>2}  ", _score(hit)
    room = width - len(rank) - len(score) - 2
    chunk_id = middle(hit.chunk.id, room)
    return f"{rank}{chunk_id}{' ' * (width - len(rank) - len(chunk_id) - len(score))}{score}"


def _place(hit: Hit, width: int) -> str:
    chunk = hit.chunk
    where = chunk.symbol or " > ".join(chunk.heading_path) or chunk.kind
    size = f"  lines {chunk.start_line}-{chunk.end_line}, {chunk.tokens:,} tokens"
    return middle(where, width - len(size)) + size


def _explained(result: SearchResult) -> list[str]:
    if result.explain is None:
        return []
    if result.explain > len(result.hits):
        return [f"nothing ranked {result.explain} to explain"]
    hit = result.hits[result.explain - 1]
    lines = [f"why {hit.rank} ranked: score {_score(hit)} = the sum of its terms' BM25 weights"]
    lines += [f"{INDENT}{term:<24} {weight:8.2f}" for term, weight in hit.terms]
    missed = sorted(set(result.terms) - {term for term, _ in hit.terms})
    if missed:
        lines.append(f"{INDENT}not in this chunk: {', '.join(missed)}")
    hinted = [hit for hit in result.hits if hit.findings]
    if hinted:
        lines.append("hints: results a rule says should not be embedded as they are")
    for other in hinted:
        for finding in other.findings:
            hint = f"{other.rank:>2}  {finding.rule} {finding.name}: {finding.message}"
            lines += textwrap.wrap(printable(hint), WIDTH, subsequent_indent=INDENT)
    return lines
