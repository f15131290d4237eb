"""Manifest and citation stability.

CG401 stale-manifest
    The committed manifest (``chunkgate.manifest.jsonl``) must describe the
    corpus: every file with its chunks' IDs, sizes and hashes. It fires for a
    file the manifest does not list, a listed file that is gone or has other
    chunks now, a manifest written with other chunking settings, and a
    corrupt or merge-conflicted manifest (with its line).

    Why: the manifest is what reviewers diff and what CI compares; a stale one
    hides changes to the chunks that get embedded.

    Fix: run ``chunkgate update`` and commit the manifest (the ``chunkgate``
    pre-commit hook does this for the files of each commit).

    Passes: the manifest was updated in the same commit as ``docs/guide.md``.

    Fires: ``docs/guide.md`` gained a section, the manifest still lists the
    old chunks.

CG402 unstable-id
    A chunk's content survives under a different ID: its heading was renamed,
    its file moved, or a same-named section inserted above renumbered it.
    "Survives" means the same text, the same body (the text without its own
    heading line), or text at least 60% similar (word 5-gram Jaccard). The
    baseline is the manifest committed at ``HEAD``; old texts are read from
    git by the blob IDs it records.

    Why: a chunk ID is a promise. Stored citations, eval sets and vector-store
    keys point at the old ID and break silently.

    Fix: keep the old ID with an explicit attribute on the heading
    (``## Installing {#install}``), or, when the change is intended, run
    ``chunkgate update --accept-moves``, which records ``moved_from`` in the
    manifest so that consumers can redirect.

    Passes::

        ## Installing {#install}

    Fires (the heading ``## Install`` was renamed)::

        ## Installing

CG403 removed-id
    An ID in the baseline manifest is gone and its content did not move
    anywhere: the section, function or file was deleted.

    Why: anything that cites the ID now points nowhere.

    Fix: if the removal is intended, update the citations and eval sets that
    use the ID; the warning goes away once the manifest is committed.

    Passes: the section was moved to another file (that is CG402, or nothing
    when acknowledged).

    Fires: ``## Deprecated API`` and its text were deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chunkgate.config import Config
from chunkgate.model import Chunk, Violation
from chunkgate.rules import RULES

if TYPE_CHECKING:
    from chunkgate.moves import Move

_UPDATE = "run `chunkgate update` and commit the manifest"


def _violation(
    config: Config,
    code: str,
    path: str,
    line: int,
    chunk_id: str | None,
    *,
    message: str,
    fix: str,
) -> Violation | None:
    severity = config.severity(code)
    if severity == "off":
        return None
    return Violation(code, RULES[code].name, severity, path, line, chunk_id, message, fix)


def stale_manifest_violation(config: Config, message: str, *, line: int = 1) -> Violation | None:
    return _violation(config, "CG401", config.manifest, line, None, message=message, fix=_UPDATE)


def stale_file_violation(config: Config, path: str, message: str) -> Violation | None:
    return _violation(
        config,
        "CG401",
        path,
        1,
        None,
        message=f"{config.manifest} {message}",
        fix=f"run `chunkgate update {path}` (the chunkgate pre-commit hook does it) and "
        "commit the manifest",
    )


def moved_violation(config: Config, move: Move) -> Violation | None:
    old, new = move.old, move.new
    how = {
        "identical": "the same text",
        "body": "the same text under a renamed heading",
        "similar": f"{move.similarity:.0%} similar text",
    }[move.how]
    hint = (
        f"keep the old ID with `{{#{old.identity}}}` on the heading"
        if new.language == "markdown" and new.kind == "section" and old.path == new.path
        else "keep the old name or path"
    )
    if new.language == "rst" and new.kind == "section" and old.path == new.path:  # issue 22
        hint = f"keep the old ID with `.. _{old.identity}:` above the title"
    return _violation(
        config,
        "CG402",
        new.path,
        new.start_line,
        new.id,
        message=f"ID changed from {old.id}: {how} now lives under {new.id}; "
        "citations of the old ID break",
        fix=f"{hint}, or run `chunkgate update --accept-moves` to record the move",
    )


def removed_violation(config: Config, chunk: Chunk, *, deleted: bool) -> Violation | None:
    where = "its file was deleted" if deleted else f"it was at line {chunk.start_line}"
    return _violation(
        config,
        "CG403",
        chunk.path,
        1 if deleted else chunk.start_line,
        chunk.id,
        message=f"{chunk.id} was removed ({where}) and its content did not move",
        fix="if intended, update the citations and eval sets that use this ID",
    )
