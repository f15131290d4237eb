"""MkDocs' admonitions, collapsibles and tabs: their indented bodies read as Markdown."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, pin_git_env, write
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import context_for
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.blocks import flatten
from chunkgate.chunking.markdown import chunk_markdown, headings
from chunkgate.cli import cli
from chunkgate.links.anchors import file_anchors
from chunkgate.sites.model import Site

KINDS = frozenset({"admonition", "details", "tabbed"})
MKDOCS = Site("docs/", AnchorStyle("mkdocs", "toc", source="mkdocs.yml"), markdown=KINDS)
SENTENCE = "The client keeps its connections open between requests, so reuse one. "
PAGE = (
    "# Clients\n\n"
    "Intro text for the page.\n\n"
    '!!! note "Why"\n'
    + "".join(f"    {SENTENCE * 3}\n\n" for _ in range(12))
    + "    See [pooling](#pooling).\n\n"
    "    ## Pooling\n\n"
    "    ??? tip\n"
    "        Nested [link](#nested).\n\n"
    "        ### Next\n\n"
    '=== "Sync"\n\n'
    "    ```python\n"
    "    !!! not-an-opener\n"
    "        client = Client()\n"
    "    ```\n\n"
    "## Next\n\n"
    "    indented code stays code\n"
)


def _options(site: Site | None = MKDOCS) -> ChunkOptions:
    return ChunkOptions(sites=(site,) if site else ())


def test_flatten_moves_bodies_left_and_keeps_every_line() -> None:
    lines = PAGE.split("\n")
    flat = flatten(PAGE, KINDS)
    assert flat is not None
    assert len(flat.lines) == len(lines)
    by_text = dict(zip(lines, flat.lines, strict=True))
    assert by_text["    ## Pooling"] == "## Pooling"
    assert by_text["        Nested [link](#nested)."] == "Nested [link](#nested)."
    assert by_text["        client = Client()"] == "    client = Client()"  # code in a fence
    assert by_text["    indented code stays code"] == "    indented code stays code"
    assert lines.index("    indented code stays code") not in flat.inside
    assert flatten(PAGE, frozenset()) is None
    assert flatten("# Plain\n\n    code\n", KINDS) is None


def test_long_admonition_is_split_as_prose_not_as_a_code_block() -> None:
    ctx = context_for(PAGE, "docs/clients.md", options=_options())
    chunks = chunk_markdown(ctx)
    assert [c.id for c in chunks][:1] == ["docs/clients.md#clients"]
    assert len(chunks) > 2  # the body's paragraphs are cut between them
    assert not any("code block" in c.unsplittable for c in chunks)
    for chunk in chunks:  # lines are the file's
        assert chunk.text == "\n".join(ctx.lines[chunk.start_line - 1 : chunk.end_line])
    # To GitHub the whole body is one indented code block (on 10fad8d one oversized
    # part); since issue 41 it is cut as code, at its blank lines.
    github = chunk_markdown(context_for(PAGE, "README.md", options=_options()))
    assert len(github) > 2
    assert not any(c.unsplittable for c in github)


def test_a_heading_in_a_body_is_an_anchor_but_not_a_section() -> None:
    ctx = context_for(PAGE, "docs/clients.md", options=_options())
    _, found = headings(ctx)
    # Python-Markdown's toc numbers them all in page order: the last "Next" is next_1.
    assert [(h.identity, h.nested) for h in found] == [
        ("clients", False),
        ("pooling", True),
        ("next", True),
        ("next_1", False),
    ]
    ids = {c.identity for c in chunk_markdown(ctx)}
    assert "pooling" not in ids
    assert "next_1" in ids


def test_github_files_and_sites_without_the_extensions_are_unchanged() -> None:
    plain = _options(Site("docs/", AnchorStyle("mkdocs", "toc", source="mkdocs.yml")))
    for options, path in ((plain, "docs/clients.md"), (_options(), "README.md")):
        _, found = headings(context_for(PAGE, path, options=options))
        assert [h.identity for h in found] == ["clients", "next"]


def test_links_in_bodies_are_checked(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "mkdocs.yml", "site_name: t\nmarkdown_extensions:\n  - admonition\n")
    body = "Install the package with pip, then configure it as the guide says.\n"
    write(git_repo, "docs/setup.md", f"# Setup\n\n## Install\n\n{body}")
    write(
        git_repo,
        "docs/index.md",
        f"# Docs\n\n{body}\n!!! tip\n    Two paragraphs.\n\n"
        "    Read [how to install](setup.md#instal) first.\n",
    )
    commit_all(git_repo)
    result = CliRunner().invoke(cli, ["check", "--format", "json"])
    assert '"rule": "CG404"' in result.output, result.output
    # Its second paragraph is an indented code block to CommonMark: no link was seen.
    assert '"line": 8' in result.output


def test_mkdocs_build_agrees(tmp_path: Path) -> None:
    """The real MkDocs (Material) renders the headings and links of the bodies as chunkgate
    reads them: every anchor chunkgate gives the page is an id of the built page's
    content, and every heading id there is one of chunkgate's."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme:\n  name: material\nmarkdown_extensions:\n"
        "  - admonition\n  - pymdownx.details\n  - pymdownx.superfences\n"
        "  - pymdownx.tabbed:\n      alternate_style: true\n",
        encoding="utf-8",
    )
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q"],
        cwd=tmp_path,
        check=True,
        timeout=120,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article") : html.index("</article>")]
    built = set(re.findall(r'<h[1-6][^>]* id="([^"]+)"', article))
    ours = file_anchors(PAGE, "docs/index.md", options=_options()).anchors
    assert ours == built == {"clients", "pooling", "next", "next_1"}
    assert '<a href="#pooling">pooling</a>' in article  # the body's link is a link


def test_front_matter_stays_out_of_the_parse() -> None:
    text = "---\ntitle: Page\n---\n# Page\n\n!!! note\n    A [link](#page).\n"
    ctx = context_for(text, "docs/page.md", options=_options())
    assert [(h.identity, h.first) for h in headings(ctx)[1]] == [("page", 3)]


_PIECES = st.sampled_from(
    [
        "!!! note",
        '??? tip "Title"',
        '=== "Tab"',
        "    !!! warning",
        "    body with a [link](#x) and more words",
        "        deeper body",
        "    ## Inside",
        "## Outside",
        "# Top",
        "```",
        "    ```",
        "plain text line",
        "- item",
        "",
        "\tTabbed",
    ]
)


@settings(max_examples=100)
@given(st.lists(_PIECES, max_size=40), st.integers(40, 400))
def test_chunks_follow_each_other_and_spans_are_the_files(pieces: list[str], size: int) -> None:
    text = "\n".join(pieces) + "\n"
    flat = flatten(text, KINDS)
    if flat is not None:
        assert len(flat.lines) == len(text.split("\n"))
        for line, moved in zip(text.split("\n"), flat.lines, strict=True):
            assert moved.strip() == line.strip()
    options = ChunkOptions(sites=(MKDOCS,), max=size, min=0, overlap=0)
    ctx = context_for(text, "docs/page.md", options=options)
    done = (0, 0)  # where the chunk before ended: chunks follow one another, never overlap
    for chunk in chunk_markdown(ctx):
        assert (chunk.start_line, chunk.start_column) > done
        done = (chunk.end_line, chunk.end_column or len(ctx.lines[chunk.end_line - 1]) + 1)
        if not chunk.start_column and not chunk.end_column:
            assert chunk.text == "\n".join(ctx.lines[chunk.start_line - 1 : chunk.end_line])
