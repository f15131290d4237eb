"""The routes of a site generator, read from its config as the generator reads it (YAML)."""

from __future__ import annotations

import pytest

from chunkgate.sites.routes import (
    GITHUB,
    Routes,
    candidates,
    detect_routes,
    hugo_routes,
    page_urls,
    vitepress_routes,
)


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        pytest.param(b"use_directory_urls: !!bool false\n", False, id="tagged-false"),
        pytest.param(b"use_directory_urls: false  # flat pages\n", False, id="false"),
        pytest.param(b"use_directory_urls: 'false'\n", True, id="a-string-is-no-boolean"),
        pytest.param(b"use_directory_urls: !ENV [FLAT, false]\n", True, id="env-default"),
        pytest.param(b"site_name: x\n", True, id="default"),
        pytest.param(
            b"theme: {name: material}\nmarkdown_extensions:\n"
            b"  - pymdownx.emoji:\n"
            b"      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
            b"use_directory_urls: no\n",
            False,
            id="python-name-tags-elsewhere",
        ),
    ],
)
def test_mkdocs_directory_urls_are_read_as_yaml(config: bytes, expected: bool) -> None:
    files = {"mkdocs.yml": config}
    assert detect_routes(list(files), files.get) == Routes("mkdocs", ("docs",), expected)


def test_mkdocs_docs_dir_is_read_as_yaml() -> None:
    files = {"site/mkdocs.yml": b'docs_dir: !!str "pages/"\nuse_directory_urls: off\n'}
    assert detect_routes(list(files), files.get) == Routes("mkdocs", ("site/pages",), False)


def test_a_mkdocs_config_that_is_no_yaml_has_the_defaults() -> None:
    files = {"mkdocs.yml": b"use_directory_urls: [false\n"}
    assert detect_routes(list(files), files.get) == Routes("mkdocs", ("docs",), True)


@pytest.mark.parametrize(
    ("site", "source", "urls"),
    [
        pytest.param(
            Routes("mkdocs", ("docs",), directory_urls=True),
            "docs/guide/Setup.md",
            ["/guide/Setup/", "/guide/Setup.html", "/guide/setup/", "/guide/setup.html"],
            id="mkdocs",
        ),
        pytest.param(
            Routes("mkdocs", ("docs",), directory_urls=True), "docs/guide/index.md", ["/guide/"]
        ),
        pytest.param(Routes("hugo", ("content/en",), True), "content/en/_index.md", ["/"]),
        pytest.param(Routes("mdbook", ("src",)), "src/a/b.md", ["/a/b.html", "/a/b/"], id="mdbook"),
        pytest.param(Routes("mdbook", ("src",)), "src/README.md", ["/"], id="mdbook-readme"),
        pytest.param(Routes("mkdocs", ("docs",), True), "README.md", [], id="outside-the-site"),
        pytest.param(
            GITHUB,
            "docs/usage/index.md",
            ["/docs/usage/", "/usage/"],
            id="no-generator-found",
        ),
    ],
)
def test_page_urls_are_where_the_generator_publishes_a_source(
    site: Routes, source: str, urls: list[str]
) -> None:
    assert page_urls(site, source) == urls


@pytest.mark.parametrize(
    ("config", "root"),
    [
        pytest.param(b"export default { cleanUrls: true }\n", "docs", id="default"),
        pytest.param(b"export default {\n  srcDir: 'pages/',\n}\n", "docs/pages", id="src-dir"),
    ],
)
def test_vitepress_publishes_its_folder(config: bytes, root: str) -> None:
    site = vitepress_routes("docs/.vitepress/config.ts", config)
    assert site == Routes("vitepress", (root,))
    page = f"{root}/guide/a.md"
    for link in ("./b", "b.html", "b.md", "/guide/b", "/guide/b.html"):
        assert candidates(site, page, link)[0] == f"{root}/guide/b.md", link


def test_hugo_routes_from_a_yaml_config_directory() -> None:
    """Docsy's: module mounts (a folder per language, one file from above the site) in
    YAML, a baseURL with a path."""
    config = (
        b"baseURL: https://x.org/docs/\nmodule:\n  mounts:\n"
        b"    - {source: content/fr, target: content}\n"
        b"    - {source: content/en, target: content}\n"
        b"    - {source: ../AGENTS.md, target: content/project/AGENTS.md}\n"
    )
    site = hugo_routes("www", "www/config/_default/hugo.yaml", config)
    assert site == Routes(
        "hugo",
        ("www/content/fr", "www/content/en"),
        directory_urls=True,
        prefix="docs",
        mounted=("project/AGENTS.md",),
    )


def test_hugo_link_hook_finds_pages_from_the_section() -> None:
    """Hugo 0.168 (multilingual, so its link hook is on) published `y/#s` in the leaf
    bundle docs/bund/index.md as /docs/y/#s: GetPage looks from the section, docs/."""
    site = Routes("hugo", ("content",), directory_urls=True)
    found = candidates(site, "content/docs/bund/index.md", "y/")
    assert "content/docs/y.md" in found
    assert found[0] == "content/docs/bund/y.md"  # the browser's reading comes first
