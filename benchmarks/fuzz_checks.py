"""What ``fuzz.py`` holds every chunking to, and the greedy shrinker of a failing input.

The invariants (issue 44): no exception but ``ValueError`` (a lone surrogate must
raise a plain ``ValueError``, not a ``UnicodeError`` from deep inside); every chunk's
text is exactly its lines (and columns) of the source; the same input gives the same
chunks; IDs are unique in a file except where the author wrote the same explicit ID
twice (or an explicit ID that another heading's anchor also takes).
"""

from __future__ import annotations

import hashlib
import re
import time
import traceback
from collections.abc import Sequence
from typing import NamedTuple

from fuzz_docs import Doc

from chunkgate import Chunk, ChunkOptions, chunk_text
from chunkgate.chunking.languages import language_for
from chunkgate.core.errors import UnreadableError
from chunkgate.corpus.source import decode
from chunkgate.sites.model import Site


class Outcome(NamedTuple):
    text: str | None  # the text chunked (None: the reader refused the bytes)
    chunks: list[Chunk] | None  # None: an exception
    error: BaseException | None
    where: str  # the innermost chunkgate frame of the error, "module.py:function"


def run(doc: Doc) -> Outcome:
    if doc.text is None:
        try:
            text = decode(doc.data, doc.path, python=language_for(doc.path).encoding == "python")
        except UnreadableError as exc:
            return Outcome(None, None, exc, "")
        except Exception as exc:  # the reader may refuse bytes with UnreadableError only
            return Outcome("", None, exc, _where(exc))
    else:
        text = doc.text
    try:
        return Outcome(text, chunk_text(text, doc.path, options=doc.options), None, "")
    except Exception as exc:  # the harness's purpose: every exception is classified
        return Outcome(text, None, exc, _where(exc))


def _where(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/chunkgate/" in f.filename]
    if not frames:
        return "?"
    last = frames[-1]
    return f"{last.filename.rpartition('/chunkgate/')[2]}:{last.name}"


def source_lines(text: str) -> list[str]:
    """The lines chunk spans count in, by the README's contract: line endings as ``\\n``,
    no BOM."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.removeprefix("\ufeff").split("\n")


def _span(lines: Sequence[str], chunk: Chunk) -> str | None:
    if not 1 <= chunk.start_line <= chunk.end_line <= len(lines):
        return None
    chosen = list(lines[chunk.start_line - 1 : chunk.end_line])
    if chunk.end_column:
        chosen[-1] = chosen[-1][: chunk.end_column]
    if chunk.start_column:
        chosen[0] = chosen[0][chunk.start_column - 1 :]
    return "\n".join(chosen)


# The explicit IDs an author can write on a heading, read from the source alone (not by
# chunkgate's own reader, which is what is under test): an attribute list ending a
# heading line (`## A {#x}`, `{ id="x" }`) or the text line of a setext heading, one alone
# on a line (kramdown's `{: #x}` below a heading, goldmark's block attributes); a MyST
# target `(x)=`; a reStructuredText target `.. _x:`; the object an mkdocstrings heading
# `## ::: pkg.mod` documents. An `{#x}` in a paragraph or a code block excuses nothing.
_BRACES = re.compile(r"\{[^{}\n]*\}")
_ATTRIBUTE = re.compile(r"(?:^|\s|\{:?)#([^\s{}]+)|\bid=(?:\"([^\"]*)\"|'([^']*)'|([^\s}]+))")
_TARGET = re.compile(r"\s*(?:\(([^()]+)\)=|\.\. _([^:]+):)\s*")
_OBJECT = re.compile(r"\s{0,3}#+\s*:::\s*(\S+)")
_HEADING = re.compile(r"(?:\s*(?:>|[-*+]|\d+[.)])(?=\s))*\s*#")
_UNDERLINE = re.compile(r"\s{0,3}(?:=+|-+)\s*")
_ALONE = re.compile(r"\s*\{[^{}]*\}\s*")


def _forms(identity: str) -> set[str]:
    """An explicit ID as written (Blackfriday keeps a backslash) and as the flavours
    normalise it (escapes read, docutils' lower-case letters and digits joined by
    hyphens)."""
    plain = identity.replace("\\", "")
    return {identity, plain, re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")}


def explicit_ids(text: str) -> set[str]:
    lines = source_lines(text)
    found: set[str] = set()
    for number, line in enumerate(lines):
        target = _TARGET.fullmatch(line)
        if target:
            found |= _forms(target.group(1) or target.group(2))
            continue
        documented = _OBJECT.match(line)
        if documented:
            found.add(documented.group(1))
        below = lines[number + 1] if number + 1 < len(lines) else ""
        if not (_HEADING.match(line) or _ALONE.fullmatch(line) or _UNDERLINE.fullmatch(below)):
            continue
        for braces in _BRACES.finditer(line):
            for m in _ATTRIBUTE.finditer(braces.group()):
                found |= _forms(next(g for g in m.groups() if g is not None))
    return found


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


class Failure(NamedTuple):
    key: str  # the failure class: the same bug gives the same key
    detail: str


def failures(doc: Doc, outcome: Outcome, *, twice: bool = False) -> list[Failure]:
    """The invariants ``outcome`` (of ``doc``) breaks; ``twice``: chunk it again and
    compare (determinism)."""
    kind, text = doc.kind, outcome.text
    if text is None:
        return []  # the corpus reader refused the bytes (UnreadableError): as documented
    error = outcome.error
    if _has_surrogate(text):
        if error is None:
            return [Failure("surrogate: no ValueError", f"{len(outcome.chunks or ())} chunks")]
        if isinstance(error, ValueError) and not isinstance(error, UnicodeError):
            return []
        return [Failure(f"surrogate: {type(error).__name__} at {outcome.where}", repr(error)[:300])]
    if error is not None:
        name = type(error).__name__
        allowed = "allowed " if isinstance(error, ValueError) else ""
        return [Failure(f"{kind}: {allowed}{name} at {outcome.where}", repr(error)[:300])]
    chunks = outcome.chunks or []
    found: list[Failure] = []
    lines = source_lines(text)
    for chunk in chunks:
        if _span(lines, chunk) != chunk.text:
            found.append(Failure(f"{kind}: text is not its lines ({chunk.kind})", chunk.id))
            break
    seen: dict[str, Chunk] = {}
    explicit: set[str] | None = None
    for chunk in chunks:
        first = seen.setdefault(chunk.id, chunk)
        if first is chunk:
            continue
        if explicit is None:
            explicit = explicit_ids(text)
        if chunk.identity.partition("~")[0] in explicit:
            continue
        # Markdown's by anchor flavour: kramdown itself numbers `a`, `a 1`, `a` as a,
        # a-1, a-1 (chunkgate follows it), a class apart from chunkgate's own.
        flavour = f", {_flavour(doc)}" if kind == "markdown" else ""
        key = f"{kind}: duplicate ID ({first.kind} / {chunk.kind}{flavour})"
        found.append(Failure(key, f"{chunk.id} at lines {first.start_line} and {chunk.start_line}"))
        break
    if twice and digest(run(doc)) != digest(outcome):
        found.append(Failure(f"{kind}: not deterministic", ""))
    return found


def _flavour(doc: Doc) -> str:
    for site in doc.options.sites:
        if doc.path.startswith(site.folder):
            return site.style.flavour
    return "github" if doc.options.anchors == "auto" else doc.options.anchors.partition(":")[0]


def digest(outcome: Outcome) -> str:
    """The outcome as a hash, the same in every process (sets sorted)."""
    if outcome.chunks is None:
        shown = f"{type(outcome.error).__name__}: {outcome.error}"
    else:
        shown = repr(
            [tuple(sorted(v) if isinstance(v, frozenset) else v for v in c) for c in outcome.chunks]
        )
    return hashlib.sha256(shown.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------- shrinking


def _holds(doc: Doc, key: str) -> bool:
    return any(f.key == key for f in failures(doc, run(doc)))


def _cut(doc: Doc, pieces: Sequence[str] | Sequence[bytes], keep: list[bool]) -> Doc:
    if doc.text is None:
        return doc._replace(data=b"".join(p for p, k in zip(pieces, keep, strict=True) if k))  # type: ignore[misc]
    return doc._replace(text="".join(p for p, k in zip(pieces, keep, strict=True) if k))  # type: ignore[arg-type]


def _drop(doc: Doc, key: str, pieces: list, deadline: float) -> Doc:  # type: ignore[type-arg]
    """Drop runs of pieces (halving the run length) while the failure holds."""
    keep = [True] * len(pieces)
    step = max(1, len(pieces) // 2)
    while step >= 1 and time.monotonic() < deadline:
        start = 0
        while start < len(pieces) and time.monotonic() < deadline:
            trial = keep.copy()
            trial[start : start + step] = [False] * len(trial[start : start + step])
            if trial != keep and _holds(_cut(doc, pieces, trial), key):
                keep = trial
            start += step
        step //= 2
    return _cut(doc, pieces, keep)


def _lines_of(doc: Doc) -> list:  # type: ignore[type-arg]
    return (
        doc.data.splitlines(keepends=True)
        if doc.text is None
        else doc.text.splitlines(keepends=True)
    )


def _chars_of(doc: Doc) -> list:  # type: ignore[type-arg]
    return (
        [doc.data[i : i + 1] for i in range(len(doc.data))] if doc.text is None else list(doc.text)
    )


_DEFAULTS = ChunkOptions()


def _simpler_options(doc: Doc, key: str) -> Doc:
    """Each option back to its default while the failure holds; a site that must stay
    loses its folder, template language and Markdown extensions where it can."""
    fields = ("sites", "embed", "anchors", "split", "split_classes", "split_level", "overlap")
    for field, value in (
        *((f, getattr(_DEFAULTS, f)) for f in (*fields, "unit", "min", "max")),
        ("sites", tuple(Site("", site.style) for site in doc.options.sites)),
    ):
        try:
            options = ChunkOptions(**{**_fields(doc.options), field: value})
        except ValueError:
            continue
        trial = doc._replace(options=options)
        if options != doc.options and _holds(trial, key):
            doc = trial
    return doc


def _fields(options: ChunkOptions) -> dict[str, object]:
    return {f: getattr(options, f) for f in options.__dataclass_fields__}


def shrink(doc: Doc, key: str, seconds: float = 30.0) -> Doc:
    """A smaller document that still fails with ``key`` (greedy: lines, then characters,
    then options back to their defaults), within about ``seconds``."""
    deadline = time.monotonic() + seconds
    if not _holds(doc, key):
        return doc
    if doc.text is None:
        outcome = run(doc)
        as_text = doc._replace(text=outcome.text)
        if outcome.text is not None and _holds(as_text, key):
            doc = as_text
    for _ in range(3):
        before = (doc.text, doc.data, doc.options)
        doc = _drop(doc, key, _lines_of(doc), deadline)
        doc = _drop(doc, key, _chars_of(doc), deadline)
        doc = _simpler_options(doc, key)
        if (doc.text, doc.data, doc.options) == before or time.monotonic() > deadline:
            break
    return doc


def reproducer(doc: Doc) -> str:
    """The failing call as Python source."""
    changed = [f"{f}={v!r}" for f, v in _fields(doc.options).items() if v != getattr(_DEFAULTS, f)]
    options = f", options=ChunkOptions({', '.join(changed)})" if changed else ""
    if doc.text is not None:
        return f"chunk_text({doc.text!r}, {doc.path!r}{options})"
    python = language_for(doc.path).encoding == "python"
    return f"chunk_text(decode({doc.data!r}, {doc.path!r}, python={python}), {doc.path!r}{options})"
