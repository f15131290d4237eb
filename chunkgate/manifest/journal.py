"""The manifest folder replaced as a whole: a journal names the shards that belong together.

Each shard is replaced atomically (a temporary file, then a rename), but a run
that changes many shards and is killed between two renames would leave some
files old and some new. So a run that changes more than one file writes all
their new versions as temporary files first, then the journal (itself written
atomically and flushed), then renames, then deletes the journal:

- killed before the journal exists: every shard is old; the temporary files
  are swept by the next writer (a Ctrl-C removes them itself);
- killed after: the journal says which shards belong together, and the next
  writer, as soon as it holds the lock, finishes the renames (``roll_forward``):
  every shard is new. A reader that finds a journal no live writer is finishing
  reports it, with the fix (``chunkgate update``), rather than read a mix.

A run that changes one file (most hook runs) renames it at once: that is
already old or new as a whole, and costs no journal.

The journal is this machine's state, not the repository's: it lives in the git
directory (``.git/chunkgate/``), which git never carries from one clone to
another, and only outside git in the folder itself (``.journal``). A journal
in the folder of a repository is someone else's: it is refused, never
replayed. Every rename a journal lists is checked before any is made: a
temporary file of chunkgate's beside its shard, both regular files in real
folders under the manifest folder (``confined.py``).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import quote

from chunkgate.core.errors import ManifestError
from chunkgate.git.gitdir import git_directory
from chunkgate.manifest.confined import Confined
from chunkgate.manifest.layout import HEADER, SUFFIX
from chunkgate.manifest.storage import naming, sync_all, sync_folder, temporary_of, write_atomic

JOURNAL = ".journal"

# A staged change: the target, relative to the folder, and the temporary file that
# replaces it (None: the target is removed).
Change = tuple[str, str | None]


def location(folder: Path) -> Path:
    """Where the journal of the manifest folder ``folder`` is kept."""
    found = git_directory(folder.parent)
    if found is None:
        return folder / JOURNAL
    top, git = found
    return git / "chunkgate" / (quote(folder.relative_to(top).as_posix(), safe="") + JOURNAL)


def commit(files: Confined, changes: Sequence[Change]) -> None:
    """Apply ``changes``, whose temporary files are written (not yet flushed), all or
    none across a crash."""
    if not changes:
        return
    if len(changes) == 1:  # one rename is old or new by itself
        try:
            _flush(files, changes[0][1])
        except BaseException:
            _discard(files, changes)
            raise
        _apply(files, changes)
        sync_folder(files.path(changes[0][0]).parent)
        return
    record = json.dumps([[target, temp] for target, temp in changes]).encode("ascii")
    journal = location(files.top)
    try:
        sync_all()  # the temporary files' data, before the journal that names them
        journal.parent.mkdir(exist_ok=True)
        write_atomic(journal, record + b"\n")
        _apply(files, changes)
        _finish(files, journal)
    except BaseException:
        # A Ctrl-C once the journal is there: finish the renames it lists, so that the
        # folder is new as a whole; before it: the folder is old, and the temporary
        # files go. A SIGKILL leaves either to the next writer.
        if not roll_forward(files):
            _discard(files, changes)
        raise


def _discard(files: Confined, changes: Sequence[Change]) -> None:
    for _, temp in changes:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(files.path(temp))


def roll_forward(files: Confined) -> bool:
    """Finish the renames a killed writer's journal lists; whether there was one. Call
    it holding the lock, before reading the folder."""
    journal = location(files.top)
    changes = _read(files, journal)
    if changes is None:
        return False
    _apply(files, changes)
    _finish(files, journal)
    return True


def pending(folder: Path) -> bool:
    journal = location(folder)
    _refuse_foreign(folder, journal)
    return os.path.lexists(journal)


def wait_or_report(folder: Path, label: str, *, writer: Callable[[], bool], wait: float) -> None:
    """A reader's check: a journal that a live writer is finishing goes within ``wait``
    seconds; one that stays, or that no writer holds the lock for, is an interrupted
    write to report."""
    deadline = time.monotonic() + wait
    while pending(folder):
        if not writer() or time.monotonic() > deadline:
            raise ManifestError(
                f"{label}: an update was interrupted while it replaced shards "
                f"({location(folder)} lists them); run `chunkgate update` to finish it"
            )
        time.sleep(0.05)


def _refuse_foreign(folder: Path, journal: Path) -> None:
    # A journal in the folder of a repository came with the repository.
    inside = folder / JOURNAL
    if journal != inside and os.path.lexists(inside):
        found = git_directory(folder.parent)
        label = inside.relative_to(found[0]).as_posix() if found else inside
        raise ManifestError(
            f"{label}: a journal inside the manifest folder is never replayed (chunkgate "
            f"keeps its own in the git directory); delete it and commit the deletion"
        )


def _read(files: Confined, journal: Path) -> list[Change] | None:
    _refuse_foreign(files.top, journal)
    try:
        data = journal.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ManifestError(f"{journal}: cannot read: {exc.strerror}") from None
    try:
        record = json.loads(data)
        changes = [(str(target), None if temp is None else str(temp)) for target, temp in record]
    except (ValueError, TypeError):
        # Written atomically, so never torn: a journal that does not parse is not ours.
        raise ManifestError(
            f"{journal}: not a chunkgate journal; remove it and run `chunkgate update`"
        ) from None
    for change in changes:
        if not _ours(files, *change):
            raise ManifestError(
                f"{journal}: names {change[0]!r} and {change[1]!r}, not a shard of "
                f"{files.label} and its temporary file; delete the journal and run "
                "`chunkgate update`"
            )
    return changes


def _ours(files: Confined, target: str, temp: str | None) -> bool:
    """Whether a change is one chunkgate makes: a shard (or the header) replaced by its
    own temporary file beside it, or removed; no symlink anywhere on the way."""
    folder, _, name = target.rpartition("/")
    if not (name.endswith(SUFFIX) or target == HEADER):
        return False
    try:
        if not files.is_file(target) and os.path.lexists(files.path(target)):
            return False  # only a regular file is replaced
        if temp is None:
            return True
        temp_folder, _, temp_name = temp.rpartition("/")
        if temp_folder != folder or temporary_of(temp_name) != name:
            return False
        # Gone: that rename was made. There: a regular file of its own.
        return files.is_file(temp) or not os.path.lexists(files.path(temp))
    except ManifestError:  # a symlink, or not a plain path
        return False


def _apply(files: Confined, changes: Sequence[Change]) -> None:
    # Each step is idempotent: a rename whose temporary file is gone was made.
    for target, temp in changes:
        if temp is None:
            files.remove(target)
        elif os.path.lexists(files.path(temp)):
            try:
                os.replace(files.path(temp), files.path(target))
            except OSError as exc:
                raise naming(exc, files.path(target)) from None


def _flush(files: Confined, temp: str | None) -> None:
    if temp is None:
        return
    fd = os.open(files.path(temp), os.O_RDONLY)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fsync(fd)
    finally:
        os.close(fd)


def _finish(files: Confined, journal: Path) -> None:
    sync_all()  # the renames, before the journal that would redo them goes
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)
    sync_folder(files.top)
