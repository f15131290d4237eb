"""Chunks outside the size limits of `size.max` and `size.min`.

## CG201 oversized

Two sizes decide it. `size.max` (default 2,000, in `size.unit`) is the
target the splitter packs to; the hard limit is the input limit of the
embedding model, in its tokens: `embed.model`'s (512 for `bge-small-en-v1.5`),
or `size.limit`, or 8,192 tokens of the configured tokenizer when neither is
set. chunkgate chunks a unit over the target as a good ingest does: a section
into parts at block boundaries (between paragraphs, list items, table rows,
block quotes, code blocks), a long paragraph between sentences, a code block as
code (between statements, runs of lines, lines), a function or method between
statements.

- **An error** when a chunk's embed text (exactly what `chunkgate export`
  gives the model: its breadcrumb line, a part's overlap and re-opened fence
  lines, the module docstring's line of `embed.module_summary`, then its
  text), counted by the tokenizer with the special tokens it adds (`[CLS]`,
  `[SEP]`), is over the hard limit: the embedder truncates it, and what is
  past the limit is lost to retrieval.
- **A warning** when a chunk is over the target but within the hard limit:
  one block that cannot be split is larger than the target on its own (an
  HTML block, a table row, a sentence, a single line of code, a Python
  statement such as a long literal), and the message names it and its lines.
  It is embedded whole, but diluted. With `size: {split: false}` (one chunk
  per section or definition, whatever its size) every chunk over the target
  is one.

**Why it matters:** an embedding of a long chunk averages several topics, so
none of them is retrieved well, and the chunk crowds the context window of
every answer it is retrieved for; over the model's limit it is truncated.

**Fix:** shorten the block the message names, or move its data to a file
and link it (a console session, a generated table, a data literal); name
your model (`embed: {model: ...}`) or set `size.limit` to its input limit.
With `split: false`: add a subheading, split the function.

Fires (with `size: {max: 200}`):

````markdown
## Output

```text
<svg viewBox="0 0 960 540"><path d="M0 0 ..."/> ... (a 3,000-character line)</svg>
```
````

Passes, embedded in two parts (`#install` and `#install~2`):

```markdown
## Install

Install the package with pip. You need Python 3.10 or newer and a C compiler
for the optional speedups.

On Windows, use the wheels from the release page. Then configure the cache
directory, the log level and the retry policy.
```

## CG202 undersized

Fires when a Markdown section or preamble is smaller than `size.min`
(default 40, in `size.unit`; 0 turns it off). The typical case is a heading
with one short sentence: a section's anchor is a citation target, so by
default it is not merged away, and its author can give it content or merge
it. With `markdown.merge_small: true` chunkgate merges it into a neighbour
(its subsection, else the section before it, else its next sibling), under the
first section's ID, and lists the others in the chunk's `merged`, so that
citations of them still resolve; CG202 then fires only where no neighbour may
take it (a page of one section; a section after a deeper one and before a
shallower one, whose merge would break the heading path; a merge over
`size.max`). A chunk that includes another file (`--8<-- "file.md"`,
`{% include %}`, `.. include::`) never fires, as its text on the site is that
file's; nor does a preamble of markup alone (`&nbsp;`, a MyST target
`(label)=`). Chunks that chunkgate makes itself never fire: the parts of a long section and text
windows. Nor does code: Python module and class-level code under the limit
joins a neighbouring chunk, as a good ingest merges small pieces, and a
small function or class (`class NotFound(KeyError): pass`) is as long as it
needs to be.

**Why it matters:** a tiny chunk has too little context to be retrieved for
the right question, and when it is retrieved it cannot answer anything.

**Fix:** merge it with its neighbour or add content, or let chunkgate merge
small sections: `markdown: {merge_small: true}`.

Fires:

```markdown
## Notes

See above.
```

Passes:

```markdown
## Notes

The cache is shared between processes; clear it with `example cache clear`.
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from chunkgate.chunking import languages
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.embedtext import EmbedSettings, embed_text
from chunkgate.chunking.sizes import make_counter
from chunkgate.chunking.syntax import Dialect, dialect_of, included_files, may_hold_syntax, prose
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy
from chunkgate.rules.base import (
    FileContext,
    Finding,
    Rule,
    exclude_hint,
    literal_glob,
    literal_name,
)

_WITHIN = "within the hard limit"  # the words that make a CG201 finding a warning
RULES = (
    # 2: only a block that cannot be split is oversized; only sections are undersized.
    # 3: an error over the model's input limit, a warning over size.max within it (issue 41)
    Rule(
        "CG201",
        "oversized",
        "error",
        "a chunk exceeds the model's input limit (error) or size.max (warning)",
        priority=40,
        version=3,
        warns_when=_WITHIN,
    ),
    Rule("CG202", "undersized", "warning", "a chunk is below size.min", priority=51, version=2),
)
_CITED = ("section", "preamble")  # the kinds whose anchor a reader follows
OVERSIZED, UNDERSIZED = (rule.code for rule in RULES)

# A section whose fenced code makes up at least half of it cannot be fixed with
# a subheading (a fence is never split), so the fix names the code block.
_CODE_HEAVY = 0.5
_FENCE = lazy(r"^[ \t]{0,3}(`{3,}|~{3,})")
# What renders nothing to read: a MyST target line, HTML tags and entities.
_NO_TEXT = lazy(r"^[ \t]*\([^()\n]+\)=[ \t]*$|<[^<>\n]*>|&#?\w+;", re.M)
_WORD = lazy(r"\w")


def check(file: FileContext) -> Iterator[Finding]:
    options = file.config.chunking
    unit = options.unit
    dialect = dialect_of(file.path, options) if file.chunks[:1] and _markdown(file) else None
    embedded = _EmbedSize(options)
    for chunk in file.chunks:
        size = chunk.chars if unit == "chars" else chunk.tokens
        noun = languages.get(chunk.language).noun(chunk.kind)
        if chunk.parts > 1:
            noun = f"{noun} part {chunk.part} of {chunk.parts}"
        tokens = embedded.over_limit(chunk)
        if tokens is not None:
            what = f"{options.model}'s input limit" if options.model else "the hard limit"
            message = f"{noun} is {tokens:,} tokens as embedded, over {what} {options.limit:,}"
            if chunk.unsplittable:
                message += f": its {chunk.unsplittable} cannot be split"
            message += "; the model truncates it"
            fix = _fix(chunk, options, _OVER_LIMIT)
            yield Finding(OVERSIZED, chunk.start_line, message, fix, chunk=chunk)
            continue
        if size > options.max:
            message = f"{noun} is {size:,} {unit}, over size.max {options.max:,}"
            if chunk.unsplittable:
                message += f": its {chunk.unsplittable} cannot be split"
            message += f" ({_WITHIN} {options.limit:,} tokens)"
            fix = _fix(chunk, options, _OVER_TARGET)
            yield Finding(OVERSIZED, chunk.start_line, message, fix, chunk=chunk)
            continue
        # Only a section's anchor is a citation target a reader follows: small code
        # and the pieces the splitter makes are for the ingest to merge, not the author.
        if chunk.kind not in _CITED or chunk.parts != 1:
            continue
        # Template syntax (a shortcode, a JSX tag) is embedded but is not prose: a
        # section of a heading and a shortcode has nothing to answer a question with.
        if dialect is not None and size >= options.min and may_hold_syntax(chunk.text, dialect):
            prose_size = _prose_size(chunk.text, dialect, file)
            if prose_size < options.min:
                yield _undersized(chunk, noun, f"{prose_size:,} {unit} of prose", options.min)
        elif size < options.min and not _unknowable(chunk):
            yield _undersized(chunk, noun, f"{size:,} {unit}", options.min)


class _EmbedSize:
    """A chunk's embed text (``embed_text``: what ``chunkgate export`` gives the model,
    overlap, re-opened fence lines and module summary included) in tokens of the
    configured tokenizer, counted only when it may be over the hard limit."""

    def __init__(self, options: ChunkOptions) -> None:
        self.options = options
        self.counter = make_counter(options.tokenizer)
        # The most tokens a code point can make: the estimate rounds UTF-8 bytes (at most
        # four a code point) up to fours, tiktoken's BPE makes at most one a byte. A
        # Hugging Face tokenizer has no such bound (a normaliser may expand a character,
        # a template adds special tokens): every chunk is counted. The bound skips building
        # and counting almost every chunk: 26 ms against 129 ms on FastAPI's 17,387 with
        # the estimate (benchmarks/README.md), far more with tiktoken's count.
        self.per_char = 1 if options.tokenizer == "estimate" else 0
        if options.tokenizer.startswith("tiktoken:"):
            self.per_char = 4

    def over_limit(self, chunk: Chunk) -> int | None:
        """The embed text's tokens when over the limit, else None."""
        options = self.options
        if 0 < self.per_char * _embed_chars_bound(chunk, options.embed) <= options.limit:
            return None
        tokens = self.counter(embed_text(chunk, options.embed))
        return tokens if tokens > options.limit else None


# The last resort of an unsplittable block's fix: over the target, a larger target;
# over the limit, the limit of the model that really embeds it.
_OVER_TARGET = "raise size.max if your embedding model takes larger chunks"
_OVER_LIMIT = "name your embedding model (embed: {model: ...}) or set size.limit to its input limit"


def _embed_chars_bound(chunk: Chunk, embed: EmbedSettings) -> int:
    """At least the embed text's length, from the chunk's fields alone: most chunks are
    far under the limit, and their embed text need not be built to know it."""
    parts = (chunk.path, chunk.title or "", chunk.symbol or "", *chunk.heading_path)
    crumb = sum(map(len, parts)) + len(embed.separator) * len(parts)
    return crumb + len(chunk.embed_before) + len(chunk.text) + len(chunk.embed_after) + 3


def _fix(chunk: Chunk, options: ChunkOptions, last_resort: str) -> str:
    if chunk.unsplittable:
        return _unsplittable_fix(chunk, last_resort)
    return _oversized_fix(chunk, split_classes=options.split_classes)


def _unknowable(chunk: Chunk) -> bool:
    """A small chunk whose size says nothing: it includes another file (its text is the
    file's, on the site), or it is a preamble of markup a reader never reads as text
    (``&nbsp;``, a MyST target ``(label)=``), which no author would fill."""
    if included_files(chunk.text):
        return True
    return chunk.kind == "preamble" and not _WORD.search(_NO_TEXT.sub("", chunk.text))


def _undersized(chunk: Chunk, noun: str, size: str, minimum: int) -> Finding:
    return Finding(
        UNDERSIZED,
        chunk.start_line,
        f"{noun} is {size}, under size.min {minimum:,}",
        _undersized_fix(chunk),
        chunk=chunk,
    )


def _markdown(file: FileContext) -> bool:
    return languages.get(file.chunks[0].language).markup


def _prose_size(text: str, dialect: Dialect, file: FileContext) -> int:
    """The size of a chunk without its template syntax, which is not prose (CG202)."""
    kept = prose(text, dialect)
    if file.config.chunking.unit == "chars":
        return len(kept)
    return make_counter(file.config.chunking.tokenizer)(kept)


# A code block is cut as code, down to its lines: what is left is one long line.
_LONG_CODE = "shorten the line, or move the code to a file and link it"
# What to do about a block that cannot be split, by the first word of its name.
_UNSPLITTABLE_FIXES = {
    "fenced": _LONG_CODE,
    "indented": _LONG_CODE,
    "code": _LONG_CODE,
    "HTML": "shorten the {name}, or move it out of the page",  # block or element
    "table": "shorten the row, or move the table's data to a file and link it",
    "sentence": "break the sentence up",
    "assignment": "move the data to a file and load it, or shorten the statement",
    "expression": "move the data to a file and load it, or shorten the statement",
}


def _unsplittable_fix(chunk: Chunk, last_resort: str) -> str:
    tests = _tests_folder(chunk.path) if chunk.language == "python" else None
    if tests is not None:
        # Test fixtures are not documentation: the tests leave the corpus.
        return f"exclude the tests in .chunkgate.yaml: {exclude_hint(tests)}"
    name = chunk.unsplittable.partition(" (")[0]
    fix = _UNSPLITTABLE_FIXES.get(name.partition(" ")[0], "shorten it").format(name=name)
    if chunk.language == "python" and chunk.kind == "module":
        fix += f", or exclude a data module: {exclude_hint(literal_glob(chunk.path))}"
    return f"{fix}; or {last_resort}"


def _tests_folder(path: str) -> str | None:
    """A glob for the tests a Python file belongs to, or None if it is not a test."""
    parts = path.split("/")
    for index, folder in enumerate(parts[:-1]):
        if folder in ("tests", "test", "testing"):
            return literal_name("/".join(parts[: index + 1])) + "/**"
    name = parts[-1]
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return literal_glob(path)
    return None


def _oversized_fix(chunk: Chunk, *, split_classes: bool) -> str:
    kind = chunk.kind
    if kind in ("section", "preamble") and _code_share(chunk.text) >= _CODE_HEAVY:
        return "shorten the code block or link to the full file (a code block is never split)"
    if kind == "section":
        return "add a subheading to split it"
    if kind == "preamble":
        return "move the introduction under a heading or shorten it"
    if kind in ("function", "method"):
        return f"split the {kind} into smaller functions"
    if kind == "class":
        if not split_classes:
            return "set python: {split_classes: true} to chunk it per method, or split the class"
        return "move class-level code into methods, or split the class"
    if kind == "module":
        return "move module-level code into functions, or split the module"
    return "break the long line or paragraph (text windows split only between lines)"


def _undersized_fix(chunk: Chunk) -> str:
    if chunk.kind == "preamble" and chunk.prev is None and chunk.next is None:
        # The whole page (a glossary stub, a redirect): there is no heading to move it to.
        return (
            "the page holds nothing else: add content, or leave the stub out of the corpus: "
            + exclude_hint(literal_glob(chunk.path))
        )
    if chunk.kind == "preamble":
        return "move the introduction under the first heading or add content"
    return "merge it with its neighbour section or add content"


def _code_share(text: str) -> float:
    """The fraction of a Markdown chunk's characters inside fenced code blocks."""
    if "```" not in text and "~~~" not in text:
        return 0.0
    inside = 0
    fence: str | None = None
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if fence is None:
            if found:
                fence = found.group(1)
        elif found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence):
            fence = None
        else:
            inside += len(line) + 1
    return inside / max(len(text), 1)
