"""A rich console for one stream (NO_COLOR honoured by rich itself)."""

from __future__ import annotations

from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def make_console(stream: IO[str]) -> Console:
    from rich.console import Console

    return Console(file=stream, highlight=False, soft_wrap=False)
