"""Files under the manifest folder, confined to it: a symlink there is never followed.

The folder is committed, so what is in it is the repository's content, and a
repository someone else wrote may hold a symlink there (``docs -> /elsewhere``).
Before chunkgate reads, writes, renames or deletes a file under the folder,
each folder between the two is checked with ``lstat``; the file is opened
without following a symlink where the OS can (``O_NOFOLLOW``), and only
regular files are replaced. A writer replaces a symlinked folder with a real
one (the link goes; what it pointed to is left as it was); a reader reports it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from chunkgate.core.errors import ManifestError
from chunkgate.corpus.paths import problem
from chunkgate.manifest.kinds import ManifestSyntaxError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_BINARY", 0)


class SymlinkError(ManifestSyntaxError):
    """A symlink where the manifest folder holds its own folders and files: reported as
    a corrupt shard is (CG401), which ``update`` rewrites."""

    def __init__(self, label: str) -> None:
        what = (
            "a symlink in the manifest folder; chunkgate never follows one (run "
            "`chunkgate update`: it replaces the link with a real file or folder)"
        )
        super().__init__(label, 1, what)


class Confined:
    """The manifest folder ``top``, named ``label`` in messages."""

    def __init__(self, top: Path, label: str, *, writing: bool = False) -> None:
        self.top, self.label, self.writing = top, label, writing
        # Folders (relative to top) seen to be real folders in this run: each is checked
        # once, not once per shard in it.
        self._real: set[str] = set()

    def path(self, name: str, *, create: bool = False) -> Path:
        """``top/name`` once every folder on the way is a real folder; a symlink raises
        ``SymlinkError``, unless this is a writer's, which replaces it with a real folder.
        ``create``: missing folders are made."""
        reason = problem(name)
        if reason is not None:
            raise ManifestError(f"{self.label}/{name!r} {reason}")
        parent = name.rpartition("/")[0]
        if parent not in self._real:
            self._settle(parent, create=create)
        return self.top / name

    def _settle(self, folder: str, *, create: bool) -> None:
        if "" not in self._real:
            # The folder itself was checked when the run took its name (``paths.allowed``).
            if create:
                self.top.mkdir(parents=True, exist_ok=True)
            elif not self.top.is_dir():
                return
            self._real.add("")
        done = ""
        for part in filter(None, folder.split("/")):
            done = f"{done}/{part}" if done else part
            if done in self._real:
                continue
            full = self.top / done
            try:
                mode = os.lstat(full).st_mode
            except FileNotFoundError:
                if not create:
                    return  # nothing there to follow: a reader finds no file
                full.mkdir()
                mode = stat.S_IFDIR
            if stat.S_ISLNK(mode):
                if not self.writing:
                    raise SymlinkError(f"{self.label}/{done}")
                os.unlink(full)  # the link itself; where it points is not touched
                full.mkdir()
            elif not stat.S_ISDIR(mode):
                raise ManifestError(
                    f"{self.label}/{done}: a file where the manifest keeps a folder of "
                    "shards; remove it and run `chunkgate update`"
                )
            self._real.add(done)

    def read(self, name: str) -> bytes | None:
        """The bytes of the regular file ``name``; None when there is none (a writer's:
        nor when it is a symlink, which the writer replaces with a file)."""
        full = self.path(name)
        if not _NOFOLLOW and os.path.islink(full):  # no O_NOFOLLOW (Windows): ask first
            if self.writing:
                return None
            raise SymlinkError(f"{self.label}/{name}")
        try:
            fd = os.open(full, _READ)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                if self.writing:
                    return None
                raise SymlinkError(f"{self.label}/{name}") from None
            raise self._unreadable(name, exc.strerror) from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # a folder opens too
            os.close(fd)
            raise self._unreadable(name, "Is a directory" if stat.S_ISDIR(mode) else "not a file")
        with os.fdopen(fd, "rb") as file:
            return file.read()

    def _unreadable(self, name: str, reason: str | None) -> ManifestError:
        return ManifestError(
            f"{self.label}/{name}: cannot read: {reason} (remove it, or make it a readable "
            "file, and run `chunkgate update`)"
        )

    def is_file(self, name: str) -> bool:
        """Whether ``name`` is a regular file (not a symlink), its folders real ones."""
        try:
            return stat.S_ISREG(os.lstat(self.path(name)).st_mode)
        except FileNotFoundError:
            return False

    def remove(self, name: str) -> None:
        """Delete the file ``name`` (a symlink itself, never what it points to), and the
        folders it leaves empty up to the manifest folder."""
        full = self.path(name)
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISDIR(os.lstat(full).st_mode):
                raise ManifestError(
                    f"{self.label}/{name}: a folder where a shard goes; remove it and run "
                    "`chunkgate update`"
                )
            os.unlink(full)
        folder = name.rpartition("/")[0]
        while folder:
            try:
                os.rmdir(self.top / folder)
            except OSError:  # not empty, or gone
                return
            self._real.discard(folder)
            folder = folder.rpartition("/")[0]
