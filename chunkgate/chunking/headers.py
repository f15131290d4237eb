"""The header of a code file: lines at its top that no ingest embeds.

``# Copyright (c) 2016 ...`` and the license paragraphs below it say nothing
about the code, are the same in every file of a project, and would make each
file's first chunk match every question about licensing; a good ingest strips
them like front matter, and the ``#!`` line and coding cookie above them. The
header is those two lines and the run of comment blocks below them that each
name a copyright or a license; the first comment block that does not
(``# Parse the config file.``) is the code's own comment and ends the header.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunkgate.core.regex import lazy

# A comment block is a license header when it claims a copyright or an SPDX
# license, or names a license together with its legal terms.
_COPYRIGHT = lazy(
    r"copyright|\(c\)\s*\d{4}|©|spdx-license-identifier|all rights reserved", re.IGNORECASE
)
_LICENSE = lazy(r"licen[cs]", re.IGNORECASE)
_TERMS = lazy(
    r"warrant|permission|terms|distribut|gnu|apache|\bmit\b|\bbsd\b|mozilla|public domain",
    re.IGNORECASE,
)
_SHEBANG_OR_COOKIE = lazy(r"#!|[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")  # PEP 263


def header_lines(lines: Sequence[str]) -> int:
    """How many lines at the top of a Python file are its header (0: none)."""
    index = 0
    # A shebang and a coding cookie sit on the first two lines (PEP 263).
    while index < min(2, len(lines)) and _SHEBANG_OR_COOKIE.match(lines[index]):
        index += 1
    end = index
    while True:
        while index < len(lines) and not lines[index].strip():
            index += 1
        start = index
        while index < len(lines) and lines[index].lstrip(" \t\f").startswith("#"):
            index += 1
        if index == start or not _is_license(lines[start:index]):
            return end
        end = index


def _is_license(block: Sequence[str]) -> bool:
    text = "\n".join(block)
    return bool(_COPYRIGHT.search(text)) or bool(_LICENSE.search(text) and _TERMS.search(text))
