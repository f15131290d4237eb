"""The action's inputs, as ``action.yml`` passes them: environment variables only.

| variable | input | meaning |
|---|---|---|
| ``CHUNKGATE_FAIL_ON`` | ``fail-on`` | ``diff --fail-on`` list (default ``unstable``) |
| ``CHUNKGATE_CONFIG`` | ``config`` | a config file, else the repository's own |
| ``CHUNKGATE_SARIF_FILE`` | ``sarif-file`` | also write ``check``'s SARIF report here |
| ``CHUNKGATE_SARIF_CATEGORY`` | ``sarif-category`` | the SARIF run's category |
| ``CHUNKGATE_CHECK`` | ``check`` | run ``check`` (``true``/``false``) |
| ``CHUNKGATE_DIFF`` | ``diff`` | run ``diff`` (``true``/``false``) |
| ``CHUNKGATE_BASE`` | ``base`` | the diff's base instead of ``auto`` |
| ``CHUNKGATE_SITE`` | ``site`` | the built site's folder: CG404 against its pages (``--site``) |
| ``CHUNKGATE_ARGS`` | ``args`` | more ``chunkgate check`` arguments (paths, ``--jobs``) |
| ``CHUNKGATE_FAIL_ON_ERROR`` | ``fail-on-error`` | ``false``: report only, the step passes |
| ``CHUNKGATE_WORKING_DIRECTORY`` | ``working-directory`` | where the repository is checked out |
| ``CHUNKGATE_GITHUB_TOKEN`` | ``github-token`` | set: keep a pull request comment with the diff |

Relative paths (``config``, ``sarif-file``, ``site``) are relative to ``working-directory``.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import ChunkgateError


class Inputs(NamedTuple):
    fail_on: str = "unstable"
    config: Path | None = None
    sarif_file: Path | None = None
    sarif_category: str = ""
    check: bool = True
    diff: bool = True
    base: str = ""
    args: tuple[str, ...] = ()
    fail_on_error: bool = True
    working_directory: str = ""
    github_token: str = ""
    site: Path | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Inputs:
        def flag(name: str) -> bool:
            value = env.get(name, "true").strip().lower()
            if value not in ("true", "false", ""):
                raise ChunkgateError(f"{name}: expected true or false, got {value!r}")
            return value != "false"

        def text(name: str) -> str:
            return env.get(name, "").strip()

        working = text("CHUNKGATE_WORKING_DIRECTORY")
        within = Path(working) if working else Path()

        def path(name: str) -> Path | None:
            value = text(name)
            return within / value if value else None

        try:
            args = tuple(shlex.split(env.get("CHUNKGATE_ARGS", "")))
        except ValueError as exc:
            raise ChunkgateError(f"CHUNKGATE_ARGS: {exc}") from None
        base = text("CHUNKGATE_BASE")
        if base.startswith("-") or any(c.isspace() for c in base):
            raise ChunkgateError(f"CHUNKGATE_BASE: not a revision: {base!r}")
        return cls(
            fail_on=env.get("CHUNKGATE_FAIL_ON", "unstable"),
            config=path("CHUNKGATE_CONFIG"),
            sarif_file=path("CHUNKGATE_SARIF_FILE"),
            sarif_category=text("CHUNKGATE_SARIF_CATEGORY"),
            check=flag("CHUNKGATE_CHECK"),
            diff=flag("CHUNKGATE_DIFF"),
            base="" if base == "auto" else base,
            args=args,
            fail_on_error=flag("CHUNKGATE_FAIL_ON_ERROR"),
            working_directory=working,
            github_token=text("CHUNKGATE_GITHUB_TOKEN"),
            site=path("CHUNKGATE_SITE"),
        )

    def root(self) -> Path:
        return (Path.cwd() / self.working_directory).resolve()

    @property
    def comment_key(self) -> str:
        """Tells this run's pull request comment from another folder's."""
        return self.working_directory.strip("/")


def not_a_repository(root: Path) -> str:
    """The error for a working directory outside any git repository, with the fix."""
    found: list[str] = []
    with suppress(OSError):
        found = sorted(entry.name for entry in os.scandir(root) if (Path(entry) / ".git").exists())
    message = f"not a git repository: {root}"
    if found:
        return (
            f"{message}; actions/checkout put one in {found[0]} (its `path:`): "
            f"set the action's `working-directory: {found[0]}`"
        )
    return (
        f"{message}; check the repository out first (actions/checkout), and when its `path:` "
        "puts it elsewhere, set the action's `working-directory` to that path"
    )
