"""Write: the shards of the files a run checked, and the header when it changed.

A run on named files never claims the header for other files' entries: their
findings may have been made with other rule settings, so only a whole-corpus
update writes a new one.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Mapping
from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.gate.load import Loaded
from chunkgate.manifest import FileEntry, Header


class Written(NamedTuple):
    changed: bool  # the manifest on disk is not what it was
    notes: list[str]


def write_manifest(
    config: Config,
    loaded: Loaded,
    entries: Mapping[str, FileEntry | None],
    expected: Header,
    *,
    whole: bool,
) -> Written:
    current = loaded.current
    if whole:
        current.sweep_temporaries()
    with current.staging():  # the shards and the header, old or new as a whole
        changed = current.write(entries)
        header = expected if whole or loaded.header is None else _named(loaded.header, config)
        headed = current.write_header(header)
    migrated = _remove_legacy(loaded)
    if not changed and not headed and not migrated:
        return Written(False, [])
    return Written(True, [updated_note(config, len(changed))])


def _named(header: Header, config: Config) -> Header:
    """The header after a run on named files: as it was, but a record of the site configs
    follows a new listing (the run was given one of them)."""
    found = config.generators
    if found is None or not found.fresh or header.site_configs is None:
        return header
    return header.with_sites(found.listed, found.tracked)


def updated_note(config: Config, files: int) -> str:
    if files:
        what = f"{files} file{'s' if files != 1 else ''} changed"
    else:  # the header: other settings
        what = "no file's entry changed"
    stage = f"git add -A {shlex.quote(config.manifest)}"
    return f"updated {config.manifest}/ ({what}): stage it with `{stage}`"


def _remove_legacy(loaded: Loaded) -> bool:
    if loaded.legacy is None:
        return False
    with contextlib.suppress(FileNotFoundError):
        os.unlink(loaded.legacy)
    return True
