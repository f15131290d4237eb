"""The Python chunker and its parts on generated class and method shapes, with a
``size.max`` small enough that nearly every unit is split (issue 44: a class split
into members whose head took module code under ``size.min`` crashed the splitter)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_text
from chunkgate.chunking.base import is_blank, span_text
from chunkgate.chunking.headers import header_lines
from chunkgate.core.model import Chunk

_NAMES = st.sampled_from(["g", "m", "A"])
_SIMPLE = st.sampled_from(
    [
        "X = 1",
        "1",
        "d",
        "pass",
        "a = 1; b = 2",
        "# a comment",
        "",
        '"""A string."""',
        '"""A string.\n\nIts second paragraph.\n"""',
        "if X:\n    y = 2\nelse:\n    y = 3",
    ]
)
# A long line that no size.max below fits: a part of its own, never cut.
_LONG = st.integers(1, 80).map(lambda width: "y = '" + "o" * width + "'")
_DECORATORS = st.sampled_from(["", "@dec\n", "@dec(\n    1,\n)\n", "@property\n"])


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line else line for line in text.split("\n"))


def _statements(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(_SIMPLE, _LONG, children), min_size=1, max_size=4).map("\n".join)


def _body(text: str) -> str:
    # A body of comments and blank lines alone is no body.
    code = [line for line in text.split("\n") if line.strip() and not line.startswith("#")]
    return _indent(text if code else text + "\npass")


def _shapes(children: st.SearchStrategy[str]) -> list[st.SearchStrategy[str]]:
    """A class, a one-line function and a function, whose bodies hold ``children``."""
    one_line = st.builds(
        lambda decorator, name, tail: f"{decorator}def {name}(): s{tail}",
        _DECORATORS,
        _NAMES,
        st.sampled_from(["", "s" * 40]),
    )
    function = st.builds(
        lambda decorator, keyword, name, body: f"{decorator}{keyword} {name}():\n{_body(body)}",
        _DECORATORS,
        st.sampled_from(["def", "async def"]),
        _NAMES,
        _statements(children),
    )
    # Mostly members, so that a class over the limit splits into them.
    members = st.lists(st.one_of(one_line, function, _SIMPLE, _LONG), min_size=1, max_size=4).map(
        "\n".join
    )
    klass = st.builds(
        lambda decorator, name, doc, body: f"{decorator}class {name}:\n{_body(doc + body)}",
        _DECORATORS,
        _NAMES,
        st.sampled_from(["", '"""oc"""\n', '"""' + "o" * 30 + '"""\n']),
        members,
    )
    return [klass, one_line, function]


# Classes in functions in classes, a few levels deep at most.
_NESTED = st.recursive(_SIMPLE, lambda children: st.one_of(*_shapes(children)), max_leaves=6)
_CLASS, *_FUNCTIONS = _shapes(_NESTED)
# Module code and definitions in turn, mostly classes; short code (under size.min)
# joins a neighbour, a class over size.max splits into its members.
_CODE = st.one_of(st.sampled_from(["1", "X = 1", ""]), _SIMPLE, _LONG)
modules = st.builds(
    lambda pairs, last: "\n".join([*(item for pair in pairs for item in pair), last]) + "\n",
    st.lists(st.tuples(_CODE, st.one_of(_CLASS, _CLASS, *_FUNCTIONS)), max_size=4),
    _CODE,
)
options = st.sampled_from([5, 10, 20, 40, 60]).flatmap(
    lambda most: st.builds(
        ChunkOptions,
        max=st.just(most),
        min=st.sampled_from([0, 2, most // 2, most]),
        split_classes=st.booleans(),
    )
)


def _assert_chunks_tile_the_source(source: str, chunks: list[Chunk]) -> None:
    """Each chunk's text is its lines (and columns) of the source, the chunks come in
    order without overlapping, and every line with text below the header is in one."""
    lines = source.split("\n")
    end = (0, 0)
    covered: set[int] = set()
    for chunk in chunks:
        cut = (chunk.start_column, chunk.end_column)
        assert chunk.text == span_text(lines, chunk.start_line, chunk.end_line, *cut), chunk.id
        start = (chunk.start_line, max(chunk.start_column - 1, 0))
        assert start >= end, chunk.id
        end = (chunk.end_line, chunk.end_column) if chunk.end_column else (chunk.end_line + 1, 0)
        covered.update(range(chunk.start_line, chunk.end_line + 1))
    header = header_lines(lines)
    text_lines = {n for n, line in enumerate(lines, 1) if n > header and not is_blank(line)}
    assert text_lines <= covered


@settings(max_examples=200, deadline=None)
@given(modules, options)
def test_property_small_limits_split_any_class_shape_into_its_source(
    source: str, chosen: ChunkOptions
) -> None:
    chunks = chunk_text(source, "m.py", options=chosen)
    _assert_chunks_tile_the_source(source, chunks)
    assert chunk_text(source, "m.py", options=chosen) == chunks


_NESTED_DECORATED = (
    'async def x():\n    @dec(\n    )\n    def m():\n        """doc\n        """\n'
    "    @dec(\n    )\n    class f:\n        @dec(\n        )\n        def f():\n"
    '            """doc\n            """\n'
)


@pytest.mark.parametrize(
    ("source", "limits"),
    [
        pytest.param(
            '1\nclass A:\n    """oc"""\n    def m():s\n    d',
            (20, 2),
            id="module-code-joined-to-a-split-class-head",
        ),
        pytest.param(
            "x" * 25
            + '\nclass A:\n    """'
            + "o" * 2015
            + '"""\n    def m():'
            + "s" * 1693
            + "\n    "
            + "d" * 1285
            + "\n",
            (2000, 40),
            id="the-same-at-the-default-limits",
        ),
        pytest.param(
            "class g(B):\n    @property\n    def m(): pass\n\n    y = '" + "o" * 20 + "'\nX = 1",
            (20, 10),
            id="module-code-joined-to-a-split-class-last-member",
        ),
        pytest.param(
            _NESTED_DECORATED + "class A:\n    @dec(\n    )\n    def f():\n            pass\n"
            "    @dec(\n    )\n    def g_1():\n            X = 1\nd",
            (10, 10),
            # 16c37aa gave method-A.g_1 lines 22-23, then its ~2 lines 20-22.
            id="the-same-cut-out-of-order",
        ),
    ],
)
def test_module_code_joined_to_a_member_of_a_split_class_splits_within_it(
    source: str, limits: tuple[int, int]
) -> None:
    most, least = limits
    chunks = chunk_text(source, "a.py", options=ChunkOptions(max=most, min=least))
    _assert_chunks_tile_the_source(source, chunks)
