"""Data where text should be: huge files, encoded blobs, giant tables.

## CG305 data-dump

Fires when

- a file is larger than `max_file_bytes` (default 1,000,000): it is not read
  or chunked at all, and is reported once at line 1;
- a chunk holds an encoded blob: a run of at least 1,000 base64 or hex
  characters without a space, a `data:...;base64,` URI of at least 256
  characters (an inlined image), or at least 1,000 characters of wrapped
  base64 lines (PEM, e-mail style);
- a chunk holds a huge table of data: at least 50 consecutive Markdown table
  rows, or 50 consecutive comma- or tab-separated lines, whose cells are
  mostly numbers, dates, hashes or encoded values (a reference table of words,
  such as an operator table or a list of supported libraries, is
  documentation: it is embedded in parts, split between its rows);
- a chunk is mostly numbers: at least 500 of them, making up at least 70% of
  its words (a vector, a sample series, a hex dump).

The finding names the line where the data starts. In plain-text files, whose
chunks are windows of one document, the whole file is searched; a file that
is mostly one blob is reported once, at file level.

**Why it matters:** an embedding of encoded or tabular data carries no
meaning a question can match, and every retrieval of it wastes the context
window on noise; a single large file can also dominate indexing time.

**Fix:** move the data out of the docs (link the file, or show a few rows and
say where the rest is), or exclude the file in `.chunkgate.yaml`
(`exclude: ["docs/data/**"]`).

Fires (the URI shortened here):

```markdown
## Logo

![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAA…)
```

Passes:

```markdown
## Logo

![logo](img/logo.png)
```
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy
from chunkgate.diff.moves import unit_groups
from chunkgate.rules.base import FileContext, Finding, Option, Rule, exclude_hint, literal_glob

MAX_FILE_BYTES: Option[int] = Option(
    "max_file_bytes",
    "positive_int",
    1_000_000,
    "CG305: files larger than this many bytes are data dumps and are not chunked.",
)
RULES = (
    Rule(
        "CG305",
        "data-dump",
        "error",
        "a file or chunk is a data blob (base64, huge tables, files over max_file_bytes)",
        priority=23,
        never_embed=True,
        options=(MAX_FILE_BYTES,),
        version=2,  # issue 15: what real repositories hold
    ),
)
CODE = RULES[0].code

# 1,000 characters is about 750 bytes of data: longer than any word, hash,
# token or URL a document quotes, shorter than any image or archive.
MIN_BLOB_CHARS = 1000
# Small inline icons (a 1x1 pixel, a tiny SVG) are harmless; a real image is
# several kilobytes.
MIN_DATA_URI_CHARS = 256
# A reference table of 50 rows is already longer than a good chunk (50 rows
# of 40 characters is size.max); beyond it, tables are data.
MIN_TABLE_ROWS = 50
# Numbers: 500 is a long series; 70% leaves room for the brackets, keys and
# labels around them.
MIN_NUMBERS = 500
MIN_NUMBER_SHARE = 0.7
# Numbers are mostly digits (a float vector is about 60%): below a fifth of
# the text, the number regex is not worth running.
MIN_DIGIT_SHARE = 0.2
# A plain-text file whose blob covers half its lines is a data file.
FILE_SHARE = 0.5

_B64 = "A-Za-z0-9+/=_-"
_LONG_RUN = lazy(rf"(?<![{_B64}])[{_B64}]{{{MIN_BLOB_CHARS},}}")
_DATA_URI = lazy(
    rf"data:[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/=]{{{MIN_DATA_URI_CHARS},}}"
)
# Starts with a literal newline so that the regex engine jumps from line to
# line instead of trying every position (seven times faster); a blob on the
# chunk's first line loses that line, which only matters at the threshold.
_WRAPPED = lazy(r"\n((?:[A-Za-z0-9+/]{40,}={0,2}[ \t]*\n)+)")
_NUMBER = lazy(r"(?<![\w.])[-+]?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.])")
_TABLE_ROW = lazy(r"^[ \t]*\||[^|\n]*\|[^|\n]*\|")
# A table is data when at least half its cells' words are values: numbers,
# dates, versions, percentages, hex, long encoded tokens, or bare punctuation.
MIN_DATA_SHARE = 0.5
_CELL_WORD = lazy(r"[^\s|,\t]+")
_WRAPPING = "()[]{}<>'\"`;"
_VALUE = lazy(
    r"[-+]?(?:0[xX][0-9a-fA-F]+|[\d.,:/%eE+-]*\d[\d.,:/%eE+-]*)|[A-Za-z0-9+/=_-]{20,}|[^\w\s]+"
)
_LIST_ITEM = lazy(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")


class _Blob(NamedTuple):
    first: int  # 0-based line index in the text searched
    last: int
    what: str


def check(file: FileContext) -> Iterator[Finding]:
    limit = file.config.option(MAX_FILE_BYTES)
    if file.size > limit:
        yield Finding(
            CODE,
            1,
            f"file is {file.size:,} bytes, over max_file_bytes {limit:,}",
            "move the data out of the docs, or exclude it in .chunkgate.yaml: "
            + exclude_hint(literal_glob(file.path)),
        )
        return
    fix = "move the data out of the docs (link the file or show a few rows)"
    if file.text is not None and any(chunk.kind == "text" for chunk in file.chunks):
        yield from _check_windows(file, file.text, fix)
        return
    # A long section is chunked in parts, cut between the rows of a table: look
    # at whole sections, and name the part where the data starts.
    for parts in unit_groups(file.chunks):
        text = parts[0].text if len(parts) == 1 else "\n".join(part.text for part in parts)
        blob = _find_blob(text)
        if blob is not None:
            chunk, line = _locate(parts, blob.first)
            yield Finding(CODE, line, blob.what, fix, chunk=chunk)


def _check_windows(file: FileContext, text: str, fix: str) -> Iterator[Finding]:
    # Windows cut a table or a number series into pieces that each look
    # small; the file is one document, so search it whole.
    blob = _find_blob(text)
    if blob is None:
        return
    lines = text.count("\n") + 1
    line = blob.first + 1
    if blob.last - blob.first + 1 >= FILE_SHARE * lines:
        exclude = f"exclude it in .chunkgate.yaml: {exclude_hint(literal_glob(file.path))}"
        yield Finding(CODE, line, f"the file is data: {blob.what}", exclude)
        return
    yield Finding(CODE, line, blob.what, fix, chunk=_chunk_at(file.chunks, line))


def _locate(parts: Sequence[Chunk], index: int) -> tuple[Chunk, int]:
    """The part and file line of line ``index`` (0-based) of the parts' joined text."""
    for part in parts:
        count = part.text.count("\n") + 1
        if index < count:
            return part, part.start_line + index
        index -= count
    return parts[-1], parts[-1].end_line  # pragma: no cover - index is within the text


def _chunk_at(chunks: tuple[Chunk, ...], line: int) -> Chunk | None:
    return next((c for c in chunks if c.start_line <= line <= c.end_line), None)


def _find_blob(text: str) -> _Blob | None:
    """The first data blob in ``text``, if any."""
    if len(text) >= MIN_DATA_URI_CHARS and "base64," in text:
        found = _DATA_URI.search(text)
        if found:
            size = found.end() - found.start()
            return _at(text, found.start(), found.end(), f"data: URI of {size:,} chars")
    if len(text) >= MIN_BLOB_CHARS:
        blob = _encoded(text)
        if blob is not None:
            return blob
    if text.count("\n") + 1 >= MIN_TABLE_ROWS:
        blob = _table(text)
        if blob is not None:
            return blob
    if len(text) >= 2 * MIN_NUMBERS:
        return _numbers(text)
    return None


def _encoded(text: str) -> _Blob | None:
    lines = text.split("\n")
    # A run of MIN_BLOB_CHARS needs a line that long: most chunks have none.
    if max(map(len, lines)) >= MIN_BLOB_CHARS:
        for index, line in enumerate(lines):
            found = _LONG_RUN.search(line) if len(line) >= MIN_BLOB_CHARS else None
            if found:
                size = found.end() - found.start()
                return _Blob(index, index, f"{size:,} chars of base64/hex")
    for found in _WRAPPED.finditer(text):
        size = found.end(1) - found.start(1)
        if size >= MIN_BLOB_CHARS:
            return _at(text, found.start(1), found.end(1), f"{size:,} chars of encoded lines")
    return None


def _numbers(text: str) -> _Blob | None:
    digits = sum(map(text.count, "0123456789"))
    if digits < max(MIN_NUMBERS, MIN_DIGIT_SHARE * len(text)):
        return None
    numbers = _NUMBER.findall(text)
    if len(numbers) < MIN_NUMBERS or len(numbers) < MIN_NUMBER_SHARE * len(text.split()):
        return None
    first = _NUMBER.search(text)
    start = first.start() if first else 0
    return _at(text, start, len(text), f"{len(numbers):,} numbers")


def _at(text: str, start: int, end: int, what: str) -> _Blob:
    first = text.count("\n", 0, start)
    return _Blob(first, first + text.count("\n", start, max(start, end - 1)), what)


def _table(text: str) -> _Blob | None:
    lines: list[str] | None = None
    for separator, noun in (("|", "table rows"), (",", "CSV lines"), ("\t", "TSV lines")):
        # Every row has at least two separators.
        if text.count(separator) < 2 * MIN_TABLE_ROWS:
            continue
        lines = lines if lines is not None else text.split("\n")
        shape = _table_row if separator == "|" else _separated_by(separator)
        for first, last in _runs(lines, shape):
            if _is_data(lines[first : last + 1]):
                return _Blob(first, last, f"{last - first + 1:,} {noun} of data")
    return None


def _is_data(rows: list[str]) -> bool:
    words = _CELL_WORD.findall("\n".join(rows))
    # Brackets and quotes around a value ("(3", "'0x1f'") do not make it a word.
    values = sum(1 for word in words if _VALUE.fullmatch(word.strip(_WRAPPING) or "-"))
    return values >= MIN_DATA_SHARE * len(words)


def _table_row(line: str) -> object:
    return True if _TABLE_ROW.match(line) else None


def _separated_by(separator: str) -> Callable[[str], object]:
    def fields(line: str) -> object:
        # Rows of one table have one number of fields; list items that happen
        # to hold two commas ("- Fix A, B, and C") neither agree nor are rows.
        count = line.count(separator)
        return count if count >= 2 and not _LIST_ITEM.match(line) else None

    return fields


def _runs(lines: list[str], shape: Callable[[str], object]) -> Iterator[tuple[int, int]]:
    """The runs of at least MIN_TABLE_ROWS lines of one shape, as 0-based line indexes."""
    start, current = 0, None
    for index, line in enumerate([*lines, ""]):
        kind = shape(line) if index < len(lines) else None
        if kind is not None and kind == current:
            continue
        if current is not None and index - start >= MIN_TABLE_ROWS:
            yield start, index - 1
        start, current = index, kind
