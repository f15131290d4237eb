"""Assess: whether the current manifest's entries can be used as they are.

Entries made with other chunking settings (size, anchors, chunkgate's
chunking version...) describe other chunks: a check reports that once,
naming what changed, and an update rebuilds every shard. Entries made with
other rule settings (a denylist pattern) have other findings: a whole-corpus
run reads every file again instead of trusting them.
"""

from __future__ import annotations

from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.core.model import Violation
from chunkgate.gate.load import Loaded
from chunkgate.manifest import Header
from chunkgate.rules.stale import stale_manifest_violation


class Assessment(NamedTuple):
    chunks_ok: bool  # the current entries' chunks and IDs are what these settings make
    findings_ok: bool  # and so are their recorded findings
    rebuild: bool  # an update must rewrite every shard (a run on named files cannot)
    violations: list[Violation]
    notes: list[str]


def assess(config: Config, loaded: Loaded, expected: Header, *, writing: bool) -> Assessment:
    header = loaded.header
    chunks_ok = header is not None and header.same_chunking(expected)
    findings_ok = chunks_ok and header is not None and header.rules == expected.rules
    found: list[Violation | None] = []
    notes: list[str] = []
    if loaded.problem is not None:
        if writing:
            notes.append(f"{loaded.problem}; rebuilding the manifest")
        else:
            line = getattr(loaded.problem, "line", 1)
            found.append(stale_manifest_violation(config, str(loaded.problem), line=line))
    elif loaded.legacy is not None:
        if writing:
            notes.append(
                f"migrating {loaded.legacy.name} (format 1) to the folder {config.manifest}/"
            )
        else:
            found.append(
                stale_manifest_violation(
                    config,
                    f"{loaded.legacy.name} is a manifest of the old one-file format; "
                    f"`chunkgate update` migrates it to the folder {config.manifest}/ once",
                    path=loaded.legacy.name,
                )
            )
    elif header is None:
        if not writing:
            found.append(stale_manifest_violation(config, f"no manifest at {config.manifest}/"))
    elif not chunks_ok:
        changes = "; ".join(header.changes(expected)) or "format or settings"
        if writing:
            notes.append(
                f"rebuilding the whole manifest (it was made with other settings: {changes})"
            )
        else:
            found.append(
                stale_manifest_violation(
                    config,
                    f"{config.manifest}/ was written with other chunking settings: {changes}",
                )
            )
    rebuild = writing and not chunks_ok
    return Assessment(chunks_ok, findings_ok, rebuild, [v for v in found if v is not None], notes)
