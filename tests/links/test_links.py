"""Link extraction: CommonMark's links and reference definitions, with their lines."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.chunking import cmark
from chunkgate.links.extract import Link, extract_links

DATA = Path(__file__).parents[1] / "data"
SPEC = json.loads((DATA / "commonmark-spec-examples.json").read_text(encoding="utf-8"))
_HREF = re.compile(r'<a href="([^"]*)"')


def _spec_links(example: dict[str, str]) -> list[str]:
    """The links the spec renders that Markdown made (not raw ``<a href>`` HTML)."""
    found = [html.unescape(h) for h in _HREF.findall(example["html"])]
    raw = {html.unescape(h) for h in re.findall(r'<a href="([^"]*)"', example["markdown"])}
    found = [href for href in found if href not in raw]
    if "](" not in example["markdown"] and "]:" not in example["markdown"]:
        # Only autolinks, whose scheme makes them links to other sites: skipped unread.
        assert all(re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", href) for href in found)
        return []
    return found


@pytest.mark.parametrize(
    "example",
    [e for e in SPEC if "<a href" in e["html"] or "]:" in e["markdown"]],
    ids=lambda e: f"example-{e['example']}",
)
def test_every_link_the_spec_renders_is_found(example: dict[str, str]) -> None:
    expected = _spec_links(example)
    found = extract_links(example["markdown"])
    destinations = [link.destination for link in found]
    for href in expected:
        assert href in destinations, (href, destinations)
    lines = example["markdown"].split("\n")
    for link in found:
        assert 1 <= link.line <= len(lines)


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        pytest.param("See [a](x.md#y).\n", [("x.md#y", 1)], id="inline"),
        pytest.param("`[a](x.md#y)`\n", [], id="code-span"),
        pytest.param("```\n[a](x.md#y)\n```\n", [], id="fence"),
        pytest.param("~~~~\n[a]: x.md#y\n~~~~\n", [], id="definition-in-fence"),
        pytest.param("    [a](x.md#y)\n", [], id="indented-code"),
        pytest.param("<div>\n[a]: x.md#y\n</div>\n", [], id="definition-in-html-block"),
        pytest.param("text\n\n[a][r]\n\n[r]: ../x.md#z\n", [("../x.md#z", 5)], id="reference"),
        pytest.param("[r]: x.md#q\n", [("x.md#q", 1)], id="unused-definition"),
        pytest.param("- item\n  [a]: x.md#y\n", [], id="continuation-not-definition"),
        pytest.param("[r]:\n  x.md#n\n", [("x.md#n", 1)], id="destination-next-line"),
        pytest.param("a\nb [c](<s p.md#k>)\n", [("s%20p.md#k", 2)], id="pointy-destination"),
        pytest.param("[a](x.md#y) and [b](x.md#y)\n", [("x.md#y", 1), ("x.md#y", 1)], id="twice"),
        pytest.param("[a](k%C3%A9.md#%C3%A9)\n", [("k%C3%A9.md#%C3%A9", 1)], id="percent"),
        pytest.param("<a href='x.md#y'>a</a>\n", [], id="raw-html-is-not-read"),
        pytest.param("---\ntitle: a\n---\n[a](x.md#y)\n", [("x.md#y", 4)], id="front-matter"),
        pytest.param("[a] [b](x.md#y)\n", [("x.md#y", 1)], id="shortcut-without-definition"),
    ],
)
def test_links(markdown: str, expected: list[tuple[str, int]]) -> None:
    assert [(link.destination, link.line) for link in extract_links(markdown)] == expected


def test_a_link_is_reported_on_the_line_it_is_written() -> None:
    text = "# T\n\nFirst line of a paragraph\nthat links [here](a.md#b)\nand on.\n"
    assert extract_links(text) == [Link("a.md#b", 4, "that links [here](a.md#b)")]


def test_the_links_of_a_line_share_its_text() -> None:
    # Issue 44: a line of 18,750 links kept a stripped copy of itself per link (2.8 GB).
    links = extract_links("# a\n" + "[x](#y) " * 2_000 + "\n\nmore [z](#y) text\n")
    assert [link.line for link in links] == [2] * 2_000 + [4]
    assert len({id(link.written) for link in links[:-1]}) == 1
    assert links[-1].written == "more [z](#y) text"


def test_a_link_whose_destination_is_written_earlier_on_its_line_is_placed_there() -> None:
    # "g" first stands in "getter": the link is still on line 4, not the block's first.
    text = "# T\n\nFirst line\nA [resource getter](g) to use\n"
    assert [(link.destination, link.line) for link in extract_links(text)] == [("g", 4)]


def test_crlf_gives_the_same_links() -> None:
    text = "a\n\n[x](y.md#z)\n\n[r]: q.md#w\n"
    assert extract_links(text.replace("\n", "\r\n")) == extract_links(text)


_PIECES = st.sampled_from(
    ["[a](x.md#y)", "[b][r]", "[r]: z.md#w\n", "`", "```\n", "    ", "> ", "- ", "\n", "\n\n",
     "text ", "# H\n", "<div>\n", "[", "](", "\\", "<", ">", "---\n", "[r]:\n", " x.md#q\n"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_every_rendered_link_is_found_on_a_line_of_the_text(markdown: str) -> None:
    found = extract_links(markdown)
    lines = markdown.replace("\r\n", "\n").split("\n")
    for link in found:
        assert 1 <= link.line <= len(lines)
    rendered = cmark.render(markdown).decode("utf-8")
    destinations = {link.destination for link in found}
    for href in _HREF.findall(rendered):
        assert html.unescape(href) in destinations
    local = {link.destination for link in extract_links(markdown, local_only=True)}
    assert local == {d for d in destinations if "#" in d and not re.match(r"[a-z]+:|//", d)}


@pytest.mark.parametrize(
    ("destination", "shown"),
    [
        ("page.md#%C3%BCber-gr%C3%B6%C3%9Fe", "page.md#über-größe"),
        ("#%E6%97%A5%E6%9C%AC", "#日本"),
        ("a%20b.md#x%23y", "a%20b.md#x%23y"),  # ASCII escapes name the same URL only so
        ("#%FF%FE", "#%FF%FE"),  # not UTF-8
        ("#caf%C3%A9%20bar", "#café%20bar"),
        ("plain.md#anchor", "plain.md#anchor"),
    ],
)
def test_a_link_is_shown_as_it_was_written(destination: str, shown: str) -> None:
    from chunkgate.links.extract import readable

    assert readable(destination) == shown
