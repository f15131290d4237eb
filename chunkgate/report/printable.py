"""Text from the corpus made safe to print on a terminal.

File names, headings and chunk texts are the corpus author's: an ESC or OSC
sequence in them would clear the screen, retitle the window or fake output,
and a NUL or BEL is no better. Every control character but newline and tab
(C0, DEL and C1) is shown as its ``\\xNN`` escape instead. Data formats (JSON,
SARIF) escape control characters themselves and are left alone.
"""

from __future__ import annotations

import re

from chunkgate.core.regex import lazy

_CONTROL = lazy(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escaped(found: re.Match[str]) -> str:
    return f"\\x{ord(found[0]):02x}"


def printable(text: str) -> str:
    return _CONTROL.sub(_escaped, text) if _CONTROL.search(text) else text
