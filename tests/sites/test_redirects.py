"""Redirects in each generator's form, from accepted moves: texts edited by adding lines."""

from __future__ import annotations

import pytest

from chunkgate.sites.redirects import (
    PageMove,
    anchor_map,
    docusaurus_entries,
    front_matter_list,
    mkdocs_config,
    page_moves,
)
from chunkgate.sites.routes import Routes

MKDOCS = Routes("mkdocs", ("docs",), True)
MOVE = [PageMove("docs/setup.md", "docs/guide/setup.md")]
THERE = "plugins:\n  - redirects:\n      redirect_maps:\n        'setup.md': 'guide/setup.md'\n"


def test_page_moves_name_the_page_most_sections_went_to() -> None:
    moves = [
        ("docs/a.md#a", "docs/b.md#a"),
        ("docs/a.md#x", "docs/b.md#x"),
        ("docs/a.md#y", "docs/c.md#y"),
        ("docs/kept.md#z", "docs/c.md#z"),  # its page is still there: an anchor move only
    ]
    assert page_moves(moves, lambda path: path == "docs/kept.md") == [
        PageMove("docs/a.md", "docs/b.md")
    ]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            "site_name: x\n",
            "site_name: x\nplugins:\n  - search\n  - redirects:\n      redirect_maps:\n"
            "        'setup.md': 'guide/setup.md'\n",
            id="no-plugins",
        ),
        pytest.param(
            "site_name: x\nplugins:\n    - search  # keep\ntheme: material\n",
            "site_name: x\nplugins:\n    - redirects:\n        redirect_maps:\n"
            "          'setup.md': 'guide/setup.md'\n    - search  # keep\ntheme: material\n",
            id="plugins",
        ),
        pytest.param(
            "plugins:\n  - redirects:\n      redirect_maps:\n        'a.md': 'b.md'\n\nnav: []\n",
            "plugins:\n  - redirects:\n      redirect_maps:\n        'a.md': 'b.md'\n"
            "        'setup.md': 'guide/setup.md'\n\nnav: []\n",
            id="redirect-maps",
        ),
        pytest.param(THERE, THERE, id="already-there"),
    ],
)
def test_mkdocs_redirect_maps(before: str, after: str) -> None:
    assert mkdocs_config(before, MKDOCS, MOVE) == after
    assert mkdocs_config(after, MKDOCS, MOVE) == after


@pytest.mark.parametrize(
    ("before", "key", "after"),
    [
        ("# Page\n", "aliases", '---\naliases:\n  - "/old/"\n---\n# Page\n'),
        ("---\ntitle: A\n---\nx\n", "aliases", '---\ntitle: A\naliases:\n  - "/old/"\n---\nx\n'),
        (
            '---\nredirect_from:\n  - "/a.html"\ntitle: A\n---\n',
            "redirect_from",
            '---\nredirect_from:\n  - "/a.html"\n  - "/old/"\ntitle: A\n---\n',
        ),
        ('---\naliases: ["/a/"]\n---\n', "aliases", '---\naliases: ["/a/", "/old/"]\n---\n'),
        ('+++\ntitle = "A"\n+++\n', "aliases", '+++\ntitle = "A"\naliases = ["/old/"]\n+++\n'),
        ('+++\naliases = ["/a/"]\n+++\n', "aliases", '+++\naliases = ["/a/", "/old/"]\n+++\n'),
    ],
)
def test_front_matter_lists(before: str, key: str, after: str) -> None:
    assert front_matter_list(before, key, ["/old/"]) == after
    assert front_matter_list(after, key, ["/old/"]) == after


def test_the_anchor_map_follows_the_page_redirect_too() -> None:
    moves = [
        ("docs/setup.md#install", "docs/guide/setup.md#installing"),
        ("docs/setup.md#setup", "docs/guide/setup.md#setup"),  # the page redirect's
        ("docs/faq.md#old", "docs/faq.md#new"),
    ]
    assert anchor_map(MKDOCS, moves) == {
        "/faq/#old": "/faq/#new",
        "/guide/setup/#install": "/guide/setup/#installing",
        "/setup/#install": "/guide/setup/#installing",
    }


def test_docusaurus_entries_keep_those_written() -> None:
    site = Routes("docusaurus", ("docs",), True, base="docs")
    have = [{"from": "/docs/a", "to": "/docs/b"}]
    entries = docusaurus_entries(site, MOVE, have)
    assert entries[0] == have[0]
    assert len(entries) == 2
    assert docusaurus_entries(site, MOVE, entries) == entries
