"""The Markdown chunker: sections, IDs, line spans (SPEC §1-§2)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate import chunk_text
from chunkgate.chunking import ChunkOptions, chunk_bytes
from chunkgate.core.model import Chunk


def chunks(text: str, **options: object) -> list[Chunk]:
    return chunk_text(text, "docs/page.md", options=ChunkOptions(**options))  # type: ignore[arg-type]


def spans(text: str, **options: object) -> list[tuple[str, int, int]]:
    return [(c.identity, c.start_line, c.end_line) for c in chunks(text, **options)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("", [], id="empty"),
        pytest.param("\n\n  \n", [], id="only-blank"),
        pytest.param("just text\n", [("~preamble", 1, 1)], id="preamble-only"),
        pytest.param(
            "intro\n\n# A\n\nbody\n", [("~preamble", 1, 1), ("a", 3, 5)], id="preamble-then-section"
        ),
        pytest.param(
            "# A\n\nbody\n\n\n# B\nb\n", [("a", 1, 3), ("b", 6, 7)], id="trailing-blank-trimmed"
        ),
        pytest.param(
            "# Guide\n## Setup\ntext\n", [("setup", 1, 3)], id="empty-parent-opens-child-chunk"
        ),
        pytest.param("# A\n# B\ntext\n", [("b", 1, 3)], id="empty-sibling-opens-next-chunk"),
        pytest.param(
            "# A\ntext\n# B\n\n## C\n", [("a", 1, 5)], id="empty-headings-at-end-close-last-chunk"
        ),
        pytest.param("# A\n\n## B\n", [], id="only-headings-nothing-to-embed"),
        pytest.param(
            "# A\n```\n# not a heading\n```\n# B\nx\n",
            [("a", 1, 4), ("b", 5, 6)],
            id="hash-in-backtick-fence",
        ),
        pytest.param(
            "# A\n~~~~\n# no\n~~~\n# still code\n~~~~~\n# B\nx\n",
            [("a", 1, 6), ("b", 7, 8)],
            id="tilde-fence-needs-long-enough-closer",
        ),
        pytest.param("# A\n```\n# no\n# no\n", [("a", 1, 4)], id="unclosed-fence-runs-to-end"),
        pytest.param("# A\n\n    # indented code\n", [("a", 1, 3)], id="indented-code"),
        pytest.param(
            "# A\n<div>\n# inside html\n</div>\n\n# B\nx\n",
            [("a", 1, 4), ("b", 6, 7)],
            id="html-block",
        ),
        pytest.param("# A\n> # quoted\n\n- # listed\n", [("a", 1, 4)], id="nested-not-boundaries"),
        pytest.param(
            "Title\n=====\ntext\n\nSub\n---\nmore\n", [("title", 1, 3), ("sub", 5, 7)], id="setext"
        ),
        pytest.param("Multi\nline\n===\nx\n", [("multiline", 1, 4)], id="setext-multiline"),
        pytest.param(
            "#foo\n===\n\n# Next\nx\n", [("next", 1, 5)], id="setext-text-starting-with-hash"
        ),
        pytest.param(
            "####### seven\n---\n\nx\n", [("-seven", 1, 4)], id="setext-text-of-seven-hashes"
        ),
        pytest.param(
            "# Same\na\n# Same\nb\n# Same\nc\n",
            [("same", 1, 2), ("same-1", 3, 4), ("same-2", 5, 6)],
            id="repeats-numbered",
        ),
        pytest.param(
            "# !\nx\n# ?\ny\n", [("~section", 1, 2), ("-1", 3, 4)], id="no-anchor-fallback"
        ),
        pytest.param("# A\n\n```\n```\n", [("a", 1, 4)], id="an-empty-fence-is-body"),
        pytest.param(
            "<!-- lint: off -->\n\n# A\nx\n", [("a", 1, 4)], id="comment-preamble-opens-first-chunk"
        ),
        pytest.param("<!-- only -->\n# A\n", [], id="comments-and-headings-only"),
        pytest.param("# 😄 Emoji\nx\n", [("-emoji", 1, 2)], id="emoji"),
        pytest.param("## Install {#install}\nx\n", [("install", 1, 2)], id="explicit-id"),
        pytest.param(
            "## Install { #setup-it }\nx\n", [("setup-it", 1, 2)], id="explicit-id-spaced"
        ),
        pytest.param("## Install {: #x .cls }\nx\n", [("x", 1, 2)], id="explicit-id-attr-list"),
        pytest.param("## Not {an id}\nx\n", [("not-an-id", 1, 2)], id="braces-not-an-id"),
        pytest.param("# The `chunk` *API*\nx\n", [("the-chunk-api", 1, 2)], id="inline-markup"),
        pytest.param(
            "# [Link](http://x) &amp; co\nx\n", [("link--co", 1, 2)], id="link-and-entity"
        ),
        pytest.param("# ![logo](l.png) Project\nx\n", [("-project", 1, 2)], id="image-has-no-text"),
    ],
)
def test_sections(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert spans(text) == expected


def test_a_setext_heading_that_starts_with_a_hash_has_its_body_after_the_underline() -> None:
    (chunk,) = chunk_text("#foo\n===\n\nbody\n", "a.md")
    assert (chunk.identity, chunk.body_line, chunk.body) == ("foo", 3, "\nbody")


def test_explicit_id_heading_still_takes_its_github_number() -> None:
    # GitHub renders `{#setup}` as text, so its anchor is "setup-setup" and a
    # later plain "Setup" heading gets "setup": a real collision (CG101).
    assert [c.identity for c in chunks("# Setup {#setup}\na\n# Setup\nb\n")] == ["setup", "setup"]


def test_split_level_keeps_deeper_headings_in_the_body() -> None:
    text = "# A\na\n## B\nb\n### C\nc\n"
    assert spans(text, split_level=2) == [("a", 1, 2), ("b", 3, 6)]
    assert spans(text, split_level=1) == [("a", 1, 6)]


def test_heading_path_level_and_text_without_attribute() -> None:
    found = chunks("# Guide {#g}\nintro\n## Setup `x`\ns\n### Deep\nd\n## Next\nn\n")
    assert [(c.identity, c.heading_path, c.level) for c in found] == [
        ("g", ("Guide",), 1),
        ("setup-x", ("Guide", "Setup x"), 2),
        ("deep", ("Guide", "Setup x", "Deep"), 3),
        ("next", ("Guide", "Next"), 2),
    ]


def test_front_matter_is_metadata_not_text() -> None:
    text = "---\ntitle: Hello\ntags: [a, b]\n---\n# Doc\nbody\n"
    (chunk,) = chunks(text)
    assert (chunk.identity, chunk.start_line, chunk.end_line) == ("doc", 5, 6)
    assert (chunk.title, chunk.tags) == ("Hello", ("a", "b"))
    assert chunk.to_dict()["metadata"] == {"title": "Hello", "tags": ["a", "b"]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("---\ntitle: x\n...\nbody\n", [("~preamble", 4, 4)], id="dots-closer"),
        pytest.param(
            "---\nnot: [closed\n---\nbody\n",
            [("not-closed", 1, 4)],  # the rule alone is no preamble: it opens the section
            id="invalid-yaml-is-a-thematic-break-and-setext-heading",
        ),
        pytest.param("---\n- a list\n---\nx\n", [("~preamble", 1, 4)], id="not-a-mapping"),
        pytest.param("---\ntitle: x\n", [("~preamble", 1, 2)], id="unclosed"),
        pytest.param("\n---\ntitle: x\n---\nbody\n", [("title-x", 2, 5)], id="not-on-line-1"),
        pytest.param("+++\ntitle = [\n+++\nbody\n", [("~preamble", 1, 4)], id="invalid-toml"),
        pytest.param("+++\ntitle = 'x'\nbody\n", [("~preamble", 1, 3)], id="toml-unclosed"),
    ],
)
def test_front_matter_only_when_a_closed_mapping(
    text: str, expected: list[tuple[str, int, int]]
) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize(
    ("front", "title"),
    [
        pytest.param("---\n# Do not remove front matter.\n---\n", None, id="yaml-comments-only"),
        pytest.param("---\n  # one\n\n# two\n...\n", None, id="yaml-comments-and-blanks"),
        pytest.param("---\n---\n", None, id="yaml-empty"),
        pytest.param("+++\ntitle = 'Store'\ntags = ['a']\n+++\n", "Store", id="toml"),
        pytest.param("+++\n# a comment\n+++\n", None, id="toml-comments-only"),
    ],
)
def test_comments_only_and_toml_front_matter_are_front_matter(
    front: str, title: str | None
) -> None:
    body = "\n## Methods\n\nUse these methods on the data structure.\n"
    text = front + body
    first = front.count("\n") + 2
    (chunk,) = chunks(text)
    assert (chunk.identity, chunk.start_line, chunk.end_line) == ("methods", first, first + 2)
    assert chunk.heading_path == ("Methods",)
    assert chunk.text == "\n".join(text.split("\n")[first - 1 : first + 2])
    assert chunk.title == title


BODY = "Some text that is long enough to be a chunk of its own here.\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            f"# T\n\n{BODY}\n## Proxies\n\n---\n\n### Timeout\n\n{BODY}",
            [("t", 1, 3), ("timeout", 5, 11)],
            id="rule-under-a-heading-joins-the-next",
        ),
        pytest.param(f"## A\n\n* * *\n___\n\n## B\n\n{BODY}", [("b", 1, 8)], id="several-rules"),
        pytest.param(f"---\n\n# T\n\n{BODY}", [("t", 1, 5)], id="rule-as-preamble"),
        pytest.param(
            f"## A\n\n---\n{BODY}\n## B\n\n{BODY}",
            [("a", 1, 4), ("b", 6, 8)],
            id="rule-then-prose-is-a-body",
        ),
        pytest.param(
            f"## A\n\n- -\n\n## B\n\n{BODY}", [("a", 1, 3), ("b", 5, 7)], id="a-list-is-a-body"
        ),
    ],
)
def test_a_body_of_thematic_breaks_only_is_no_body(
    text: str, expected: list[tuple[str, int, int]]
) -> None:
    assert spans(text) == expected


def test_lines_reproduce_text_and_hash_is_stable() -> None:
    text = "intro\n\n# A\n\nbody *x*\n\n## B\n\n```py\n# c\n```\n"
    lines = text.split("\n")
    for chunk in chunks(text):
        assert "\n".join(lines[chunk.start_line - 1 : chunk.end_line]) == chunk.text
        assert chunk.chars == len(chunk.text)
    assert chunks(text) == chunks(text)


def test_crlf_and_bom_twins_are_identical() -> None:
    text = "intro\n\n# A\n\nbody\n\n## B\nmore\n"
    plain = chunk_bytes(text.encode(), "a.md").chunks
    crlf = chunk_bytes(text.replace("\n", "\r\n").encode(), "a.md").chunks
    bom = chunk_bytes(b"\xef\xbb\xbf" + text.encode(), "a.md").chunks
    assert plain == crlf == bom


def test_suppression_comment_above_a_section() -> None:
    text = "# A\na\n\n<!-- chunkgate: disable=CG201, CG202 -->\n## B\nb\n"
    found = chunks(text)
    assert found[1].suppressed == frozenset({"CG201", "CG202"})
    assert found[0].suppressed == frozenset()


def test_body_excludes_the_heading_lines() -> None:
    (chunk,) = chunks("Title\n=====\n\nbody text\n")
    assert chunk.body == "\nbody text"
    assert chunk.body_line == 3


def test_fenced_code_is_split_between_lines_never_through_one() -> None:
    code = "\n".join(f"line {i}" for i in range(500))
    found = chunks(f"# A\n```\n{code}\n```\n", max=100, min=1)
    assert found[-1].end_line == 503
    assert all(c.text.split("\n")[-1] in ("```", *code.split("\n")) for c in found)
    assert all(c.chars <= 100 for c in found)


@given(
    st.text(alphabet=" \t:#{}.=ab-_\u00e9\n", max_size=12),
    st.sampled_from(["{#x}", "{ #x }", "{: #x }", "{:#x\t}", "{ : #x}", "{#x #y}", "{#x.y}"]),
)
def test_simple_explicit_ids_split_as_the_general_attribute_parser_does(
    head: str, attributes: str
) -> None:
    from chunkgate.chunking import slugs

    text = head + attributes
    general = slugs._SIMPLE_ID
    try:
        slugs._SIMPLE_ID = re.compile(r"(?!)")  # never matches: the general path only
        expected = slugs.split_explicit_id(text)
    finally:
        slugs._SIMPLE_ID = general
    assert slugs.split_explicit_id(text) == expected
