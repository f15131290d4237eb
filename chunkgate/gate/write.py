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
from pathlib import Path
from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.gate.load import Loaded
from chunkgate.git.listings import ignored_by
from chunkgate.manifest import FileEntry, Header, write_atomic


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
    rule = ignored_by(config.root, config.manifest) if (config.root / ".git").exists() else None
    if rule is not None:
        # GitHub's Python .gitignore has `*.manifest` (PyInstaller's): git skips the folder.
        return (
            f"updated {config.manifest}/ ({what}), which git ignores ({rule}): add the line "
            f"`!/{config.manifest}/` to .gitignore, then stage it with `{stage}`"
        )
    return f"updated {config.manifest}/ ({what}): stage it with `{stage}`"


def unignore_manifest(root: Path, manifest: str) -> str | None:
    """Let git add the manifest folder when an ignore rule leaves it out (a Python
    project's ``*.manifest``): a ``!/folder/`` line at the end of the root's .gitignore,
    which outranks the rule; what was done, or None when nothing was needed."""
    rule = ignored_by(root, manifest)
    if rule is None:
        return None
    path = root / ".gitignore"
    try:
        old = path.read_bytes()
    except FileNotFoundError:
        old = b""
    line = f"!/{manifest}/"
    separator = b"\n" if old and not old.endswith(b"\n") else b""
    added = f"# chunkgate's manifest is committed (a rule above ignores it)\n{line}\n"
    write_atomic(path, old + separator + added.encode("utf-8"))
    return f"{manifest}/ was ignored by git ({rule}): added `{line}` to .gitignore"


def _remove_legacy(loaded: Loaded) -> bool:
    if loaded.legacy is None:
        return False
    with contextlib.suppress(FileNotFoundError):
        os.unlink(loaded.legacy)
    return True
