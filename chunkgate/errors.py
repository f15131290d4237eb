"""The one exception tree. Only the CLI turns these into exit codes."""

from __future__ import annotations


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
