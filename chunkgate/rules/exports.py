"""What another pipeline's chunks get wrong, found by `chunkgate lint EXPORT`.

chunkgate's own chunks cannot have these faults: it cuts at headings, never
inside a code fence, and every chunk knows its file and ID. Chunks made by
LangChain's, LlamaIndex's or chonkie's splitters can. Rows are read in
export order; a code fence left open by one chunk is still open at the start
of the next chunk of the same source.

## CG601 empty-chunk

Fires on a row whose text is missing, empty or only whitespace.

**Why it matters:** an empty chunk costs an embedding call and matches
every query a little.

**Fix:** drop empty chunks, or fix the loader that produced them.

Fires: `{"id": "a", "text": "  \\n"}`.
Passes: `{"id": "a", "text": "Install it."}`.

## CG602 missing-source

Fires on a row with no source file, path or document ID.

**Why it matters:** an answer built on the chunk cannot cite where it came
from, and a stale chunk cannot be traced back to the file to fix.

**Fix:** keep the loader's `source` / `file_path` metadata on every chunk.

Fires: `{"text": "Install it."}`.
Passes: `{"text": "Install it.", "metadata": {"source": "docs/a.md"}}`.

## CG603 missing-id

Fires on a row with no chunk ID.

**Why it matters:** without a stable ID a vector store cannot update or
delete the chunk, and nothing can cite it.

**Fix:** give each chunk an ID made of its source and section (chunkgate's
`path#anchor`), not a counter or a random UUID.

Fires: `{"text": "Install it.", "metadata": {"source": "a.md"}}`.
Passes: `{"id": "a.md#install", "text": "Install it."}`.

## CG604 cut-fence

Fires on a chunk that starts or ends inside a fenced code block (an opening
```` ``` ```` or `~~~` fence without its closing one, or the rest of a
block the previous chunk of the source opened).

**Why it matters:** half a code example is retrieved without its other half
or without the prose that explains it, and an open fence swallows the text
after it when the chunk is rendered or shown to a model.

**Fix:** split at headings (or blocks) first, and never inside a fence;
raise the chunk size for sections with long examples.

Fires: a chunk ending in ```` ```python\\nimport fastapi ````.
Passes: a chunk holding the whole block, fences included.

## CG605 mid-sentence

Fires on a chunk that starts in the middle of a sentence (with a lowercase
word or a connector such as "and" or "which", or with `,` `;` `)`), or ends in
one (on a word with no closing punctuation, or on `,` `;`), not counting
headings, list items, tables, code and quotes.

**Why it matters:** the half sentence loses its subject or its condition,
and retrieval returns a chunk that cannot answer on its own.

**Fix:** split on sentence or paragraph boundaries (a recursive splitter's
separators), or overlap chunks by a sentence.

Fires: a chunk `"and then restart the server."`.
Passes: `"Then restart the server."`.

## CG606 cut-table

Fires on a chunk that holds rows of a Markdown table without its header
row and separator (`| --- |`).

**Why it matters:** table rows without a header lose what their columns
mean.

**Fix:** keep a table in one chunk, or repeat its header in each part.

Fires: `"| a | 1 |\\n| b | 2 |"`.
Passes: `"| name | n |\\n|---|---|\\n| a | 1 |"`.

## CG607 no-heading

Fires on a chunk with no heading in its metadata and none at its start.

**Why it matters:** a chunk without its section title is hard to retrieve
by topic and cannot say where in the document it is.

**Fix:** keep the heading path as metadata (LangChain's
MarkdownHeaderTextSplitter, LlamaIndex's MarkdownNodeParser) or prefix it to
the text.

Fires: `{"text": "Run it."}`.
Passes: `{"text": "Run it.", "metadata": {"Header 2": "Usage"}}`.

## CG608 changed-id

Fires (with `--against OTHER`) on a chunk whose text is the same in both
exports but whose ID differs.

**Why it matters:** a re-ingest that renames unchanged chunks orphans every
stored vector, citation and eval label that used the old ID.

**Fix:** derive IDs from the source and section, never from a counter, a
run or a random UUID.

Fires: the same text as `7f3e…` in one export and `a91c…` in the other.
Passes: the same text under the same ID in both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from chunkgate.core.regex import lazy
from chunkgate.rules.base import Finding, Rule

# Faults of chunks other pipelines made (`chunkgate lint EXPORT`): errors first.
RULES = (
    Rule("CG601", "empty-chunk", "error", "an exported chunk has no text", priority=43),
    Rule("CG602", "missing-source", "error", "an exported chunk names no source", priority=46),
    Rule("CG603", "missing-id", "warning", "an exported chunk has no ID", priority=54),
    Rule(
        "CG604",
        "cut-fence",
        "error",
        "an exported chunk starts or ends inside a code fence",
        priority=44,
    ),
    Rule(
        "CG605",
        "mid-sentence",
        "warning",
        "an exported chunk starts or ends mid-sentence",
        priority=55,
    ),
    Rule(
        "CG606",
        "cut-table",
        "warning",
        "an exported chunk holds table rows without a header",
        priority=56,
    ),
    Rule("CG607", "no-heading", "warning", "an exported chunk has no heading context", priority=57),
    Rule(
        "CG608",
        "changed-id",
        "error",
        "the same text has another ID in the other export",
        priority=45,
    ),
)


class ExportRow(NamedTuple):
    line: int  # the row's line in the export (its position in a JSON array)
    id: str | None
    source: str | None
    headings: tuple[str, ...]
    text: str | None


_FENCE = lazy(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_STRUCTURE = lazy(r"^(?:#{1,6}\s|[-*+]\s|\d{1,9}[.)]\s|\||>|<|!!!|\?\?\?|///|:::|\[[^\]]*\]:)")
_CONNECTORS = frozenset(
    ("and", "but", "or", "nor", "so", "yet", "which", "that", "whose", "whom", "where", "because")
)
_TABLE_ROW = lazy(r"^\s*\|.*\|\s*$")
# ``^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$`` without two adjacent ``\s*``
# (that was quadratic on a line of blanks).
_TABLE_SEPARATOR = lazy(r"^\s*(?:\|\s*)?:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*(?:\|\s*)?$")


def check_rows(rows: Sequence[ExportRow]) -> Iterator[Finding]:
    open_fences: dict[str | None, str] = {}  # source -> the fence its last chunk left open
    for row in rows:
        text = row.text
        if text is None or not text.strip():
            yield Finding("CG601", row.line, "the chunk has no text", "drop it, or fix the loader")
            continue
        if row.source is None:
            yield Finding(
                "CG602", row.line, "no source file or document", "keep the loader's source metadata"
            )
        if row.id is None:
            yield Finding(
                "CG603", row.line, "no chunk ID", "give each chunk a stable ID (source#section)"
            )
        carried = open_fences.pop(row.source, None)
        started_inside, left_open = fence_state(text, carried)
        if left_open is not None:
            open_fences[row.source] = left_open
        if started_inside or left_open is not None:
            where = " and ".join(
                part
                for part, on in (
                    ("starts inside a code block the chunk before opened", started_inside),
                    (f"ends inside the code block it opens ({left_open})", left_open is not None),
                )
                if on
            )
            yield Finding(
                "CG604", row.line, f"the chunk {where}", "never split inside a code fence"
            )
        elif not _has_fence(text):
            cut = _cut_sentence(text)
            if cut:
                yield Finding("CG605", row.line, f"the chunk {cut}", "split on sentence boundaries")
        if _cut_table(text):
            yield Finding(
                "CG606",
                row.line,
                "table rows without their header row",
                "keep a table's header with its rows",
            )
        if not row.headings and not text.lstrip().startswith("#"):
            yield Finding(
                "CG607",
                row.line,
                "no heading in the metadata or the text",
                "keep the heading path as metadata",
            )


def fence_state(text: str, carried: str | None) -> tuple[bool, str | None]:
    """Whether ``text`` starts inside a fence (``carried``: the opening line of one
    the chunk before left open) and the opening line of the fence it leaves open."""
    open_fence = carried
    from_before = carried is not None  # the open fence is the one carried in
    started_inside = False
    seen_text = False
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if found is None:
            seen_text = seen_text or bool(line.strip())
            continue
        marks, info = found.group(1), found.group(2).strip()
        if open_fence is None:
            open_fence, from_before = line.strip(), False
        elif from_before and not seen_text and info:
            open_fence, from_before = line.strip(), False  # overlap repeats the opening
        elif marks[0] == open_fence[0] and len(marks) >= _marks(open_fence) and not info:
            started_inside = started_inside or from_before
            open_fence, from_before = None, False
        seen_text = True
    if from_before:
        started_inside = True  # the whole chunk is inside the block
    return started_inside, open_fence


def _marks(fence: str) -> int:
    return len(fence) - len(fence.lstrip(fence[0]))


def _has_fence(text: str) -> bool:
    return "```" in text or "~~~" in text


def _cut_sentence(text: str) -> str | None:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    first, last = lines[0], lines[-1]
    if not _STRUCTURE.match(first) and not text.startswith(("    ", "\t")):
        word = re.match(r"[a-z][a-z']*\b", first)
        if first[0] in ",;)]}" or (word and word.group() in _CONNECTORS):
            return f"starts mid-sentence: {first[:40]!r}"
        if word and first[word.end() : word.end() + 1] in (" ", ",") and len(first.split()) >= 4:
            return f"starts mid-sentence: {first[:40]!r}"
    prose_end = not _STRUCTURE.match(last) and "://" not in last
    if prose_end and (last[-1] in ",;" or (last[-1].isalnum() and len(last.split()) >= 4)):
        return f"ends mid-sentence: {last[-40:]!r}"
    return None


def _cut_table(text: str) -> bool:
    rows = [line for line in text.split("\n") if _TABLE_ROW.match(line)]
    return len(rows) >= 2 and not any(_TABLE_SEPARATOR.match(line) for line in rows)


def id_changes(
    rows: Sequence[ExportRow], others: Sequence[ExportRow], other: str
) -> Iterator[Finding]:
    """CG608: rows whose text the other export holds under other IDs only."""
    ids_by_text: dict[str, set[str]] = {}
    for row in others:
        if row.text and row.text.strip() and row.id is not None:
            ids_by_text.setdefault(_normal(row.text), set()).add(row.id)
    for row in rows:
        if not row.text or not row.text.strip() or row.id is None:
            continue
        there = ids_by_text.get(_normal(row.text))
        if there and row.id not in there:
            yield Finding(
                "CG608",
                row.line,
                f"ID {row.id} is {sorted(there)[0]} in {other} for the same text",
                "derive IDs from the source and section, not a counter or a random UUID",
            )


def _normal(text: str) -> str:
    return " ".join(text.split())
