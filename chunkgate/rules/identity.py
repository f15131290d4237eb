"""Chunk IDs that are not unique within their file.

## CG101 duplicate-id

Fires when two chunks of one file get the same ID. GitHub numbers repeated
headings (`#setup`, `#setup-1`), so this happens when an explicit `{#id}` is
used twice, or when an explicit ID takes the anchor GitHub gives another
heading (`## Setup {#install}` next to `## Install`). Each later chunk is
reported at its heading, naming the line of the first.

**Why it matters:** a citation, eval set or link that stores the ID can only
point at one of the chunks; which one a retriever returns is arbitrary.

**Fix:** give the heading a unique `{#id}`, or rename it.

Fires:

```markdown
## Install {#setup}

pip install example

## Configure {#setup}

Edit example.toml.
```

Passes:

```markdown
## Install {#install}

pip install example

## Configure {#configure}

Edit example.toml.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from chunkgate.chunking import languages
from chunkgate.core.model import Chunk
from chunkgate.rules.base import FileContext, Finding, Rule

RULES = (Rule("CG101", "duplicate-id", "error", "two chunks share an ID", priority=41),)
CODE = RULES[0].code


def check(file: FileContext) -> Iterator[Finding]:
    first: dict[str, Chunk] = {}
    for chunk in file.chunks:
        earlier = first.setdefault(chunk.id, chunk)
        if earlier is chunk:
            continue
        yield Finding(
            CODE,
            chunk.start_line,
            f"chunk ID '#{chunk.identity}' is already used by the {earlier.kind} "
            f"at line {earlier.start_line}",
            _fix(chunk),
            chunk=chunk,
        )


def _fix(chunk: Chunk) -> str:
    return languages.get(chunk.language).duplicate_fix
