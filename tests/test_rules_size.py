from __future__ import annotations

from pathlib import Path

import pytest

from chunkgate.chunking import ChunkOptions, chunk_document
from chunkgate.config import Config
from chunkgate.rules import size
from chunkgate.rules.base import FileContext, Finding

_PARAGRAPH = (
    "Install the package with pip. You need Python 3.10 or newer and a C compiler "
    "for the optional speedups. On Windows, use the wheels from the release page.\n"
)


def _findings(tmp_path: Path, text: str, path: str, **options: object) -> list[Finding]:
    config = Config(root=tmp_path, chunking=ChunkOptions(**options))  # type: ignore[arg-type]
    chunked = chunk_document(text, path, options=config.chunking)
    file = FileContext(path, len(text.encode()), text, chunked.chunks, config, chunked.problems)
    return list(size.check(file))


def _function(name: str, lines: int) -> str:
    body = "".join(f"    total += {n}\n" for n in range(lines))
    return f"def {name}():\n    total = 0\n{body}    return total\n"


@pytest.mark.parametrize(
    ("text", "path", "options", "expected"),
    [
        pytest.param(
            "# Guide\n\n" + _PARAGRAPH * 3,
            "docs/guide.md",
            {"max": 300},
            ("CG201", 1, "section is 470 chars, over size.max 300", "add a subheading to split it"),
            id="section",
        ),
        pytest.param(
            _PARAGRAPH * 3 + "\n# Guide\n\nText.\n",
            "docs/guide.md",
            {"max": 300, "min": 0},
            (
                "CG201",
                1,
                "preamble is 461 chars, over size.max 300",
                "move the introduction under a heading or shorten it",
            ),
            id="preamble",
        ),
        pytest.param(
            "# Example\n\n```python\n" + "print('hello, world')\n" * 20 + "```\n",
            "docs/example.md",
            {"max": 300},
            (
                "CG201",
                1,
                "section is 464 chars, over size.max 300",
                "shorten the code block or link to the full file (a code block is never split)",
            ),
            id="code-heavy-section",
        ),
        pytest.param(
            _function("total", 30),
            "src/total.py",
            {"max": 300},
            (
                "CG201",
                1,
                "function is 513 chars, over size.max 300",
                "split the function into smaller functions",
            ),
            id="function",
        ),
        pytest.param(
            "class Totals:\n"
            + "".join("    " + line + "\n" for line in _function("add", 20).splitlines()),
            "src/totals.py",
            {"max": 300, "split_classes": False},
            (
                "CG201",
                1,
                "class is 457 chars, over size.max 300",
                "set python: {split_classes: true} to chunk it per method, or split the class",
            ),
            id="class-not-split",
        ),
        pytest.param(
            "# Guide\n\n" + _PARAGRAPH * 3,
            "docs/guide.md",
            {"max": 100, "unit": "tokens"},
            (
                "CG201",
                1,
                "section is 118 tokens, over size.max 100",
                "add a subheading to split it",
            ),
            id="tokens",
        ),
        pytest.param(
            "# Guide\n\n" + _PARAGRAPH + "\n## Notes\n\nSee above.\n",
            "docs/guide.md",
            {},
            (
                "CG202",
                5,
                "section is 20 chars, under size.min 40",
                "merge it with its neighbour section or add content",
            ),
            id="undersized-section",
        ),
        pytest.param(
            "class Totals:\n"
            + "".join(
                f"    {line}\n" for line in (_function("add", 8) + _function("sub", 8)).splitlines()
            ),
            "src/totals.py",
            {"max": 300},
            (
                "CG202",
                1,
                "class is 13 chars, under size.min 40",
                "add a class docstring that says what the class is for",
            ),
            id="undersized-class-head",
        ),
        pytest.param(
            "Hi.\n\n# Guide\n\n" + _PARAGRAPH,
            "docs/guide.md",
            {},
            (
                "CG202",
                1,
                "preamble is 3 chars, under size.min 40",
                "move the introduction under the first heading or add content",
            ),
            id="undersized-preamble",
        ),
    ],
)
def test_fires(
    tmp_path: Path,
    text: str,
    path: str,
    options: dict[str, object],
    expected: tuple[str, int, str, str],
) -> None:
    (finding,) = _findings(tmp_path, text, path, **options)
    assert (finding.code, finding.line, finding.message, finding.fix) == expected
    assert finding.chunk is not None
    assert finding.chunk.start_line == finding.line


@pytest.mark.parametrize(
    ("text", "path", "options"),
    [
        pytest.param("# Guide\n\n" + _PARAGRAPH, "docs/guide.md", {}, id="within-limits"),
        pytest.param(
            "# Guide\n\n" + _PARAGRAPH * 3, "docs/guide.md", {"max": 470}, id="exactly-max"
        ),
        pytest.param("# A\n\nB\n", "docs/tiny.md", {"min": 0}, id="min-zero-is-off"),
        pytest.param(
            "# Guide\n\nabcdefghijklmnopqrstuvwxyzabcde\n", "docs/g.md", {}, id="exactly-min"
        ),
        pytest.param(
            'class Totals:\n    """Running totals of the numbers seen so far."""\n\n'
            + "".join(
                f"    {line}\n" for line in (_function("add", 8) + _function("sub", 8)).splitlines()
            ),
            "src/totals.py",
            {"max": 300},
            id="class-split-into-methods",
        ),
    ],
)
def test_no_op(tmp_path: Path, text: str, path: str, options: dict[str, object]) -> None:
    assert _findings(tmp_path, text, path, **options) == []
