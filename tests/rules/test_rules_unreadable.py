from __future__ import annotations

from pathlib import Path

import pytest

from chunkgate.chunking import chunk_bytes
from chunkgate.config.model import Config
from chunkgate.core.errors import UnreadableError
from chunkgate.rules import unreadable
from chunkgate.rules.base import FileContext, Finding


def _findings(tmp_path: Path, data: bytes, path: str) -> list[Finding]:
    config = Config(root=tmp_path)
    try:
        chunked = chunk_bytes(data, path, options=config.chunking)
    except UnreadableError as exc:
        file = FileContext(path, len(data), None, (), config, unreadable=exc.reason)
    else:
        text = data.decode("utf-8", "replace")
        file = FileContext(path, len(data), text, chunked.chunks, config, chunked.problems)
    return list(unreadable.check(file))


@pytest.mark.parametrize(
    ("data", "path", "expected"),
    [
        pytest.param(
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "docs/logo.md",
            (
                1,
                "cannot read the file: binary file (contains NUL bytes)",
                'exclude it in .chunkgate.yaml: exclude: ["docs/logo.md"]',
            ),
            id="binary",
        ),
        pytest.param(
            b"# Caf\xe9\n\nLatin-1, not UTF-8.\n",
            "docs/cafe.md",
            (
                1,
                "cannot read the file: not valid UTF-8: byte 0xe9 at line 1, column 6",
                're-save it as UTF-8, or exclude it in .chunkgate.yaml: exclude: ["docs/cafe.md"]',
            ),
            id="bad-utf8",
        ),
        pytest.param(
            b"import os\n\n\ndef greet(name)\n    return name\n",
            "src/greet.py",
            (
                4,
                "Python syntax error: expected ':'; chunked as plain text",
                "fix the syntax error, or exclude the file",
            ),
            id="python-syntax-error",
        ),
    ],
)
def test_fires(tmp_path: Path, data: bytes, path: str, expected: tuple[int, str, str]) -> None:
    (finding,) = _findings(tmp_path, data, path)
    assert finding.code == "CG001"
    assert (finding.line, finding.message, finding.fix) == expected
    assert finding.chunk is None


@pytest.mark.parametrize(
    ("data", "path"),
    [
        pytest.param(b"# Caf\xc3\xa9\n\nUTF-8.\n", "docs/cafe.md", id="utf8-markdown"),
        pytest.param(b"\xef\xbb\xbf# BOM\n\nText.\n", "docs/bom.md", id="utf8-bom"),
        pytest.param(b"def greet(name):\n    return name\n", "src/greet.py", id="valid-python"),
        pytest.param(
            b"# -*- coding: latin-1 -*-\nNAME = 'caf\xe9'\n", "src/cafe.py", id="coding-cookie"
        ),
    ],
)
def test_no_op(tmp_path: Path, data: bytes, path: str) -> None:
    assert _findings(tmp_path, data, path) == []
