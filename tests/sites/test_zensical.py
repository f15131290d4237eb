"""``zensical.toml`` as a site's configuration: its anchors, routes and Python handler,
held to what the real ``zensical build`` writes in a temp dir."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import check_json, committed, write

from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.base import ChunkOptions
from chunkgate.links.anchors import file_anchors
from chunkgate.sites import detect
from chunkgate.sites.mkdocstrings import Autodoc, Sources
from chunkgate.sites.model import Site
from chunkgate.sites.routes import candidates, detect_routes

CONFIG = """\
[project]
site_name = "t"
docs_dir = "pages"
use_directory_urls = false

[project.markdown_extensions.attr_list]
[project.markdown_extensions.toc]
permalink = true
[project.markdown_extensions.pymdownx.tabbed]
alternate_style = true

[project.plugins.mkdocstrings.handlers.python]
paths = ["src"]

[project.plugins.mkdocstrings.handlers.python.options]
show_root_heading = true
"""

MODULE = '''"""The package."""

def f():
    """F."""

class C:
    """C."""

    def m(self):
        """M."""
'''

PAGE = """# Guide

## Templates

Some text.

## Templates

More text.

## Custom {#my-id}

## Cross-references to other projects / inventories

::: pkg

See [the second](#templates_1) and [the other page](other.html#other).
"""


@pytest.mark.parametrize(
    ("text", "style", "markdown"),
    [
        pytest.param(
            '[project]\nsite_name = "x"\n',
            AnchorStyle("mkdocs", "toc", "-", True, "zensical.toml"),
            # Zensical's own defaults (zensical/config.py's DEFAULT_MARKDOWN_EXTENSIONS).
            {"admonition", "details", "footnotes", "tabbed"},
            id="default-extensions",
        ),
        pytest.param(
            '[project]\ndocs_dir = "pages"\n[project.markdown_extensions.toc]\n',
            AnchorStyle("mkdocs", "toc", "-", False, "zensical.toml"),
            set(),
            id="no-attr-list",
        ),
        pytest.param(
            "[project.markdown_extensions.toc]\nseparator = '_'\n"
            "slugify = {object = 'pymdownx.slugs.slugify', kwds = {case = 'lower'}}\n"
            "[project.markdown_extensions.pymdownx.extra]\n",
            AnchorStyle(
                "mkdocs",
                "pymdownx:case=lower,normalize=NFC,percent_encode=0",
                "_",
                True,
                "zensical.toml",
            ),
            {"footnotes"},  # pymdownx.extra has them
            id="pymdownx-slugify",
        ),
    ],
)
def test_zensical_toml_is_read_as_a_site(text: str, style: AnchorStyle, markdown: set[str]) -> None:
    files = {"zensical.toml": text.encode()}
    (site,) = detect.find_sites(files, files.get)
    folder = "pages/" if "pages" in text else "docs/"
    assert site == Site(folder, style, markdown=frozenset(markdown))


def test_a_zensical_toml_that_is_not_toml_is_no_site() -> None:
    files = {"zensical.toml": b"[project\n"}
    assert detect.find_sites(files, files.get) == ()


def _zensical_build(root: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "zensical", "build"],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return root / "site"


def test_anchors_and_routes_are_those_zensical_builds(tmp_path: Path) -> None:
    write(tmp_path, "zensical.toml", CONFIG)
    write(tmp_path, "src/pkg/__init__.py", MODULE)
    write(tmp_path, "pages/index.md", PAGE)
    write(tmp_path, "pages/other.md", "# Other\n\nText.\n")
    site = _zensical_build(tmp_path)
    built = set(re.findall(r'\bid="([^"]+)"', (site / "index.html").read_text()))
    content = {i for i in built if not i.startswith("__")}  # the theme's own start with __

    def read(path: str) -> bytes | None:
        return (tmp_path / path).read_bytes() if (tmp_path / path).is_file() else None

    routes = detect_routes(["zensical.toml", "pages/index.md"], read)
    assert routes.roots == ("pages",)
    assert not routes.directory_urls
    assert routes.autodoc == Autodoc(("src",), '{"show_root_heading": true}')
    # A page is published as page.html: the link resolves to the file the site built.
    assert candidates(routes, "pages/index.md", "other.html")[0] == "pages/other.md"
    assert (site / "other.html").is_file()
    sites = detect.find_sites(["zensical.toml"], read)
    sources = Sources(
        lambda path: (tmp_path / path).read_text() if (tmp_path / path).is_file() else None,
        lambda folder: os.listdir(tmp_path / folder),
    )
    anchors = file_anchors(
        PAGE, "pages/index.md", routes, options=ChunkOptions(sites=sites), source=sources
    ).anchors
    assert anchors == content
    assert {"templates_1", "pkg.C.m", "cross-references-to-other-projects-inventories"} <= content


def test_a_zensical_site_links_check_as_it_builds(cli_repo: Path) -> None:
    write(cli_repo, "zensical.toml", CONFIG)
    write(cli_repo, "src/pkg/__init__.py", MODULE)
    write(cli_repo, "pages/index.md", PAGE + "\nAnd [a method](other.html#pkg.C.nope).\n")
    write(cli_repo, "pages/other.md", "# Other\n\nText.\n\n::: pkg\n")
    committed(cli_repo)
    _, data = check_json()
    findings = data["violations"] + data.get("known", [])
    assert [v["message"] for v in findings if v["rule"] == "CG404"] == [
        "link other.html#pkg.C.nope: pages/other.md has no anchor #pkg.C.nope"
    ]
