"""Rendering. Only this package imports rich, and only when a terminal view is asked for."""

from __future__ import annotations

import os
from typing import IO


def is_terminal(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def resolve_format(fmt: str, stream: IO[str], *, github: bool = True) -> str:
    """``auto``: ``github`` under GitHub Actions, ``rich`` on a terminal, else ``text``."""
    if fmt != "auto":
        return fmt
    if github and os.environ.get("GITHUB_ACTIONS") == "true":
        return "github"
    return "rich" if is_terminal(stream) else "text"
