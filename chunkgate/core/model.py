"""Immutable records shared by every layer.

They are named tuples, not frozen dataclasses: a tuple class is made ten
times faster at import, which a pre-commit hook's start-up feels, and a
tuple is built ten times faster too, which chunking a corpus feels.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Severity = Literal["error", "warning", "off"]


class Chunk(NamedTuple):
    """One citable unit of source text (SPEC §1).

    ``text`` is exactly the file's lines ``start_line..end_line`` (line endings
    normalised to ``\\n``, no trailing newline), cut at ``start_column`` and
    ``end_column`` where those are set: a part that starts or ends inside a
    line (a long paragraph split between sentences) records the 1-based
    column of its first and of its last character (0: the whole line), so
    ``text == lines[start][start_column - 1 :] ... lines[end][:end_column]``.
    ``body_line`` is the first line after the chunk's own heading or
    definition line(s); CG402 and ``diff`` compare bodies so that a renamed
    heading is recognised as a move.

    A unit (section, definition) over ``size.max`` is split into ``parts``
    chunks; ``part`` is this one's number, from 1. The first part keeps the
    unit's ID, the others add ``~2``, ``~3``, ...

    ``parent`` is the ID of the chunk of the enclosing section (Markdown, rst)
    or class (a method), None at the top; ``prev``/``next`` are the IDs of the
    neighbouring chunks in the file, None at its ends. The parts of a unit share
    its parent.

    ``chunk._replace(...)`` makes a changed copy.
    """

    id: str
    path: str
    kind: str  # one of its language's chunk kinds (chunkgate.chunking.languages)
    language: str
    symbol: str | None
    heading_path: tuple[str, ...]
    level: int
    start_line: int
    end_line: int
    chars: int
    tokens: int
    hash: str
    text: str
    body_line: int
    suppressed: frozenset[str] = frozenset()
    title: str | None = None
    tags: tuple[str, ...] = ()
    part: int = 1
    parts: int = 1
    start_column: int = 0
    end_column: int = 0
    # What keeps the chunk over size.max: the block that cannot be split ("fenced
    # code block (lines 12-80, 4,100 chars)"); empty when it fits or was not split.
    unsplittable: str = ""
    # issue 22: a reStructuredText file's leading field list (":author: Ada").
    fields: tuple[tuple[str, str], ...] = ()
    # issue 41: lines the embed text holds around the text (not cited, not hashed): the
    # fence line of a code block a part starts or ends inside, so it still reads as code.
    embed_before: str = ""
    embed_after: str = ""
    # issue 41, ``markdown.merge_small``: the IDs of the sections under ``size.min`` this
    # chunk took in, in document order; a citation of one resolves to this chunk.
    merged: tuple[str, ...] = ()
    # Relations (issue 20), filled once a file's chunks are final (chunking.relate):
    # the enclosing section's (or class's) chunk ID, and the chunks before and after
    # this one in the file.
    parent: str | None = None
    prev: str | None = None
    next: str | None = None

    @property
    def identity(self) -> str:
        return self.id.partition("#")[2]

    @property
    def body(self) -> str:
        skip = self.body_line - self.start_line
        if skip <= 0:
            return self.text
        parts = self.text.split("\n", skip)
        return parts[skip] if len(parts) > skip else ""

    def to_dict(self, *, text: bool = True) -> dict[str, object]:
        out: dict[str, object] = {
            "id": self.id,
            "path": self.path,
            "kind": self.kind,
            "language": self.language,
            "symbol": self.symbol,
            "heading_path": list(self.heading_path),
            "level": self.level,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "chars": self.chars,
            "tokens": self.tokens,
            "hash": self.hash,
            "part": self.part,
            "parts": self.parts,
            "parent": self.parent,
            "prev": self.prev,
            "next": self.next,
        }
        if self.merged:
            out["merged"] = list(self.merged)
        if self.start_column:
            out["start_column"] = self.start_column
        if self.end_column:
            out["end_column"] = self.end_column
        metadata: dict[str, object] = {}
        if self.title is not None:
            metadata["title"] = self.title
        if self.tags:
            metadata["tags"] = list(self.tags)
        if self.fields:
            metadata["fields"] = dict(self.fields)
        if metadata:
            out["metadata"] = metadata
        if text:
            out["text"] = self.text
        return out


class Problem(NamedTuple):
    """Something wrong with a file found while chunking it (becomes CG001)."""

    path: str
    line: int
    message: str


class Heading(NamedTuple):
    """A Markdown heading as ``outline`` reports it."""

    path: str
    level: int
    text: str
    line: int
    id: str
    anchors: str = "github"  # the anchor flavour in force and why: "mkdocs (docs/mkdocs.yml)"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "level": self.level,
            "text": self.text,
            "line": self.line,
            "id": self.id,
            "anchors": self.anchors,
        }


class Summary(NamedTuple):
    files: int
    chunks: int
    errors: int
    warnings: int

    def to_dict(self) -> dict[str, int]:
        return {
            "files": self.files,
            "chunks": self.chunks,
            "errors": self.errors,
            "warnings": self.warnings,
        }


class Violation(NamedTuple):
    """One rule finding with its severity, as reported to the user.

    ``fix`` tells the user exactly what to do about it. ``end_line`` is the last
    line of the chunk it is about when that is known (0: unknown), for the CI
    formats that can mark a span.
    """

    rule: str
    name: str
    severity: Severity
    path: str
    line: int
    chunk_id: str | None
    message: str
    fix: str = ""
    end_line: int = 0
    known: bool = False  # the baseline's manifest records it: listed, failing nothing
    # A link's fix that chunkgate can make (``fix-links``): its destination as the
    # renderer reads it on ``line``, and the destination it should have.
    edit: tuple[str, str] | None = None
    # The one change that explains this finding with others, which human output shows
    # as one line (``Group``): ``moved:OLD>NEW`` (a page or a section that moved, and
    # the links into it), ``dropped`` (a file the configuration leaves out now).
    cause: str | None = None

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line, self.rule, self.chunk_id or "")

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "chunk_id": self.chunk_id,
            "message": self.message,
            "fix": self.fix,
        }
        if self.edit is not None:
            out["edit"] = {"from": self.edit[0], "to": self.edit[1]}
        if self.cause is not None:
            out["cause"] = self.cause
        return out


class Group(NamedTuple):
    """Findings one change explains (a moved page, a renamed heading and the links into
    it, files the configuration left out, a copied folder), shown as one line: the
    members are listed under ``--verbose`` and always in JSON."""

    cause: str
    severity: Severity  # the most severe member's
    path: str
    line: int
    message: str
    fix: str
    members: tuple[Violation, ...]
    # A copied folder's (copy, original) chunk ID pairs, which JSON lists.
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def kind(self) -> str:
        """What explains the members, as the human formats name it: ``moved``, ``copies``."""
        return self.cause.partition(":")[0]

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "cause": self.cause,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "fix": self.fix,
            "count": len(self.members),
        }
        if self.pairs:
            out["pairs"] = [list(pair) for pair in self.pairs]
        return out


class Unverified(NamedTuple):
    """A link into an open page (one with anchors chunkgate cannot see) whose anchor was
    not found: not an error, since the page may have it once built."""

    path: str  # the linking file
    line: int
    destination: str  # the link as written
    target: str  # the page it lands on and the fragment: ``docs/api.md#config``
    reason: str  # what makes the page open, with its line

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "destination": self.destination,
            "target": self.target,
            "reason": self.reason,
        }


class DeclaredAnchor(NamedTuple):
    """``links.anchors``: a pattern over a page's lines and the anchor a match makes
    (``\\1`` and the like name its groups), for what a site's hooks or macros write."""

    pattern: re.Pattern[str]
    anchor: str


class Outside(NamedTuple):
    """A path named on the command line that is not in the corpus, and why."""

    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


class CheckResult(NamedTuple):
    """What ``check``/``update`` found: violations sorted by path and line.

    ``manifest_changed`` is true when this run rewrote the manifest (``--update``
    or ``update``); ``notes`` are one-line remarks for the user (e.g. which
    files' manifest entries were rewritten).
    """

    violations: tuple[Violation, ...]
    summary: Summary
    manifest: str
    manifest_changed: bool = False
    notes: tuple[str, ...] = ()
    # The problems the baseline's manifest already records (the adoption baseline):
    # listed apart, failing nothing.
    known: tuple[Violation, ...] = ()
    # Links into open pages whose anchor was not found (failing nothing); ``listing``
    # says the human formats list them (``--show-unverified``), not only count them.
    unverified: tuple[Unverified, ...] = ()
    listing: bool = False
    # Findings one change explains, each shown as one line; ``detail`` lists their
    # members under it too (``--verbose``).
    groups: tuple[Group, ...] = ()
    detail: bool = False
    # The named paths the run left out, each with the reason (not the hook's: pre-commit
    # names every staged file, and most are no corpus files).
    outside: tuple[Outside, ...] = ()

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == "error" and not v.known)

    def with_known(self) -> CheckResult:
        """The known problems listed among the others, each marked, still failing nothing."""
        marked = (v._replace(known=True) for v in self.known)
        ordered = sorted((*self.violations, *marked), key=Violation.sort_key)
        return self._replace(violations=tuple(ordered))

    def to_dict(self) -> dict[str, object]:
        return {
            "violations": [v.to_dict() for v in self.violations],
            "known": [v.to_dict() for v in self.known],
            "unverified": [u.to_dict() for u in self.unverified],
            "groups": [g.to_dict() for g in self.groups],
            "outside": [o.to_dict() for o in self.outside],
            "summary": {
                **self.summary.to_dict(),
                "known": len(self.known),
                "unverified": len(self.unverified),
            },
        }
