"""The heading pre-scan against the full parser: the same headings, or it defers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunkgate.chunking import chunk_bytes, cmark, prescan

DATA = Path(__file__).parents[1] / "data"
REPO = Path(__file__).parents[2]
SPEC_EXAMPLES = json.loads((DATA / "commonmark-spec-examples.json").read_text(encoding="utf-8"))


def _proven(text: str) -> bool:
    try:
        prescan._scan("\n" + text + "\n")
    except prescan._Unproven:
        return False
    return True


def _same(text: str) -> None:
    lines = text.split("\n")
    assert prescan.headings(text, lines) == cmark.headings(text, lines)


@pytest.mark.parametrize("example", SPEC_EXAMPLES, ids=[str(e["example"]) for e in SPEC_EXAMPLES])
def test_spec_example(example: dict[str, object]) -> None:
    _same(str(example["markdown"]))


def test_most_spec_examples_with_headings_are_proven() -> None:
    # Not a bar on correctness (that is the test above): the scan must be worth having.
    proven = [e for e in SPEC_EXAMPLES if _proven(str(e["markdown"]))]
    assert len(proven) > len(SPEC_EXAMPLES) // 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("# A\n\ntext\n## B *em* #\n", [(1, 1, "A"), (2, 4, "B em")], id="plain"),
        pytest.param("```\n# no\n```\n# yes\n", [(1, 4, "yes")], id="after-fence"),
        pytest.param("~~~~\n# no\n~~~\n# no\n", [], id="unclosed-fence"),
        pytest.param("<!--\n\n# no\n-->\n# yes\n", [(1, 5, "yes")], id="comment"),
        pytest.param("<div>\n# no\n\n# yes\n", [(1, 4, "yes")], id="html-6"),
        pytest.param("1. x\n\n   ```\n   # c\n   ```\n# y\n", [(1, 6, "y")], id="list-fence"),
        pytest.param("# &amp; `a` \\#\n", [(1, 1, "& a #")], id="inline"),
    ],
)
def test_proven_documents(text: str, expected: list[tuple[int, int, str]]) -> None:
    assert _proven(text)
    found = prescan.headings(text, text.split("\n"))
    assert [(h.level, h.first, h.text) for h in found] == expected
    _same(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Title\n=====\n", id="setext"),
        pytest.param("  # indented\n", id="indented"),
        pytest.param("> # quoted\n", id="quote"),
        pytest.param("- # item\n", id="item"),
        pytest.param("- a\n  ```\n# x\n  ```\n# y\n", id="fence-in-item"),
        pytest.param("  ```\n# x\n  ```\n", id="fence-less-indented-content"),
        pytest.param("<span>\n# x\n", id="html-7-or-paragraph"),
        pytest.param("# [a]\n\n[a]: /url\n", id="reference"),
        pytest.param("# a\r# b\n", id="carriage-return"),
        pytest.param("<!-->\n# x\n", id="overlapping-comment"),
    ],
)
def test_unproven_documents(text: str) -> None:
    assert not _proven(text) or ("]:" in text)
    _same(text)


def _markdown_files() -> list[Path]:
    skip = {".git", ".venv", "node_modules"}
    return sorted(
        path
        for path in REPO.rglob("*.md")
        if not skip.intersection(path.relative_to(REPO).parts) and path.is_file()
    )


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_chunk_of_the_repositorys_markdown(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = path.read_bytes()
    fast = chunk_bytes(data, path.name).chunks
    monkeypatch.setattr(prescan, "headings", cmark.headings)
    assert chunk_bytes(data, path.name).chunks == fast


# Lines that open, close or continue the blocks the scan follows, and the lines a
# heading could hide in: joined at random, they make documents where it must defer.
_LINES = [
    "",
    "   ",
    "text",
    "text *em* [a] `c`",
    "# a",
    "## b ##",
    "### [a] &amp; \\*",
    "#",
    "####### seven",
    "#no",
    " # one",
    "   # three",
    "    # four",
    "\t# tab",
    "===",
    "---",
    "  ---",
    "***",
    "- - -",
    "```",
    "```py",
    "``` a`b",
    "````",
    " ```",
    "   ```",
    "    ```",
    "\t```",
    "~~~",
    "  ~~~",
    "- ```",
    "> ```",
    "<div>",
    "  <div>",
    "</div>",
    "<DIV class=x>",
    "<span>",
    "<a href='x'>",
    "<!--",
    "-->",
    "<!-- c -->",
    "<!-->",
    "<?php",
    "?>",
    "<!DOCTYPE html>",
    "<!doctype html>",
    "<![CDATA[",
    "]]>",
    "<script>",
    "</script>",
    "<pre x>",
    "<textarea>",
    "- item",
    "- # item",
    "  - sub",
    "1. one",
    "   # in item",
    "10) ten",
    "> quote",
    "> # quoted",
    ">",
    "[a]: /url",
    "[a]:",
    "  continued",
    "\u00a0# nbsp",
    "# \x0cff",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=14), st.booleans())
@example(["- ```", "  ```", "  # x", "  ```"], False)
@example(["<div>", "```", "", "# a", "```"], True)
@example(["<!a&", "<script>", "# a"], False)
def test_matches_the_full_parser(lines: list[str], trailing_newline: bool) -> None:
    _same("\n".join(lines) + ("\n" if trailing_newline else ""))
