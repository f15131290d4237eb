"""Open pages: what a page holds that makes anchors at build time, judged by what each
construct can produce, and what it cannot."""

from __future__ import annotations

import re

import pytest

from chunkgate.chunking import ChunkOptions
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.core.model import DeclaredAnchor
from chunkgate.links.anchors import file_anchors
from chunkgate.links.broken import LinkSettings
from chunkgate.sites.model import Site

LIQUID = ChunkOptions(sites=(Site("", AnchorStyle("kramdown", "gfm"), liquid=True),))


def _open(text: str, path: str = "page.md", options: ChunkOptions | None = None) -> str | None:
    return file_anchors(text, path, options=options or ChunkOptions()).open


OPEN = [
    pytest.param(
        "# API\n\n::: pkg.config\n    options:\n      show_root_heading: true\n",
        "page.md",
        "an autodoc block `::: pkg.config` writes headings (line 3)",
        id="autodoc",
    ),
    pytest.param(
        "# A\n\n{{< tabs >}}\n\n## B\n\n{{< /tabs >}}\n",
        "page.md",
        "the shortcode {{< tabs >}} may write headings or ids (line 3)",
        id="block-shortcode",
    ),
    pytest.param(
        "# A\n\n{% include toc.html %}\n",
        "page.md",
        "the template includes toc.html (line 3)",
        id="liquid-include",
    ),
    pytest.param(
        "# A\n\n{% glossary_terms %}\n",
        "page.md",
        "the template tag {% glossary_terms %} may write headings or ids (line 3)",
        id="unknown-liquid-tag",
    ),
    pytest.param(
        "# A\n\n<ApiTable of='config' />\n",
        "page.mdx",
        "the component <ApiTable> may write headings or ids (line 3)",
        id="mdx-component",
    ),
    pytest.param(
        "# A\n\n#### <!-- md:setting config.blog_dir -->\n\nText.\n",
        "page.md",
        "a heading holds an HTML comment a site hook may make an id of (line 3)",
        id="hooked-heading",
    ),
    pytest.param(
        "# A\n\n## {{< param name >}}\n\nText.\n",
        "page.md",
        "a heading holds template syntax: its anchor is made at build (line 3)",
        id="template-heading",
    ),
    pytest.param(
        "# A\n\n<div id={slug}>x</div>\n",
        "page.mdx",
        "raw HTML writes an id from an expression (line 3)",
        id="jsx-id",
    ),
    pytest.param(
        '# A\n\n<span :id="name">x</span>\n',
        "page.md",
        "raw HTML writes an id from an expression (line 3)",
        id="vue-id",
    ),
    pytest.param(
        '# A\n\n<h2 id="{{ .Anchor }}">x</h2>\n',
        "page.md",
        "raw HTML writes an id from an expression (line 3)",
        id="template-id",
    ),
    pytest.param(
        '# A\n\n--8<-- "missing.md"\n',
        "page.md",
        "it includes missing.md, which is not in the corpus (line 3)",
        id="include-not-found",
    ),
    pytest.param(
        "# A\n\n```{include} other.md\n```\n",
        "page.md",
        "a MyST {include} of other.md adds its headings (line 3)",
        id="myst-include",
    ),
    pytest.param(
        "# A\n\n````{example}\n```{eval-rst}\n.. _target:\n```\n````\n",
        "page.md",
        "a MyST {eval-rst} directive writes targets (line 4)",
        id="eval-rst-in-a-directive",
    ),
]


@pytest.mark.parametrize(("text", "path", "reason"), OPEN)
def test_what_makes_anchors_at_build_opens_the_page(text: str, path: str, reason: str) -> None:
    assert _open(text, path) == reason


def test_a_template_output_alone_on_its_line_opens_a_liquid_page() -> None:
    text = "# A\n\n{{ page.sections }}\n\nSee {{ site.title }} here.\n"
    reason = "the template output {{ page.sections }} may write headings (line 3)"
    assert _open(text, options=LIQUID) == reason
    assert _open("# A\n\nSee {{ site.title }} here.\n", options=LIQUID) is None


COMPLETE = [
    pytest.param("# A\n\n::: tip\nText.\n:::\n", "page.md", id="vitepress-container"),
    pytest.param("# A\n\n:::note\nText.\n:::\n", "page.md", id="docusaurus-admonition"),
    pytest.param(
        "# A\n\n```markdown\n::: pkg.config\n```\n", "page.md", id="autodoc-in-a-code-block"
    ),
    pytest.param(
        '# A\n\nSee [x]({{< ref "b.md" >}}) and {{< param v >}}.\n', "page.md", id="inline"
    ),
    pytest.param('# A\n\n{{< figure src="a.png" >}}\n', "page.md", id="builtin-shortcode"),
    pytest.param("# A\n\n{{< /tabs >}}\n", "page.md", id="closing-shortcode"),
    pytest.param("# A\n\n{% raw %}\n{{ x }}\n{% endraw %}\n", "page.md", id="quiet-tags"),
    pytest.param(
        "# A\n\n<Tabs>\n<TabItem value='a'>\n\nx\n\n</TabItem>\n</Tabs>\n", "page.mdx", id="tabs"
    ),
    pytest.param("# A\n\n## {{% param x %}} {#fixed}\n\nText.\n", "page.md", id="explicit-id"),
    pytest.param('# A\n\n<a id="literal"></a>\n', "page.md", id="literal-id"),
    pytest.param(
        "# A\n\n```markdown\n```{include} other.md\n```\n```\n", "page.md", id="myst-in-code"
    ),
]


@pytest.mark.parametrize(("text", "path"), COMPLETE)
def test_what_cannot_write_an_id_leaves_the_page_complete(text: str, path: str) -> None:
    assert _open(text, path) is None


def test_a_declared_pattern_makes_its_anchor_and_opens_nothing() -> None:
    text = "# A\n\n#### <!-- md:setting config.blog_dir -->\n\nText.\n"
    declared = (DeclaredAnchor(re.compile(r"<!-- md:setting (\S+) -->", re.M), r"\1"),)
    page = file_anchors(
        text, "page.md", options=ChunkOptions(), settings=LinkSettings(anchors=tuple(declared))
    )
    assert page.open is None
    assert "config.blog_dir" in page.anchors


def test_the_first_construct_is_the_reason() -> None:
    text = "# A\n\n{% include a.html %}\n\n::: pkg.mod\n"
    assert _open(text) == "the template includes a.html (line 3)"
