"""mkdocstrings' ``:::`` blocks: the ids chunkgate reads from the Python source are the
ids MkDocs with mkdocstrings-python writes, building a small package in a temp dir."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import check_json, committed, write

from chunkgate.chunking import context_for
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.markdown import headings
from chunkgate.links.autodoc import autodoc_anchors, has_autodoc
from chunkgate.sites import detect
from chunkgate.sites.mkdocstrings import Autodoc, Sources, handler_settings

INIT = '''"""The package."""
from pkg.shapes import Square
from pkg.shapes import Circle as Round
from pkg import shapes

__all__ = ["Square", "top", "VERSION"]

VERSION = "1"
"""The version."""

def top(x: int, *rest: int, **named: str) -> int:
    """Top function.

    Parameters:
        x: The x.
        rest: More.
        named: Named.
    """
    return x

def undocumented():
    return 1

def _private():
    """Private."""
'''

SHAPES = '''"""Shapes."""
import logging
from dataclasses import dataclass

class Base:
    """The base."""

    def area(self) -> float:
        """The area."""
        return 0.0

    def _secret(self):
        """Hidden."""

class Square(Base, logging.Handler):
    """A square."""

    side: int = 1
    """The side."""

    plain = 2

    def __init__(self, side: int) -> None:
        """Make one.

        Parameters:
            side: The side.
        """
        self.side = side
        self.label = "x"
        """Its label."""

    def __eq__(self, other):
        """Equal."""

    @property
    def double(self) -> int:
        """Twice the side."""
        return 2

    class Inner:
        """Inner."""

        def deep(self):
            """Deep."""

        class Bare:
            pass

class Circle:
    """A circle."""

    if True:
        radius = 1
        """The radius."""

    @property
    def size(self) -> int:
        """The size."""
        return 1

    @size.setter
    def size(self, value: int) -> None:
        pass

def helper():
    """Help."""

class _Private:
    """Not shown."""
'''

EXTRA = '''"""Extra, found by show_submodules."""

def extra():
    """Extra."""
'''

PAGE = """# API

::: pkg

## Shapes

::: pkg.shapes
    options:
      show_root_heading: true
      inherited_members: true
      merge_init_into_class: true
      parameter_headings: true

## Filtered

::: pkg.shapes.Square
    options:
      filters: public
      members: [side, double, nothing]

## Everything

::: pkg.shapes.Circle
    options:
      show_if_no_docstring: true
      show_root_toc_entry: false
      show_category_heading: true

## Submodules

::: pkg
    options:
      show_submodules: true
      members: [shapes, sub]

An example is no block:

```md
::: pkg.nothing
```
"""


def _package(root: Path) -> None:
    write(root, "src/pkg/__init__.py", INIT)
    write(root, "src/pkg/shapes.py", SHAPES)
    write(root, "src/pkg/sub/__init__.py", EXTRA)
    write(root, "src/pkg/_hidden.py", EXTRA)


def _sources(root: Path) -> Sources:
    def read(path: str) -> str | None:
        try:
            return (root / path).read_text()
        except OSError:
            return None

    def listing(folder: str) -> list[str]:
        return os.listdir(root / folder) if (root / folder).is_dir() else []

    return Sources(read, listing)


def built_ids(site: Path, page: str, prefix: str) -> set[str]:
    html = (site / page).read_text()
    return {i for i in re.findall(r'\bid="([^"]+)"', html) if i.startswith(prefix)}


def mkdocs_build(root: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"],
        cwd=root,
        check=True,
        capture_output=True,
    )
    return root / "site"


MKDOCS = "site_name: t\nplugins:\n  - mkdocstrings:\n      handlers:\n        python:\n"


def test_the_ids_are_those_mkdocstrings_writes(tmp_path: Path) -> None:
    _package(tmp_path)
    write(tmp_path, "docs/index.md", PAGE)
    write(tmp_path, "mkdocs.yml", MKDOCS + "          paths: [src]\n")
    built = built_ids(mkdocs_build(tmp_path), "index.html", "pkg")
    handler = handler_settings("", {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}})
    assert handler is not None
    found = autodoc_anchors(PAGE, _sources(tmp_path), handler)
    assert found.unresolved == ()
    assert found.anchors == built
    # What the page has that a test of less would miss.
    assert {"pkg.shapes.Square.area", "pkg.shapes.Square(side)", "pkg.sub.extra"} <= built
    assert "pkg.shapes.Square(other)" not in built  # an undocumented parameter: no heading


def test_global_options_come_from_the_config(tmp_path: Path) -> None:
    _package(tmp_path)
    page = "# API\n\n::: pkg.shapes\n"
    write(tmp_path, "docs/index.md", page)
    options = "options: {show_if_no_docstring: true, filters: []}"
    write(tmp_path, "mkdocs.yml", f"{MKDOCS}          paths: [src]\n          {options}\n")
    built = built_ids(mkdocs_build(tmp_path), "index.html", "pkg")
    python = {"paths": ["src"], "options": {"show_if_no_docstring": True, "filters": []}}
    handler = handler_settings("", {"mkdocstrings": {"handlers": {"python": python}}})
    assert handler is not None
    found = autodoc_anchors(page, _sources(tmp_path), handler)
    assert found.anchors == built
    assert "pkg.shapes._Private" in built


def test_an_object_outside_the_repository_leaves_the_page_open(tmp_path: Path) -> None:
    _package(tmp_path)
    page = "# API\n\n::: json.dumps\n\n::: pkg.top\n\n::: x.y\n    handler: crystal\n"
    found = autodoc_anchors(page, _sources(tmp_path), Autodoc(("src",)))
    assert found.unresolved == ("json.dumps", "x.y")
    assert found.anchors == {"pkg.top"}


def test_an_example_in_a_fence_is_no_block() -> None:
    assert not has_autodoc("# A\n\n```md\n::: pkg.mod\n    options: {}\n```\n")
    assert has_autodoc("# A\n\n::: pkg.mod\n")


def test_the_handler_paths_are_relative_to_the_config() -> None:
    plugins = [{"search": {}}, {"mkdocstrings": {"handlers": {"python": {"paths": [".", "lib"]}}}}]
    assert handler_settings("docs", plugins) == Autodoc(("docs", "docs/lib", "docs/src"), "{}")
    assert handler_settings("", ["mkdocstrings"]) == Autodoc(("", "src"), "{}")
    assert handler_settings("", ["search"]) is None
    extension = {"zensical": {"extensions": {"mkdocstrings": {"handlers": {}}}}}
    assert handler_settings("", None, extension) == Autodoc(("", "src"), "{}")


@pytest.fixture
def autodoc_repo(cli_repo: Path) -> Path:
    _package(cli_repo)
    write(cli_repo, "mkdocs.yml", MKDOCS + "          paths: [src]\n")
    write(cli_repo, "docs/api.md", "# API\n\n::: pkg.shapes\n")
    write(cli_repo, "docs/deps.md", "# Dependencies\n\n::: json\n")
    return cli_repo


def test_links_to_documented_objects_pass_and_a_missing_one_fails(autodoc_repo: Path) -> None:
    links = (
        "# Guide\n\nSee [the square](api.md#pkg.shapes.Square.double), "
        "[its label](api.md#pkg.shapes.Square.label) and [dumps](deps.md#json.dumps).\n\n"
        "And [nothing](api.md#pkg.shapes.Square.nothing).\n"
    )
    write(autodoc_repo, "docs/guide.md", links)
    committed(autodoc_repo)
    _, data = check_json()
    findings = data["violations"] + data.get("known", [])
    assert [v["message"] for v in findings if v["rule"] == "CG404"] == [
        "link api.md#pkg.shapes.Square.nothing: docs/api.md has no anchor "
        "#pkg.shapes.Square.nothing"
    ]


def test_a_heading_block_s_chunk_id_is_the_object_s_id(tmp_path: Path) -> None:
    _package(tmp_path)
    page = "# API\n\n## ::: pkg.shapes.Circle\n    options:\n      show_root_heading: true\n"
    write(tmp_path, "docs/index.md", page)
    write(tmp_path, "mkdocs.yml", MKDOCS + "          paths: [src]\n")
    built = built_ids(mkdocs_build(tmp_path), "index.html", "")
    files = {"mkdocs.yml": (tmp_path / "mkdocs.yml").read_bytes()}
    options = ChunkOptions(sites=detect.find_sites(files, files.get))
    _, found = headings(context_for(page, "docs/index.md", options=options, counter=len))
    assert [heading.identity for heading in found] == ["api", "pkg.shapes.Circle"]
    assert {"api", "pkg.shapes.Circle"} <= built


def test_a_filter_that_is_no_pattern_leaves_the_page_open(tmp_path: Path) -> None:
    _package(tmp_path)
    page = "# API\n\n::: pkg.top\n    options:\n      filters: ['![unclosed']\n"
    found = autodoc_anchors(page, _sources(tmp_path), Autodoc(("src",)))
    assert found.unresolved == ("pkg.top",)


def test_a_block_inside_an_admonition_is_read(tmp_path: Path) -> None:
    _package(tmp_path)
    page = (
        "# API\n\n!!! note\n\n    ::: pkg.top\n        options:\n"
        "          show_root_heading: true\n\n    Some words.\n"
    )
    write(tmp_path, "docs/index.md", page)
    config = f"{MKDOCS}          paths: [src]\nmarkdown_extensions: [admonition]\n"
    write(tmp_path, "mkdocs.yml", config)
    built = built_ids(mkdocs_build(tmp_path), "index.html", "pkg")
    found = autodoc_anchors(page, _sources(tmp_path), Autodoc(("src",)))
    assert found.anchors == built == {"pkg.top"}
