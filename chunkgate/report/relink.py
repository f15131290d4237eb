"""Output of ``fix-links``: each file's edits as a diff, the links left, and the totals."""

from __future__ import annotations

import json
from typing import IO

from chunkgate.gate.relink import LinkFixes


def write_json(result: LinkFixes, stream: IO[str]) -> None:
    stream.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")


def write_text(result: LinkFixes, stream: IO[str]) -> None:
    for fix in result.fixed:
        stream.write(fix.diff if fix.diff.endswith("\n") else f"{fix.diff}\n")
    for violation in result.left:
        stream.write(
            f"{violation.path}:{violation.line}: {violation.rule} {violation.message} "
            f"(fix: {violation.fix})\n"
        )
    edits = sum(len(fix.edits) for fix in result.fixed)
    done = "rewritten" if result.written else "to rewrite (--dry-run)"
    stream.write(
        f"{edits} link{'s' * (edits != 1)} {done} in {len(result.fixed)} "
        f"file{'s' * (len(result.fixed) != 1)}; {len(result.left)} broken "
        f"link{'s' * (len(result.left) != 1)} left with no move to follow\n"
    )
    if result.written and result.fixed:
        stream.write("run `chunkgate update` (the hook does it) and commit the pages\n")
