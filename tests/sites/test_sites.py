"""Site generators found in the tree and read as data (chunkgate.sites.detect)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import commit_all, write

from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.config.load import load_config
from chunkgate.git import search
from chunkgate.sites import detect as sites
from chunkgate.sites.model import Site, describe_settings, style_of

PYMDOWNX = """\
site_name: x
markdown_extensions:
  - attr_list
  - toc:
      permalink: true
      separator: "_"
      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format ''
plugins:
  - search
  - macros
"""


def _site(path: str, text: str, **others: str) -> Site | None:
    files = {path: text.encode(), **{k: v.encode() for k, v in others.items()}}
    found = [site for site in sites.find_sites(files, files.get) if site.style.source == path]
    return found[0] if found else None


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        pytest.param(
            "mkdocs.yml",
            "site_name: x\n",
            Site("docs/", AnchorStyle("mkdocs", "toc", "-", False, "mkdocs.yml")),
            id="mkdocs-default",
        ),
        pytest.param(
            "mkdocs.yml",
            "markdown_extensions:\n  - admonition\n  - pymdownx.details\n"
            "  - pymdownx.tabbed:\n      alternate_style: true\n  - extra\n",
            Site(
                "docs/",
                AnchorStyle("mkdocs", "toc", "-", True, "mkdocs.yml"),
                markdown=frozenset({"admonition", "details", "tabbed", "footnotes"}),
            ),
            id="mkdocs-blocks-and-extra",
        ),
        pytest.param(
            "site/mkdocs.yaml",
            PYMDOWNX,
            Site(
                "site/docs/",
                AnchorStyle(
                    "mkdocs",
                    "pymdownx:case=lower,normalize=NFC,percent_encode=0",
                    "_",
                    True,
                    "site/mkdocs.yaml",
                ),
                liquid=True,
            ),
            id="mkdocs-pymdownx-tags-read-as-data",
        ),
        pytest.param(
            "mkdocs.yml",
            "docs_dir: src\nmarkdown_extensions:\n  toc:\n    slugify: "
            "!!python/name:markdown.extensions.toc.slugify_unicode\n",
            Site("src/", AnchorStyle("mkdocs", "toc-unicode", "-", False, "mkdocs.yml")),
            id="mkdocs-slugify-unicode-and-docs-dir",
        ),
        pytest.param(
            "_config.yml",
            "title: x\n",
            Site("", AnchorStyle("kramdown", "gfm", "-", True, "_config.yml"), liquid=True),
            id="jekyll",
        ),
        pytest.param(
            "_config.yml",
            "markdown: CommonMarkGhPages\n",
            Site("", AnchorStyle("github", "", "-", True, "_config.yml"), liquid=True),
            id="jekyll-commonmark",
        ),
        pytest.param(
            "hugo.toml",
            "[markup.goldmark.parser]\nautoHeadingIDType = 'github-ascii'\n",
            Site(
                "content/",
                AnchorStyle("hugo", "github-ascii", "-", True, "hugo.toml"),
                markdown=frozenset({"footnotes"}),
            ),
            id="hugo-toml",
        ),
        pytest.param(
            "www/hugo.yaml",
            "contentDir: pages\nmarkup:\n  goldmark:\n    parser:\n      autoHeadingIdType: "
            "blackfriday\n      attribute: {title: false, Block: true}\n"
            "    extensions: {footnote: false}\n",
            Site(
                "www/pages/",
                AnchorStyle("hugo", "blackfriday", "-", False, "www/hugo.yaml"),
                markdown=frozenset({"block-attributes"}),
            ),
            id="hugo-yaml-keys-any-case",
        ),
        pytest.param(
            "config.toml",
            'baseURL = "https://example.org/"\n',
            Site(
                "content/",
                AnchorStyle("hugo", "github", "-", True, "config.toml"),
                markdown=frozenset({"footnotes"}),
            ),
            id="hugo-config-toml",
        ),
        pytest.param(
            "docs/docusaurus.config.ts",
            "export default {title: 'x'};\n",
            Site("docs/", AnchorStyle("docusaurus", "", "-", True, "docs/docusaurus.config.ts")),
            id="docusaurus-not-executed",
        ),
        pytest.param(
            "astro.config.mjs",
            "import starlight from '@astrojs/starlight';\n",
            Site("", AnchorStyle("starlight", "", "-", False, "astro.config.mjs")),
            id="astro",
        ),
        pytest.param(
            "docs/.vitepress/config.mts",
            "export default defineConfig({ cleanUrls: true })\n",
            Site("docs/", AnchorStyle("vitepress", "", "-", True, "docs/.vitepress/config.mts")),
            id="vitepress",
        ),
        pytest.param(
            ".vitepress/config.ts",
            "export default {\n  srcDir: './src',\n}\n",
            Site("src/", AnchorStyle("vitepress", "", "-", True, ".vitepress/config.ts")),
            id="vitepress-src-dir",
        ),
    ],
)
def test_generator_configs(path: str, text: str, expected: Site) -> None:
    assert _site(path, text) == expected


@pytest.mark.parametrize(
    ("path", "text"),
    [
        pytest.param("config.toml", "[tool]\nname = 'x'\n", id="config-toml-of-another-tool"),
        pytest.param("mkdocs.yml", "nav: [\n", id="invalid-yaml"),
        pytest.param("_config.yml", "- a list\n", id="not-a-mapping"),
        pytest.param("hugo.toml", "= broken", id="invalid-toml"),
        pytest.param("node_modules/x/mkdocs.yml", "site_name: x\n", id="in-node-modules"),
        pytest.param("README.md", "# mkdocs.yml\n", id="not-a-config-name"),
        pytest.param("src/config.ts", "export default {}\n", id="config-ts-outside-vitepress"),
        pytest.param(".vuepress/config.ts", "export default {}\n", id="another-hidden-folder"),
    ],
)
def test_not_a_site(path: str, text: str) -> None:
    assert _site(path, text) is None


def test_inherit_reads_the_parent_extensions() -> None:
    site = _site(
        "docs/de/mkdocs.yml",
        "INHERIT: ../en/mkdocs.yml\n",
        **{"docs/en/mkdocs.yml": "markdown_extensions: [attr_list, toc]\n"},
    )
    assert site is not None
    assert site.folder == "docs/de/docs/"
    assert site.style.attributes


def test_nearest_site_wins_and_other_files_stay_github() -> None:
    found = (
        Site("", AnchorStyle("kramdown", "gfm", source="_config.yml")),
        Site("docs/api/docs/", AnchorStyle("mkdocs", "toc", source="docs/api/mkdocs.yml")),
    )
    assert style_of("docs/api/docs/x.md", "auto", found)[0].flavour == "mkdocs"
    assert style_of("docs/guide.md", "auto", found)[0].flavour == "kramdown"
    assert style_of("README.md", "auto", ())[0] == AnchorStyle()
    forced = style_of("docs/api/docs/x.md", "hugo", found)[0]
    assert (forced.flavour, forced.source) == ("hugo", "markdown.anchors")
    assert describe_settings("auto", found) == (
        "kramdown (_config.yml) for all files, mkdocs (docs/api/mkdocs.yml) for docs/api/docs/"
    )
    assert describe_settings("auto", found[1:]) == (
        "mkdocs (docs/api/mkdocs.yml) for docs/api/docs/, github elsewhere"
    )


def test_working_tree_sites_take_one_git_call(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(git_repo, "docs/mkdocs.yml", "site_name: x\n")
    write(git_repo, "docs/docs/index.md", "# Setup & Usage\n\nText long enough to be a chunk.\n")
    write(git_repo, "README.md", "# Setup & Usage\n\nText long enough to be a chunk.\n")
    commit_all(git_repo)
    write(git_repo, "blog/_config.yml", "title: untracked but not ignored\n")
    calls: list[tuple[str, ...]] = []
    original = search.run

    def counting(root: Path, *args: str, **kwargs: object) -> bytes:
        calls.append(args)
        return original(root, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "run", counting)
    found = sites.working_tree_sites(git_repo, git=True)
    assert len(calls) == 1
    assert [(s.folder, s.style.flavour) for s in found] == [
        ("blog/", "kramdown"),
        ("docs/docs/", "mkdocs"),
    ]
    config = load_config(git_repo)
    from chunkgate import chunk_file

    ids = [
        c.id
        for c in chunk_file(git_repo / "docs/docs/index.md", root=git_repo, options=config.chunking)
    ]
    assert ids == ["docs/docs/index.md#setup-usage"]
    ids = [c.id for c in chunk_file(git_repo / "README.md", root=git_repo, options=config.chunking)]
    assert ids == ["README.md#setup--usage"]


def test_outside_git_the_tree_is_walked(tmp_path: Path) -> None:
    write(tmp_path, "site/hugo.toml", "title = 'x'\n")
    write(tmp_path, ".hidden/mkdocs.yml", "site_name: x\n")
    found = sites.working_tree_sites(tmp_path, git=False)
    assert [(s.folder, s.style.flavour) for s in found] == [("site/content/", "hugo")]


def test_hugo_s_config_directory_is_a_site_and_its_environments_are_not() -> None:
    """Docsy's site: docsy.dev/config/_default/hugo.yaml (its content beside config/);
    config/production/hugo.yaml only overrides it for one environment."""
    files = {
        "www/config/_default/hugo.yaml": b"contentDir: content/en\n",
        "www/config/production/hugo.yaml": b"baseURL: https://x.org/\n",
    }
    found = sites.find_sites(files, files.get)
    assert [(site.folder, site.style.source) for site in found] == [
        ("www/content/en/", "www/config/_default/hugo.yaml")
    ]
