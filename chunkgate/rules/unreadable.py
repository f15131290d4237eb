"""Files chunkgate cannot read as the text they claim to be.

## CG001 unreadable

Fires when a corpus file is binary (a NUL byte in its first 8,000 bytes, as
git decides), is not valid UTF-8 (or not valid in the encoding its PEP 263
coding cookie names), is a Git LFS pointer (its content was not fetched), or
is a Python file with a syntax error. A binary, undecodable or pointer file
is reported once, at line 1, and yields no chunks. A Python
file that does not parse is still chunked, as plain-text windows, and the
finding names the line of the error.

**Why it matters:** an undecodable file is silently missing from the index,
and a Python file chunked as text loses its function and class chunks (and
their stable `function-NAME` IDs), so citations into it break.

**Fix:** re-save the file as UTF-8, fix the syntax error, or exclude the file
in `.chunkgate.yaml` (`exclude: ["assets/logo.md"]`).

Fires:

```python
def greet(name)
    return f"Hello, {name}"
```

Passes:

```python
def greet(name):
    return f"Hello, {name}"
```
"""

from __future__ import annotations

from collections.abc import Iterator

from chunkgate.rules.base import FileContext, Finding, Rule, exclude_hint, literal_glob

RULES = (
    Rule(
        "CG001",
        "unreadable",
        "error",
        "a corpus file is binary, not decodable, or not parsable",
        priority=10,
        version=2,  # 2: Git LFS pointers
    ),
)
CODE = RULES[0].code


def check(file: FileContext) -> Iterator[Finding]:
    if file.unreadable is not None:
        yield Finding(CODE, 1, f"cannot read the file: {file.unreadable}", _fix(file))
    for problem in file.problems:
        yield Finding(
            CODE,
            problem.line,
            f"{problem.message}; chunked as plain text",
            "fix the syntax error, or exclude the file",
        )


def _fix(file: FileContext) -> str:
    exclude = f"exclude it in .chunkgate.yaml: {exclude_hint(literal_glob(file.path))}"
    reason = file.unreadable or ""
    if reason.startswith("binary"):
        return exclude
    if "Git LFS" in reason:
        return f"fetch the content (`git lfs pull`), or {exclude}"
    return f"re-save it as UTF-8, or {exclude}"
