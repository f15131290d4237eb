from __future__ import annotations

from pathlib import Path

import pytest

from chunkgate.chunking import chunk_document
from chunkgate.config.model import Config
from chunkgate.rules import identity
from chunkgate.rules.base import FileContext, Finding


def _findings(tmp_path: Path, text: str, path: str = "docs/guide.md") -> list[Finding]:
    config = Config(root=tmp_path)
    chunked = chunk_document(text, path, options=config.chunking)
    file = FileContext(path, len(text.encode()), text, chunked.chunks, config, chunked.problems)
    return list(identity.check(file))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "## Install {#setup}\n\nRun pip.\n\n## Configure {#setup}\n\nEdit the file.\n",
            [(5, "chunk ID '#setup' is already used by the section at line 1")],
            id="explicit-id-repeated",
        ),
        pytest.param(
            "## Install\n\nRun pip.\n\n## Setup {#install}\n\nEdit the file.\n",
            [(5, "chunk ID '#install' is already used by the section at line 1")],
            id="explicit-id-takes-an-anchor",
        ),
        pytest.param(
            "## Setup {#install}\n\nEdit the file.\n\n## Install\n\nRun pip.\n",
            [(5, "chunk ID '#install' is already used by the section at line 1")],
            id="anchor-takes-an-explicit-id",
        ),
        pytest.param(
            "# A {#x}\n\none\n\n# B {#x}\n\ntwo\n\n# C { #x }\n\nthree\n",
            [
                (5, "chunk ID '#x' is already used by the section at line 1"),
                (9, "chunk ID '#x' is already used by the section at line 1"),
            ],
            id="every-later-copy-names-the-first",
        ),
    ],
)
def test_fires(tmp_path: Path, text: str, expected: list[tuple[int, str]]) -> None:
    findings = _findings(tmp_path, text)
    assert [(f.line, f.message) for f in findings] == expected
    for finding in findings:
        assert finding.code == "CG101"
        assert finding.fix == "give the heading a unique {#id} or rename it"
        assert finding.chunk is not None
        assert finding.chunk.start_line == finding.line


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("## Setup\n\none\n\n## Setup\n\ntwo\n", id="github-numbers-repeats"),
        pytest.param("## A {#a}\n\none\n\n## B {#b}\n\ntwo\n", id="distinct-explicit-ids"),
        pytest.param("Intro.\n\n# Preamble\n\nText.\n", id="preamble-and-its-slug"),
    ],
)
def test_no_op(tmp_path: Path, text: str) -> None:
    assert _findings(tmp_path, text) == []


def test_python_overloads_are_one_chunk(tmp_path: Path) -> None:
    text = (
        "from typing import overload\n\n\n"
        "@overload\ndef f(x: int) -> int: ...\n\n\n"
        "@overload\ndef f(x: str) -> str: ...\n\n\n"
        "def f(x):\n    return x\n"
    )
    assert _findings(tmp_path, text, "src/f.py") == []
