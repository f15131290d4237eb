"""Conformance: CommonMark spec examples and github-slugger fixtures (tests/data/README.md)."""

from __future__ import annotations

import json
import re
import string
from html.parser import HTMLParser
from pathlib import Path

import pytest

from chunkgate import chunk_text, outline_text
from chunkgate.chunking.slugs import github_slug

DATA = Path(__file__).parents[1] / "data"
SPEC_EXAMPLES = json.loads((DATA / "commonmark-spec-examples.json").read_text(encoding="utf-8"))
SLUGGER_FIXTURES = json.loads((DATA / "github-slugger-fixtures.json").read_text(encoding="utf-8"))


class _TopLevelHeadings(HTMLParser):
    """(level, text content) of the h1-h6 elements outside any blockquote or li."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.current: list[object] | None = None
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in ("blockquote", "li"):
            self.depth += 1
        elif re.fullmatch(r"h[1-6]", tag) and self.depth == 0 and self.current is None:
            self.current = [int(tag[1]), ""]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("blockquote", "li"):
            self.depth -= 1
        elif re.fullmatch(r"h[1-6]", tag) and self.current is not None:
            level, text = self.current
            # chunkgate shows a multi-line (setext) heading's soft breaks as spaces.
            self.found.append((int(str(level)), " ".join(str(text).split("\n")).strip(" ")))
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current is not None:
            self.current[1] = f"{self.current[1]}{data}"


def _reference_headings(html: str) -> list[tuple[int, str]]:
    parser = _TopLevelHeadings()
    parser.feed(html)
    parser.close()
    return parser.found


@pytest.mark.parametrize(
    "example", SPEC_EXAMPLES, ids=[f"{e['example']}-{e['section']}" for e in SPEC_EXAMPLES]
)
def test_commonmark_example_headings(example: dict[str, object]) -> None:
    markdown = str(example["markdown"])
    found = [(h.level, h.text) for h in outline_text(markdown, "spec.md")]
    assert found == _reference_headings(str(example["html"]))


def test_all_commonmark_examples_are_present() -> None:
    assert len(SPEC_EXAMPLES) == 655


def _representable(text: str) -> bool:
    """A heading cannot keep leading/trailing whitespace or hold a line break."""
    return text == text.strip() and not any(c in text for c in "\n\r\u2028\u2029\x85")


def _escaped(text: str) -> str:
    return "".join(f"\\{c}" if c in string.punctuation else c for c in text)


def test_github_slugger_fixtures_in_one_document() -> None:
    lines: list[str] = []
    expected: list[str | None] = []
    for fixture in SLUGGER_FIXTURES:
        text = fixture["input"]
        if _representable(text):
            lines += [f"# {_escaped(text)}", "", "body", ""]
            expected.append(fixture["expected"])
        else:
            # Keep the slugger's numbering: a heading that slugs to the same base.
            lines += [f"# {_escaped(github_slug(text))}", "", "body", ""]
            expected.append(None)
    ids = [chunk.identity for chunk in chunk_text("\n".join(lines), "fixtures.md")]
    assert len(ids) == len(SLUGGER_FIXTURES)
    checked = [(got, want) for got, want in zip(ids, expected, strict=True) if want is not None]
    assert len(checked) == 71
    assert [got for got, _ in checked] == [want for _, want in checked]


def test_ascii_slugs_take_the_same_table_as_unicode_ones() -> None:
    # ASCII headings are slugged by bytes.translate, others by str.translate.
    from chunkgate.chunking.slugs import _TABLE

    for code in range(128):
        text = f"A{chr(code)}b é"  # the "é" sends it down the Unicode path
        unicode_path = text.lower().translate(_TABLE)
        assert github_slug(text) == unicode_path
        assert github_slug(text[:-2]) == unicode_path[:-2]
