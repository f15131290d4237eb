"""SARIF 2.1.0 for GitHub code scanning: every rule's metadata and one result per violation.

GitHub rejects a run of more than 25,000 results (and keeps the 5,000 most
severe), so a run holds at most ``MAX_RESULTS``: the worst first, in the
order the annotations use, with a notification that counts the rest. A
``category`` (``runAutomationDetails.id``) keeps two uploads for one commit
(two configurations, two folders) from replacing each other's alerts.

Each result carries ``partialFingerprints["chunkgate/v1"]``: a hash of the
rule and the chunk ID (the path for file-level findings), plus its
occurrence number among results with the same key, so that code scanning
keeps tracking an alert when lines move above the chunk or the sizes in the
message change. Nothing depends on time or the machine: the same result
gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import IO
from urllib.parse import quote

from chunkgate import __version__
from chunkgate.core.model import CheckResult, Violation
from chunkgate.core.regex import lazy
from chunkgate.report.check import one_line
from chunkgate.report.github import by_priority
from chunkgate.rules import RULES, rule_docs

MAX_RESULTS = 25_000  # GitHub code scanning's limit per run

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/chunkgate/chunkgate"
FINGERPRINT = "chunkgate/v1"
SRCROOT = "%SRCROOT%"

_HEADING = lazy(r"\A#+ ")  # the section's own heading line
_LEVELS = {"error": "error", "warning": "warning", "off": "none"}
_FAMILIES = {
    "CG0": "readability",
    "CG1": "chunk-ids",
    "CG2": "chunk-size",
    "CG3": "never-embed",
    "CG4": "manifest",
    "CG5": "duplicates",
}


def write_sarif(
    result: CheckResult,
    stream: IO[str],
    *,
    quiet: bool = False,
    env: Mapping[str, str] | None = None,
    category: str = "",
) -> None:
    """The whole report, whatever ``quiet`` says: code scanning wants every result."""
    log = sarif_log(result, category=category)
    stream.write(json.dumps(log, ensure_ascii=False, indent=2) + "\n")


def sarif_log(
    result: CheckResult, *, category: str = "", limit: int = MAX_RESULTS
) -> dict[str, object]:
    codes = sorted(RULES)
    docs = rule_docs()
    # Known problems (the manifest records them) are results too, marked `unchanged`.
    everything = result.with_known().violations
    kept, left_out = _within(everything, limit)
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "chunkgate",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(code, docs) for code in codes],
            }
        },
        "originalUriBaseIds": {
            SRCROOT: {"description": {"text": "The root of the git repository checked."}}
        },
        "columnKind": "unicodeCodePoints",
        "results": _results(kept, {code: i for i, code in enumerate(codes)}),
    }
    if category:
        # GitHub's category is the id up to its last "/"; what follows names the run.
        run["automationDetails"] = {"id": category.rstrip("/") + "/"}
    if left_out:
        run["invocations"] = [_invocation(left_out, limit, len(everything))]
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _within(violations: Sequence[Violation], limit: int) -> tuple[list[Violation], int]:
    """The ``limit`` worst violations (by the annotations' priority), and how many are left."""
    if len(violations) <= limit:
        return list(violations), 0
    return by_priority(violations)[:limit], len(violations) - limit


def _invocation(left_out: int, limit: int, total: int) -> dict[str, object]:
    notification = {
        "level": "warning",
        "descriptor": {"id": "chunkgate/results-left-out"},
        "message": {
            "text": f"{left_out:,} of {total:,} results left out: GitHub code scanning takes "
            f"at most {limit:,} a run. These are the worst; `chunkgate check --format text` "
            "lists them all."
        },
    }
    return {"executionSuccessful": True, "toolExecutionNotifications": [notification]}


def artifact_uri(path: str) -> str:
    """A relative URI reference to a POSIX repository path: spaces, ``:``, non-ASCII escaped;
    a name that is not UTF-8 (lone surrogates) by its own bytes."""
    return quote(path, safe="/", errors="surrogateescape")


def _region(violation: Violation) -> dict[str, int]:
    start = max(violation.line, 1)
    region = {"startLine": start}
    if violation.end_line > start:
        region["endLine"] = violation.end_line
    return region


def _identity(violation: Violation) -> str:
    if violation.chunk_id:
        return f"{violation.rule}\0chunk\0{violation.chunk_id}"
    return f"{violation.rule}\0path\0{violation.path}"


def fingerprint(violation: Violation, occurrence: int = 1) -> str:
    """Rule + chunk ID (or path), and which of the results with that key this is."""
    digest = hashlib.sha256(_identity(violation).encode("utf-8", "surrogateescape")).hexdigest()[
        :32
    ]
    return f"{digest}:{occurrence}"


def _rule(code: str, docs: Mapping[str, str]) -> dict[str, object]:
    rule = RULES[code]
    summary = rule.summary[:1].upper() + rule.summary[1:] + "."
    doc = docs.get(code)
    markdown = doc.strip() if isinstance(doc, str) and doc.strip() else summary
    paragraphs = [one_line(p) for p in markdown.split("\n\n") if p and not p.startswith("#")]
    return {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": paragraphs[0] if paragraphs else summary},
        "help": {"text": _HEADING.sub("", markdown), "markdown": markdown},
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {
            "tags": ["chunkgate", _FAMILIES.get(code[:3], "other")],
            "precision": "very-high",
            "problem.severity": "error" if rule.severity == "error" else "warning",
        },
    }


def _results(violations: Sequence[Violation], index: Mapping[str, int]) -> list[dict[str, object]]:
    seen: Counter[str] = Counter()
    out: list[dict[str, object]] = []
    for violation in sorted(violations, key=Violation.sort_key):
        key = _identity(violation)
        seen[key] += 1
        text = one_line(violation.message)
        if violation.fix:
            text += f" (fix: {one_line(violation.fix)})"
        location: dict[str, object] = {
            "physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(violation.path), "uriBaseId": SRCROOT},
                "region": _region(violation),
            }
        }
        if violation.chunk_id:
            location["logicalLocations"] = [
                {
                    "name": violation.chunk_id.partition("#")[2] or violation.chunk_id,
                    "fullyQualifiedName": violation.chunk_id,
                }
            ]
        entry: dict[str, object] = {"ruleId": violation.rule}
        if violation.rule in index:
            entry["ruleIndex"] = index[violation.rule]
        entry.update(
            {
                "level": _LEVELS.get(violation.severity, "warning"),
                "baselineState": "unchanged" if violation.known else "new",
                "message": {"text": text},
                "locations": [location],
                "partialFingerprints": {FINGERPRINT: fingerprint(violation, seen[key])},
            }
        )
        if violation.chunk_id:
            entry["properties"] = {"chunkId": violation.chunk_id}
        out.append(entry)
    return out
