"""What a rule is, what it looks at, and what it reports.

Every rule module declares its rules (``RULES``: code, name, default
severity, display priority, whether a finding means "never embed this file",
and the configuration options it reads) next to the code that checks them.
The registry in ``chunkgate.rules`` is derived from those declarations.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, NamedTuple, TypeVar

from chunkgate.core.model import Chunk, Problem, Severity, Unverified, Violation
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from chunkgate.config.model import Config
    from chunkgate.git.objects import BlobReader
    from chunkgate.manifest import FileEntry

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "off")

T = TypeVar("T")
OptionKind = Literal["globs", "regexes", "positive_int", "fraction", "anchor_patterns"]


@dataclass(frozen=True, slots=True)
class Option(Generic[T]):
    """A configuration key a rule reads. ``key`` is ``table.name`` (``denylist.paths``)
    or a top-level name (``max_file_bytes``). The configuration validates it by its
    ``kind``; its value is part of the fingerprint of what file-level rules find."""

    key: str
    kind: OptionKind
    default: T
    comment: str  # the line above it in the default configuration `chunkgate init` writes

    def render(self, value: object) -> str:
        """The value as the findings fingerprint spells it."""
        if self.kind == "regexes":
            assert isinstance(value, tuple)
            return ";".join(pattern.pattern for pattern in value if isinstance(pattern, re.Pattern))
        if self.kind == "globs":
            assert isinstance(value, tuple)
            return ",".join(value)
        if self.kind == "anchor_patterns":
            assert isinstance(value, tuple)
            return ";".join(f"{item.pattern.pattern}->{item.anchor}" for item in value)
        return str(value)


class Rule(NamedTuple):
    code: str
    name: str
    severity: Severity
    summary: str
    # Display order where space is short (GitHub shows 10 annotations a step):
    # lower first. Ties are broken by code.
    priority: int
    # A finding on the whole file says it should not be in the corpus at all; the
    # file's chunk-level findings are then noise and are dropped.
    never_embed: bool = False
    options: tuple[Option[Any], ...] = ()
    # Bump when the rule's check changes what it finds: manifests record each
    # file's findings, and a new version makes the gate look at every file again.
    version: int = 1
    # A finding whose message holds these words is a warning at most: one code, two
    # severities (CG201 over the target, but within the hard limit).
    warns_when: str = ""

    def severity_of(self, configured: Severity, message: str) -> Severity:
        """The severity a finding with ``message`` is reported with."""
        if configured == "error" and self.warns_when and self.warns_when in message:
            return "warning"
        return configured


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


class CorpusContext(NamedTuple):
    """What a corpus rule (a family's ``check_corpus``) looks at in ``check`` and
    ``update``: the corpus files, or (``whole`` False: the hook) the named ones alone."""

    config: Config
    files: Mapping[str, str | None]  # corpus path -> git blob (None: unknown)
    whole: bool  # ``files`` is the whole corpus, not only the files a commit names
    moved: Mapping[str, str]  # old chunk ID -> the ID it moved to, as the manifest records
    before: Mapping[str, FileEntry | None]  # the baseline's entries of ``files`` (named runs)
    reader: BlobReader | None  # reads the baseline's blobs (in git)
    jobs: int  # worker processes a rule may read files over


# A corpus rule's findings, and the links it could not judge (``Unverified``: a link
# into a page whose anchors are not all known), which fail nothing.
CorpusCheck = Callable[[CorpusContext], Iterable[Violation | Unverified]]


def violation(
    config: Config,
    rule: Rule,
    path: str,
    line: int,
    chunk_id: str | None,
    *,
    message: str,
    fix: str,
    end_line: int = 0,
    cause: str | None = None,
) -> Violation | None:
    """A corpus-level rule's finding with its configured severity; None when the rule is off.
    ``cause``: the change that explains it with others (``Violation.cause``)."""
    severity = config.severity(rule.code)
    if severity == "off":
        return None
    return Violation(
        rule.code, rule.name, severity, path, line, chunk_id, message, fix, end_line, cause=cause
    )


# A gitignore pattern's special characters, and a leading `!` or `#`.
_GLOB_SPECIAL = lazy(r"[\\*?\[]|^[!#]")


def literal_glob(path: str) -> str:
    """A gitignore pattern that matches the file ``path`` and no other. A name at the root
    is anchored there (``/LICENSE.md``): without a slash it matches in every folder."""
    return literal_name(path if "/" in path else "/" + path)


def literal_name(text: str) -> str:
    """``text`` with gitignore's special characters escaped (``a[1].md`` is a class
    otherwise); trailing spaces are escaped too, or git drops them."""
    kept = text.rstrip(" ")
    escaped = _GLOB_SPECIAL.sub(lambda found: "\\" + found.group(0), kept)
    return escaped + "\\ " * (len(text) - len(kept))


def exclude_hint(glob: str) -> str:
    """``exclude: ["GLOB"]`` as a line of YAML that reads back as ``GLOB``, whatever it holds."""

    quoted = json.dumps(glob, ensure_ascii=False)  # JSON's strings are YAML's double-quoted
    if not quoted.isprintable():  # YAML takes no raw line separator, format character, ...
        quoted = "".join(map(_printable, quoted))
    return f"exclude: [{quoted}]"


def _printable(char: str) -> str:
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


__all__ = [
    "SEVERITIES",
    "CorpusCheck",
    "CorpusContext",
    "FileCheck",
    "FileContext",
    "Finding",
    "Option",
    "Rule",
    "Severity",
    "Violation",
    "exclude_hint",
    "literal_glob",
    "literal_name",
    "violation",
]
