"""The rule registry: every rule code, its name, default severity and summary (SPEC §4)."""

from __future__ import annotations

from chunkguard.rules.base import SEVERITIES, Rule, Severity, Violation

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
        Rule("CG501", "duplicate-content", "warning", "two or more chunks have the same hash"),
    )
}

__all__ = ["RULES", "SEVERITIES", "Rule", "Severity", "Violation"]
