"""Output formats: one set of names, one registry per command, one error for a wrong name.

The names mean the same for every command that has them:

- ``auto``: ``github`` under GitHub Actions (``check``, ``diff``), ``rich`` on a
  terminal, ``text`` otherwise;
- ``rich``: colour and tables for a terminal (``NO_COLOR`` honoured);
- ``text``: plain lines for pipes, logs and grep;
- ``json``: one JSON document; ``jsonl``: one JSON object a line;
- ``markdown``: the report as Markdown (what the job summary shows);
- ``github``: workflow-command annotations and the job summary;
- ``sarif``: SARIF 2.1.0 for code scanning;
- ``plan``: the re-embed plan, JSON lines (``diff`` only, which writes it from
  the plan's rows with ``chunkgate.ingest.reembed.write_plan``, not from a diff).

A command's writers share one signature, its ``Protocol`` below (what the
command's ``write_*`` function passes them). Adding a format is a writer of that
signature and one entry ``name: "module:function"`` in the command's
``Formats``; a name is checked when the command line is parsed
(``check_name``), against the registry as it is then.

This module imports nothing heavy: the command line reads the names from it,
and a writer's module is imported only when that format is written.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Protocol

from chunkgate.core.errors import ChunkgateError

if TYPE_CHECKING:
    from chunkgate.chunking import ChunkedFile
    from chunkgate.core.model import CheckResult, Heading
    from chunkgate.diff.model import ChunkDiff
    from chunkgate.evaluate.citations import RefsResult
    from chunkgate.evaluate.retrieval import EvalReport
    from chunkgate.evaluate.search import SearchResult
    from chunkgate.gate.relink import LinkFixes
    from chunkgate.stats import Stats

NAMES = ("auto", "rich", "text", "json", "jsonl", "markdown", "github", "sarif", "plan")


class CheckWriter(Protocol):
    """``check``, ``update``: ``quiet`` shows errors only; ``env`` is the environment
    (GitHub's variables: the job summary's file, the workspace)."""

    def __call__(
        self, result: CheckResult, stream: IO[str], *, quiet: bool, env: Mapping[str, str]
    ) -> None: ...


class DiffWriter(Protocol):
    """``diff``: ``fail_on`` are the ``--fail-on`` categories, checked."""

    def __call__(
        self, diff: ChunkDiff, stream: IO[str], *, fail_on: Sequence[str], env: Mapping[str, str]
    ) -> None: ...


class ChunksWriter(Protocol):
    """``chunks``: ``text`` includes the chunks' texts; ``anchors`` names a file's anchor
    flavour; a ``str`` among ``files`` is a file's JSON lines, already rendered."""

    def __call__(
        self,
        files: Iterable[ChunkedFile | str],
        stream: IO[str],
        *,
        text: bool,
        anchors: Callable[[str], str] | None,
    ) -> None: ...


class OutlineWriter(Protocol):
    def __call__(self, outlines: Sequence[Sequence[Heading]], stream: IO[str]) -> None: ...


class StatsWriter(Protocol):
    def __call__(self, stats: Stats, stream: IO[str]) -> None: ...


class EvalWriter(Protocol):
    def __call__(self, report: EvalReport, stream: IO[str], *, env: Mapping[str, str]) -> None: ...


class SearchWriter(Protocol):
    def __call__(self, result: SearchResult, stream: IO[str]) -> None: ...


class RefsWriter(Protocol):
    def __call__(self, result: RefsResult, stream: IO[str]) -> None: ...


class FixLinksWriter(Protocol):
    def __call__(self, result: LinkFixes, stream: IO[str]) -> None: ...


class UnknownFormat(ChunkgateError, ValueError):
    def __init__(self, command: str, name: str, choices: list[str]) -> None:
        super().__init__(
            f"unknown format {name!r} for `chunkgate {command}`: choose from {', '.join(choices)}"
        )


@dataclass(frozen=True)
class Formats:
    """The formats one command writes: each name and the ``module:function`` writing it
    (its command's ``Protocol``, which the command's ``write_*`` names as the type)."""

    command: str
    writers: dict[str, str]
    github: bool = False  # `auto` picks `github` under GitHub Actions
    # Names the command writes itself, from other data than its writers take (diff's plan).
    own: tuple[str, ...] = field(default=())

    def choices(self) -> list[str]:
        return ["auto", *self.writers, *self.own]

    def metavar(self) -> str:
        """The choices as ``--help`` shows them: ``[auto|rich|text]``."""
        return f"[{'|'.join(self.choices())}]"

    def check_name(self, name: str) -> str:
        """``name``, if the command writes it: the ``--format`` option's type (an
        ``UnknownFormat`` is a ``ValueError``, which click reports as a usage error)."""
        if name not in self.choices():
            raise UnknownFormat(self.command, name, self.choices())
        return name

    def resolve(self, name: str, stream: IO[str], env: Mapping[str, str] | None = None) -> str:
        """``auto`` made concrete for this stream; any other name checked."""
        if name == "auto":
            env = os.environ if env is None else env
            if self.github and env.get("GITHUB_ACTIONS") == "true":
                return "github"
            isatty = getattr(stream, "isatty", None)
            return "rich" if isatty is not None and isatty() else "text"
        return self.check_name(name)

    def writer(self, name: str) -> Any:
        target = self.writers.get(name)
        if target is None:
            raise UnknownFormat(self.command, name, self.choices())
        module, _, function = target.partition(":")
        return getattr(importlib.import_module(module), function)


CHECK = Formats(
    "check",
    {
        "rich": "chunkgate.report.check:write_rich",
        "text": "chunkgate.report.check:write_text",
        "json": "chunkgate.report.check:write_json",
        "github": "chunkgate.report.github:write_github",
        "sarif": "chunkgate.report.sarif:write_sarif",
    },
    github=True,
)
DIFF = Formats(
    "diff",
    {
        "rich": "chunkgate.report.diff:write_rich",
        "text": "chunkgate.report.diff:write_text",
        "json": "chunkgate.report.diff:write_json",
        "markdown": "chunkgate.report.diff:write_markdown",
        "github": "chunkgate.report.diff:write_github",
    },
    github=True,
    own=("plan",),
)
CHUNKS = Formats(
    "chunks",
    {
        "rich": "chunkgate.report.listing:write_rich_chunks",
        "text": "chunkgate.report.listing:write_text_chunks",
        "json": "chunkgate.report.listing:write_json_chunks",
        "jsonl": "chunkgate.report.listing:write_jsonl_chunks",
    },
)
OUTLINE = Formats(
    "outline",
    {
        "rich": "chunkgate.report.listing:write_rich_outline",
        "text": "chunkgate.report.listing:write_text_outline",
        "json": "chunkgate.report.listing:write_json_outline",
        "jsonl": "chunkgate.report.listing:write_jsonl_outline",
    },
)
STATS = Formats(
    "stats",
    {
        "rich": "chunkgate.report.stats:write_rich",
        "text": "chunkgate.report.stats:write_text",
        "json": "chunkgate.report.stats:write_json",
    },
)
EVAL = Formats(
    "eval",
    {
        "rich": "chunkgate.report.evaluate:write_rich",
        "text": "chunkgate.report.evaluate:write_text",
        "json": "chunkgate.report.evaluate:write_json",
        "github": "chunkgate.report.evaluate:write_github",
    },
    github=True,
)
REFS = Formats(
    "refs",
    {
        "text": "chunkgate.report.citations:write_text",
        "json": "chunkgate.report.citations:write_json",
    },
)
SEARCH = Formats(
    "search",
    {
        "rich": "chunkgate.report.search:write_rich",
        "text": "chunkgate.report.search:write_text",
        "json": "chunkgate.report.search:write_json",
    },
)
FIX_LINKS = Formats(
    "fix-links",
    {
        "text": "chunkgate.report.relink:write_text",
        "json": "chunkgate.report.relink:write_json",
    },
)
COMMANDS = {
    formats.command: formats
    for formats in (CHECK, DIFF, CHUNKS, OUTLINE, STATS, EVAL, SEARCH, REFS, FIX_LINKS)
}
