from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from chunkgate.chunking import chunk_document
from chunkgate.config.model import Config
from chunkgate.rules import datadump
from chunkgate.rules.base import FileContext, Finding

# Deterministic bytes that look random, as compressed or image data does.
_DATA = b"".join(hashlib.sha256(bytes([n])).digest() for n in range(64))
_B64 = base64.b64encode(_DATA).decode()
_PROSE = (
    "Tables are fine when they are small: a handful of rows that compare options "
    "or list settings, each with a sentence of explanation.\n"
)


def _findings(tmp_path: Path, text: str, path: str = "docs/data.md") -> list[Finding]:
    config = Config(root=tmp_path)
    chunked = chunk_document(text, path, options=config.chunking)
    file = FileContext(path, len(text.encode()), text, chunked.chunks, config, chunked.problems)
    return list(datadump.check(file))


def _table(rows: int) -> str:
    head = "| name | value | unit |\n|---|---|---|\n"
    return head + "".join(f"| item {n} | {n * 7} | ms |\n" for n in range(rows))


def _pem(lines: int) -> str:
    wrapped = base64.b64encode(_DATA * 2).decode()
    body = "\n".join(wrapped[i : i + 64] for i in range(0, 64 * lines, 64))
    return f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----"


def test_file_over_max_file_bytes(tmp_path: Path) -> None:
    config = Config(root=tmp_path)
    file = FileContext("docs/dump.md", 52_428_800, None, (), config)
    (finding,) = datadump.check(file)
    assert (finding.code, finding.line, finding.chunk) == ("CG305", 1, None)
    assert finding.message == "file is 52,428,800 bytes, over max_file_bytes 1,000,000"
    assert finding.fix == (
        'move the data out of the docs, or exclude it in .chunkgate.yaml: exclude: ["docs/dump.md"]'
    )


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        pytest.param(
            f"# Logo\n\n{_PROSE}\n![logo](data:image/png;base64,{_B64})\n",
            5,
            "data: URI of 2,754 chars",
            id="data-uri",
        ),
        pytest.param(
            f"# Payload\n\n{_PROSE}\n```\n{_B64}\n```\n",
            6,
            "2,732 chars of base64/hex",
            id="base64",
        ),
        pytest.param(
            f"# Digest\n\n{_PROSE}\n    {_DATA.hex()}\n", 5, "4,096 chars of base64/hex", id="hex"
        ),
        pytest.param(
            f"# Certificate\n\n{_PROSE}\n```\n{_pem(20)}\n```\n",
            7,
            "1,300 chars of encoded lines",
            id="wrapped-base64",
        ),
        pytest.param(
            f"# Results\n\n{_PROSE}\n{_table(60)}", 5, "62 table rows of data", id="table"
        ),
        pytest.param(
            "# Samples\n\n```csv\n"
            + "".join(f"{n},{n * 3},{n % 7},sample-{n}\n" for n in range(80))
            + "```\n",
            4,
            "80 CSV lines of data",
            id="csv",
        ),
        pytest.param(
            "# Embedding\n\n```python\nvector = ["
            + ", ".join(f"{(n * 37 % 1000) / 1000 - 0.5:.4f}" for n in range(768))
            + "]\n```\n",
            4,
            "768 numbers",
            id="numbers",
        ),
    ],
)
def test_fires_on_a_chunk(tmp_path: Path, text: str, line: int, message: str) -> None:
    (finding,) = _findings(tmp_path, text)
    assert (finding.code, finding.line, finding.message) == ("CG305", line, message)
    assert finding.chunk is not None
    assert finding.fix == "move the data out of the docs (link the file or show a few rows)"


def test_python_data_module(tmp_path: Path) -> None:
    text = (
        '"""Lookup table."""\n\nTABLE = [\n'
        + "".join(f"    ({n}, {n * n}, {n * 3 % 11}),\n" for n in range(60))
        + "]\n"
    )
    (finding,) = _findings(tmp_path, text, "src/table.py")
    assert (finding.line, finding.message) == (4, "60 CSV lines of data")
    assert finding.chunk is not None


def test_a_csv_text_file_is_data(tmp_path: Path) -> None:
    text = "id,name,score\n" + "".join(f"{n},user{n},{n * 13 % 100}\n" for n in range(300))
    (finding,) = _findings(tmp_path, text, "data/scores.txt")
    assert (finding.line, finding.message, finding.chunk) == (
        1,
        "the file is data: 301 CSV lines of data",
        None,
    )
    assert finding.fix == 'exclude it in .chunkgate.yaml: exclude: ["data/scores.txt"]'


def test_a_blob_inside_a_text_file_names_its_window(tmp_path: Path) -> None:
    prose = "".join(f"Paragraph {n}. " + _PROSE + "\n" for n in range(30))
    text = prose + _B64 + "\n\n" + prose
    (finding,) = _findings(tmp_path, text, "notes.txt")
    assert finding.message == "2,732 chars of base64/hex"
    assert finding.line == prose.count("\n") + 1
    assert finding.chunk is not None
    assert finding.chunk.start_line <= finding.line <= finding.chunk.end_line


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"# Results\n\n{_PROSE}\n{_table(20)}", id="small-table"),
        pytest.param(
            "# Token\n\nA JWT looks like this:\n\n```\n"
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJqb2huZG9lIiwiZXhwIjoxNzAwMDAwMDAwfQ."
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n```\n",
            id="jwt",
        ),
        pytest.param(
            "# Icon\n\n![dot](data:image/gif;base64,R0lGODlhAQABAAAAACw=)\n", id="tiny-data-uri"
        ),
        pytest.param(f"# Certificate\n\n{_pem(5)}\n", id="short-pem"),
        pytest.param("# Prose\n\n" + _PROSE * 40, id="prose"),
        pytest.param(
            "# Versions\n\n"
            + "".join(f"- {n}.{n % 4}.0: fixes, speedups, docs\n" for n in range(60)),
            id="list-with-two-commas",
        ),
        pytest.param(
            "# Years\n\n"
            + " ".join(f"In {1900 + n} the team shipped release {n}." for n in range(150)),
            id="numbers-in-prose",
        ),
        pytest.param(
            "# Operators\n\n| operator | meaning | example |\n|---|---|---|\n"
            + "".join(
                f"| `op{n}` | applies the {n}th rule to both sides | `a op{n} b` |\n"
                for n in range(80)
            ),
            id="reference-table-of-words",
        ),
        pytest.param(
            "# Emoji\n\n| ico | shortcode |\n| :-: | - |\n"
            + "".join(f"| :flag_{n}: | `:flag_{n}:` |\n" for n in range(120)),
            id="table-of-shortcodes",
        ),
        pytest.param(
            "# Libraries\n\n| library | version | async |\n|---|---|---|\n"
            + "".join(f"| Library{n} for databases | 4.{n} | yes |\n" for n in range(60)),
            id="supported-libraries",
        ),
        pytest.param("", id="empty"),
    ],
)
def test_no_op(tmp_path: Path, text: str) -> None:
    assert _findings(tmp_path, text) == []


def test_a_table_of_data_split_into_parts_is_found_in_its_section(tmp_path: Path) -> None:
    # 120 rows are several parts of the section; the finding names the first.
    text = f"# Results\n\n{_PROSE}\n| run | ms | rss |\n|---|---|---|\n" + "".join(
        f"| {n} | {n * 7}.{n % 10} | {n * 1024} |\n" for n in range(120)
    )
    chunks = chunk_document(text, "docs/data.md").chunks
    assert len(chunks) >= 2
    (finding,) = _findings(tmp_path, text)
    assert (finding.line, finding.message) == (5, "122 table rows of data")
    assert finding.chunk is not None
    assert finding.chunk.start_line <= finding.line <= finding.chunk.end_line
