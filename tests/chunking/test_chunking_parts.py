"""Markdown sections over size.max, chunked in parts between blocks (mdparts.py, parts.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_bytes, chunk_text
from chunkgate.chunking.base import span_text
from chunkgate.core.model import Chunk
from chunkgate.diff.moves import join_parts, unit_id


def parts(text: str, *, max: int = 200, unit: str = "chars") -> list[Chunk]:
    options = ChunkOptions(max=max, min=0, unit=unit)  # type: ignore[arg-type]
    found = chunk_text(text, "docs/a.md", options=options)
    assert_spans(text, found)
    return found


def assert_spans(text: str, chunks: list[Chunk]) -> None:
    """Each text is its span of the file (columns included), and parts run in order."""
    lines = text.split("\n")
    for chunk in chunks:
        assert chunk.text == span_text(
            lines, chunk.start_line, chunk.end_line, chunk.start_column, chunk.end_column
        )
        assert chunk.text == chunk.text.strip() or chunk.start_column == 0
    # In order, without overlap: a part that ends inside a line leaves the rest of it.
    for before, after in itertools.pairwise(chunks):
        end = (before.end_line, before.end_column or float("inf"))
        assert end < (after.start_line, after.start_column)


def spans(chunks: list[Chunk]) -> list[tuple[str, int, int, int, int]]:
    return [(c.identity, c.start_line, c.end_line, c.part, c.parts) for c in chunks]


SENTENCE = "Every part of a long section is embedded on its own, as an ingest does."  # 71


def paragraph(sentences: int = 2) -> str:
    return " ".join([SENTENCE] * sentences)


def test_a_section_is_cut_between_paragraphs_and_its_first_part_keeps_the_id() -> None:
    text = f"# Guide\n\n{paragraph()}\n\n{paragraph()}\n\n{paragraph()}\n\n## Next\n\nShort.\n"
    found = parts(text)
    assert spans(found) == [
        ("guide", 1, 3, 1, 3),
        ("guide~2", 5, 5, 2, 3),
        ("guide~3", 7, 7, 3, 3),
        ("next", 9, 11, 1, 1),
    ]
    assert all(c.chars <= 200 for c in found)
    # The anchor opens the first part; the others carry the section's place.
    assert found[0].body_line == 2
    assert found[1].body_line == 5
    assert {c.heading_path for c in found[:3]} == {("Guide",)}
    assert {c.level for c in found[:3]} == {1}


def test_parts_are_packed_greedily_up_to_the_limit() -> None:
    short = "A short paragraph."
    text = "# Guide\n\n" + "\n\n".join([short] * 12) + "\n"
    found = parts(text, max=100)
    assert [c.chars for c in found] == [87, 98, 58]
    assert [c.text.count(short) for c in found] == [4, 5, 3]


def test_a_fenced_code_block_is_cut_as_code() -> None:
    code = "\n".join(f"print({n})" for n in range(40))
    text = f"# Example\n\n{paragraph()}\n\n```python\n{code}\n```\n\n{paragraph()}\n"
    found = parts(text)
    assert [c.identity for c in found] == ["example", *(f"example~{n}" for n in range(2, 5))]
    assert not any(c.unsplittable for c in found)
    assert all(c.chars <= 200 for c in found)


@pytest.mark.parametrize(
    ("block", "name"),
    [
        pytest.param(
            "<div>\n"
            + "\n".join(f"row {n} of the html, text alone" for n in range(20))
            + "\n</div>",
            "HTML block",
        ),
        pytest.param("~~~\n" + "x = 1; " * 60 + "\n~~~", "fenced code block"),
    ],
)
def test_html_blocks_and_lines_of_code_are_never_cut(block: str, name: str) -> None:
    text = f"# Example\n\n{paragraph()}\n\n{block}\n"
    first, second = parts(text)
    assert second.text == block
    assert second.unsplittable.startswith(f"{name} (lines 5-")
    assert first.text.endswith(SENTENCE)


def card(n: int, indent: str = "\t") -> str:
    return (
        f'{indent}<LinkCard\n{indent}\thref="https://example.com/plugin-{n}"\n'
        f'{indent}\ttitle="plugin-{n}"\n{indent}\tdescription="What plugin {n} adds to a site."\n'
        f"{indent}/>"
    )


def test_an_mdx_card_grid_is_cut_between_its_cards() -> None:
    """An element with its children on lines of their own (Starlight's ``<CardGrid>``,
    one HTML block to CommonMark) is cut between children; the opening line goes with
    the first, the closing line with the last."""
    grid = "<CardGrid>\n" + "\n".join(card(n) for n in range(12)) + "\n</CardGrid>"
    text = f"# Plugins\n\n{paragraph()}\n\n{grid}\n"
    found = chunk_text(text, "docs/plugins.mdx", options=ChunkOptions(max=400, min=0))
    assert_spans(text, found)
    assert len(found) > 2
    assert all(c.chars <= 400 and not c.unsplittable for c in found)
    cards = [c for c in found if "<LinkCard" in c.text]
    assert cards[0].text.count("<CardGrid>") == 1
    assert cards[-1].text.endswith("\t/>\n</CardGrid>")
    for chunk in cards[1:]:
        assert chunk.text.startswith("\t<LinkCard")  # never inside a card
    assert sum(c.text.count("<LinkCard") for c in found) == 12


def test_an_html_table_is_cut_between_rows_and_a_run_of_blocks_between_blocks() -> None:
    rows = "\n".join(f"  <tr><td>option_{n}</td><td>{SENTENCE}</td></tr>" for n in range(8))
    table = f"<table>\n{rows}\n</table>"
    found = parts(f"# Options\n\n{table}\n", max=300)
    assert len(found) > 2
    assert all(c.chars <= 300 for c in found)
    assert found[0].text.startswith("# Options\n\n<table>\n  <tr>")
    assert all(c.text.startswith("  <tr>") for c in found[1:])
    # HTML blocks one after the other (a blank line ends each) are cut between them.
    divs = "\n\n".join(f'<div class="note">\n{SENTENCE}\n</div>' for _ in range(6))
    found = parts(f"# Notes\n\n{divs}\n", max=300)
    assert len(found) > 1
    assert all(c.chars <= 300 and not c.unsplittable for c in found)
    assert all(c.text.startswith('<div class="note">') for c in found[1:])


def test_html_is_never_cut_inside_pre_script_style_or_a_comment() -> None:
    spans_ = "\n".join(f"<span>code_line({n}) + more_code({n})</span>" for n in range(12))
    code = f"<pre><code>{spans_}\n\n{spans_}\n</code></pre>"
    for raw in (
        f"<div>\n<pre><code>{spans_}\n</code></pre>\n</div>",  # the children are code lines
        code,  # blank lines inside a <pre> do not end its HTML block
        f"<!--\n{spans_}\n-->",
        f"<script>\n{spans_}\n\n{spans_}\n</script>",
    ):
        found = parts(f"# Code\n\n{paragraph()}\n\n{raw}\n", max=200)
        assert found[-1].text == raw
        assert found[-1].unsplittable.startswith("HTML block (lines 5-")


def test_top_level_elements_of_an_unwrapped_block_are_cut_between_them() -> None:
    """A block after a blank line that opens with deeper elements and ends with the
    closing tag of an element opened above (FastAPI's opinion panels), and a comment
    on its first line: cut before each element at the least indentation."""
    panels = "\n".join(
        f'  <div class="panel" id="p{n}">\n    <blockquote>{paragraph()}</blockquote>\n  </div>'
        for n in range(4)
    )
    html = f'<!-- only-mkdocs -->\n<div class="tabs">\n  <button>a</button>\n\n{panels}\n</div>'
    found = parts(f"# Opinions\n\n{html}\n", max=250)
    assert all(not c.unsplittable for c in found)
    starts = [c.text.split("\n")[0] for c in found]
    assert starts == ["# Opinions", *(f'  <div class="panel" id="p{n}">' for n in range(4))]
    assert found[-1].text.endswith("  </div>\n</div>")


def test_one_child_over_the_limit_is_an_html_element_that_cannot_be_split() -> None:
    big = "\t<Card>\n" + "\n".join(f"\t\t{SENTENCE}" for _ in range(8)) + "\n\t</Card>"
    grid = f"<CardGrid>\n{card(0)}\n{big}\n{card(1)}\n</CardGrid>"
    found = chunk_text(f"# Cards\n\n{grid}\n", "docs/c.mdx", options=ChunkOptions(max=300, min=0))
    (over,) = [c for c in found if c.chars > 300]
    assert over.unsplittable.startswith("HTML element (lines 9-18, ")
    assert over.text.startswith("\t<Card>")


def code_block(tag: str, chars: int) -> str:
    rows = [f"call_{tag}({i:03d})" for i in range(chars // 16)]
    return "\n".join([f"```{tag}", *rows, "```"])


@pytest.mark.parametrize("chars", [150, 190, 260], ids=["half", "nearly-max", "over-max"])
def test_template_syntax_alone_joins_a_neighbouring_part(chars: int) -> None:
    """A Hugo page's tabs: the shortcodes between two code blocks that fill parts of their
    own are no part of their own."""
    syntax = "{{% /tab %}}\n\n{{% tab gRPC %}}"
    text = (
        f"## Clients\n\n{{{{< tabs >}}}}\n{{{{% tab HTTP %}}}}\n\n{code_block('http', chars)}"
        f"\n\n{syntax}\n\n{code_block('grpc', chars)}\n\n{{{{% /tab %}}}}\n{{{{< /tabs >}}}}\n"
    )
    found = parts(text)
    assert len(found) >= 2
    template = ("{{%", "{{<")
    for chunk in found:
        assert not all(line.startswith(template) for line in chunk.text.split("\n") if line)
    lines = text.split("\n")
    covered = [n for c in found for n in range(c.start_line, c.end_line + 1)]
    assert sorted(covered) == sorted(set(covered))  # no line in two parts
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= set(covered)
    assert [c.id for c in found] == [c.id for c in parts(text)]
    assert [c.identity for c in found] == [
        "clients",
        *(f"clients~{n}" for n in range(2, 1 + len(found))),
    ]


def test_a_heading_alone_is_never_a_part() -> None:
    code = "```\n" + "x = 1; " * 60 + "\n```"
    (chunk,) = parts(f"# Example\n\n{code}\n")
    # Heading and the code block it introduces stay one chunk, over the limit.
    assert (chunk.identity, chunk.part, chunk.parts) == ("example", 1, 1)
    assert chunk.unsplittable == "fenced code block (lines 3-5, 428 chars)"


def test_a_list_is_cut_between_items() -> None:
    items = "\n".join(f"- Item {n}: {SENTENCE}" for n in range(6))
    found = parts(f"# List\n\n{items}\n")
    assert [c.text.count("- Item") for c in found] == [2, 2, 2]
    assert all(c.start_column == 0 and c.end_column == 0 for c in found)
    assert found[1].text.startswith("- Item 2")


def test_a_nested_list_item_is_cut_between_its_blocks() -> None:
    inner = "\n".join(f"  - Inner {n}. {SENTENCE}" for n in range(5))
    text = f"# List\n\n- Outer item.\n\n  {SENTENCE}\n\n{inner}\n- Last item.\n"
    found = parts(text)
    assert len(found) > 2
    assert all(c.chars <= 200 for c in found)
    assert any(c.text.startswith("  - Inner") for c in found[1:])


def test_a_block_quote_is_cut_between_its_paragraphs() -> None:
    quote = "\n>\n".join(f"> {paragraph()}" for _ in range(3))
    found = parts(f"# Quote\n\n{quote}\n")
    assert [c.start_line for c in found] == [1, 5, 7]
    assert all(c.text.lstrip("# Quote\n").startswith(">") for c in found)


def test_a_table_is_cut_between_rows_and_the_header_stays_with_the_first() -> None:
    rows = "\n".join(f"| option_{n} | what option {n} does to the output |" for n in range(12))
    text = f"# Options\n\n| name | meaning |\n|---|---|\n{rows}\n"
    found = parts(text)
    assert len(found) > 1
    assert found[0].text.startswith("# Options\n\n| name | meaning |\n|---|---|\n| option_0")
    assert all(c.text.startswith("| option_") for c in found[1:])
    assert sum(c.text.count("| option_") for c in found) == 12


def test_a_table_row_over_the_limit_is_named() -> None:
    row = "| wide | " + "word " * 60 + "|"
    text = f"# Options\n\n| name | meaning |\n|---|---|\n| small | row |\n{row}\n"
    found = parts(text)
    assert found[-1].unsplittable == "table row (line 6, 310 chars)"


def test_a_paragraph_of_many_lines_is_cut_between_lines_that_end_sentences() -> None:
    lines = [
        "This paragraph is wrapped at a fixed width, as many",
        "authors write them. The first sentence ends on this line.",
    ] * 4
    found = parts("# Wrapped\n\n" + "\n".join(lines) + "\n", max=150)
    assert all(c.start_column == 0 and c.end_column == 0 for c in found)
    assert all(c.text.endswith("this line.") for c in found)


def test_a_one_line_paragraph_is_cut_between_sentences_with_columns() -> None:
    line = paragraph(6)
    found = parts(f"# Long\n\n{line}\n", max=160)
    assert [(c.start_line, c.end_line) for c in found] == [(1, 3), (3, 3), (3, 3)]
    assert (found[0].start_column, found[0].end_column) == (0, 143)
    assert found[0].text == "# Long\n\n" + line[:143]
    assert found[1].text == line[144 : found[1].end_column]
    assert found[1].start_column == 145
    assert found[2].end_column == 0
    assert all(c.text.endswith("does.") for c in found)
    assert all(c.chars <= 160 for c in found)


@pytest.mark.parametrize(
    ("line", "pieces"),
    [
        pytest.param("One. Two. " * 30, 2, id="latin"),
        pytest.param("これは文です。" * 40, 2, id="cjk-full-stops"),
        pytest.param("Use e.g. this or i.e. that. " * 15, 3, id="abbreviations-go-on"),
    ],
)
def test_sentence_boundaries(line: str, pieces: int) -> None:
    found = parts(f"# S\n\n{line.strip()}\n", max=160)
    assert len(found) == pieces
    assert all(c.chars <= 160 for c in found)


def test_a_sentence_is_not_cut_inside_inline_code() -> None:
    line = "Call `stop. Now` to stop. " * 2 + "Then more words follow here. " * 8
    found = parts(f"# S\n\n{line.strip()}\n", max=120)
    assert all(c.text.count("`") % 2 == 0 for c in found)


def test_a_sentence_over_the_limit_is_named() -> None:
    found = parts("# S\n\n" + "word " * 100 + "end.\n")
    assert found[0].unsplittable == "sentence (line 3, 504 chars)"


def test_link_reference_definitions_are_cut_between_lines() -> None:
    links = "\n".join(f"[link{n}]: https://example.com/a/long/path/{n}" for n in range(12))
    found = parts(f"# Links\n\n{paragraph()}\n\n{links}\n")
    assert len(found) > 2
    assert not any(c.unsplittable for c in found)


def test_body_less_headings_at_the_end_stay_with_the_last_part() -> None:
    text = f"# Guide\n\n{paragraph()}\n\n{paragraph()}\n\n## Empty\n\n### Also empty\n"
    found = parts(text)
    assert found[-1].text.endswith("## Empty\n\n### Also empty")
    assert found[-1].part == 2


def test_deeper_headings_inside_a_section_are_cut_above_not_below() -> None:
    options = ChunkOptions(max=200, min=0, split_level=2)
    text = f"# Guide\n\n{paragraph()}\n\n### Details\n\n{paragraph()}\n"
    found = chunk_text(text, "docs/a.md", options=options)
    assert found[1].text.startswith("### Details\n\n")


def test_the_preamble_is_split_too() -> None:
    found = parts(f"{paragraph()}\n\n{paragraph()}\n\n# Guide\n\nText.\n")
    assert [c.identity for c in found] == ["~preamble", "~preamble~2", "guide"]


def test_front_matter_metadata_and_suppressions_are_on_every_part() -> None:
    text = (
        "---\ntitle: Page\ntags: [a]\n---\n\n<!-- chunkgate: disable=CG501 -->\n"
        f"# Guide\n\n{paragraph()}\n\n{paragraph()}\n"
    )
    found = parts(text)
    assert len(found) == 2
    assert {(c.title, c.tags, c.suppressed) for c in found} == {
        ("Page", ("a",), frozenset({"CG501"}))
    }


def test_tokens_are_the_unit_when_configured() -> None:
    found = parts(f"# Guide\n\n{paragraph()}\n\n{paragraph()}\n", max=50, unit="tokens")
    assert len(found) == 2
    assert all(c.tokens <= 50 for c in found)


def test_split_false_keeps_one_chunk_per_section() -> None:
    text = f"# Guide\n\n{paragraph()}\n\n{paragraph()}\n\n{paragraph()}\n"
    (chunk,) = chunk_text(text, "docs/a.md", options=ChunkOptions(max=200, split=False))
    assert (chunk.part, chunk.parts, chunk.chars, chunk.unsplittable) == (1, 1, 442, "")


def test_split_is_part_of_the_fingerprint() -> None:
    assert ChunkOptions().fingerprint() != ChunkOptions(split=False).fingerprint()


# --- properties ------------------------------------------------------------

_blocks = st.one_of(
    st.builds(paragraph, st.integers(1, 6)),
    st.builds(lambda n: "\n".join([SENTENCE] * n), st.integers(2, 5)),
    st.builds(lambda n: "\n".join(f"- {SENTENCE}" for _ in range(n)), st.integers(1, 5)),
    st.builds(lambda n: "```\n" + "code()\n" * n + "```", st.integers(1, 30)),
    st.builds(lambda n: "> " + paragraph(n), st.integers(1, 4)),
    st.builds(
        lambda n: "| a | b |\n|---|---|\n" + "\n".join(f"| {i} | {SENTENCE} |" for i in range(n)),
        st.integers(1, 6),
    ),
    st.just("<div>\nhtml\n</div>"),
    st.just("word " * 60 + "end."),
)


@st.composite
def documents(draw: st.DrawFn) -> list[list[str]]:
    """Sections (heading, blocks) of random blocks."""
    sections = []
    for index in range(draw(st.integers(1, 4))):
        blocks = draw(st.lists(_blocks, min_size=1, max_size=6))
        sections.append([f"## Section {index}", *blocks])
    return sections


def render(sections: list[list[str]]) -> str:
    return "\n\n".join("\n\n".join(section) for section in sections) + "\n"


_limits = st.sampled_from([120, 250, 600])


@settings(max_examples=150, deadline=None)
@given(documents(), _limits)
def test_property_parts_fit_unless_a_block_cannot_be_split(
    sections: list[list[str]], limit: int
) -> None:
    text = render(sections)
    found = parts(text, max=limit)
    assert len({c.id for c in found}) == len(found)
    for chunk in found:
        assert chunk.chars <= limit or chunk.unsplittable, chunk.id
        if chunk.unsplittable:
            assert chunk.unsplittable.split(" (")[0] in (
                "fenced code block",
                "code line",
                "HTML block",
                "HTML element",
                "table row",
                "sentence",
            )
    # Every non-blank line is in a part, and the parts of a unit are numbered 1..N.
    lines = text.split("\n")
    covered = {n for c in found for n in range(c.start_line, c.end_line + 1)}
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= covered
    for group in {unit_id(c.id) for c in found}:
        numbers = [c.part for c in found if unit_id(c.id) == group]
        assert numbers == list(range(1, len(numbers) + 1))
        assert {c.parts for c in found if unit_id(c.id) == group} == {len(numbers)}
        first = next(c for c in found if unit_id(c.id) == group)
        assert first.identity == group.partition("#")[2]


@settings(max_examples=100, deadline=None)
@given(documents(), _limits, st.data())
def test_property_parts_of_other_sections_are_stable_under_edits(
    sections: list[list[str]], limit: int, data: st.DataObject
) -> None:
    """Editing one section (its text grows) changes no other section's parts."""
    index = data.draw(st.integers(0, len(sections) - 1))
    edited = [list(section) for section in sections]
    edited[index].insert(1, paragraph(3))
    before = parts(render(sections), max=limit)
    after = parts(render(edited), max=limit)
    target = f"docs/a.md#section-{index}"

    def others(chunks: list[Chunk]) -> list[tuple[str, str]]:
        return [(c.id, c.hash) for c in chunks if unit_id(c.id) != target]

    assert others(after) == others(before)
    assert [c.id for c in join_parts(after)] == [c.id for c in join_parts(before)]


@settings(max_examples=50, deadline=None)
@given(documents(), _limits)
def test_property_crlf_and_bom_twins_give_the_same_parts(
    sections: list[list[str]], limit: int
) -> None:
    data = render(sections).encode()
    options = ChunkOptions(max=limit, min=0)

    def key(raw: bytes) -> list[tuple[object, ...]]:
        return [
            (c.id, c.start_line, c.end_line, c.start_column, c.end_column, c.hash)
            for c in chunk_bytes(raw, "docs/a.md", options=options).chunks
        ]

    assert key(data.replace(b"\n", b"\r\n")) == key(data)
    assert key(b"\xef\xbb\xbf" + data) == key(data)
