"""The rule registry, derived from the rule modules of this package (SPEC §4).

Every module here except ``base`` is a rule family: it declares ``RULES``
(see ``base.Rule``) and its docstring is the user documentation, one section
per rule headed ``## CODE name`` (or ``CODE name`` alone on a line) with a
``Fires:`` and a ``Passes:`` example. A family that looks at one file at a
time also defines ``check(FileContext)``; one that looks at the corpus as a
whole defines ``check_corpus(CorpusContext)``, which ``check`` and
``update`` call after the files are checked. The manifest rules (CG401-CG403,
CG501) are the gate's own steps. Adding a rule is adding a module (or a
``Rule`` to one).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import textwrap
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from chunkgate.core.regex import lazy
from chunkgate.rules.base import (
    SEVERITIES,
    CorpusCheck,
    CorpusContext,
    FileCheck,
    FileContext,
    Finding,
    Option,
    Rule,
    Severity,
    Violation,
)


def _discover() -> list[ModuleType]:
    names = sorted(
        info.name
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_") and info.name != "base"
    )
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


FAMILIES: list[ModuleType] = _discover()
# Derived from the families' declarations (and kept so, in place, by register):
RULES: dict[str, Rule] = {}  # by code, in code order
FILE_CHECKS: list[FileCheck] = []  # the file-level families' checks, by their first code
FILE_RULES: set[str] = set()  # the codes those families report
# The corpus-level families' checks, each with the codes it reports, by first code.
CORPUS_CHECKS: list[tuple[tuple[str, ...], CorpusCheck]] = []
CORPUS_RULES: set[str] = set()  # the codes those families report
NEVER_EMBED: set[str] = set()
PRIORITY: list[str] = []  # codes in display order: the worst first where space is short
RANK: dict[str, int] = {}  # each code's place in PRIORITY


def _derive() -> None:
    families = sorted(FAMILIES, key=lambda family: min(rule.code for rule in family.RULES))
    checking = [family for family in families if hasattr(family, "check")]
    RULES.clear()
    RULES.update(sorted((rule.code, rule) for family in families for rule in family.RULES))
    FILE_CHECKS[:] = [family.check for family in checking]
    FILE_RULES.clear()
    FILE_RULES.update(rule.code for family in checking for rule in family.RULES)
    corpus = [family for family in families if hasattr(family, "check_corpus")]
    CORPUS_CHECKS[:] = [
        (tuple(rule.code for rule in family.RULES), family.check_corpus) for family in corpus
    ]
    CORPUS_RULES.clear()
    CORPUS_RULES.update(code for codes, _ in CORPUS_CHECKS for code in codes)
    NEVER_EMBED.clear()
    NEVER_EMBED.update(code for code, rule in RULES.items() if rule.never_embed)
    PRIORITY[:] = sorted(RULES, key=lambda code: (RULES[code].priority, code))
    RANK.clear()
    RANK.update((code, rank) for rank, code in enumerate(PRIORITY))


def register(family: ModuleType) -> None:
    """Add a rule family that lives outside this package (a plugin, a test)."""
    FAMILIES.append(family)
    _derive()


def unregister(family: ModuleType) -> None:
    FAMILIES.remove(family)
    _derive()


_derive()


def options() -> Iterator[Option[Any]]:
    """Every configuration option a rule declares, in code order, each once."""
    seen: set[str] = set()
    for rule in RULES.values():
        for option in rule.options:
            if option.key not in seen:
                seen.add(option.key)
                yield option


def findings_fingerprint(values: dict[str, object]) -> str:
    """Everything that changes what the file-level rules find (not their severity):
    their codes and versions, and the values of the options they read."""
    versions = ",".join(f"{code}.{RULES[code].version}" for code in sorted(FILE_RULES))
    settings = "".join(
        f";{option.key}={option.render(values[option.key])}"
        for option in options()
        if any(option in RULES[code].options for code in FILE_RULES)
    )
    return f"rules={versions}{settings}"


_SECTION = lazy(r"^(?:## )?(CG\d{3}) [a-z][a-z-]*[ \t]*$", re.MULTILINE)


def rule_docs() -> dict[str, str]:
    """Each documented rule code and its section of its module's docstring, in code order.

    A section is the text under the rule's heading (the heading itself is left
    out: callers print the code and name their own way).
    """
    docs: dict[str, str] = {}
    for family in FAMILIES:
        docs.update(_sections(family.__doc__ or ""))
    return dict(sorted(docs.items()))


def _sections(docstring: str) -> dict[str, str]:
    heads = list(_SECTION.finditer(docstring))
    sections: dict[str, str] = {}
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(docstring)
        sections[head.group(1)] = textwrap.dedent(docstring[head.end() : end]).strip()
    return sections


__all__ = [
    "CORPUS_CHECKS",
    "CORPUS_RULES",
    "FAMILIES",
    "FILE_CHECKS",
    "FILE_RULES",
    "NEVER_EMBED",
    "PRIORITY",
    "RANK",
    "RULES",
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
    "findings_fingerprint",
    "options",
    "register",
    "rule_docs",
    "unregister",
]
