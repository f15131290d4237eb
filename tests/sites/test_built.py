"""Reading a built site: its pages as a static server serves them, the ids a fragment lands on."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.sites.built import BuiltPage, read_page, read_site


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("document", "ids"),
    [
        pytest.param('<h2 id="usage">Usage</h2>', {"usage"}, id="heading"),
        pytest.param("<li ID=item>x</li><p id='para'>y</p>", {"item", "para"}, id="quotes-case"),
        pytest.param('<a name="old"></a><div name="form"></div>', {"old"}, id="name-on-a-only"),
        pytest.param('<h2 id="a&amp;b" title="x > y">', {"a&b"}, id="entities-and-gt"),
        pytest.param('<p data-x="id=no" id="yes">', {"yes"}, id="id-inside-a-value"),
        pytest.param('<p id="first" id="second">', {"first"}, id="first-wins"),
        pytest.param('<p id="">x</p><input id=fn:1/>', {"fn:1/"}, id="empty-and-unquoted"),
        pytest.param(
            '<!-- <h2 id="commented"> --><script>x = "<b id=\'s\'>"</script>'
            '<style>#a{}</style><template><p id="inert"></p></template>'
            '<textarea><p id="text"></p></TEXTAREA><h3 id="real">',
            {"real"},
            id="no-elements-in-comments-and-raw-text",
        ),
        pytest.param('<svg><g id="shape"/></svg>', {"shape"}, id="svg"),
        pytest.param(
            '<script id="cfg" type="application/json">{"id": "no"}</script>',
            {"cfg"},
            id="raw-text-element-itself",
        ),
    ],
)
def test_landable_ids(document: str, ids: set[str]) -> None:
    assert read_page(document).ids == ids


@pytest.mark.parametrize(
    ("document", "target"),
    [
        ('<meta http-equiv="refresh" content="0; url=/docs/new/">', "/docs/new/"),
        ("<meta http-equiv=Refresh content=\"0;URL='../b/'\">", "../b/"),
        ('<meta http-equiv="refresh" content="30">', None),
        ('<meta name="viewport" content="width=device-width">', None),
    ],
)
def test_redirect(document: str, target: str | None) -> None:
    assert read_page(document).redirect == target


class _Ids(HTMLParser):
    """The standard library's parser as the reference: every id, and a's names."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        seen: dict[str, str | None] = {}
        for name, value in attrs:
            seen.setdefault(name, value)
        for name in ("id", "name") if tag == "a" else ("id",):
            if seen.get(name):
                self.ids.add(str(seen[name]))


_VALUE = st.text(st.sampled_from("ab9-_:.é &;<>'\""), min_size=0, max_size=6)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["h2", "a", "p", "li", "span"]), st.sampled_from(["id", "name"]), _VALUE
        ),
        max_size=6,
    )
)
def test_agrees_with_html_parser_on_quoted_attributes(elements: list[tuple[str, str, str]]) -> None:
    document = "".join(
        f'<{tag} class="c" {attr}="{html_escape(value)}">t</{tag}>' for tag, attr, value in elements
    )
    reference = _Ids()
    reference.feed(document)
    reference.close()
    assert read_page(document).ids == reference.ids


def html_escape(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


SITE = {
    "index.html": '<h1 id="home">',
    "a/b/index.html": '<h2 id="in-folder">',
    "a/c.html": '<h2 id="flat">',
    "a/d/index.html": '<h2 id="folder-wins">',
    "a/d.html": '<h2 id="file-loses">',
    "sp ace/index.html": '<h2 id="s">',
    "old/index.html": '<meta http-equiv="refresh" content="0; url=/a/c.html">',
    "style.css": "#x{}",
}


def test_read_site_and_serve_as_a_static_server(tmp_path: Path) -> None:
    site = read_site(write(tmp_path, SITE))
    assert sorted(site.pages) == [
        *("/", "/a/b/", "/a/c.html", "/a/d.html", "/a/d/", "/old/", "/sp ace/")
    ]
    assert site.page("/") == site.page("/index.html") == frozenset({"home"})
    assert site.page("/a/b/") == site.page("/a/b") == site.page("a/b/index.html") == {"in-folder"}
    assert site.page("/a/c") == site.page("/a/c.html") == {"flat"}
    assert site.page("/a/d") == {"folder-wins"}
    assert site.page("/sp%20ace/") == {"s"}
    assert site.served("/a/c") == "/a/c.html"
    assert site.pages["/old/"] == BuiltPage(frozenset(), "/a/c.html")
    for missing in ("/a/c/", "/a/b.html", "/nope", "/style.css"):
        assert site.page(missing) is None


@pytest.mark.parametrize(
    ("page_url", "href", "lands"),
    [
        ("/a/b/", "#in-folder", True),
        ("/a/b/", "#nope", False),
        ("/a/b/", "../c#flat", True),
        ("/a/b/", "/a/c.html#in-folder", False),
        ("/a/b/", "../../#home", True),
        ("/a/b/", "../../#top", True),
        ("/a/b/", "../gone/#x", False),
        ("/a/b/", "/old/#flat", True),
        ("/a/b/", "../app.py#L3", None),
        ("/a/b/", "https://example.com/#x", None),
    ],
)
def test_lands(tmp_path: Path, page_url: str, href: str, lands: bool | None) -> None:
    site = read_site(write(tmp_path, SITE))
    assert site.lands(page_url, href) is lands
