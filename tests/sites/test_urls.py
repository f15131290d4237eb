"""The URL a page is published at, from its path and front matter, and links to it.

The Docusaurus cases are what a Docusaurus 3 build (classic preset, ``routeBasePath:
'/'``) published these files as: out/intro/start/, out/sub/other/, out/sub/rel-slug/,
out/elsewhere/page/; the Hugo and Jekyll ones are built in test_generator_builds.py."""

from __future__ import annotations

import pytest

from chunkgate.links.broken import Target, targets
from chunkgate.sites.routes import Routes, candidates
from chunkgate.sites.urls import page_urls, published, url_key

DOCUSAURUS = Routes("docusaurus", ("docs", "website"))
HUGO = Routes("hugo", ("content",), directory_urls=True, prefix="docs")
JEKYLL = Routes("jekyll", ("",), directory_urls=True)


@pytest.mark.parametrize(
    ("site", "source", "route", "expected"),
    [
        pytest.param(DOCUSAURUS, "docs/01-intro/02-start.md", (), "intro/start", id="numbers"),
        pytest.param(DOCUSAURUS, "docs/sub/d3.md", (("id", "other"),), "sub/other", id="id"),
        pytest.param(
            DOCUSAURUS, "docs/sub/rel.md", (("slug", "rel-slug"),), "sub/rel-slug", id="slug"
        ),
        pytest.param(
            DOCUSAURUS,
            "docs/d2.md",
            (("id", "custom-id"), ("slug", "/elsewhere/page")),
            "elsewhere/page",
            id="absolute-slug-wins",
        ),
        pytest.param(
            Routes("docusaurus", ("docs",), base="docs"), "docs/a/index.md", (), "docs/a", id="base"
        ),
        pytest.param(HUGO, "content/docs/x.md", (("url", "/elsewhere/zed/"),), "elsewhere/zed"),
        pytest.param(HUGO, "content/docs/x.md", (("slug", "Why"),), "docs/why", id="hugo-slug"),
        pytest.param(HUGO, "content/docs/_index.md", (), "docs", id="section"),
        pytest.param(JEKYLL, "docs/ruby.md", (("permalink", "/docs/ruby-101/"),), "docs/ruby-101"),
        pytest.param(JEKYLL, "_recipes/soup.md", (), "recipes/soup", id="collection"),
        pytest.param(
            JEKYLL, "docs/x.md", (("permalink", "/:categories/:title/"),), "docs/x", id="pattern"
        ),
    ],
)
def test_a_page_is_published_where_its_front_matter_says(
    site: Routes, source: str, route: tuple[tuple[str, str], ...], expected: str
) -> None:
    assert published(site, source, route)[0] == expected


def test_aliases_and_redirects_name_the_page_too() -> None:
    route = (("aliases", "/old/x/"), ("aliases", "older"))
    assert published(HUGO, "content/docs/x.md", route) == ("docs/x", "old/x", "docs/older")


@pytest.mark.parametrize(
    ("url", "key"),
    [("/a/b/", "a/b"), ("/a/b.html", "a/b"), ("/a/index.html", "a"), ("/", ""), ("/A/", "a")],
)
def test_url_keys(url: str, key: str) -> None:
    assert url_key(url) == key


def test_site_urls_find_the_page_that_publishes_them() -> None:
    pages = {
        "docs/faq/OrganizingState.md": (("id", "organizing-state"),),
        "docs/faq/CodeStructure.md": (),
    }
    urls = page_urls(lambda path: DOCUSAURUS, pages.items())
    exists = {*pages}.__contains__

    def found(destination: str) -> list[Target]:
        return targets(
            destination,
            "docs/faq/CodeStructure.md",
            lambda p: p if exists(p) else None,
            DOCUSAURUS,
            urls,
        )

    assert found("/faq/organizing-state#x") == [Target("docs/faq/OrganizingState.md", "x")]
    assert found("organizing-state#x") == [Target("docs/faq/OrganizingState.md", "x")]
    assert found("/faq/nothing#x") == []


def test_docusaurus_file_links_are_tried_from_the_docs_folder() -> None:
    """`api/Store.md` in docs/a/b/page.md is docs/api/Store.md, as Docusaurus resolves it;
    `./` and `../` links are from the page's folder alone."""
    assert candidates(DOCUSAURUS, "docs/a/b/page.md", "api/Store.md")[:2] == [
        "docs/a/b/api/Store.md",
        "docs/api/Store.md",
    ]
    assert candidates(DOCUSAURUS, "docs/a/b/page.md", "./api/Store.md") == ["docs/a/b/api/Store.md"]


def test_a_hugo_base_url_path_prefixes_its_site_urls() -> None:
    assert candidates(HUGO, "content/a.md", "/docs/guide/")[0] == "content/guide.md"
