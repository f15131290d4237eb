"""Chunks outside the size limits of `size.max` and `size.min`.

## CG201 oversized

Fires when a chunk is larger than `size.max` (default 2,000), counted in
`size.unit`: characters (the default) or tokens of the configured tokenizer.
chunkgate never splits a section, a definition or a fenced code block on
its own: the author decides where a topic ends.

**Why it matters:** an embedding of a long chunk averages several topics, so
none of them is retrieved well, and the chunk crowds the context window of
every answer it is retrieved for (or is truncated by the embedding model).

**Fix:** split it where the topic changes. A section: add a subheading to
split it. A preamble: move the introduction under a heading or shorten it. A
function or method: split it into smaller functions. A class: keep
`python.split_classes: true` so each method is a chunk, and move class-level
code into methods. A section that is mostly one code block: shorten the block
or link to the full file.

Fires (with `size: {max: 200}`):

```markdown
## Install

Install the package with pip. You need Python 3.10 or newer and a C compiler
for the optional speedups. On Windows, use the wheels from the release page.
Then configure the cache directory, the log level and the retry policy.
```

Passes:

```markdown
## Install

Install the package with pip (Python 3.10 or newer).

## Configure

Set the cache directory, the log level and the retry policy.
```

## CG202 undersized

Fires when a chunk is smaller than `size.min` (default 40, in `size.unit`;
0 turns it off). The typical case is a heading with one short sentence.

**Why it matters:** a tiny chunk has too little context to be retrieved for
the right question, and when it is retrieved it cannot answer anything.

**Fix:** merge it with its neighbour or add content.

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

from chunkgate import languages
from chunkgate.chunking.syntax import Dialect, dialect_of, may_hold_syntax, prose
from chunkgate.model import Chunk
from chunkgate.rules.base import FileContext, Finding, Rule
from chunkgate.sizes import make_counter

RULES = (
    Rule("CG201", "oversized", "error", "a chunk exceeds size.max", priority=40),
    Rule("CG202", "undersized", "warning", "a chunk is below size.min", priority=51),
)
OVERSIZED, UNDERSIZED = (rule.code for rule in RULES)

# A section whose fenced code makes up at least half of it cannot be fixed with
# a subheading (a fence is never split), so the fix names the code block.
_CODE_HEAVY = 0.5
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


def check(file: FileContext) -> Iterator[Finding]:
    options = file.config.chunking
    unit = options.unit
    dialect = dialect_of(file.path, options) if file.chunks[:1] and _markdown(file) else None
    for chunk in file.chunks:
        size = chunk.chars if unit == "chars" else chunk.tokens
        noun = languages.get(chunk.language).noun(chunk.kind)
        if size > options.max:
            yield Finding(
                OVERSIZED,
                chunk.start_line,
                f"{noun} is {size:,} {unit}, over size.max {options.max:,}",
                _oversized_fix(chunk, split_classes=options.split_classes),
                chunk=chunk,
            )
            continue
        # Template syntax (a shortcode, a JSX tag) is embedded but is not prose: a
        # section of a heading and a shortcode has nothing to answer a question with.
        if dialect is not None and size >= options.min and may_hold_syntax(chunk.text, dialect):
            prose_size = _prose_size(chunk.text, dialect, file)
            if prose_size < options.min:
                yield _undersized(chunk, noun, f"{prose_size:,} {unit} of prose", options.min)
        elif size < options.min:
            yield _undersized(chunk, noun, f"{size:,} {unit}", options.min)


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
    if chunk.kind == "section":
        return "merge it with its neighbour section or add content"
    if chunk.kind == "preamble":
        return "move the introduction under the first heading or add content"
    if chunk.kind == "class":
        # The head of a class split into methods: a docstring is what it lacks.
        return "add a class docstring that says what the class is for"
    if chunk.kind in ("function", "method"):
        return f"add a docstring, or merge the {chunk.kind} with its neighbour"
    return "merge it with its neighbour or add content"


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
