"""The rule registry: every rule code, its name, default severity and summary (SPEC §4).

``FILE_CHECKS`` are the rule families that look at one file at a time, in
code order. Each family is a module whose docstring is its user
documentation: one section per rule, headed ``## CODE name`` (or ``CODE name``
alone on a line), with a ``Fires:`` and a ``Passes:`` example;
``rule_docs()`` collects those sections.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any

from chunkgate.rules.base import (
    SEVERITIES,
    FileCheck,
    FileContext,
    Finding,
    Rule,
    Severity,
    Violation,
)

RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule(
            "CG001",
            "unreadable",
            "error",
            "a corpus file is binary, not decodable, or not parsable",
        ),
        Rule("CG101", "duplicate-id", "error", "two chunks share an ID"),
        Rule("CG201", "oversized", "error", "a chunk exceeds size.max"),
        Rule("CG202", "undersized", "warning", "a chunk is below size.min"),
        Rule(
            "CG301",
            "denylisted-path",
            "error",
            "a corpus file matches the denylist (lockfiles, licenses, vendored, build output)",
        ),
        Rule(
            "CG302",
            "license-text",
            "error",
            "a file or chunk is mostly a known license text or copyright boilerplate",
        ),
        Rule("CG303", "generated", "error", "a file looks minified or machine-generated"),
        Rule(
            "CG304",
            "link-farm",
            "warning",
            "a chunk is a table of contents or link list with little prose",
        ),
        Rule(
            "CG305",
            "data-dump",
            "error",
            "a file or chunk is a data blob (base64, huge tables, files over max_file_bytes)",
        ),
        Rule(
            "CG401", "stale-manifest", "error", "the committed manifest does not match the corpus"
        ),
        Rule(
            "CG402",
            "unstable-id",
            "error",
            "a chunk's content survives under a different ID without the move being recorded",
        ),
        Rule(
            "CG403",
            "removed-id",
            "warning",
            "an ID in the manifest is gone and its content did not move",
        ),
        Rule(
            "CG404",
            "broken-reference",
            "error",
            "a link inside the corpus points at an anchor its target file does not have",
        ),
        Rule("CG501", "duplicate-content", "warning", "two or more chunks have the same hash"),
        Rule(
            "CG502",
            "near-duplicate",
            "off",
            "a chunk's body is nearly the same as another's (near_duplicates.threshold)",
        ),
        # Faults of chunks other pipelines made (`chunkgate lint EXPORT`).
        Rule("CG601", "empty-chunk", "error", "an exported chunk has no text"),
        Rule("CG602", "missing-source", "error", "an exported chunk names no source"),
        Rule("CG603", "missing-id", "warning", "an exported chunk has no ID"),
        Rule("CG604", "cut-fence", "error", "an exported chunk starts or ends inside a code fence"),
        Rule("CG605", "mid-sentence", "warning", "an exported chunk starts or ends mid-sentence"),
        Rule(
            "CG606", "cut-table", "warning", "an exported chunk holds table rows without a header"
        ),
        Rule("CG607", "no-heading", "warning", "an exported chunk has no heading context"),
        Rule("CG608", "changed-id", "error", "the same text has another ID in the other export"),
    )
}

# Bump when a file check changes what it finds: manifests record each file's
# findings, and a new version makes the gate look at every file again.
RULES_VERSION = "1"

# The file-level families in code order. They are imported on first use of
# FILE_CHECKS: a whole-corpus check that reads no file never needs them.
_FAMILIES = (
    "unreadable",
    "identity",
    "size",
    "denylist",
    "license",
    "generated",
    "linkfarm",
    "datadump",
)

if TYPE_CHECKING:
    FILE_CHECKS: tuple[FileCheck, ...]


def __getattr__(name: str) -> Any:
    if name != "FILE_CHECKS":
        raise AttributeError(f"module 'chunkgate.rules' has no attribute {name!r}")
    checks = tuple(
        importlib.import_module(f"chunkgate.rules.{family}").check for family in _FAMILIES
    )
    globals()["FILE_CHECKS"] = checks
    return checks


_SECTION = re.compile(r"^(?:## )?(CG\d{3}) [a-z][a-z-]*[ \t]*$", re.MULTILINE)


def rule_docs() -> dict[str, str]:
    """Each documented rule code and its section of its module's docstring, in code order.

    A section is the text under the rule's heading (the heading itself is left
    out: callers print the code and name their own way).

    Every module of this package may document rules, so families that are not
    file checks (the manifest and corpus rules) are found too.
    """
    import pkgutil  # only `chunkgate rules` and the docs tests get here

    docs: dict[str, str] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        docs.update(_sections(module.__doc__ or ""))
    return dict(sorted(docs.items()))


def _sections(docstring: str) -> dict[str, str]:
    import textwrap

    heads = list(_SECTION.finditer(docstring))
    sections: dict[str, str] = {}
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(docstring)
        sections[head.group(1)] = textwrap.dedent(docstring[head.end() : end]).strip()
    return sections


__all__ = [
    "FILE_CHECKS",
    "RULES",
    "RULES_VERSION",
    "SEVERITIES",
    "FileCheck",
    "FileContext",
    "Finding",
    "Rule",
    "Severity",
    "Violation",
    "rule_docs",
]
