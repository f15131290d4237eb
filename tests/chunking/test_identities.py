"""Chunk IDs are unique per file, for every chunker, unless the author wrote one twice
(issue 44: ``class g``, code, ``def g``, code, ``class g``, code gave
``module-after-g-1`` twice; kramdown's ``# a``, ``# a-1``, ``# a`` gave ``a-1`` twice)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_text
from chunkgate.chunking.identities import Namer, distinct
from chunkgate.core.model import Chunk
from chunkgate.sites.model import SETTINGS

_FLAVOURS = ["auto", *SETTINGS]


def _repeated(chunks: list[Chunk]) -> list[str]:
    return [found for found, count in Counter(c.id for c in chunks).items() if count > 1]


# --- Python: repeated class and function names with code between them -------------

_PY_NAMES = st.sampled_from(["g", "g_1", "h"])
_PY_DEFINITIONS = st.one_of(
    _PY_NAMES.map(lambda name: f"class {name}:\n    pass"),
    _PY_NAMES.map(lambda name: f"def {name}():\n    pass"),
    _PY_NAMES.map(lambda name: f"class {name}:\n    def {name}(self):\n        pass\n    X = 1"),
    _PY_NAMES.map(lambda name: f"@overload\ndef {name}(): ...\ndef {name}():\n    pass"),
)
_PY_CODE = st.sampled_from(["", "X = 1", "import os", "print(X)"])
python_modules = st.lists(st.tuples(_PY_DEFINITIONS, _PY_CODE), min_size=1, max_size=8).map(
    lambda pairs: "\n".join(f"{definition}\n{code}" for definition, code in pairs) + "\n"
)


@settings(max_examples=200, deadline=None)
@given(python_modules, st.sampled_from([8, 30, 2000]), st.booleans())
def test_property_python_ids_are_unique(source: str, most: int, whole: bool) -> None:
    # min 0: code between definitions stays a chunk of its own, named after them.
    chosen = ChunkOptions(max=most, min=0, split_classes=not whole)
    assert _repeated(chunk_text(source, "m.py", options=chosen)) == []


# --- Markdown: repeated headings and headings slugging to another's -N --------------

_HEADINGS = st.sampled_from(["a", "a-1", "A", "a 1", "a_1", "!", "a~2"])
markdown_pages = st.lists(
    st.tuples(st.integers(1, 3), _HEADINGS, st.sampled_from(["", "Some text.", "More."])),
    min_size=1,
    max_size=10,
).map(
    lambda sections: "".join(
        f"{'#' * level} {text}\n\n{body}\n\n" for level, text, body in sections
    )
)


@settings(max_examples=200, deadline=None)
@given(markdown_pages, st.sampled_from(_FLAVOURS), st.sampled_from([3, 2000]))
def test_property_markdown_ids_are_unique_in_every_flavour(
    page: str, flavour: str, most: int
) -> None:
    chosen = ChunkOptions(max=most, min=0, anchors=flavour)
    assert _repeated(chunk_text(page, "a.md", options=chosen)) == []


@pytest.mark.parametrize(
    ("flavour", "expected"),
    [
        # Jekyll renders id="a", id="a-1", id="a-1": the second a-1 needs another ID.
        ("kramdown", ["a", "a-1", "a-1-1"]),
        ("github", ["a", "a-1", "a-2"]),
        ("mkdocs", ["a", "a-1", "a_1"]),
    ],
)
def test_a_heading_the_site_gives_a_taken_anchor_gets_the_next_free_number(
    flavour: str, expected: list[str]
) -> None:
    page = "# a\n\nx\n\n# a-1\n\ny\n\n# a\n\nz\n"
    found = chunk_text(page, "a.md", options=ChunkOptions(min=0, anchors=flavour))
    assert [c.identity for c in found] == expected


def test_the_same_explicit_id_twice_is_the_authors() -> None:
    page = "# One {#same}\n\nx\n\n# Two {#same}\n\ny\n"
    found = chunk_text(page, "a.md", options=ChunkOptions(min=0))
    assert [c.identity for c in found] == ["same", "same"]


# --- tree-sitter code: the same "after X" naming ------------------------------------

_CODE: dict[str, tuple[list[str], list[str]]] = {
    "a.sh": (
        ["g() {\n  echo 1\n}", "g-1() {\n  echo 2\n}", "g~2() { echo 3; }", "h() { :; }"],
        ["X=1", "echo hi"],
    ),
    "a.js": (
        ["function g() {\n  return 1\n}", "class g {\n  m() {\n    return 1\n  }\n}"],
        ["const X = 1;", "g();"],
    ),
    "a.go": (
        ["func g() {\n\treturn\n}", "type g struct {\n\tA int\n}", "func (s *g) g() {\n}"],
        ["var X = 1", "var Y = 2"],
    ),
    "a.rs": (
        ["fn g() {\n    1;\n}", "struct g {\n    a: i32,\n}", "impl g {\n    fn g(&self) {}\n}"],
        ["const X: i32 = 1;", "static Y: i32 = 2;"],
    ),
    "a.rb": (
        ["def g\n  1\nend", "class G\n  def g\n    1\n  end\nend"],
        ["X = 1", "puts 1"],
    ),
}


@st.composite
def code_files(draw: st.DrawFn) -> tuple[str, str]:
    path = draw(st.sampled_from(sorted(_CODE)))
    definitions, code = _CODE[path]
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(definitions), st.sampled_from(["", *code])),
            min_size=1,
            max_size=8,
        )
    )
    return path, "\n".join(f"{definition}\n{between}" for definition, between in pairs) + "\n"


@settings(max_examples=200, deadline=None)
@given(code_files(), st.sampled_from([1, 20, 2000]))
def test_property_code_ids_are_unique(file: tuple[str, str], most: int) -> None:
    path, text = file
    chosen = ChunkOptions(max=most, min=0)
    assert _repeated(chunk_text(text, path, options=chosen)) == []


# --- the two ways of keeping them apart ---------------------------------------------


def test_the_namer_never_hands_out_an_identity_twice() -> None:
    namer = Namer()
    asked = ["after-g", "after-g", "after-g-1", "after-g-1", "after-g"]
    assert [namer(identity) for identity in asked] == [
        "after-g",
        "after-g-1",
        "after-g-1-1",
        "after-g-1-2",
        "after-g-2",
    ]


def test_distinct_renames_only_a_made_repeat() -> None:
    given = [("a", False), ("a-1", False), ("a-1", False), ("b", True), ("b", True)]
    assert distinct(given, reserved={"a-1-1"}) == ["a", "a-1", "a-1-2", "b", "b"]
