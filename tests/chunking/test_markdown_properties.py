"""Property tests of the Markdown chunker on generated documents."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from chunkgate.chunking import chunk_bytes, chunk_document
from chunkgate.chunking.cmark import headings
from chunkgate.chunking.frontmatter import parse_front_matter
from chunkgate.core.model import Chunk

TEXTS = [
    "Intro",
    "Setup",
    "Setup",
    "Usage",
    "API `call`",
    "Ünïcode straße",
    "日本語",
    "!",
    "C++ & Rust",
    "a_b",
    "FAQ",
    "*Emphasis* here",
    "[Link](https://x.org)",
    "#hash",  # as setext text: a paragraph line that only looks like an ATX heading
    "####### seven",
]
WORDS = st.lists(
    st.sampled_from(
        ["alpha", "beta", "gamma", "#tag", "`code`", "*em*", "-", "1.", "<b>", "x_y", "ü", "→"]
    ),
    min_size=1,
    max_size=6,
)
_explicit_ids = iter(range(10**9))


def _words(words: list[str]) -> str:
    text = " ".join(words)
    # A paragraph line must not start a block of its own.
    return f"Text {text}"


heading_texts = st.sampled_from(TEXTS)


@st.composite
def atx(draw: st.DrawFn) -> list[str]:
    level = draw(st.integers(1, 6))
    text = draw(heading_texts)
    if draw(st.booleans()) and draw(st.booleans()):
        text += f" {{#ID-{next(_explicit_ids)}}}"
    return [f"{'#' * level} {text}"]


@st.composite
def setext(draw: st.DrawFn) -> list[str]:
    lines = [draw(heading_texts) for _ in range(draw(st.integers(1, 2)))]
    return [*lines, draw(st.sampled_from(["===", "---", "  ======"]))]


@st.composite
def paragraph(draw: st.DrawFn) -> list[str]:
    return [_words(draw(WORDS)) for _ in range(draw(st.integers(1, 3)))]


@st.composite
def fence(draw: st.DrawFn) -> list[str]:
    char = draw(st.sampled_from("`~"))
    width = draw(st.integers(3, 5))
    body = draw(
        st.lists(st.sampled_from(["# not a heading", "code()", "", "```", "~~~"]), max_size=4)
    )
    body = [line for line in body if not (line and line[0] == char)]
    return [char * width + draw(st.sampled_from(["", "python"])), *body, char * width]


def fixed(*lines: str) -> st.SearchStrategy[list[str]]:
    return st.just(list(lines))


blocks = st.one_of(
    atx(),
    atx(),
    setext(),
    paragraph(),
    paragraph(),
    fence(),
    fixed("    # indented code"),
    fixed("> # quoted heading", "> text"),
    fixed("- item", "- # heading in a list"),
    fixed("1. first", "2. second"),
    fixed("<div>", "# inside html", "</div>"),
    fixed("***"),
    fixed("<!-- chunkgate: disable=CG202 -->"),
)


@st.composite
def documents(draw: st.DrawFn) -> list[list[str]]:
    parts = draw(st.lists(blocks, max_size=12))
    if draw(st.booleans()):
        parts.insert(0, ["---", "title: Generated", "tags: [x]", "---"])
    if draw(st.booleans()):
        parts.append(["```", "# unclosed fence", "runs to the end"])
    return parts


def render(parts: list[list[str]]) -> str:
    return "\n\n".join("\n".join(block) for block in parts) + "\n"


def chunk(text: str) -> list[Chunk]:
    return list(chunk_document(text, "docs/gen.md").chunks)


PROPERTY = settings(max_examples=150)
_THEMATIC_BREAK = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*")


@PROPERTY
@given(documents())
def test_chunks_cover_every_line_once_in_order(parts: list[list[str]]) -> None:
    text = render(parts)
    lines = text.split("\n")
    front = parse_front_matter(lines)
    skip = front.lines if front else 0
    covered: list[int] = []
    found = chunk(text)
    if not found:
        # Nothing to embed: only headings, HTML comments and horizontal rules outside
        # front matter.
        heading_lines = {n for h in headings(text, lines) for n in range(h.first, h.last + 1)}
        rest = [line for n, line in enumerate(lines, 1) if n > skip and n not in heading_lines]
        assert all(
            not line.strip() or line.startswith("<!--") or _THEMATIC_BREAK.fullmatch(line)
            for line in rest
        )
        return
    for c in found:
        assert "\n".join(lines[c.start_line - 1 : c.end_line]) == c.text
        covered.extend(range(c.start_line, c.end_line + 1))
    assert covered == sorted(set(covered))
    content = {n for n, line in enumerate(lines, 1) if line.strip() and n > skip}
    assert content <= set(covered)
    assert not {n for n in covered if n <= skip}


@PROPERTY
@given(documents())
def test_ids_unique_and_output_deterministic(parts: list[list[str]]) -> None:
    text = render(parts)
    first = chunk(text)
    assert len({c.id for c in first}) == len(first)
    assert chunk(text) == first


@PROPERTY
@given(documents())
def test_crlf_and_bom_copies_match(parts: list[list[str]]) -> None:
    data = render(parts).encode()
    plain = chunk_bytes(data, "docs/gen.md").chunks
    crlf = chunk_bytes(data.replace(b"\n", b"\r\n"), "docs/gen.md").chunks
    bom = chunk_bytes(b"\xef\xbb\xbf" + data, "docs/gen.md").chunks
    key = [(c.id, c.chars, c.tokens, c.hash) for c in plain]
    assert [(c.id, c.chars, c.tokens, c.hash) for c in crlf] == key
    assert [(c.id, c.chars, c.tokens, c.hash) for c in bom] == key


@PROPERTY
@given(documents(), st.data())
def test_inserting_text_above_changes_no_id(parts: list[list[str]], data: st.DataObject) -> None:
    before = {c.id for c in chunk(render(parts))}
    body_start = 1 if parts and parts[0][0] == "---" else 0
    at = data.draw(st.integers(body_start, len(parts)))
    if at == len(parts) and parts and parts[-1][0] == "```":
        at -= 1  # after an unclosed fence everything is code
    inserted = [*parts[:at], ["Inserted words here.", "And another line."], *parts[at:]]
    after = {c.id for c in chunk(render(inserted))}
    assert before <= after


@PROPERTY
@given(documents(), st.data())
def test_editing_a_body_changes_no_id(parts: list[list[str]], data: st.DataObject) -> None:
    paragraphs = [i for i, block in enumerate(parts) if block[0].startswith("Text ")]
    if not paragraphs:
        return
    target = data.draw(st.sampled_from(paragraphs))
    edited = [*parts]
    edited[target] = [f"{line} edited" for line in parts[target]]
    before = [c.id for c in chunk(render(parts))]
    assert [c.id for c in chunk(render(edited))] == before


@PROPERTY
@given(documents(), st.data(), st.integers(1, 6))
def test_adding_a_uniquely_named_section_changes_no_other_id(
    parts: list[list[str]], data: st.DataObject, level: int
) -> None:
    # A heading placed above existing text makes that text its body, so new
    # sections go where a section already starts, or at the end.
    body_start = 1 if parts and parts[0][0] == "---" else 0
    starts = [i for i, block in enumerate(parts) if i >= body_start and _is_heading_block(block)]
    ends_open = bool(parts) and parts[-1][0] == "```"
    at = data.draw(st.sampled_from([*starts, *([] if ends_open else [len(parts)])] or [0]))
    if not starts and ends_open:
        return
    added = [*parts[:at], [f"{'#' * level} Zebra Unique Section"], ["Its own text."], *parts[at:]]
    before = {c.id for c in chunk(render(parts))}
    after = {c.id for c in chunk(render(added))}
    assert before <= after
    assert "docs/gen.md#zebra-unique-section" in after


def _is_heading_block(block: list[str]) -> bool:
    return block[0].startswith("#") or block[-1].strip() in ("===", "---", "======")


_markdown_it = MarkdownIt("commonmark")


@PROPERTY
@given(documents())
def test_top_level_headings_agree_with_markdown_it(parts: list[list[str]]) -> None:
    """An independent CommonMark implementation finds the same heading lines."""
    parts = [block for block in parts if block[0] != "---" or len(block) == 1]
    text = render(parts)
    ours = [(h.level, h.first, h.last) for h in headings(text, text.split("\n")) if not h.nested]
    theirs = [
        (int(token.tag[1]), token.map[0] + 1, token.map[1])
        for token in _markdown_it.parse(text)
        if token.type == "heading_open" and token.level == 0 and token.map
    ]
    assert ours == theirs
