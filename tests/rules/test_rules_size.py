from __future__ import annotations

from pathlib import Path

import pytest

from chunkgate.chunking import ChunkOptions, chunk_document
from chunkgate.config.model import Config
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


_FENCE = "```text\n" + "INFO  Started server process [27365] " * 10 + "\n```\n"


@pytest.mark.parametrize(
    ("text", "path", "options", "expected"),
    [
        pytest.param(
            "# Output\n\n" + _PARAGRAPH + "\n" + _FENCE,
            "docs/guide.md",
            {"max": 300},
            (
                "CG201",
                5,
                "section part 2 of 2 is 382 chars, over size.max 300: its fenced code block "
                "(lines 5-7, 382 chars) cannot be split (within the hard limit 8,192 tokens)",
                "shorten the line, or move the code to a file and link it; "
                "or raise size.max if your embedding model takes larger chunks",
            ),
            id="unsplittable-fence",
        ),
        pytest.param(
            "# Cards\n\n<Grid>\n  <Card>\n"
            + "    A sentence about the card.\n" * 12
            + "  </Card>\n  <Card>Short.</Card>\n</Grid>\n",
            "docs/cards.mdx",
            {"max": 300},
            (
                "CG201",
                1,
                "section part 1 of 2 is 406 chars, over size.max 300: its HTML element "
                "(lines 3-17, 397 chars) cannot be split (within the hard limit 8,192 tokens)",
                "shorten the HTML element, or move it out of the page; or raise size.max if "
                "your embedding model takes larger chunks",
            ),
            id="unsplittable-html-element",
        ),
        pytest.param(
            "# Guide\n\n" + "A sentence that goes on " * 20 + "and ends.\n",
            "docs/guide.md",
            {"max": 300},
            (
                "CG201",
                1,
                "section is 498 chars, over size.max 300: its sentence (line 3, 489 chars) "
                "cannot be split (within the hard limit 8,192 tokens)",
                "break the sentence up; or raise size.max if your embedding model takes "
                "larger chunks",
            ),
            id="unsplittable-sentence",
        ),
        pytest.param(
            "TABLE = [\n" + "".join(f"    ({n}, {n * n}),\n" for n in range(40)) + "]\n",
            "src/table.py",
            {"max": 300},
            (
                "CG201",
                1,
                "module code is 595 chars, over size.max 300: its assignment (lines 1-42, "
                "595 chars) cannot be split (within the hard limit 8,192 tokens)",
                "move the data to a file and load it, or shorten the statement, or exclude a "
                'data module: exclude: ["src/table.py"]; or raise size.max if your embedding '
                "model takes larger chunks",
            ),
            id="unsplittable-statement",
        ),
        pytest.param(
            'def test_render():\n    check("""\n' + "    line of the fixture\n" * 20 + '    """)\n',
            "tests/unit/test_render.py",
            {"max": 300},
            (
                "CG201",
                2,
                "function part 2 of 2 is 502 chars, over size.max 300: its expression "
                "(lines 2-23, 502 chars) cannot be split (within the hard limit 8,192 tokens)",
                'exclude the tests in .chunkgate.yaml: exclude: ["tests/**"]',
            ),
            id="unsplittable-test-fixture",
        ),
        pytest.param(
            "# Guide\n\n" + _PARAGRAPH * 3,
            "docs/guide.md",
            {"max": 300, "split": False},
            (
                "CG201",
                1,
                "section is 470 chars, over size.max 300 (within the hard limit 8,192 tokens)",
                "add a subheading to split it",
            ),
            id="section-not-split",
        ),
        pytest.param(
            _PARAGRAPH * 3 + "\n# Guide\n\nText.\n",
            "docs/guide.md",
            {"max": 300, "min": 0, "split": False},
            (
                "CG201",
                1,
                "preamble is 461 chars, over size.max 300 (within the hard limit 8,192 tokens)",
                "move the introduction under a heading or shorten it",
            ),
            id="preamble-not-split",
        ),
        pytest.param(
            "# Example\n\n```python\n" + "print('hello, world')\n" * 20 + "```\n",
            "docs/example.md",
            {"max": 300, "split": False},
            (
                "CG201",
                1,
                "section is 464 chars, over size.max 300 (within the hard limit 8,192 tokens)",
                "shorten the code block or link to the full file (a code block is never split)",
            ),
            id="code-heavy-section-not-split",
        ),
        pytest.param(
            _function("total", 30),
            "src/total.py",
            {"max": 300, "split": False},
            (
                "CG201",
                1,
                "function is 513 chars, over size.max 300 (within the hard limit 8,192 tokens)",
                "split the function into smaller functions",
            ),
            id="function-not-split",
        ),
        pytest.param(
            "class Totals:\n"
            + "".join("    " + line + "\n" for line in _function("add", 20).splitlines()),
            "src/totals.py",
            {"max": 300, "split_classes": False, "split": False},
            (
                "CG201",
                1,
                "class is 457 chars, over size.max 300 (within the hard limit 8,192 tokens)",
                "set python: {split_classes: true} to chunk it per method, or split the class",
            ),
            id="class-not-split",
        ),
        pytest.param(
            "# Guide\n\n" + "A sentence that goes on " * 20 + "and ends.\n",
            "docs/guide.md",
            {"max": 100, "unit": "tokens"},
            (
                "CG201",
                1,
                "section is 125 tokens, over size.max 100: its sentence (line 3, 123 tokens) "
                "cannot be split (within the hard limit 8,192 tokens)",
                "break the sentence up; or raise size.max if your embedding model takes "
                "larger chunks",
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
        pytest.param(
            "---\ntitle: bool\n---\n\nSee [_boolean_](g).\n",
            "glossary/bool.md",
            {},
            (
                "CG202",
                5,
                "preamble is 19 chars, under size.min 40",
                "the page holds nothing else: add content, or leave the stub out of the corpus: "
                'exclude: ["glossary/bool.md"]',
            ),
            id="undersized-whole-page-has-no-heading-to-move-to",
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
        pytest.param("# Guide\n\n" + _PARAGRAPH * 3, "docs/guide.md", {"max": 300}, id="in-parts"),
        pytest.param(
            "# Guide\n\n" + _PARAGRAPH * 2 + "\nShort tail.\n",
            "docs/guide.md",
            {"max": 320},
            id="a-small-last-part",
        ),
        pytest.param(
            "class Totals:\n"
            + "".join(
                f"    {line}\n" for line in (_function("add", 8) + _function("sub", 8)).splitlines()
            ),
            "src/totals.py",
            {"max": 300},
            id="class-head-without-docstring",
        ),
        pytest.param("def f(): pass\n", "src/f.py", {}, id="a-small-function"),
        pytest.param("from .a import b\n", "pkg/__init__.py", {}, id="small-module-code"),
        pytest.param("Hi.\n", "notes.txt", {}, id="a-small-text-window"),
        pytest.param(
            '---\ntitle: Contributing\n---\n\n--8<-- "CONTRIBUTING.md"\n',
            "docs/contributing.md",
            {},
            id="a-page-that-includes-another-file",
        ),
        pytest.param(
            _PARAGRAPH + '\n## Setup\n\n--8<-- "s.md"\n\n## Next\n\n' + _PARAGRAPH,
            "docs/setup.md",
            {},
            id="a-section-that-includes-another-file",
        ),
        pytest.param(
            "&nbsp;\n\n# `compose(...functions)`\n\n" + _PARAGRAPH,
            "docs/compose.md",
            {},
            id="a-preamble-of-an-entity",
        ),
        pytest.param(
            "(sphinx/config-options)=\n# Configuration\n\n" + _PARAGRAPH,
            "docs/configuration.md",
            {},
            id="a-preamble-of-a-myst-target",
        ),
    ],
)
def test_no_op(tmp_path: Path, text: str, path: str, options: dict[str, object]) -> None:
    assert _findings(tmp_path, text, path, **options) == []


def test_over_the_hard_limit_an_error_over_the_target_a_warning(tmp_path: Path) -> None:
    """Two sizes (issue 41): a block that cannot be split is over the target, a warning
    while its embed text fits the hard limit (tokens), an error past it."""
    from chunkgate.rules import RULES

    small = "# Output\n\n" + _FENCE  # 381 chars of fence: about 100 tokens
    # One line of code: a code block is cut between its lines, a line is not.
    large = "# Output\n\n```text\n" + "INFO  Started server process [27365] " * 40 + "\n```\n"
    (warning,) = _findings(tmp_path, small, "docs/a.md", max=300, limit=200)
    (error,) = _findings(tmp_path, large, "docs/b.md", max=300, limit=200)
    assert warning.message.endswith("cannot be split (within the hard limit 200 tokens)")
    assert error.message == (
        "section is 378 tokens as embedded, over the hard limit 200: its fenced code block "
        "(lines 3-5, 1,492 chars) cannot be split; the model truncates it"
    )
    assert error.fix.endswith(
        "; or name your embedding model (embed: {model: ...}) or set size.limit to its input limit"
    )
    rule = RULES["CG201"]
    assert rule.severity_of("error", warning.message) == "warning"
    assert rule.severity_of("error", error.message) == "error"
    assert rule.severity_of("off", warning.message) == "off"
    # A chunk under the target can still be over a small model's limit.
    (under,) = _findings(tmp_path, small, "docs/a.md", max=2000, limit=50)
    assert rule.severity_of("error", under.message) == "error"
