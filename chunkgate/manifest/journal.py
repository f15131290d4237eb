"""The manifest folder replaced as a whole: a journal names the shards that belong together.

Each shard is replaced atomically (a temporary file, then a rename), but a run
that changes many shards and is killed between two renames would leave some
files old and some new. So a run that changes more than one file writes all
their new versions as temporary files first, then the journal (``.journal``
in the folder, itself written atomically and flushed), then renames, then
deletes the journal:

- killed before the journal exists: every shard is old; the temporary files
  are swept by the next writer (a Ctrl-C removes them itself);
- killed after: the journal says which shards belong together, and the next
  writer, as soon as it holds the lock, finishes the renames (``roll_forward``):
  every shard is new. A reader that finds a journal no live writer is finishing
  reports it, with the fix (``chunkgate update``), rather than read a mix.

A run that changes one file (most hook runs) renames it at once: that is
already old or new as a whole, and costs no journal.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from chunkgate.core.errors import ManifestError
from chunkgate.manifest.storage import naming, sync_all, sync_folder, write_atomic

JOURNAL = ".journal"

# A staged change: the target, relative to the folder, and the temporary file that
# replaces it (None: the target is removed).
Change = tuple[str, str | None]


def commit(folder: Path, changes: Sequence[Change]) -> None:
    """Apply ``changes``, whose temporary files are written (not yet flushed), all or
    none across a crash."""
    if not changes:
        return
    if len(changes) == 1:  # one rename is old or new by itself
        try:
            _flush(folder, changes[0][1])
        except BaseException:
            _discard(folder, changes)
            raise
        _apply(folder, changes)
        sync_folder((folder / changes[0][0]).parent)
        return
    record = json.dumps([[target, temp] for target, temp in changes]).encode("ascii")
    try:
        sync_all()  # the temporary files' data, before the journal that names them
        write_atomic(folder / JOURNAL, record + b"\n")
        _apply(folder, changes)
        _finish(folder)
    except BaseException:
        # A Ctrl-C once the journal is there: finish the renames it lists, so that the
        # folder is new as a whole; before it: the folder is old, and the temporary
        # files go. A SIGKILL leaves either to the next writer.
        if not roll_forward(folder):
            _discard(folder, changes)
        raise


def _discard(folder: Path, changes: Sequence[Change]) -> None:
    for _, temp in changes:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(folder / temp)


def roll_forward(folder: Path) -> bool:
    """Finish the renames a killed writer's journal lists; whether there was one. Call
    it holding the lock, before reading the folder."""
    changes = _read(folder)
    if changes is None:
        return False
    _apply(folder, changes)
    _finish(folder)
    return True


def pending(folder: Path) -> bool:
    return os.path.lexists(folder / JOURNAL)


def wait_or_report(folder: Path, label: str, *, writer: Callable[[], bool], wait: float) -> None:
    """A reader's check: a journal that a live writer is finishing goes within ``wait``
    seconds; one that stays, or that no writer holds the lock for, is an interrupted
    write to report."""
    deadline = time.monotonic() + wait
    while pending(folder):
        if not writer() or time.monotonic() > deadline:
            raise ManifestError(
                f"{label}: an update was interrupted while it replaced shards "
                f"({label}/{JOURNAL} lists them); run `chunkgate update` to finish it"
            )
        time.sleep(0.05)


def _read(folder: Path) -> list[Change] | None:
    try:
        data = (folder / JOURNAL).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ManifestError(f"{folder / JOURNAL}: cannot read: {exc.strerror}") from None
    try:
        record = json.loads(data)
        changes = [(str(target), None if temp is None else str(temp)) for target, temp in record]
    except (ValueError, TypeError):
        # Written atomically, so never torn: a journal that does not parse is not ours.
        raise ManifestError(
            f"{folder / JOURNAL}: not a chunkgate journal; remove it and run `chunkgate update`"
        ) from None
    if any(_outside(name) for change in changes for name in change if name is not None):
        raise ManifestError(f"{folder / JOURNAL}: names a file outside the manifest folder")
    return changes


def _outside(name: str) -> bool:
    parts = name.split("/")
    return name.startswith("/") or "\0" in name or any(part in ("", ".", "..") for part in parts)


def _apply(folder: Path, changes: Sequence[Change]) -> None:
    # Each step is idempotent: a rename whose temporary file is gone was made.
    for target, temp in changes:
        if temp is None:
            remove_shard(folder / target, folder)
        elif os.path.lexists(folder / temp):
            try:
                os.replace(folder / temp, folder / target)
            except OSError as exc:
                raise naming(exc, folder / target) from None


def _flush(folder: Path, temp: str | None) -> None:
    if temp is None:
        return
    fd = os.open(folder / temp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _finish(folder: Path) -> None:
    sync_all()  # the renames, before the journal that would redo them goes
    with contextlib.suppress(FileNotFoundError):
        os.unlink(folder / JOURNAL)
    sync_folder(folder)


def remove_shard(target: Path, top: Path) -> None:
    """Delete a shard, and the folders it leaves empty up to the manifest folder."""
    with contextlib.suppress(FileNotFoundError):
        target.unlink()
    folder = target.parent
    while folder != top and top in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty, or gone
            return
        folder = folder.parent
