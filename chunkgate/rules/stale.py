"""The manifest must describe the corpus.

CG401 stale-manifest
    The committed manifest (the ``chunkgate.manifest/`` folder) must describe
    the corpus: every file with its chunks' IDs, sizes and hashes. It fires for
    a file the manifest does not list, a listed file that is gone or has other
    chunks now, a manifest written with other chunking settings (naming them),
    a shard made under other settings than the header's whose findings are
    not what the header's find (a merge of a branch that changed them with
    one that added or edited the file), a manifest of
    the old one-file format, and a corrupt or merge-conflicted shard (with its
    file and line).

    Why: the manifest is what reviewers diff and what CI compares; a stale one
    hides changes to the chunks that get embedded.

    Fix: run ``chunkgate update`` and commit the manifest (the ``chunkgate``
    pre-commit hook does this for the files of each commit).

    Passes: the manifest was updated in the same commit as ``docs/guide.md``.

    Fires: ``docs/guide.md`` gained a section, the manifest still lists the
    old chunks.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from chunkgate.core.model import Violation
from chunkgate.rules.base import Rule, violation

if TYPE_CHECKING:
    from chunkgate.config.model import Config
    from chunkgate.manifest import FileEntry, ManifestSyntaxError

RULES = (
    Rule(
        "CG401",
        "stale-manifest",
        "error",
        "the committed manifest does not match the corpus",
        priority=42,
    ),
)
STALE = RULES[0]

_UPDATE = "run `chunkgate update` and commit the manifest"


def stale_manifest_violation(
    config: Config, message: str, *, path: str | None = None, line: int = 1
) -> Violation | None:
    """The manifest as a whole (or one of its files, ``path``) is not what it should be."""
    where = path or config.manifest
    return violation(config, STALE, where, line, None, message=message, fix=_UPDATE)


# A file the corpus no longer selects (an `exclude` added): ``Violation.cause``.
DROPPED = "dropped"


def stale_file_violation(
    config: Config, path: str, message: str, *, cause: str | None = None
) -> Violation | None:
    return violation(
        config,
        STALE,
        path,
        1,
        None,
        message=f"{config.manifest} {message}",
        # ``./-x.md``: a path written as an option would be read as one
        fix=f"run `chunkgate update {shlex.quote(f'./{path}' if path.startswith('-') else path)}` "
        "(the chunkgate pre-commit hook does it) "
        "and commit the manifest",
        cause=cause,
    )


def check_staleness(
    config: Config,
    recorded: Mapping[str, FileEntry | None],
    now: Mapping[str, FileEntry | None],
    *,
    deleted: set[str],
    broken: Mapping[str, ManifestSyntaxError],
    settings: str | None = None,
) -> Iterator[Violation]:
    """CG401 for the checked files: ``recorded`` is what the manifest lists for each
    (None: nothing), ``now`` what it should list (None: the file left the corpus;
    ``deleted`` says which of those are gone from disk), ``broken`` the shards that
    could not be read, ``settings`` the digest of the settings the manifest's header
    names: a shard made under others (it came from a merge) is stale when its findings
    are not what these settings find."""
    for path, entry in now.items():
        before = recorded.get(path)
        if path in broken:
            error = broken[path]
            found = stale_manifest_violation(
                config,
                f"the shard of {path} is corrupt: {error.what}",
                path=error.name,
                line=error.line,
            )
        elif entry is None:
            if before is None:
                continue
            if path in deleted:
                found = stale_file_violation(config, path, f"lists {path}, which no longer exists")
            else:
                message = f"lists {path}, which is no longer in the corpus"
                found = stale_file_violation(config, path, message, cause=DROPPED)
        elif before is None:
            found = stale_file_violation(config, path, f"does not list {path}")
        elif not entry.same_chunks(before):
            found = stale_file_violation(config, path, f"is out of date for {path}")
        elif before.settings not in (None, settings) and before.findings != entry.findings:
            found = stale_file_violation(
                config,
                path,
                f"records findings for {path} made under other settings than its header's",
            )
        else:
            continue
        if found is not None:
            yield found
