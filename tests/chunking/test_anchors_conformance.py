"""Each anchor flavour against the generator's own output (scripts/anchor_conformance.py).

tests/data/anchors/expected.json holds heading-only documents (the hand-written
headings.md, the CommonMark spec examples' headings, every page of the shared
corpora) and the IDs Python-Markdown, kramdown, Hugo and github-slugger gave
them. Every difference is listed below with its reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkgate.chunking import context_for
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.markdown import headings
from chunkgate.chunking.slugs import EMPTY_SLUG_IDENTITY
from chunkgate.sites.model import Site

DATA = json.loads(
    (Path(__file__).parents[1] / "data" / "anchors" / "expected.json").read_text(encoding="utf-8")
)
PYMDOWNX = "pymdownx:case={},normalize=NFC,percent_encode={}"
STYLES = {
    "mkdocs-fastapi": AnchorStyle("mkdocs", "toc"),
    "mkdocs-httpx": AnchorStyle("mkdocs", "toc", attributes=False),
    "mkdocs-unicode": AnchorStyle("mkdocs", "toc-unicode", attributes=False),
    "mkdocs-pymdownx-lower": AnchorStyle("mkdocs", PYMDOWNX.format("lower", 0), attributes=False),
    "mkdocs-pymdownx-fold-percent": AnchorStyle(
        "mkdocs", PYMDOWNX.format("fold", 1), attributes=False
    ),
    "kramdown": AnchorStyle("kramdown", "gfm"),
    "hugo-github": AnchorStyle("hugo", "github"),
    "hugo-github-ascii": AnchorStyle("hugo", "github-ascii"),
    "hugo-blackfriday": AnchorStyle("hugo", "blackfriday"),
    "slugger": AnchorStyle("starlight", attributes=False),
    "vitepress": AnchorStyle("vitepress"),
}
_MKDOCS = tuple(name for name in STYLES if name.startswith("mkdocs"))
_ONE_LINE_SETEXT = (
    "Python-Markdown and kramdown read a setext heading of one line only: the first "
    "lines of a multi-line one are a paragraph"
)
# Documents whose headings the generator's parser (not CommonMark) does not find alike.
PARSER_DIFFERENCES = {
    **{(name, "spec-81.md"): _ONE_LINE_SETEXT for name in (*_MKDOCS, "kramdown")},
    **{(name, "spec-82.md"): _ONE_LINE_SETEXT for name in (*_MKDOCS, "kramdown")},
    **{(name, "spec-95.md"): _ONE_LINE_SETEXT for name in (*_MKDOCS, "kramdown")},
    **{
        (name, "spec-649.md"): "Python-Markdown reads `### foo\\` (a hard break) as no heading"
        for name in _MKDOCS
    },
    ("kramdown", "spec-79.md"): "kramdown reads no heading in an empty `## ` or `#` line",
    ("kramdown", "spec-217.md"): "kramdown reads no setext heading after a link definition",
}
# Single headings slugged differently, (generator, document, chunkgate's ID): why.
SLUG_DIFFERENCES = {
    (name, "spec-73.md", "foo"): (
        "Python-Markdown keeps the spaces after `### foo ###     ` in the heading's text, "
        "which pymdownx.slugs turns into a separator; CommonMark strips them"
    )
    for name in ("mkdocs-pymdownx-lower", "mkdocs-pymdownx-fold-percent")
} | {
    ("vitepress", path, mine): (
        "VitePress gives an empty heading the empty ID and its repeats `-1`, `-2`; chunkgate's "
        "chunk IDs need a name, so an empty heading is `~section` (a link cannot name either)"
    )
    for path, mine in (
        ("headings.md", "~section-1"),
        ("spec-79.md", "~section-1"),
        ("spec-79.md", "~section-2"),
    )
}
CORPORA = [name for name in DATA if name != "fixtures"]


def _ours(document: dict[str, str], style: AnchorStyle) -> list[str]:
    options = ChunkOptions(sites=(Site("", style),))
    _, found = headings(context_for(document["markdown"], document["path"], options=options))
    return [heading.identity for heading in found if not heading.nested]


def _differences(name: str, generator: str) -> tuple[int, int, list[tuple[str, str, str]]]:
    entry = DATA[name]
    same = total = 0
    different: list[tuple[str, str, str]] = []
    for document, expected in zip(entry["documents"], entry["expected"][generator], strict=True):
        if expected is None:
            continue  # github-slugger's MDX parser refused the page (not one of ours)
        ours = _ours(document, STYLES[generator])
        if len(ours) != len(expected):
            assert (generator, document["path"]) in PARSER_DIFFERENCES, (document, ours, expected)
            continue
        for mine, theirs in zip(ours, expected, strict=True):
            total += 1
            if mine == (theirs or EMPTY_SLUG_IDENTITY):
                same += 1
            else:
                different.append((document["path"], mine, theirs))
    return same, total, different


@pytest.mark.parametrize("generator", list(DATA["fixtures"]["expected"]))
def test_fixtures_match_the_generator(generator: str) -> None:
    _, total, different = _differences("fixtures", generator)
    assert total > 90
    unexplained = [d for d in different if (generator, d[0], d[1]) not in SLUG_DIFFERENCES]
    assert unexplained == []


@pytest.mark.parametrize(
    ("name", "generator"),
    [(name, generator) for name in CORPORA for generator in DATA[name]["expected"]],
)
def test_corpus_matches_its_generator(name: str, generator: str) -> None:
    same, total, different = _differences(name, generator)
    assert total > 100
    assert same / total >= 0.995, different[:20]
    assert different == []  # today every heading of every shared corpus matches


def test_explained_differences_still_happen() -> None:
    """A listed difference that no longer occurs is stale: remove it."""
    for generator, path, mine in SLUG_DIFFERENCES:
        _, _, different = _differences("fixtures", generator)
        assert (path, mine) in [(d[0], d[1]) for d in different]


def test_python_markdown_itself_agrees_on_the_hand_written_headings() -> None:
    """The data is not stale: the real toc extension, run now, gives the recorded IDs."""
    import re

    import markdown

    document = DATA["fixtures"]["documents"][0]
    assert document["path"] == "headings.md"
    rendered = markdown.markdown(document["markdown"], extensions=["toc"])
    ids = re.findall(r'<h[1-6] id="([^"]*)"', rendered)
    assert ids == DATA["fixtures"]["expected"]["mkdocs-httpx"][0]
    assert ids == _ours(document, STYLES["mkdocs-httpx"])
