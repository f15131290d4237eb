"""Load: the two manifests a run compares.

- the *current* manifest, the folder in the work tree: CG401 compares the
  corpus with it, and ``--update`` rewrites it;
- the *baseline*, the manifest as committed at ``HEAD`` (or the revision a CI
  run compares against): a chunk ID it has that is gone now is either a move
  (CG402, unless the current manifest records ``moved_from``) or a removal
  (CG403). Comparing with a commit rather than with the work tree keeps an
  unacknowledged move an error until it is acknowledged, however often the
  hook rewrites the current manifest. Old chunk texts are read from git by the
  blob IDs it records.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from chunkgate.chunking import CHUNKING_VERSION
from chunkgate.chunking.base import anchor_settings
from chunkgate.config.model import Config
from chunkgate.core.errors import ManifestError
from chunkgate.git import objects, process
from chunkgate.manifest import (
    FORMAT_VERSION,
    FileEntry,
    Header,
    RevisionManifest,
    WorkTreeManifest,
)
from chunkgate.manifest.legacy import FILE_NAME as LEGACY_NAME
from chunkgate.manifest.legacy import read_legacy


class Loaded(NamedTuple):
    current: WorkTreeManifest
    header: Header | None  # what the current manifest was made with; None: there is none
    problem: ManifestError | None  # its header could not be read
    legacy: Path | None  # a format-1 manifest file waiting to be migrated
    legacy_entries: dict[str, FileEntry]  # what it lists (its acknowledged moves are kept)
    baseline: RevisionManifest | None  # the committed manifest, when its IDs compare
    reader: objects.BlobReader | None  # git's objects, one process for the run
    # The committed manifest whose recorded findings are the known problems (the
    # baseline's, even under other settings); None: there is none, and the manifest
    # being committed is the record (adoption).
    record: RevisionManifest | None = None


def expected_header(config: Config, recorded: Header | None = None) -> Header:
    """The header a manifest made now, with these settings, has. A run that listed no
    site configs through git (git not on PATH: the corpus is read from the folder)
    keeps the record of the ``recorded`` header (the current manifest's), which the
    hook's runs read, rather than dropping it."""
    header = Header(
        FORMAT_VERSION,
        CHUNKING_VERSION,
        config.chunking.fingerprint(),
        config.findings_fingerprint(),
        anchor_settings(config.chunking),
    )
    found = config.generators
    if found is not None:
        return header.with_sites(found.listed, found.tracked)
    if recorded is None or recorded.site_configs is None:
        return header
    return replace(
        header, site_configs=recorded.site_configs, untracked_configs=recorded.untracked_configs
    )


def load(
    config: Config,
    stack: ExitStack,
    *,
    baseline: str = "HEAD",
    known_from: str | None = None,
    writing: bool = False,
) -> Loaded:
    in_git = (config.root / ".git").exists() and process.installed()
    current = WorkTreeManifest(config.root, config.manifest, in_git=in_git, writing=writing)
    header: Header | None = None
    problem: ManifestError | None = None
    try:
        header = current.header()
    except ManifestError as exc:
        problem = exc
    legacy = config.root / LEGACY_NAME
    waiting = legacy if header is None and problem is None and legacy.is_file() else None
    old: dict[str, FileEntry] = {}
    if waiting is not None:
        try:
            old = read_legacy(waiting)
        except (ManifestError, OSError):
            old = {}  # unreadable: migrated all the same, without its moves
    reader = stack.enter_context(objects.BlobReader(config.root)) if in_git else None
    committed = _committed(config, reader, baseline)
    record = committed if known_from is None else _committed(config, reader, known_from)
    committed_header = committed.header() if committed is not None else None
    if committed_header is None or not committed_header.same_chunking(expected_header(config)):
        committed = None  # IDs made under other settings are not comparable
    return Loaded(current, header, problem, waiting, old, committed, reader, record)


def _committed(
    config: Config, reader: objects.BlobReader | None, revision: str
) -> RevisionManifest | None:
    """The manifest committed at ``revision``, if it has one with a readable header."""
    if reader is None or reader.commit_id(revision) is None:
        return None
    committed = RevisionManifest(config.root, revision, config.manifest, reader)
    try:
        header = committed.header()
    except ManifestError:
        return None  # a broken committed manifest has no IDs to compare
    return committed if header is not None else None
