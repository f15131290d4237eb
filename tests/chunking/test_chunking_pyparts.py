"""Python chunks over size.max in parts between statements, small module code merged,
and the license header stripped (pyparts.py, headers.py, python.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_text
from chunkgate.chunking.base import is_blank
from chunkgate.chunking.headers import header_lines
from chunkgate.core.model import Chunk
from chunkgate.diff.moves import join_parts, unit_id


def chunks(source: str, *, max: int = 2000, min: int = 0, path: str = "m.py") -> list[Chunk]:
    found = chunk_text(source, path, options=ChunkOptions(max=max, min=min))
    lines = source.split("\n")
    for chunk in found:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert (chunk.start_column, chunk.end_column) == (0, 0)
        assert not is_blank(lines[chunk.start_line - 1])
        assert chunk.start_line <= chunk.body_line <= chunk.end_line
    return found


def shape(found: list[Chunk]) -> list[tuple[str, int, int]]:
    return [(c.identity, c.start_line, c.end_line) for c in found]


def statements(count: int, indent: str = "    ") -> str:
    return "".join(f"{indent}total = total + compute_the_next_value({n})\n" for n in range(count))


def test_a_function_is_cut_between_statements_and_the_first_part_has_its_head() -> None:
    source = (
        "# Why it exists.\n@decorator\ndef f(x):\n"
        '    """Add things up.\n\n    Many of them.\n    """\n'
        "    total = 0\n" + statements(12) + "    return total\n"
    )
    found = chunks(source, max=250)
    assert [c.identity for c in found] == ["function-f", "function-f~2", "function-f~3"]
    assert found[0].text.startswith('# Why it exists.\n@decorator\ndef f(x):\n    """Add')
    assert found[0].body_line == 4
    assert [c.body_line for c in found[1:]] == [c.start_line for c in found[1:]]
    assert all(c.chars <= 250 for c in found)
    assert {(c.kind, c.symbol, c.parts) for c in found} == {("function", "f", 3)}
    assert found[-1].text.endswith("    return total")


def test_clause_lines_go_with_the_statements_under_them() -> None:
    body = statements(4, "        ")
    source = (
        f"def f():\n    try:\n{body}    except ValueError:\n{body}    else:\n{body}"
        "    finally:\n        cleanup()\n"
    )
    found = chunks(source, max=250)
    starts = [c.text.split("\n")[0].strip() for c in found]
    assert starts == ["def f():", "except ValueError:", "else:"]
    assert found[-1].text.endswith("finally:\n        cleanup()")


def test_comments_go_with_the_statement_below_them() -> None:
    source = "def f():\n" + statements(5) + "    # Now the second half.\n" + statements(5)
    found = chunks(source, max=300)
    assert found[1].text.startswith("    # Now the second half.\n")


def test_a_comment_indented_into_a_statement_stays_with_it() -> None:
    # "# inside the if" belongs to the if above it, not to whatever follows: adding a
    # statement after it must not move it to another part and re-cut the parts above
    # (a hypothesis example: module and module~2 both changed)
    note = "# A standalone note.\n# Second line.\n\n"
    block = "if X:\n    Y = 2\n    # inside the if\n"
    source = "\n# Note.\n\n" + note + block + note + block
    definition = "@overload\ndef alpha(x: int) -> int: ...\ndef alpha(x):\n    return x\n"
    before = chunks(source + definition, max=150)
    after = chunks(source + "\n" + block + "\n" + definition, max=150)
    assert before[0].text.endswith("    # inside the if")
    assert [c.identity for c in before] == ["module", "module~2", "function-alpha"]
    assert (after[0].identity, after[0].hash) == (before[0].identity, before[0].hash)


def test_a_long_docstring_is_cut_between_its_paragraphs() -> None:
    prose = "\n\n".join(
        "    This paragraph explains one more thing about the function in some detail."
        for _ in range(6)
    )
    source = f'def f():\n    """Summary.\n\n{prose}\n    """\n    return 1\n'
    found = chunks(source, max=200)
    assert len(found) > 2
    assert all(c.chars <= 200 for c in found)
    assert found[0].text.startswith('def f():\n    """Summary.')


def test_a_statement_over_the_limit_is_one_part_named_by_its_lines() -> None:
    table = "TABLE = {\n" + "".join(f"    'key{n}': {n},\n" for n in range(40)) + "}\n"
    source = "def f():\n    return TABLE\n\n\n" + table
    found = chunks(source, max=200)
    (big,) = [c for c in found if c.chars > 200]
    assert (big.identity, big.unsplittable) == (
        "module-after-f",
        "assignment (lines 5-46, 671 chars)",
    )


def test_a_table_of_concatenated_literals_is_data_not_prose() -> None:
    # Implicitly concatenated literals are one string constant, and a table.
    rows = "".join(f"    '\\x{n:02x}'  # code point {n}\n" for n in range(40))
    found = chunks(f"decoding_table = (\n{rows})\n", max=300)
    (chunk,) = found
    assert chunk.unsplittable.startswith("assignment (lines 1-42")


def test_a_method_over_the_limit_is_cut_the_same_way() -> None:
    source = (
        'class A:\n    """Doc."""\n\n    def small(self):\n        return 1\n\n'
        "    def big(self):\n        total = 0\n" + statements(10, "        ") + "\n    x = 1\n"
    )
    found = chunks(source, max=300)
    assert [c.identity for c in found] == [
        "class-A",
        "method-A.small",
        "method-A.big",
        "method-A.big~2",
        "class-A.after-big",
    ]
    assert {c.symbol for c in found if c.identity.startswith("method-A.big")} == {"A.big"}


def test_a_class_that_is_not_split_into_methods_is_cut_between_members() -> None:
    source = "class A:\n" + "".join(
        f"    def m{n}(self):\n        return compute_the_value({n})\n\n" for n in range(8)
    )
    found = chunk_text(source, "m.py", options=ChunkOptions(max=200, min=0, split_classes=False))
    assert [c.identity for c in found] == ["class-A", "class-A~2", "class-A~3"]
    assert [c.text.count("def m") for c in found] == [3, 3, 2]


def test_comments_without_statements_are_cut_between_paragraphs() -> None:
    notes = "\n#\n".join(
        "# A note about the algorithm that explains one step of it in a sentence." for _ in range(6)
    )
    source = f"def f():\n    return 1\n\n\n{notes}\n"
    found = chunks(source, max=200)
    assert all(c.chars <= 200 for c in found)
    assert [c.identity for c in found][:2] == ["function-f", "module-after-f"]


def test_split_false_keeps_the_definition_whole() -> None:
    source = "def f():\n    total = 0\n" + statements(20) + "    return total\n"
    (chunk,) = chunk_text(source, "m.py", options=ChunkOptions(max=200, split=False))
    assert (chunk.identity, chunk.parts, chunk.unsplittable) == ("function-f", 1, "")


# --- small module code joins a neighbour ------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            'T = TypeVar("T")\n\n\ndef first(items: list[T]) -> T:\n    return items[0]\n',
            [("function-first", 1, 5)],
            id="joins-the-definition-below",
        ),
        pytest.param(
            "def main():\n    return run_the_program()\n\n\nmain()\n",
            [("function-main", 1, 5)],
            id="at-the-end-joins-the-one-above",
        ),
        pytest.param(
            "class A:\n    def m(self):\n        return 1\n\n    x = 1\n\n    def n(self):\n"
            "        return 2\n",
            [("class-A", 1, 8)],
            id="class-not-split",
        ),
        pytest.param("from .a import b\n", [("module", 1, 1)], id="nothing-to-join"),
        pytest.param(
            "LIMIT = 10\nNAMES = ('a', 'b')\nTIMEOUT = 30.5\nRETRIES = 3\n\n\n"
            "def f():\n    return 1\n",
            [("module", 1, 4), ("function-f", 7, 8)],
            id="large-enough",
        ),
        pytest.param(
            "import os\nimport sys\nimport json\nimport shutil\n\n\ndef f():\n    return os\n",
            [("function-f", 1, 8)],
            id="imports-alone-join-whatever-their-size",
        ),
    ],
)
def test_module_code_under_min_joins_a_neighbour(
    source: str, expected: list[tuple[str, int, int]]
) -> None:
    assert shape(chunks(source, min=40)) == expected


def test_class_level_code_under_min_joins_the_member_above() -> None:
    body = "".join(f"        value = compute({n})\n" for n in range(6))
    source = (
        f"class A:\n    def m(self):\n{body}        return value\n\n    x = 1\n\n"
        f"    def n(self):\n{body}        return value\n"
    )
    found = chunks(source, max=250, min=40)
    assert [c.identity for c in found] == ["class-A", "method-A.m", "method-A.n"]
    assert found[1].text.endswith("    x = 1")


# --- the header --------------------------------------------------------------

_MIT = """\
# Copyright (c) 2016-2024 Ana Example <ana@example.org>
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to
# deal in the Software without restriction.
"""


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param(_MIT + "\nimport os\n", 5, id="mit"),
        pytest.param("#!/usr/bin/env python\n" + _MIT + "import os\n", 6, id="shebang"),
        pytest.param("# -*- coding: utf-8 -*-\nimport os\n", 1, id="cookie"),
        pytest.param(
            "# SPDX-License-Identifier: MIT\n\n# Parse the config.\nimport os\n",
            1,
            id="spdx-then-the-code's-own-comment",
        ),
        pytest.param(
            "# Copyright 2020 A\n\n# Licensed under the Apache License, Version 2.0\nx = 1\n",
            3,
            id="two-blocks",
        ),
        pytest.param("# Parse the config file.\nimport os\n", 0, id="a-comment-about-code"),
        pytest.param("# This module reads license files.\nx = 1\n", 0, id="mentions-license"),
        pytest.param('"""Copyright 2020 A."""\n', 0, id="a-docstring-is-not-a-comment"),
        pytest.param("", 0, id="empty"),
        pytest.param("# Copyright 2020 A\n", 1, id="only-a-header"),
    ],
)
def test_header_lines(source: str, lines: int) -> None:
    assert header_lines(source.split("\n")) == lines


def test_the_header_belongs_to_no_chunk() -> None:
    source = "#!/usr/bin/env python\n" + _MIT + "\n# Parse the config.\nimport os\n\n\n"
    source += "def f():\n    return os.getcwd()\n"
    found = chunks(source, min=0)
    assert found[0].start_line == 8
    assert found[0].text.startswith("# Parse the config.")
    assert all("Copyright" not in c.text for c in found)


# --- properties --------------------------------------------------------------

_bodies = st.lists(
    st.sampled_from(
        [
            "    total = total + 1\n",
            "    if total:\n        total = total - 1\n    else:\n        total = 2\n",
            "    # A comment about the next step.\n",
            "    for item in range(3):\n        total += item\n",
            '    text = """\n    Prose inside a string.\n\n    More prose.\n    """\n',
            "    with open(path) as handle:\n        total += len(handle.read())\n",
        ]
    ),
    min_size=1,
    max_size=15,
)


@st.composite
def modules(draw: st.DrawFn) -> list[tuple[str, list[str]]]:
    return [(f"f{n}", draw(_bodies)) for n in range(draw(st.integers(1, 4)))]


def render(functions: list[tuple[str, list[str]]]) -> str:
    return "\n\n".join(
        f"def {name}(path):\n    total = 0\n{''.join(body)}    return total\n"
        for name, body in functions
    )


@settings(max_examples=150, deadline=None)
@given(modules(), st.sampled_from([80, 150, 400]))
def test_property_parts_fit_and_cover_every_line(
    functions: list[tuple[str, list[str]]], limit: int
) -> None:
    source = render(functions)
    found = chunks(source, max=limit)
    for chunk in found:
        assert chunk.chars <= limit or chunk.unsplittable, chunk.id
    covered = {n for c in found for n in range(c.start_line, c.end_line + 1)}
    lines = source.split("\n")
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= covered
    assert [c.id for c in join_parts(found)] == [f"m.py#function-{name}" for name, _ in functions]


@settings(max_examples=100, deadline=None)
@given(modules(), st.sampled_from([80, 150, 400]), st.data())
def test_property_editing_one_function_changes_no_other_functions_parts(
    functions: list[tuple[str, list[str]]], limit: int, data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(functions) - 1))
    edited = list(functions)
    name, body = edited[index]
    edited[index] = (name, [*body, "    total = total * 2\n"])
    before = chunks(render(functions), max=limit)
    after = chunks(render(edited), max=limit)
    target = f"m.py#function-{name}"

    def others(found: list[Chunk]) -> list[tuple[str, str]]:
        return [(c.id, c.hash) for c in found if unit_id(c.id) != target]

    assert others(after) == others(before)
