"""``markdown.merge_small``: a Markdown section under ``size.min`` joins a neighbour."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_document, chunk_text, context_for
from chunkgate.chunking.markdown import outline
from chunkgate.config.model import Config
from chunkgate.core.model import Chunk
from chunkgate.rules import size
from chunkgate.rules.base import FileContext

MERGE = ChunkOptions(merge_small=True)
LONG = "Point it at your documentation and commit the manifest it writes for you."

GUIDE = f"""\
# Guide

An introduction to the guide, long enough to stand on its own as a chunk.

## Install

See below.

### pip

Run pip install chunkgate in a fresh virtual environment, then commit.

### conda

Use conda.

## Usage

{LONG}

## End

Bye.
"""


def chunks(text: str, options: ChunkOptions = MERGE) -> list[Chunk]:
    return chunk_text(text, "docs/a.md", options=options)


def shape(text: str, options: ChunkOptions = MERGE) -> list[tuple[str, tuple[str, ...]]]:
    """Each chunk's identity and the identities it took in."""
    return [
        (c.identity, tuple(m.partition("#")[2] for m in c.merged)) for c in chunks(text, options)
    ]


def test_off_by_default_and_then_nothing_changes() -> None:
    assert not ChunkOptions().merge_small
    assert "merge_small" not in ChunkOptions().fingerprint()
    assert "markdown.merge_small=true" in MERGE.fingerprint()
    plain = chunks(GUIDE, ChunkOptions())
    assert [c.identity for c in plain] == ["guide", "install", "pip", "conda", "usage", "end"]
    assert not any(c.merged for c in plain)


def test_small_sections_join_a_neighbour_and_keep_the_first_id() -> None:
    found = chunks(GUIDE)
    assert shape(GUIDE) == [
        ("guide", ()),
        ("install", ("pip", "conda")),  # the intro goes down into its subsection;
        # the last small subsection goes up into the chunk before it
        ("usage", ("end",)),  # a small last sibling goes up
    ]
    install = found[1]
    lines = GUIDE.split("\n")
    assert install.text == "\n".join(lines[install.start_line - 1 : install.end_line])
    assert (install.start_line, install.end_line) == (5, 15)
    # The heading path is the first section's; the others' headings stay in the text.
    assert install.heading_path == ("Guide", "Install")
    assert install.level == 2
    assert "### pip" in install.text
    assert "### conda" in install.text
    assert install.to_dict()["merged"] == ["docs/a.md#pip", "docs/a.md#conda"]
    assert [c.parent for c in found] == [None, "docs/a.md#guide", "docs/a.md#guide"]


def test_the_page_keeps_every_heading_anchor() -> None:
    anchors = [h.id for h in outline(context_for(GUIDE, "docs/a.md", options=MERGE))]
    merged = [m for c in chunks(GUIDE) for m in c.merged]
    assert set(merged) <= set(anchors)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            f"# A\n\n{LONG}\n\n### a1\n\n{LONG}\n\n## B\n\nTiny.\n\n## C\n\n{LONG}\n",
            [("a", ()), ("a1", ()), ("b", ("c",))],
            id="not-up-across-a-shallower-heading-so-down-into-the-sibling",
        ),
        pytest.param(
            f"# A\n\n{LONG}\n\n### a1\n\n{LONG}\n\n## B\n\nTiny.\n\n# C\n\n{LONG}\n",
            [("a", ()), ("a1", ()), ("b", ()), ("c", ())],
            id="no-neighbour-under-the-same-heading-stays",
        ),
        pytest.param(
            f"Short intro.\n\n# Title\n\n{LONG}\n",
            [("title", ("~preamble",))],
            id="a-small-preamble-opens-the-first-section-under-its-id",
        ),
        pytest.param(
            f"{LONG}\n\n# Title\n\nTiny.\n\n# Next\n\n{LONG}\n",
            [("~preamble", ()), ("title", ("next",))],
            id="nothing-merges-up-into-a-preamble",
        ),
        pytest.param(
            f"## A\n\n{LONG}\n\n<!-- chunkgate: disable=CG202 -->\n## B\n\nTiny.\n",
            [("a", ()), ("b", ())],
            id="cg202-disabled-inline-stays",
        ),
        pytest.param(
            "## A\n\nTiny.\n\n## B\n\nSmall.\n\n## C\n\nWee.\n",
            [("a", ("b", "c"))],
            id="small-siblings-chain-into-the-first",
        ),
        pytest.param(
            f"## A\n\n{LONG}\n\n#### deep\n\nTiny.\n\n## B\n\n{LONG}\n",
            [("a", ("deep",)), ("b", ())],
            id="a-deeper-section-goes-up-into-its-ancestor",
        ),
    ],
)
def test_which_neighbour(text: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert shape(text) == expected


def test_a_merge_over_size_max_is_not_made() -> None:
    text = f"## A\n\n{LONG}\n\n## B\n\nTiny.\n\n## C\n\n{LONG}\n"
    joined = len(f"## A\n\n{LONG}\n\n## B\n\nTiny.")
    tight = ChunkOptions(merge_small=True, max=joined - 1)
    assert shape(text, tight) == [("a", ()), ("b", ()), ("c", ())]
    assert shape(text, ChunkOptions(merge_small=True, max=joined)) == [("a", ("b",)), ("c", ())]


def test_a_section_that_cannot_merge_is_still_undersized(tmp_path: Path) -> None:
    text = f"# A\n\n{LONG}\n\n### a1\n\n{LONG}\n\n## B\n\nTiny.\n\n# C\n\n{LONG}\n"
    config = Config(root=tmp_path, chunking=MERGE)
    chunked = chunk_document(text, "docs/a.md", options=MERGE)
    file = FileContext("docs/a.md", len(text), text, chunked.chunks, config, chunked.problems)
    found = [(f.code, f.chunk.id if f.chunk else None) for f in size.check(file)]
    assert found == [("CG202", "docs/a.md#b")]


# -- properties --------------------------------------------------------------------------

LEVELS = st.integers(1, 4)
TEXTS = st.sampled_from(["Tiny.", "Small text.", LONG, f"{LONG}\n\n{LONG}"])
BODIES = st.one_of(TEXTS, st.just(""))  # none: the heading opens the next chunk


@st.composite
def pages(draw: st.DrawFn) -> list[tuple[int, str]]:
    return draw(st.lists(st.tuples(LEVELS, BODIES), min_size=1, max_size=10))


def render(sections: list[tuple[int, str]], preamble: str = "") -> str:
    parts = [preamble] if preamble else []
    parts.extend(f"{'#' * level} Part {n}\n\n{body}" for n, (level, body) in enumerate(sections))
    return "\n\n".join(parts) + "\n"


def citable(found: list[Chunk]) -> dict[str, str]:
    """Each ID a citation may name -> the chunk that answers it."""
    out = {c.id: c.id for c in found}
    out.update({m: c.id for c in found for m in c.merged})
    return out


PROPERTY = settings(max_examples=150, deadline=None)


@PROPERTY
@given(pages(), st.sampled_from(["", "Intro.", LONG]), st.sampled_from([120, 300, 2000]))
def test_merged_chunks_are_exact_bounded_and_every_id_still_resolves(
    sections: list[tuple[int, str]], preamble: str, maximum: int
) -> None:
    text = render(sections, preamble)
    lines = text.split("\n")
    plain = chunks(text, ChunkOptions(max=maximum))
    found = chunks(text, ChunkOptions(max=maximum, merge_small=True))
    covered: list[int] = []
    for chunk in found:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        covered.extend(range(chunk.start_line, chunk.end_line + 1))
        if chunk.merged:
            assert chunk.chars <= maximum
    assert covered == sorted(set(covered))
    assert {c.start_line for c in plain} >= {c.start_line for c in found}
    assert sorted(citable(found)) == sorted(c.id for c in plain)
    # Each merged ID resolves to the chunk whose lines hold its section.
    for chunk_id, holder in citable(found).items():
        section = next(c for c in plain if c.id == chunk_id)
        chunk = next(c for c in found if c.id == holder)
        assert chunk.start_line <= section.start_line <= section.end_line <= chunk.end_line


@PROPERTY
@given(pages(), st.data())
def test_editing_a_body_keeps_every_citable_id(
    sections: list[tuple[int, str]], data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(sections) - 1))
    edited = list(sections)
    if not sections[at][1]:
        return  # adding a body to a heading without one makes a chunk, merging or not
    edited[at] = (sections[at][0], data.draw(TEXTS))
    for page in (sections, edited):
        _unmerged_stay(render(page))
    assert sorted(citable(chunks(render(sections)))) == sorted(citable(chunks(render(edited))))


def _unmerged_stay(text: str) -> None:
    """A section over ``size.min`` whose neighbours are too stays as it is: a merge is
    decided by a small section and its neighbours, never by the rest of the page."""
    plain = chunks(text, ChunkOptions())
    found = {c.id: c for c in chunks(text)}
    for index, chunk in enumerate(plain):
        if all(c.chars >= MERGE.min for c in plain[max(index - 1, 0) : index + 2]):
            assert found[chunk.id][:-3] == chunk[:-3]  # its relations may name merged ones


def test_small_as_cg202_measures_it_template_syntax_aside_and_includes_never() -> None:
    figure = '{{< figure src="x.png" alt="the long figure" >}}'
    hugo = f"## A\n\n{LONG}\n\n## B\n\nTiny.\n\n{figure}\n"
    assert len(hugo.split("## B")[1]) > MERGE.min
    assert shape(hugo) == [("a", ("b",))]  # B is a shortcode and one word of prose
    include = f'## A\n\n{LONG}\n\n## B\n\n--8<-- "docs/snippets/b.md"\n'
    assert shape(include) == [("a", ()), ("b", ())]  # B is the included file's text
