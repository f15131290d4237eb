from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from docutils import nodes
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import chunk_document
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.rst import parse
from chunkgate.cli import cli
from chunkgate.core.model import Chunk

FIXTURES = Path(__file__).parents[1] / "data" / "code"
LOOSE = ChunkOptions(min=0)


def chunks(text: str, path: str = "doc/page.rst") -> tuple[Chunk, ...]:
    result = chunk_document(textwrap.dedent(text), path, options=LOOSE)
    assert result.problems == ()
    return result.chunks


def ids(found: tuple[Chunk, ...]) -> list[str]:
    return [c.identity for c in found]


def assert_spans(text: str, found: tuple[Chunk, ...]) -> None:
    """Text equals lines; every non-blank line is in exactly one chunk, in order."""
    lines = text.split("\n")
    owner: dict[int, str] = {}
    for c in found:
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
        for row in range(c.start_line, c.end_line + 1):
            assert row not in owner
            owner[row] = c.id
    assert len({c.id for c in found}) == len(found)
    assert [r for r, line in enumerate(lines, 1) if line.strip() and r not in owner] == []
    assert [c.start_line for c in found] == sorted(c.start_line for c in found)


# -- Sphinx's own documentation; the IDs are the ones Sphinx 9.0.4 gives the sections --

SPHINX = [
    pytest.param(
        "sphinx-math.rst",
        # `.. _math-support:` is what :ref: links to; `.. module::` makes the others.
        ["math-support", "module-sphinx.ext.imgmath", "module-sphinx.ext.mathjax",
         "module-sphinxcontrib.jsmath"],
        id="explicit-target-and-module-anchors",
    ),
    pytest.param(
        "sphinx-field-lists.rst",
        ["field-lists", "metadata", "special-metadata-fields"],
        id="target-above-a-subsection",
    ),
    pytest.param(
        "sphinx-first-steps.rst",
        # The page title has no body of its own: it opens the first subsection's chunk.
        ["building-your-html-documentation", "building-your-documentation-in-other-formats"],
        id="body-less-title-opens-the-next-chunk",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "expected"), SPHINX)
def test_sphinx_docs(name: str, expected: list[str]) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    found = chunks(text, f"doc/{name}")
    # Sections over size.max have parts ID~2, ID~3 after the section's own ID.
    assert list(dict.fromkeys(i.partition("~")[0] for i in ids(found))) == expected
    assert_spans(text, found)
    assert {c.kind for c in found} == {"section"}
    assert all(c.language == "rst" for c in found)


def test_oversized_section_is_cut_between_blocks_never_inside_a_directive() -> None:
    text = (FIXTURES / "sphinx-math.rst").read_text(encoding="utf-8")
    found = chunks(text, "doc/math.rst")
    parts = [c for c in found if "~" in c.identity]
    assert [c.identity for c in parts[:2]] == [
        "module-sphinx.ext.imgmath~2",
        "module-sphinx.ext.imgmath~3",
    ]
    lines = text.split("\n")
    for part in parts:
        assert not part.text[0].isspace()  # a part opens a top-level block
        assert not lines[part.start_line - 2].strip()  # after a blank line
        assert part.heading_path == found[found.index(part) - 1].heading_path
    for chunk in found:
        blocks = [b for b in chunk.text.split("\n\n") if b and not b[0].isspace()]
        assert chunk.chars <= 2000 or len(blocks) == 1


def test_title_levels_follow_the_order_styles_appear_in() -> None:
    found = chunks(
        """\
        =======
         Guide
        =======

        Intro.

        Setup
        ~~~~~

        Install it.

        Details
        -------

        More.

        Usage
        ~~~~~

        Use it.
        """
    )
    assert ids(found) == ["guide", "setup", "details", "usage"]
    assert [c.level for c in found] == [1, 2, 3, 2]
    assert found[0].text.startswith("=======\n Guide\n=======")  # the overline is the title's
    assert found[2].heading_path == ("Guide", "Setup", "Details")
    assert found[0].title == "Guide"


def test_ids_are_make_id_and_repeats_are_numbered_as_sphinx_does() -> None:
    found = chunks(
        """\
        Über Größe
        ==========

        Text :ref:`somewhere` and :doc:`else`.

        Notes
        -----

        One.

        Notes
        -----

        Two.
        """
    )
    # Sphinx's roles take no auto IDs, so the repeat is id1 as Sphinx makes it.
    assert ids(found) == ["uber-grosze", "notes", "id1"]


def test_explicit_target_is_the_id_and_opens_the_chunk() -> None:
    found = chunks(
        """\
        Intro text.

        .. _install:

        Installing chunkgate
        ====================

        Run pip.
        """
    )
    assert ids(found) == ["~preamble", "install"]
    assert found[1].text.startswith(".. _install:\n\nInstalling chunkgate")
    assert found[1].body_line == 7


def test_a_target_above_a_directive_is_not_the_next_sections() -> None:
    found = chunks(
        """\
        Options
        =======

        .. _opt-copyright:

        .. confval:: copyright

           The copyright.

        General
        =======

        Text.
        """
    )
    assert ids(found) == ["options", "general"]


def test_module_directive_anchor_and_no_index() -> None:
    found = chunks(
        """\
        API
        ===

        .. module:: pkg.api
           :synopsis: The API.

        Text.

        Old API
        =======

        .. module:: pkg.old
           :no-index:

        Text.
        """
    )
    assert ids(found) == ["module-pkg.api", "old-api"]


def test_directives_and_literal_blocks_are_never_titles() -> None:
    text = textwrap.dedent(
        """\
        Usage
        =====

        .. code-block:: rst

           Not a title
           ===========

        A literal block::

           Neither
           -------

        .. note::

           A note.
        """
    )
    found = chunks(text)
    assert ids(found) == ["usage"]
    assert found[0].text == text.rstrip("\n")


def test_field_list_and_title_are_metadata() -> None:
    found = chunks(
        """\
        :author: Ada Lovelace
        :tags: engines, notes

        Analytical Engine
        =================

        Notes on the engine.
        """
    )
    assert ids(found) == ["~preamble", "analytical-engine"]
    section = found[1]
    assert section.title == "Analytical Engine"
    assert section.tags == ("engines", "notes")
    assert dict(section.fields) == {"author": "Ada Lovelace", "tags": "engines, notes"}
    assert section.to_dict()["metadata"] == {
        "title": "Analytical Engine",
        "tags": ["engines", "notes"],
        "fields": {"author": "Ada Lovelace", "tags": "engines, notes"},
    }


def test_suppression_comment_above_a_title() -> None:
    found = chunks(
        """\
        .. chunkgate: disable=CG201

        Reference
        =========

        Long table.
        """
    )
    assert ids(found) == ["reference"]
    assert found[0].suppressed == frozenset({"CG201"})


def test_broken_structure_is_cg001_and_text_windows() -> None:
    text = "A\n=\n\nx\n\nB\n-\n\ny\n\nC\n~\n\nz\n\nD\n=\n\nw\n\nE\n~\n\nv\n"
    result = chunk_document(text, "doc/bad.rst", options=LOOSE)
    assert len(result.problems) == 1
    # docutils 0.21 says "Title level inconsistent", 0.22 "Inconsistent title style".
    assert "title" in result.problems[0].message.lower()
    assert result.problems[0].line == 21  # the title "E"
    assert {c.kind for c in result.chunks} == {"text"}


# -- nothing is read, fetched or run --


def test_include_raw_and_csv_files_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET,1\n", encoding="utf-8")
    # A docutils.conf in the working directory must not turn file insertion back on.
    (tmp_path / "docutils.conf").write_text(
        "[general]\nfile_insertion_enabled: yes\nraw_enabled: yes\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    text = textwrap.dedent(
        f"""\
        Page
        ====

        .. include:: {secret}

        .. include:: secret.txt
           :literal:

        .. raw:: html
           :file: {secret}

        .. raw:: html

           <script>alert(1)</script>

        .. csv-table:: Data
           :file: {secret}

        .. csv-table:: Remote
           :url: http://127.0.0.1:9/data.csv
        """
    )
    document = parse(text)
    assert "TOPSECRET" not in document.astext()
    assert not list(document.findall(nodes.raw))
    assert not list(document.findall(nodes.table))
    found = chunks(text)
    assert ids(found) == ["page"]


def test_outline_of_rst(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "page.rst").write_text(
        "Guide\n=====\n\nText.\n\n.. _setup:\n\nSetup\n-----\n\nMore.\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["outline", "--format", "json", "page.rst"])
    assert result.exit_code == 0, result.output
    sphinx = "sphinx (docutils' make_id, explicit targets)"
    assert json.loads(result.output) == [
        {"path": "page.rst", "level": 1, "text": "Guide", "line": 1, "id": "page.rst#guide",
         "anchors": sphinx},
        {"path": "page.rst", "level": 2, "text": "Setup", "line": 8, "id": "page.rst#setup",
         "anchors": sphinx},
    ]  # fmt: skip


# -- property: any mix of titles, text, directives and targets keeps the spans --

_ADORNMENTS = "=-~^\"'`#*+"


@st.composite
def _documents(draw: st.DrawFn) -> str:
    pieces: list[str] = []
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["title", "over", "text", "directive", "target", "blank"]))
        word = draw(st.sampled_from(["Intro", "Setup", "Usage", "Notes", "Über", "API", "!"]))
        mark = draw(st.sampled_from(_ADORNMENTS))
        if kind == "title":
            pieces.append(f"{word}\n{mark * max(len(word), 4)}\n")
        elif kind == "over":
            pieces.append(f"{mark * 8}\n {word}\n{mark * 8}\n")
        elif kind == "text":
            pieces.append(f"Some text about {word} with :ref:`{word.lower()}`.\n")
        elif kind == "directive":
            pieces.append(f".. code-block:: rst\n\n   {word}\n   {mark * 6}\n")
        elif kind == "target":
            pieces.append(f".. _{word.lower()}:\n")
        else:
            pieces.append("")
    return "\n".join(pieces)


@settings(max_examples=150, deadline=None)
@given(_documents())
def test_property_spans(text: str) -> None:
    result = chunk_document(text, "doc/p.rst", options=LOOSE)
    assert_spans(text, result.chunks)
