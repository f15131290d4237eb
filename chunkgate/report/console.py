"""A rich console for one stream (NO_COLOR honoured by rich itself)."""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

from chunkgate.report.printable import printable

if TYPE_CHECKING:
    from rich.console import Console


def make_console(stream: IO[str], **options: Any) -> Console:
    """A console whose strings (cells, titles, ``print`` arguments) show control
    characters as escapes (``report.printable``); ``Text`` built by hand needs
    ``printable`` itself."""
    # rich takes tens of ms to import: only terminal output needs it
    from rich.console import Console
    from rich.text import Text  # rich: terminal output only

    class _Printable(Console):
        def render_str(self, text: str, **kwargs: Any) -> Text:
            return super().render_str(printable(text), **kwargs)

    return _Printable(file=stream, highlight=False, soft_wrap=False, **options)
