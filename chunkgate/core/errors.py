"""The one exception tree. Only the CLI turns these into exit codes."""

from __future__ import annotations

import errno
import os


class ChunkgateError(Exception):
    """Any error chunkgate reports to the user instead of a traceback (exit 2)."""


class ConfigError(ChunkgateError):
    """The configuration is invalid: names the file, the key and what is allowed."""


class GitError(ChunkgateError):
    """A git command failed or a revision does not exist."""


class ManifestError(ChunkgateError):
    """The manifest is corrupt, merge-conflicted or of an unknown format."""


class UnreadableError(ChunkgateError):
    """A file is binary or cannot be decoded; the message names the file."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


_FIXES = {
    "ENOSPC": "free some disk space and run again",
    "EDQUOT": "free some space within your disk quota and run again",
    "EROFS": "the file system is read-only: run where it is writable, or without writing "
    "(`chunkgate check` with no --update)",
    "EACCES": "give your user permission to it, or run where it has",
    "EPERM": "give your user permission to it, or run where it has",
    "EISDIR": "it is a folder: name a file",
    "ENOTDIR": "a part of the path is a file, not a folder: fix the path",
    "ELOOP": "a symlink loop: fix or remove the symlink",
    "ENAMETOOLONG": "shorten the path",
    "EMFILE": "raise the open-files limit (ulimit -n) and run again",
}


def os_error_message(exc: OSError) -> str:
    """One line for an error the environment caused: the file, what happened, the fix."""
    name = errno.errorcode.get(exc.errno or 0, "")
    what = exc.strerror or str(exc) or type(exc).__name__
    named = isinstance(exc.filename, (str, bytes, os.PathLike))
    where = os.fsdecode(exc.filename) if named else ""
    fix = _FIXES.get(name, "")
    text = f"{where}: {what}" if where else what
    return f"{text} ({fix})" if fix else text
