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
- ``plan``: the re-embed plan, JSON lines (``diff`` only; its writer takes the
  plan's rows, ``chunkgate.export.reembed``).

This module imports nothing heavy: the command line reads the names from it,
and a writer's module is imported only when that format is written.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from typing import IO, Any, NamedTuple

from chunkgate.core.errors import ChunkgateError

NAMES = ("auto", "rich", "text", "json", "jsonl", "markdown", "github", "sarif", "plan")


class UnknownFormat(ChunkgateError, ValueError):
    def __init__(self, command: str, name: str, choices: list[str]) -> None:
        super().__init__(
            f"unknown format {name!r} for `chunkgate {command}`: choose from {', '.join(choices)}"
        )


class Formats(NamedTuple):
    """The formats one command writes: each name and the ``module:function`` writing it
    (the writers of one command share a signature)."""

    command: str
    writers: Mapping[str, str]
    github: bool = False  # `auto` picks `github` under GitHub Actions

    def choices(self) -> list[str]:
        return ["auto", *self.writers]

    def resolve(self, name: str, stream: IO[str], env: Mapping[str, str] | None = None) -> str:
        """``auto`` made concrete for this stream; any other name checked."""
        if name == "auto":
            env = os.environ if env is None else env
            if self.github and env.get("GITHUB_ACTIONS") == "true":
                return "github"
            isatty = getattr(stream, "isatty", None)
            return "rich" if isatty is not None and isatty() else "text"
        if name not in self.writers:
            raise UnknownFormat(self.command, name, self.choices())
        return name

    def writer(self, name: str) -> Callable[..., Any]:
        target = self.writers.get(name)
        if target is None:
            raise UnknownFormat(self.command, name, self.choices())
        module, _, function = target.partition(":")
        return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


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
        "plan": "chunkgate.export.reembed:write_plan",
    },
    github=True,
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
COMMANDS = {
    formats.command: formats for formats in (CHECK, DIFF, CHUNKS, OUTLINE, STATS, EVAL, REFS)
}
