"""parent / prev / next on every chunk, for every language (issue 20)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate import ChunkOptions, chunk_text
from chunkgate.core.model import Chunk

MARKDOWN = """\
intro before any heading

# Guide

guide body

## Setup

setup body

### Deep

deep body

## Empty

### Child of empty

child body

# Other

other body
"""

PYTHON = '''\
"""Module docstring."""


class Big:
    """A class split into its head and methods."""

    def first(self) -> int:
        return 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1

    def second(self) -> int:
        return 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2


def alone() -> None:
    pass
'''


def relations(chunks: list[Chunk]) -> dict[str, tuple[str | None, str | None, str | None]]:
    return {c.identity: (c.parent, c.prev, c.next) for c in chunks}


def test_markdown_parents_are_enclosing_sections_with_chunks() -> None:
    chunks = chunk_text(MARKDOWN, "docs/g.md")
    parents = {c.identity: c.parent for c in chunks}
    assert parents == {
        "~preamble": None,
        "guide": None,
        "setup": "docs/g.md#guide",
        "deep": "docs/g.md#setup",
        # "## Empty" has no body of its own, so no chunk: the parent is the one above it.
        "child-of-empty": "docs/g.md#guide",
        "other": None,
    }


def test_prev_and_next_follow_document_order() -> None:
    chunks = chunk_text(MARKDOWN, "docs/g.md")
    ids = [c.id for c in chunks]
    assert [c.prev for c in chunks] == [None, *ids[:-1]]
    assert [c.next for c in chunks] == [*ids[1:], None]


def test_methods_have_their_class_head_as_parent() -> None:
    chunks = chunk_text(PYTHON, "pkg/mod.py", options=ChunkOptions(max=200, min=0))
    by_id = relations(chunks)
    assert by_id["method-Big.first"][0] == "pkg/mod.py#class-Big"
    assert by_id["method-Big.second"][0] == "pkg/mod.py#class-Big"
    assert by_id["class-Big"][0] is None
    assert by_id["function-alone"][0] is None


def test_parts_share_the_units_parent() -> None:
    body = "\n\n".join(f"Paragraph {n} " + "words " * 30 for n in range(8))
    text = f"# Top\n\ntop body\n\n## Long\n\n{body}\n"
    chunks = chunk_text(text, "a.md", options=ChunkOptions(max=400, min=0))
    parts = [c for c in chunks if c.heading_path == ("Top", "Long")]
    assert len(parts) > 2
    assert {c.parent for c in parts} == {"a.md#top"}
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[1].prev == parts[0].id
    assert parts[0].next == parts[1].id


@pytest.mark.parametrize(
    ("path", "text"),
    [
        pytest.param("notes.txt", "one paragraph\n\n" * 200, id="text"),
        pytest.param("doc.rst", "Title\n=====\n\nbody\n\nSub\n---\n\nsub body\n", id="rst"),
        pytest.param("m.py", PYTHON, id="python"),
        pytest.param("a.md", MARKDOWN, id="markdown"),
    ],
)
def test_every_language_links_its_chunks(path: str, text: str) -> None:
    chunks = chunk_text(text, path, options=ChunkOptions(max=300, min=0))
    ids = {c.id for c in chunks}
    assert chunks[0].prev is None
    assert chunks[-1].next is None
    for before, after in itertools.pairwise(chunks):
        assert before.next == after.id
        assert after.prev == before.id
    assert all(c.parent is None or c.parent in ids for c in chunks)


def test_rst_subsection_parent() -> None:
    chunks = chunk_text("Title\n=====\n\nbody\n\nSub\n---\n\nsub body\n", "doc.rst")
    assert [c.parent for c in chunks] == [None, "doc.rst#title"]


def test_to_dict_and_json_lines_carry_relations() -> None:
    import json

    from chunkgate.chunking import ChunkedFile
    from chunkgate.report.listing import json_lines

    chunks = chunk_text(MARKDOWN, "docs/g.md")
    for chunk in chunks:
        as_dict = chunk.to_dict()
        assert (as_dict["parent"], as_dict["prev"], as_dict["next"]) == (
            chunk.parent,
            chunk.prev,
            chunk.next,
        )
    lines = json_lines(ChunkedFile("docs/g.md", "markdown", tuple(chunks)), text=True)
    assert [json.loads(line) for line in lines.splitlines()] == [c.to_dict() for c in chunks]


@given(
    st.lists(
        st.tuples(st.integers(1, 6), st.sampled_from(["A", "B", "Setup"]), st.booleans()),
        min_size=1,
        max_size=12,
    )
)
def test_parent_comes_earlier_and_encloses(sections: list[tuple[int, str, bool]]) -> None:
    text = "".join(
        f"{'#' * level} {name}\n\n" + ("some body text here\n\n" if body else "")
        for level, name, body in sections
    )
    chunks = chunk_text(text, "p.md")
    seen: dict[str, Chunk] = {}
    for chunk in chunks:
        if chunk.parent is not None:
            parent = seen[chunk.parent]  # an earlier chunk of the same file
            outer = parent.heading_path
            assert chunk.heading_path[: len(outer)] == outer
            assert len(outer) < len(chunk.heading_path)
        seen[chunk.id] = chunk
