"""The heading shortcuts of issue 19 against the code they skip.

A heading's closing ``#`` sequence is looked for only when its text ends in ``#``, and
template syntax only when its source holds ``{{`` or ``{%``: the oracles below run the
regular expressions on every heading, as the code did before. The headings the pre-scan
sends to cmark are read for their text alone (``cmark.texts``), which must be what the
full reading of the same lines gives.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.chunking import cmark, markdown, syntax

_ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
# The patterns strip_inline ran on every heading holding a "{" (the one-pass scanners
# of chunking/spans.py replaced them since; tests/test_spans.py holds them equal)
_OLD_CODE_SPAN = re.compile(r"(`+).+?\1")
_OLD_INLINE = re.compile(rf"{syntax._SHORTCODE}|{syntax._TAG}|{syntax._OUTPUT}")
_TEXT = st.text(alphabet=" \t#{}%<>`ax:.", max_size=24)


def _old_source(after_opening: str) -> str:
    line = after_opening
    if "#" in line:
        line = _ATX_CLOSING.sub("", line)
    return line.strip(" \t")


def _old_strip_inline(raw: str, text: str) -> tuple[str, str]:
    if "{" not in raw:
        return raw, text
    outside = _OLD_CODE_SPAN.sub(lambda m: "\0" * len(m.group(0)), raw)
    spans = [raw[m.start() : m.end()] for m in _OLD_INLINE.finditer(outside)]
    for span in spans:
        raw = raw.replace(span, "", 1)
        text = text.replace(span, "", 1)
    if spans:
        raw, text = syntax._squeeze(raw), syntax._squeeze(text)
    return raw, text


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Install #", id="closing"),
        pytest.param("Install # \t", id="closing-blanks"),
        pytest.param("#", id="only-closing"),
        pytest.param("C#", id="hash-in-word"),
        pytest.param("a ##b #", id="inner-hashes"),
        pytest.param("Steps { #steps }", id="attribute"),
        pytest.param("Steps { #steps } #", id="attribute-closing"),
        pytest.param("", id="empty"),
    ],
)
def test_source_cases(text: str) -> None:
    assert markdown._source([f"## {text}"], 1, 1, False, "") == _old_source(f" {text}")


@given(_TEXT)
def test_source_matches_the_closing_pattern(text: str) -> None:
    line = f"### {text}"
    assert markdown._source([line], 1, 1, False, "") == _old_source(line[3:])


@given(_TEXT, _TEXT)
def test_strip_inline_matches_the_full_search(raw: str, text: str) -> None:
    assert syntax.strip_inline(raw, text) == _old_strip_inline(raw, text)


def test_strip_inline_still_strips() -> None:
    raw = "Notes {{< badge >}} here"
    assert syntax.strip_inline(raw, raw) == ("Notes here", "Notes here")


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(["# `code` and *em*"], id="code-em"),
        pytest.param(["## a &amp; b &copy;", "### [link](x) <b>raw</b>"], id="entities-html"),
        pytest.param(["# `</h1>` x", "###### ![image](y.png) after"], id="closing-tag-in-code"),
        pytest.param(["## \\# escaped #", "# **bold** _under_ ##"], id="escapes-closing"),
    ],
)
def test_heading_texts_alone_match_the_full_reading(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert cmark.texts(text) == [heading.text for heading in cmark.headings(text, lines)]


# Heading text of inline syntax: code, emphasis, links, images, raw HTML, entities, escapes.
_INLINE_TEXT = st.lists(
    st.sampled_from(["`", "*", "_", "[", "]", "(", ")", "!", "<", ">", "&", ";", "\\", "#"])
    | st.sampled_from(["amp", "copy", "#35", "b", "/b", "x", " ", "\t", "é", "\x00", "\x0c"]),
    max_size=16,
).map("".join)


@given(st.lists(st.tuples(st.integers(1, 6), _INLINE_TEXT), min_size=1, max_size=5))
def test_heading_texts_alone_match_the_full_reading_of_any_inline_syntax(
    headings: list[tuple[int, str]],
) -> None:
    lines = [f"{'#' * level} {text}" for level, text in headings]
    text = "\n".join(lines)
    assert cmark.texts(text) == [heading.text for heading in cmark.headings(text, lines)]
