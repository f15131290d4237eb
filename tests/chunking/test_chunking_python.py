from __future__ import annotations

import codecs
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_bytes, context_for
from chunkgate.chunking.base import is_blank
from chunkgate.chunking.python import chunk_python
from chunkgate.core.model import Chunk, Problem
from chunkgate.diff.moves import join_parts


def _chunk(
    source: str,
    *,
    max: int = 2000,
    split_classes: bool = True,
    path: str = "m.py",
    split: bool = False,
) -> tuple[list[Chunk], list[Problem]]:
    # Splitting units into parts is off here: these tests are about definitions
    # and classes (test_chunking_pyparts.py has the parts).
    options = ChunkOptions(max=max, min=0, split_classes=split_classes, split=split)
    chunks, problems = chunk_python(context_for(source, path, options=options))
    _assert_well_formed(source, chunks)
    return chunks, problems


def _assert_well_formed(source: str, chunks: list[Chunk]) -> None:
    """Whole lines, in order, no overlap, every non-blank line covered, unique IDs."""
    lines = source.replace("\r\n", "\n").removeprefix("\ufeff").split("\n")
    covered: list[int] = []
    for chunk in chunks:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert not is_blank(lines[chunk.start_line - 1])
        assert not is_blank(lines[chunk.end_line - 1])
        assert chunk.start_line <= chunk.body_line <= chunk.end_line
        covered.extend(range(chunk.start_line, chunk.end_line + 1))
    assert covered == sorted(set(covered))
    text_lines = {number for number, line in enumerate(lines, 1) if not is_blank(line)}
    assert text_lines <= set(covered)
    ids = [chunk.id for chunk in chunks]
    assert len(ids) == len(set(ids))


def _spans(chunks: list[Chunk]) -> list[tuple[str, str, str | None, int, int]]:
    return [(c.identity, c.kind, c.symbol, c.start_line, c.end_line) for c in chunks]


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("", id="empty"),
        pytest.param("\n\n   \n\t\n", id="only blank lines"),
    ],
)
def test_no_chunks(source: str) -> None:
    assert _chunk(source) == ([], [])


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            '\n\n"""Doc."""\nimport os\n\nX = 1\n\n\n',
            [("module", "module", None, 3, 6)],
            id="module code only, trimmed of blank lines",
        ),
        pytest.param(
            _src("""
                def f(a):
                    return a
            """),
            [("function-f", "function", "f", 1, 2)],
            id="function",
        ),
        pytest.param(
            _src("""
                async def f(a):
                    return a
            """),
            [("function-f", "function", "f", 1, 2)],
            id="async function",
        ),
        pytest.param(
            _src("""
                import functools

                @functools.cache
                @other
                def f(a):
                    return a
            """),
            [("module", "module", None, 1, 1), ("function-f", "function", "f", 3, 6)],
            id="decorators start the chunk",
        ),
        pytest.param(
            _src("""
                @(
                    decorator
                )
                def f():
                    pass
            """),
            [("function-f", "function", "f", 1, 5)],
            id="parenthesised decorator starts at its @",
        ),
        pytest.param(
            _src("""
                X = 1
                # Why f exists,
                # at some length.
                @decorator
                def f():
                    pass
            """),
            [("module", "module", None, 1, 1), ("function-f", "function", "f", 2, 6)],
            id="comment block directly above",
        ),
        pytest.param(
            _src("""
                # A note about the module.

                def f():
                    pass
            """),
            [("module", "module", None, 1, 1), ("function-f", "function", "f", 3, 4)],
            id="comment block separated by a blank line is module code",
        ),
        pytest.param(
            _src('''
                X = """
                # inside a string
                # still inside"""
                def f():
                    pass
            '''),
            [("module", "module", None, 1, 3), ("function-f", "function", "f", 4, 5)],
            id="comment-like lines of a string above are not a comment block",
        ),
        pytest.param(
            _src("""
                def f():
                    x = 1
                    # return x

                    # more notes
                # about the module
                Y = 2
            """),
            [("function-f", "function", "f", 1, 5), ("module-after-f", "module", None, 6, 7)],
            id="indented comments after a definition belong to it",
        ),
        pytest.param(
            _src("""
                if X:
                    Y = 1
                    # the end of the if
                def f():
                    pass
            """),
            [("module", "module", None, 1, 3), ("function-f", "function", "f", 4, 5)],
            id="comment indented deeper than the def above it is not its comment block",
        ),
        pytest.param(
            _src("""
                from typing import overload

                @overload
                def f(x: int) -> int: ...
                @overload
                def f(x: str) -> str: ...

                # the implementation
                def f(x):
                    return x
            """),
            [("module", "module", None, 1, 1), ("function-f", "function", "f", 3, 10)],
            id="overload series is one chunk",
        ),
        pytest.param(
            _src("""
                @property
                def x(self):
                    return 1
                @x.setter
                def x(self, value):
                    pass
            """),
            [("function-x", "function", "x", 1, 6)],
            id="property and setter are one chunk",
        ),
        pytest.param(
            _src("""
                def f():
                    return 1

                X = f()

                def f():
                    return 2

                Y = f()

                def f():
                    return 3
            """),
            [
                ("function-f", "function", "f", 1, 2),
                ("module-after-f", "module", None, 4, 4),
                ("function-f-1", "function", "f", 6, 7),
                ("module-after-f-1", "module", None, 9, 9),
                ("function-f-2", "function", "f", 11, 12),
            ],
            id="redefined names are numbered",
        ),
        pytest.param(
            _src("""
                def f():
                    pass
                class f:
                    pass
            """),
            [("function-f", "function", "f", 1, 2), ("class-f", "class", "f", 3, 4)],
            id="a function and a class of one name are not grouped",
        ),
        pytest.param(
            _src('''
                """Doc."""
                import os


                class A(Base):
                    """Doc."""

                    class Inner:
                        pass

                    def m(self):
                        return 1
                after = A()

                def g():
                    pass
                LAST = 1
            '''),
            [
                ("module", "module", None, 1, 2),
                ("class-A", "class", "A", 5, 12),
                ("module-after-A", "module", None, 13, 13),
                ("function-g", "function", "g", 15, 16),
                ("module-after-g", "module", None, 17, 17),
            ],
            id="module chunks between definitions",
        ),
    ],
)
def test_chunks(source: str, expected: list[tuple[str, str, str | None, int, int]]) -> None:
    chunks, problems = _chunk(source)
    assert _spans(chunks) == expected
    assert problems == []
    assert all(c.language == "python" and c.level == 0 and c.heading_path == () for c in chunks)
    assert all(c.id == f"m.py#{c.identity}" for c in chunks)


_BIG_CLASS = _src('''
    # The class.
    @dataclass
    class A(
        Base,
    ):
        """Doc."""

        attr = 1

        class Inner:
            pass

        # Getter and setter.
        @property
        def value(self):
            return 1

        @value.setter
        def value(self, new):
            pass

        other = 2

        @overload
        def get(self, x: int) -> int: ...
        @overload
        def get(self, x: str) -> str: ...
        def get(self, x):
            return x
            # indented deeper: the method's

        # a class-level note
    X = 1
''')


def test_large_class_is_split() -> None:
    chunks, _ = _chunk(_BIG_CLASS, max=100)
    assert _spans(chunks) == [
        ("class-A", "class", "A", 1, 8),
        ("class-A.Inner", "class", "A.Inner", 10, 11),
        ("method-A.value", "method", "A.value", 13, 20),
        ("class-A.after-value", "class", "A", 22, 22),
        ("method-A.get", "method", "A.get", 24, 30),
        ("class-A.after-get", "class", "A", 32, 32),
        ("module-after-A", "module", None, 33, 33),
    ]
    assert [c.body_line for c in chunks] == [6, 11, 16, 22, 25, 32, 33]


@pytest.mark.parametrize(
    ("max", "split_classes"),
    [
        pytest.param(2000, True, id="class within max"),
        pytest.param(100, False, id="splitting off"),
    ],
)
def test_class_stays_whole(max: int, split_classes: bool) -> None:
    chunks, _ = _chunk(_BIG_CLASS, max=max, split_classes=split_classes)
    assert _spans(chunks) == [
        ("class-A", "class", "A", 1, 32),
        ("module-after-A", "module", None, 33, 33),
    ]


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            "class A:\n" + "".join(f"    field_{n}: int = {n}\n" for n in range(20)),
            id="class without methods",
        ),
        pytest.param(
            "class A:\n    x = 1\nclass A:\n"
            + "".join(f"    def m{n}(self): pass\n" for n in range(9)),
            id="run of same-name classes",
        ),
    ],
)
def test_oversized_class_that_cannot_split(source: str) -> None:
    chunks, _ = _chunk(source, max=50)
    assert [(c.identity, c.kind) for c in chunks] == [("class-A", "class")]


def test_split_class_method_without_head_statements() -> None:
    source = _src("""
        class A:
            def m(self):
                return 1

            def n(self):
                return 2
    """)
    chunks, _ = _chunk(source, max=30)
    assert _spans(chunks) == [
        ("class-A", "class", "A", 1, 1),
        ("method-A.m", "method", "A.m", 2, 3),
        ("method-A.n", "method", "A.n", 5, 6),
    ]
    assert chunks[0].body_line == 1


def test_split_class_ids_are_numbered_with_the_file() -> None:
    source = _src("""
        class A:
            def m(self):
                return 1

            x = 1

            def m(self):
                return 2

            y = 2
        X = 1


        class A:
            pass
    """)
    chunks, _ = _chunk(source, max=40)
    assert [c.identity for c in chunks] == [
        "class-A",
        "method-A.m",
        "class-A.after-m",
        "method-A.m-1",
        "class-A.after-m-1",
        "module-after-A",
        "class-A-1",
    ]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("def f(\n    a,\n    b,\n):\n    return a\n", 5, id="multi-line header"),
        pytest.param('@d\ndef f():\n    """Doc."""\n    return 1\n', 3, id="decorated, docstring"),
        pytest.param("def f(): return 1\n", 1, id="one-liner"),
        pytest.param("class A:\n    @d\n    def m(self): pass\n", 2, id="class body decorated"),
        pytest.param("X = 1\n", 1, id="module chunk: its start"),
    ],
)
def test_body_line(source: str, expected: int) -> None:
    chunks, _ = _chunk(source)
    assert chunks[0].body_line == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("def f():  # chunkgate: disable=CG201\n    pass\n", {"CG201"}, id="def line"),
        pytest.param(
            "# chunkgate: disable=CG202, cg201\n@d\ndef f():\n    pass\n",
            {"CG201", "CG202"},
            id="comment block",
        ),
        pytest.param(
            "@d  # chunkgate: disable=CG501\ndef f():\n    pass\n", {"CG501"}, id="decorator"
        ),
        pytest.param(
            "def f(\n    a,  # chunkgate: disable=CG201\n):\n    pass\n",
            {"CG201"},
            id="multi-line header",
        ),
        pytest.param(
            "def f():\n    return 1  # chunkgate: disable=CG201\n", set(), id="body: no-op"
        ),
        pytest.param(
            "# chunkgate: disable=CG201\n\ndef f():\n    pass\n",
            set(),
            id="comment separated by a blank line: no-op",
        ),
    ],
)
def test_suppressions(source: str, expected: set[str]) -> None:
    chunks, _ = _chunk(source)
    assert next(c for c in chunks if c.kind == "function").suppressed == expected


def test_split_class_members_inherit_class_suppressions() -> None:
    source = _src("""
        class A:  # chunkgate: disable=CG202
            def m(self):  # chunkgate: disable=CG201
                return 1

            x = 1
    """)
    chunks, _ = _chunk(source, max=30)
    assert [(c.identity, c.suppressed) for c in chunks] == [
        ("class-A", frozenset({"CG202"})),
        ("method-A.m", frozenset({"CG201", "CG202"})),
        ("class-A.after-m", frozenset({"CG202"})),
    ]


@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        pytest.param(
            "import os\n\n\ndef f(:\n    pass\n",
            4,
            "invalid syntax",
            id="syntax",
        ),
        pytest.param("x = 1\n\ny = (\n", 3, "was never closed", id="unclosed"),
        pytest.param(
            "x = 1\n\0\n",
            2,
            "null bytes",
            id="NUL character",
        ),
        pytest.param(
            "x = " + "(" * 300 + "\n",
            1,
            "too many nested parentheses",
            id="too deep",
        ),
    ],
)
def test_syntax_error_chunks_as_text(source: str, line: int, message: str) -> None:
    chunks, problems = _chunk(source)
    # The parser's wording varies between Python versions; the line does not.
    assert [(p.path, p.line) for p in problems] == [("m.py", line)]
    assert problems[0].message.startswith("Python syntax error: ")
    assert message in problems[0].message
    assert chunks
    assert all(c.kind == "text" and c.language == "python" for c in chunks)
    assert [c.identity for c in chunks] == [f"~{n}" for n in range(1, len(chunks) + 1)]


def test_deep_nesting_does_not_crash() -> None:
    source = "x = " + "-" * 200_000 + "1\n"
    chunks, problems = _chunk(source)
    assert len(problems) <= 1
    assert chunks


def test_coding_cookie_through_chunk_bytes() -> None:
    data = "# -*- coding: latin-1 -*-\nX = 1\n\ndef café():\n    return 'é'\n".encode("latin-1")
    chunked = chunk_bytes(data, "pkg/m.py")
    assert chunked.problems == ()
    # The cookie belongs to no chunk; `X = 1`, under size.min, joins the function.
    assert [c.id for c in chunked.chunks] == ["pkg/m.py#function-café"]
    assert chunked.chunks[0].text == "X = 1\n\ndef café():\n    return 'é'"


def _fingerprint(chunks: tuple[Chunk, ...] | list[Chunk]) -> list[tuple[object, ...]]:
    return [(c.id, c.start_line, c.end_line, c.chars, c.tokens, c.hash, c.text) for c in chunks]


def test_crlf_and_bom_twin() -> None:
    data = _BIG_CLASS.encode()
    twin = codecs.BOM_UTF8 + _BIG_CLASS.replace("\n", "\r\n").encode()
    options = ChunkOptions(max=100, min=0)
    plain = chunk_bytes(data, "m.py", options=options).chunks
    assert len(plain) > 2
    assert _fingerprint(chunk_bytes(twin, "m.py", options=options).chunks) == _fingerprint(plain)


# --- property tests --------------------------------------------------------

_NAMES = ("alpha", "beta", "gamma")


@dataclass(frozen=True)
class _Block:
    kind: str  # def, async, overload, class, comment, stmt
    name: str = ""
    variant: int = 0
    edited: bool = False

    def render(self) -> str:
        return _RENDER[self.kind](self)


def _render_def(block: _Block, keyword: str = "def") -> str:
    head = ""
    if block.variant & 1:
        head += f"# Why {block.name} exists.\n# More about it.\n"
    if block.variant & 2:
        head += "@decorator(\n    1,\n)\n"
    body = "    extra = 0\n" if block.edited else ""
    tail = "\n    # trailing note" if block.variant & 4 else ""
    return f"{head}{keyword} {block.name}(x):\n    y = x\n{body}    return y{tail}"


def _render_overload(block: _Block) -> str:
    body = "    extra = 0\n" if block.edited else ""
    return (
        f"@overload\ndef {block.name}(x: int) -> int: ...\n"
        f"@overload\ndef {block.name}(x: str) -> str: ...\n"
        f"def {block.name}(x):\n{body}    return x"
    )


def _render_class(block: _Block) -> str:
    parts = [f"class {block.name.title()}:\n    " + '"""Doc."""\n\n    attr = 1']
    if block.variant & 1:
        parts.append("    class Inner:\n        pass")
    parts.append("    # The value.\n    def value(self):\n        return self.attr")
    if block.variant & 2:
        parts.append("    @property\n    def size(self):\n        return 1")
        parts.append("    @size.setter\n    def size(self, new):\n        pass")
    if block.variant & 4:
        parts.append("    other = 2")
    parts.append("    async def close(self):\n        pass\n        # done")
    return "\n\n".join(parts)


_STATEMENTS = (
    "X = 1",
    "import os",
    "if X:\n    Y = 2\n    # inside the if",
    'S = """\n# not a comment\n\n"""',
    "print(\n    X,\n)",
)

_RENDER: dict[str, Callable[[_Block], str]] = {
    "def": _render_def,
    "async": lambda block: _render_def(block, "async def"),
    "overload": _render_overload,
    "class": _render_class,
    "comment": lambda block: "# A standalone note.\n# Second line." if block.variant else "# Note.",
    "stmt": lambda block: _STATEMENTS[block.variant % len(_STATEMENTS)],
}

_blocks = st.one_of(
    st.builds(
        _Block, st.sampled_from(["def", "async"]), st.sampled_from(_NAMES), st.integers(0, 7)
    ),
    st.builds(_Block, st.just("overload"), st.sampled_from(_NAMES)),
    st.builds(_Block, st.just("class"), st.sampled_from(_NAMES), st.integers(0, 7)),
    st.builds(_Block, st.just("comment"), variant=st.integers(0, 1)),
    st.builds(_Block, st.just("stmt"), variant=st.integers(0, 10)),
)


@dataclass(frozen=True)
class _Module:
    blocks: tuple[_Block, ...]
    gaps: tuple[int, ...]  # blank lines before each block

    def render(self) -> str:
        parts = [
            "\n" * gap + block.render() + "\n"
            for block, gap in zip(self.blocks, self.gaps, strict=True)
        ]
        return "".join(parts)

    def insert(self, index: int, block: _Block | None, blank: int = 1) -> _Module:
        """Insert a block (or only blank lines) before ``blocks[index]``."""
        gaps = list(self.gaps)
        if block is None:
            if index < len(gaps):
                gaps[index] += blank
            return _Module(self.blocks, tuple(gaps))
        # Blank lines on both sides, so that no comment block changes owner.
        if index < len(gaps):
            gaps[index] = max(gaps[index], 1)
        gaps.insert(index, 1)
        blocks = (*self.blocks[:index], block, *self.blocks[index:])
        return _Module(blocks, tuple(gaps))


@st.composite
def _modules(draw: st.DrawFn) -> _Module:
    blocks = draw(st.lists(_blocks, max_size=12))
    gaps: list[int] = []
    for index in range(len(blocks)):
        # A comment directly above a definition is its comment block: only
        # allow that inside a block, so blocks stay independent.
        tight_ok = index > 0 and blocks[index - 1].kind != "comment"
        gaps.append(draw(st.integers(0 if tight_ok else 1, 2)))
    return _Module(tuple(blocks), tuple(gaps))


_DEFINITION_KINDS = ("def", "async", "overload", "class")


def _group_key(block: _Block) -> tuple[str, bool]:
    return block.name.title() if block.kind == "class" else block.name, block.kind == "class"


def _joins_a_group(module: _Module, index: int) -> bool:
    """Whether a block inserted at ``index`` would sit between same-name definitions."""

    def neighbour(indexes: range) -> _Block | None:
        for i in indexes:
            if module.blocks[i].kind != "comment":
                return module.blocks[i]
        return None

    before = neighbour(range(index - 1, -1, -1))
    after = neighbour(range(index, len(module.blocks)))
    return (
        before is not None
        and after is not None
        and before.kind in _DEFINITION_KINDS
        and after.kind in _DEFINITION_KINDS
        and _group_key(before) == _group_key(after)
    )


_options = st.builds(
    ChunkOptions, max=st.sampled_from([150, 2000]), min=st.just(0), split=st.booleans()
)
_IDENTITY = re.compile(
    r"(module(-after-\w+)?|function-\w+|class-\w+(\.\w+)?(\.after-\w+)?|method-\w+\.\w+)(-\d+)?"
    r"(~[2-9]|~[1-9]\d+)?"
)


def _run(source: str, options: ChunkOptions) -> list[Chunk]:
    chunks, problems = chunk_python(context_for(source, "m.py", options=options))
    assert problems == []
    return chunks


@settings(max_examples=200, deadline=None)
@given(_modules(), _options)
def test_property_well_formed_and_deterministic(module: _Module, options: ChunkOptions) -> None:
    source = module.render()
    chunks = _run(source, options)
    _assert_well_formed(source, chunks)
    assert all(_IDENTITY.fullmatch(c.identity) for c in chunks)
    assert _run(source, options) == chunks
    twin = codecs.BOM_UTF8 + source.replace("\n", "\r\n").encode()
    assert _fingerprint(chunk_bytes(twin, "m.py", options=options).chunks) == _fingerprint(chunks)


def _by_id(chunks: list[Chunk]) -> dict[str, str]:
    return {c.identity: c.hash for c in chunks}


@settings(max_examples=200, deadline=None)
@given(_modules(), _options, st.data())
def test_property_inserting_blank_lines_keeps_ids(
    module: _Module, options: ChunkOptions, data: st.DataObject
) -> None:
    # Not between definitions that form one chunk: that would edit its text.
    places = [i for i in range(len(module.blocks) + 1) if not _joins_a_group(module, i)]
    index = data.draw(st.sampled_from(places))
    moved = module.insert(index, None, blank=data.draw(st.integers(1, 3)))
    before, after = _run(module.render(), options), _run(moved.render(), options)
    assert [c.id for c in after] == [c.id for c in before]
    # Blank lines inside module code are part of its text; definitions keep theirs.
    definitions = [(c.id, c.hash) for c in before if c.kind != "module"]
    assert [(c.id, c.hash) for c in after if c.kind != "module"] == definitions


@settings(max_examples=200, deadline=None)
@given(_modules(), _options, st.data())
def test_property_inserting_code_above_a_definition_keeps_other_ids(
    module: _Module, options: ChunkOptions, data: st.DataObject
) -> None:
    # Directly above a definition or at the end, as a new function is added;
    # not between definitions that form one chunk.
    places = [
        i
        for i in range(len(module.blocks) + 1)
        if (i == len(module.blocks) or module.blocks[i].kind in _DEFINITION_KINDS)
        and not _joins_a_group(module, i)
    ]
    index = data.draw(st.sampled_from(places))
    new = data.draw(
        st.sampled_from(
            [_Block("def", "brand_new", 3), _Block("comment", variant=1), _Block("stmt", variant=2)]
        )
    )
    before = _by_id(_run(module.render(), options))
    after = _by_id(_run(module.insert(index, new).render(), options))
    assert before.keys() <= after.keys()
    assert all(i == "function-brand_new" or i.startswith("module") for i in after.keys() - before)
    # Only the module code the new lines were added to may change.
    changed = [identity for identity, digest in before.items() if after[identity] != digest]
    assert len(changed) <= 1
    assert all(identity.startswith("module") for identity in changed)


@settings(max_examples=200, deadline=None)
@given(_modules(), _options, st.data())
def test_property_editing_a_body_changes_only_its_chunk(
    module: _Module, options: ChunkOptions, data: st.DataObject
) -> None:
    functions = [i for i, b in enumerate(module.blocks) if b.kind in ("def", "async", "overload")]
    if not functions:
        return
    index = data.draw(st.sampled_from(functions))
    blocks = list(module.blocks)
    blocks[index] = replace(blocks[index], edited=True)
    # Units, not parts: a function that grows over size.max gains a part.
    before = join_parts(_run(module.render(), options))
    after = join_parts(_run(replace(module, blocks=tuple(blocks)).render(), options))
    assert [c.id for c in after] == [c.id for c in before]
    changed = [a.identity for a, b in zip(after, before, strict=True) if a.hash != b.hash]
    assert len(changed) == 1
    assert changed[0].startswith("function-")
