"""CG404: links to anchors that are not there, resolved as each site generator publishes pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, pin_git_env, write

from chunkgate.chunking import ChunkOptions
from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.core.model import DeclaredAnchor, Unverified, Violation
from chunkgate.gate import run_check
from chunkgate.links.anchors import file_anchors, has_includes
from chunkgate.links.broken import Target, resolve
from chunkgate.links.corpus import sites_of
from chunkgate.rules import RULES, rule_docs
from chunkgate.rules.references import reference_violations
from chunkgate.sites.routes import GITHUB, Routes, detect_routes

MKDOCS = Routes("mkdocs", ("docs",), directory_urls=True)
HUGO = Routes("hugo", ("content/en",), directory_urls=True, term_ids=True)
JEKYLL = Routes("jekyll", ("",))
CORPUS = {
    "docs/index.md",
    "docs/guide/setup.md",
    "docs/guide/index.md",
    "docs/api.md",
    "content/en/functions/css/Build.md",
    "content/en/about/_index.md",
    "book/page.md",
    "README.md",
}


def _exists(path: str) -> str | None:
    return path if path in CORPUS else None


@pytest.mark.parametrize(
    ("site", "source", "destination", "expected"),
    [
        pytest.param(GITHUB, "docs/api.md", "#usage", ("docs/api.md", "usage"), id="local"),
        pytest.param(
            GITHUB, "docs/api.md", "guide/setup.md#a", ("docs/guide/setup.md", "a"), id="relative"
        ),
        pytest.param(
            GITHUB, "docs/guide/setup.md", "../api.md#a", ("docs/api.md", "a"), id="parent"
        ),
        pytest.param(GITHUB, "docs/api.md", "/README.md#a", ("README.md", "a"), id="root"),
        pytest.param(GITHUB, "docs/api.md", "guide/#a", ("docs/guide/index.md", "a"), id="folder"),
        pytest.param(
            GITHUB, "docs/api.md", "guide/setup.md?x=1#a", ("docs/guide/setup.md", "a"), id="query"
        ),
        pytest.param(
            GITHUB, "docs/api.md", "api.md#%C3%A9t%C3%A9", ("docs/api.md", "été"), id="percent"
        ),
        pytest.param(
            JEKYLL, "docs/api.md", "guide/setup.html#a", ("docs/guide/setup.md", "a"), id="html"
        ),
        pytest.param(
            MKDOCS,
            "docs/api.md",
            "../guide/setup/#a",
            ("docs/guide/setup.md", "a"),
            id="directory-url",
        ),
        pytest.param(
            MKDOCS, "docs/guide/setup.md", "../../api#a", ("docs/api.md", "a"), id="extensionless"
        ),
        pytest.param(
            MKDOCS, "docs/guide/index.md", "setup/#a", ("docs/guide/setup.md", "a"), id="index-url"
        ),
        pytest.param(
            MKDOCS,
            "docs/api.md",
            "guide/setup.md#a",
            ("docs/guide/setup.md", "a"),
            id="md-from-file",
        ),
        pytest.param(
            MKDOCS, "docs/guide/setup.md", "/api/#a", ("docs/api.md", "a"), id="site-root"
        ),
    ],
)
def test_resolve(site: Routes, source: str, destination: str, expected: tuple[str, str]) -> None:
    assert resolve(destination, source, _exists, site) == Target(*expected)


@pytest.mark.parametrize(
    "destination",
    [
        pytest.param("https://example.com/a.md#b", id="other-site"),
        pytest.param("//example.com/a#b", id="scheme-relative"),
        pytest.param("mailto:a@b.c", id="mailto"),
        pytest.param("api.md", id="no-fragment"),
        pytest.param("api.md#", id="empty-fragment"),
        pytest.param("missing.md#a", id="outside-corpus"),
        pytest.param("../../../../etc/x.md#a", id="outside-repository"),
        pytest.param("img.png#a", id="not-markdown"),
    ],
)
def test_not_checked(destination: str) -> None:
    assert resolve(destination, "docs/api.md", _exists, GITHUB) is None


def _check(texts: dict[str, str], site: Routes = GITHUB, moved: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return reference_violations(Config(root=Path(".")), texts, moved_from=moved, site=site)


def test_a_broken_link_names_the_line_the_link_and_the_closest_anchor() -> None:
    texts = {
        "a.md": "# A\n\n## Installing it\n\nText.\n",
        "b.md": "# B\n\nSee\n[the setup](a.md#install) now.\n",
    }
    (violation,) = _check(texts)
    assert (violation.rule, violation.path, violation.line) == ("CG404", "b.md", 4)
    assert violation.message == "link a.md#install: a.md has no anchor #install"
    assert violation.fix == "link to #installing-it (the closest anchor of a.md)"
    assert violation.severity == "error"


@pytest.mark.parametrize(
    "texts",
    [
        pytest.param({"a.md": "# A\n\n- ### In a list\n\n[x](#in-a-list)\n"}, id="nested-heading"),
        pytest.param({"a.md": "# A\n## B\n### C\n\n[x](#b)\n"}, id="heading-without-chunk"),
        pytest.param({"a.md": '# A\n\n<a id="top"></a>\n\n[x](#top)\n'}, id="html-id"),
        pytest.param({"a.md": "# A {#custom}\n\ntext [x](#custom)\n"}, id="explicit-id"),
        pytest.param({"a.md": "# A\n\n# A\n\n[x](#a-1)\n"}, id="numbered-duplicate"),
        pytest.param({"a.md": "# A\n\n```\n[x](#nowhere)\n```\n"}, id="link-in-code"),
        pytest.param({"a.md": "# A\n\n[x](https://e.com/#nowhere)\n"}, id="external"),
        pytest.param({"a.md": "# A\n\n[x](b.md#nowhere)\n"}, id="target-outside-corpus"),
    ],
)
def test_passes(texts: dict[str, str]) -> None:
    assert _check(texts) == []


def test_an_unused_reference_definition_is_checked() -> None:
    (violation,) = _check({"a.md": "# A\n\ntext\n\n[old]: #gone\n"})
    assert violation.line == 5


def test_a_reference_link_is_reported_once_at_its_definition() -> None:
    text = "# A\n\n[x][r] and [y][r]\n\n[r]: #gone\n"
    assert [v.line for v in _check({"a.md": text})] == [5]


def test_hugo_terms_are_numbered_with_headings_and_includes_are_expanded() -> None:
    texts = {
        "content/en/a.md": (
            "# A\n\n`matchers`\n: A list.\n\n## Matchers\n\nText.\n\n"
            '{{% include "_common/opts.md" %}}\n\n'
            "[m](#matchers) [h](#matchers-1) [o](#options) [bad](#nothing)\n"
        ),
        "content/en/_common/opts.md": "## Options\n\nSee [the page's heading](#matchers-1).\n",
    }
    found = _check(texts, HUGO)
    assert [(v.path, v.message) for v in found] == [
        ("content/en/a.md", "link #nothing: this file has no anchor #nothing")
    ]


def test_a_link_into_a_page_written_by_its_template_is_unverified() -> None:
    texts = {
        "content/en/glossary/_index.md": "---\ntitle: G\n---\n\n{{% glossary %}}\n",
        "content/en/b.md": "# B\n\n[t](/glossary/#term)\n",
    }
    (unverified,) = _check(texts, HUGO)
    assert unverified == Unverified(
        "content/en/b.md",
        3,
        "/glossary/#term",
        "content/en/glossary/_index.md#term",
        "the shortcode {{% glossary %}} may write headings or ids (line 5)",
    )
    page = file_anchors(
        texts["content/en/glossary/_index.md"], "x.md", HUGO, options=ChunkOptions()
    )
    assert page.open is not None
    assert not page.anchors


def test_hugo_paths_are_matched_in_lowercase() -> None:
    texts = {
        "content/en/functions/css/Build.md": "# Build\n\n## Options\n\nText.\n",
        "content/en/b.md": "[a](/functions/css/build/#options) [b](/functions/css/build/#x)\n",
    }
    assert [v.message for v in _check(texts, HUGO)] == [
        "link /functions/css/build/#x: content/en/functions/css/Build.md has no anchor #x"
    ]


def test_a_recorded_move_names_where_the_link_should_go() -> None:
    """Accepting a move keeps citations working, not the link: it stays broken on the
    site, and its fix is the section the move went to (issue 40)."""
    texts = {"a.md": "# A\n\n## Installing it\n\nText.\n", "b.md": "[s](a.md#install)\n"}
    (moved,) = _check(texts, moved={"a.md#installing-it": "a.md#install"})
    assert moved.fix == (
        "the section moved to a.md#installing-it: link to a.md#installing-it "
        "(`chunkgate fix-links` rewrites it)"
    )
    assert moved.edit == ("a.md#install", "a.md#installing-it")
    gone = {"a.md#elsewhere": "a.md#install"}
    (violation,) = _check(texts, moved=gone)
    assert "a.md#elsewhere" in violation.fix


def test_the_rule_is_registered_and_documented() -> None:
    assert RULES["CG404"].name == "broken-reference"
    assert "Fires" in rule_docs()["CG404"]
    off = Config(root=Path("."), severities={"CG404": "off"})
    assert reference_violations(off, {"a.md": "[x](#nothing)\n"}) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            {"mkdocs.yml": b"site_name: x\n"}, Routes("mkdocs", ("docs",), True), id="mkdocs"
        ),
        pytest.param(
            {"mkdocs.yml": b"docs_dir: 'src'\nuse_directory_urls: false\n"},
            Routes("mkdocs", ("src",), False),
            id="mkdocs-options",
        ),
        pytest.param(
            {"hugo.toml": b"[[module.mounts]]\nsource = 'content/en'\ntarget = 'content'\n"},
            Routes("hugo", ("content/en",), True),
            id="hugo-mounts",
        ),
        pytest.param(
            {"docs/astro.config.mjs": b"import starlight from '@astrojs/starlight'"},
            Routes("starlight", ("docs/src/content/docs",), True),
            id="starlight",
        ),
        pytest.param(
            {"book.toml": b"[book]\nsrc = 'pages'\n"}, Routes("mdbook", ("pages",)), id="mdbook"
        ),
        pytest.param({"_config.yml": b"title: x\n"}, Routes("jekyll", ("",)), id="jekyll"),
        pytest.param({"README.md": b"# x\n"}, GITHUB, id="github"),
    ],
)
def test_detect_routes(files: dict[str, bytes], expected: Routes) -> None:
    assert detect_routes(list(files), files.get) == expected


def corpus_reference_violations(config: Config) -> list[Violation]:
    """CG404's findings in a whole-corpus check, new or known."""
    result = run_check(config)
    return [v for v in (*result.violations, *result.known) if v.rule == "CG404"]


def test_a_heading_rename_breaks_links_until_fixed(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    body = "Install the package with pip, then configure it as the guide says.\n"
    write(git_repo, "docs/setup.md", f"# Setup\n\n## Install\n\n{body}")
    write(git_repo, "docs/index.md", "# Docs\n\nRead [how to install](setup.md#install) first.\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["update", "-q"]).exit_code == 0
    commit_all(git_repo)
    config = load_config(git_repo)
    assert corpus_reference_violations(config) == []

    write(git_repo, "docs/setup.md", f"# Setup\n\n## Installing it\n\n{body}")
    (broken,) = corpus_reference_violations(config)
    assert (broken.path, broken.line) == ("docs/index.md", 3)
    moved = (
        "the section moved to docs/setup.md#installing-it: link to setup.md#installing-it "
        "(`chunkgate fix-links` rewrites it)"
    )
    assert broken.fix == moved  # the rename the check detects, not the closest anchor

    result = runner.invoke(cli, ["update", "--accept-moves"])
    assert result.exit_code == 0, result.output
    (broken,) = corpus_reference_violations(config)  # acknowledged: still broken on the site
    assert broken.fix == moved

    write(git_repo, "docs/setup.md", f"# Setup\n\n## Installation steps\n\n{body}")
    assert runner.invoke(cli, ["update", "-q"]).exit_code == 0
    assert len(corpus_reference_violations(config)) == 1  # the recorded move no longer lands
    write(git_repo, "docs/index.md", "# Docs\n\nRead [it](setup.md#installation-steps) first.\n")
    assert corpus_reference_violations(config) == []  # fixed


@pytest.mark.parametrize(
    ("text", "includes"),
    [
        pytest.param("# Setup\n\nThe options include a port.\n", False, id="the-word"),
        pytest.param("Use `--8<--` to include a file.\n", False, id="snippets-named-in-prose"),
        pytest.param('# Page\n\n{{% include "part.md" %}}\n', True, id="hugo-include"),
        pytest.param('# Page\n\n--8<-- "part.md"\n', True, id="mkdocs-snippet"),
    ],
)
def test_has_includes_means_an_include_line(text: str, includes: bool) -> None:
    assert has_includes(text) is includes


@pytest.mark.parametrize(
    "files",
    [
        pytest.param({"mkdocs.yml": "site_name: x\n", "docs/a.md": "# A\n"}, id="mkdocs"),
        pytest.param({"config.toml": "x = 1\n", "content/a.md": "# A\n"}, id="hugo-config"),
        pytest.param({"site/config.toml": "x = 1\n", "site/b.md": "# A\n"}, id="no-content"),
        pytest.param({"book.toml": "[book]\n", "docs/astro.config.json": "{}"}, id="mdbook"),
        pytest.param({"a/b/mkdocs.yml": "site_name: x\n", "a.md": "# A\n"}, id="too-deep"),
    ],
)
def test_site_of_from_the_configs_listing_is_the_one_from_the_index(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    pin_git_env(monkeypatch)
    for path, text in files.items():
        write(git_repo, path, text)
    commit_all(git_repo)
    listed = load_config(git_repo).generator_files
    assert listed is not None
    assert sites_of(git_repo, listed) == sites_of(git_repo)


def test_a_link_into_an_open_page_is_unverified_and_into_a_complete_one_broken() -> None:
    texts = {
        "api.md": "# API\n\n::: pkg.config\n",
        "guide.md": "# Guide\n\nText.\n",
        "b.md": "[c](api.md#pkg.config.ConfigDict) [d](api.md#api) [e](guide.md#nope)\n",
    }
    unverified, broken = _check(texts)
    assert unverified == Unverified(
        "b.md",
        1,
        "api.md#pkg.config.ConfigDict",
        "api.md#pkg.config.ConfigDict",
        "an autodoc block `::: pkg.config` writes headings (line 3)",
    )
    assert isinstance(broken, Violation)
    assert "guide.md has no anchor #nope" in broken.message


def test_links_ignore_skips_a_destination_or_a_target_page() -> None:
    texts = {
        "a.md": "# A\n\n[x](#gone) [y](b.md#gone) [z](c.md#gone)\n",
        "b.md": "# B\n",
        "c.md": "# C\n",
    }
    ignore = (re.compile(r"^#gone$"), re.compile(r"^c\.md$"))
    config = Config(root=Path("."), options={"links.ignore": ignore})
    found = reference_violations(config, texts)
    assert [(v.path, v.line, v.message) for v in found if isinstance(v, Violation)] == [
        ("a.md", 3, "link b.md#gone: b.md has no anchor #gone")
    ]


def test_links_anchors_declares_what_a_site_hook_makes() -> None:
    texts = {
        "a.md": "# A\n\n#### <!-- md:setting config.blog_dir -->\n\nText.\n",
        "b.md": "[x](a.md#config.blog_dir) [y](a.md#config.nope)\n",
    }
    # Undeclared, the hook's heading leaves the page open: neither link is an error.
    assert all(isinstance(found, Unverified) for found in _check(texts))
    declared = (DeclaredAnchor(re.compile(r"<!-- md:setting (\S+) -->", re.M), r"\1"),)
    config = Config(root=Path("."), options={"links.anchors": declared})
    (broken,) = reference_violations(config, texts)
    assert isinstance(broken, Violation)
    assert broken.message == "link a.md#config.nope: a.md has no anchor #config.nope"
