"""What a rule is and what it reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "off"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "off")


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str


@dataclass(frozen=True, slots=True)
class Violation:
    """One finding. ``fix`` tells the user exactly what to do about it."""

    rule: str
    name: str
    severity: Severity
    path: str
    line: int
    chunk_id: str | None
    message: str
    fix: str = ""

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line, self.rule, self.chunk_id or "")

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "chunk_id": self.chunk_id,
            "message": self.message,
            "fix": self.fix,
        }
