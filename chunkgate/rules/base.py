"""What a rule is, what it looks at, and what it reports."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.model import Chunk, Problem, Severity, Violation

if TYPE_CHECKING:
    from chunkgate.config import Config

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "off")


class Rule(NamedTuple):
    code: str
    name: str
    severity: Severity
    summary: str


class Finding(NamedTuple):
    """What a rule found, before the configuration decides its severity.

    ``fix`` tells the user exactly what to do ("add a subheading", "exclude
    this path in .chunkgate.yaml"). A finding on a chunk names it, so that
    the chunk's inline suppressions apply.
    """

    code: str
    line: int
    message: str
    fix: str
    chunk: Chunk | None = None


class FileContext(NamedTuple):
    """Everything the file-level rules may look at for one corpus file.

    ``text`` is None when the file could not be decoded (CG001 then says why)
    or was too large to read as text (CG305). ``attributes`` holds the
    ``.gitattributes`` flags set for the path (``linguist-generated``,
    ``linguist-vendored``).
    """

    path: str
    size: int
    text: str | None
    chunks: tuple[Chunk, ...]
    config: Config
    problems: tuple[Problem, ...] = ()
    unreadable: str | None = None
    attributes: frozenset[str] = frozenset()


# A file-level rule family: every finding it makes for one file.
FileCheck = Callable[[FileContext], Iterator[Finding]]

__all__ = ["SEVERITIES", "FileCheck", "FileContext", "Finding", "Rule", "Severity", "Violation"]
