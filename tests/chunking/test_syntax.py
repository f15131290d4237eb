"""Template and directive syntax is not prose (chunkgate.chunking.syntax) and not a body."""

from __future__ import annotations

import pytest

from chunkgate import chunk_text
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.outline import outline_text
from chunkgate.chunking.syntax import Dialect, prose, strip_inline, syntax_lines
from chunkgate.sites.model import Site

MDX = Dialect(mdx=True)
LIQUID = Dialect(liquid=True)
BODY = "A sentence of prose that is long enough to be a chunk of its own."


@pytest.mark.parametrize(
    ("lines", "dialect", "expected"),
    [
        pytest.param(["{{< youtube abc >}}"], Dialect(), [True], id="hugo-shortcode"),
        pytest.param(["{{% docs/intro php /%}}"], Dialect(), [True], id="hugo-markdown-shortcode"),
        pytest.param(
            ["{{< note >}}", BODY, "{{< /note >}}"],
            Dialect(),
            [True, False, True],
            id="shortcode-body-is-prose",
        ),
        pytest.param(
            ["{{< figure", '  src="a.png"', ">}}"], Dialect(), [True] * 3, id="multi-line-shortcode"
        ),
        pytest.param(["{%- include badge.html -%}"], Dialect(), [True], id="liquid-tag"),
        pytest.param(["{{ site.title }}"], LIQUID, [True], id="liquid-output-in-jekyll"),
        pytest.param(
            ["{: .no_toc }", "{:toc}", "{: #v4-4-1}"], Dialect(), [True] * 3, id="kramdown-ial"
        ),
        pytest.param(["{.note #x}"], Dialect(), [True], id="goldmark-block-attributes"),
        pytest.param(
            ["::: httpx.Client", "    :docstring:", "    :members: get"],
            Dialect(),
            [True] * 3,
            id="mkautodoc-directive",
        ),
        pytest.param(
            [":::note[Title]", BODY, ":::"], MDX, [True, False, True], id="aside-body-is-prose"
        ),
        pytest.param(
            ['!!! warning "Careful"', f"    {BODY}"], Dialect(), [True, False], id="admonition"
        ),
        pytest.param(
            ['=== "Sync"', f"    {BODY}", '===+ "Async"'], Dialect(), [True, False, True], id="tab"
        ),
        pytest.param(["import Foo from './Foo.astro';"], MDX, [True], id="mdx-import"),
        pytest.param(
            ["import {", "  Tabs,", "  TabItem,", "} from '@astrojs/starlight/components';"],
            MDX,
            [True] * 4,
            id="mdx-multi-line-import",
        ),
        pytest.param(["export const x = 1;"], MDX, [True], id="mdx-export"),
        pytest.param(
            ["<Tabs syncKey='pkg'>", "<TabItem label='npm'>", BODY, "</TabItem>", "</Tabs>"],
            MDX,
            [True, True, False, True, True],
            id="jsx-tags",
        ),
        pytest.param(["<Card", '  title="x"', "/>"], MDX, [True] * 3, id="multi-line-jsx"),
    ],
)
def test_syntax_lines_fire(lines: list[str], dialect: Dialect, expected: list[bool]) -> None:
    assert syntax_lines(lines, dialect) == expected


@pytest.mark.parametrize(
    ("lines", "dialect"),
    [
        pytest.param(["{{ .Title }}"], Dialect(), id="go-template-shown-on-a-hugo-page"),
        pytest.param(["Write {{ and }} to escape."], LIQUID, id="prose-mentioning-braces"),
        pytest.param(
            ["```", "{{< youtube abc >}}", "{% include x %}", "```"], Dialect(), id="inside-code"
        ),
        pytest.param(["import Foo from './Foo.astro';"], Dialect(), id="import-outside-mdx"),
        pytest.param(["<Tabs>"], Dialect(), id="jsx-outside-mdx"),
        pytest.param(["{foo} is a placeholder"], Dialect(), id="braces-in-prose"),
        pytest.param(["!!! and ??? in prose"], Dialect(), id="punctuation-in-prose"),
        pytest.param(["=== not a tab label"], Dialect(), id="equals-in-prose"),
        pytest.param(["<Card title='x'>Text inside</Card>"], MDX, id="jsx-with-text"),
    ],
)
def test_syntax_lines_no_op(lines: list[str], dialect: Dialect) -> None:
    assert not any(syntax_lines(lines, dialect))


def test_prose_drops_syntax_lines_and_inline_templates() -> None:
    text = f"## Usage\n\n{{: .warning }}\n{BODY} {{{{< ref x >}}}}\n"
    assert prose(text) == f"## Usage\n\n{BODY} \n"


@pytest.mark.parametrize(
    ("raw", "text", "expected"),
    [
        pytest.param(
            'Theme Variables {%- include badge.html version="4.3.0" -%}',
            'Theme Variables {%- include badge.html version="4.3.0" -%}',
            ("Theme Variables", "Theme Variables"),
            id="liquid",
        ),
        pytest.param(
            "Run {{< kbd Ctrl >}} now",
            "Run {{< kbd Ctrl >}} now",
            ("Run now", "Run now"),
            id="shortcode",
        ),
        pytest.param("With `{: }`", "With {: }", ("With `{: }`", "With {: }"), id="code-span-kept"),
        pytest.param(
            "The `{{ .Title }}` variable",
            "The {{ .Title }} variable",
            ("The `{{ .Title }}` variable", "The {{ .Title }} variable"),
            id="template-in-code-kept",
        ),
    ],
)
def test_strip_inline(raw: str, text: str, expected: tuple[str, str]) -> None:
    assert strip_inline(raw, text) == expected


def _spans(text: str, path: str = "p.md", site: Site | None = None) -> list[tuple[str, int, int]]:
    options = ChunkOptions(sites=(site,) if site else ())
    return [
        (c.id.partition("#")[2], c.start_line, c.end_line)
        for c in chunk_text(text, path, options=options)
    ]


JEKYLL = Site("", AnchorStyle("kramdown", "gfm", source="_config.yml"), liquid=True)


def test_a_heading_with_only_an_attribute_list_below_opens_the_next_chunk() -> None:
    text = f"## 4.4.1 / 2025-01-29\n{{: #v4-4-1}}\n\n### Fixes\n\n{BODY}\n"
    assert _spans(text, site=JEKYLL) == [("fixes", 1, 6)]
    assert _spans(text) == [("fixes", 1, 6)]  # whatever the flavour, the line is syntax
    assert [h.id for h in outline_text(text, options=ChunkOptions(sites=(JEKYLL,)))] == [
        "<text>.md#v4-4-1",
        "<text>.md#fixes",
    ]


def test_a_preamble_of_only_a_shortcode_opens_the_first_chunk() -> None:
    text = f"{{{{% docs/languages/index-intro php /%}}}}\n\n## Install\n\n{BODY}\n"
    assert _spans(text) == [("install", 1, 5)]


def test_a_preamble_of_mdx_imports_is_no_chunk_and_no_part_of_the_first() -> None:
    text = f"import {{ Tabs }} from '@astrojs/starlight/components';\n\n## Install\n\n{BODY}\n"
    assert _spans(text, "p.mdx") == [("install", 3, 5)]
    assert _spans(text, "p.md") == [("~preamble", 1, 1), ("install", 3, 5)]


IMPORTS = (
    "import { CardGrid, Card } from '@astrojs/starlight/components';\n"
    "import {\n\tTabs,\n\tTabItem,\n} from '@astrojs/starlight/components';\n\n"
    "export const title = 'x';\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            f"---\ntitle: x\n---\n\n{IMPORTS}\n<CardGrid>\n{BODY}\n</CardGrid>\n",
            [("~preamble", 13, 15)],
            id="imports-then-content",
        ),
        pytest.param(f"---\ntitle: x\n---\n\n{IMPORTS}", [], id="imports-alone"),
        pytest.param(
            f"{BODY}\n\n{IMPORTS}\n## Install\n\n{BODY}\n",
            [("~preamble", 1, 1), ("install", 11, 13)],
            id="imports-at-the-end",
        ),
        pytest.param(
            f"{IMPORTS}\n{BODY}\n\nimport A from './a.astro';\n\n<A />\n{BODY}\n",
            [("~preamble", 9, 14)],
            id="imports-between-content-stay",
        ),
        pytest.param(
            f"```js\nimport x from 'y';\n```\n\n{BODY}\n",
            [("~preamble", 1, 5)],
            id="import-in-a-code-block-stays",
        ),
        pytest.param(
            f"  import x from 'y';\n\n{BODY}\n", [("~preamble", 1, 3)], id="indented-is-text"
        ),
    ],
)
def test_mdx_imports_at_the_ends_of_the_preamble_are_no_content(
    text: str, expected: list[tuple[str, int, int]]
) -> None:
    assert _spans(text, "p.mdx") == expected
    lines = text.split("\n")
    for found in chunk_text(text, "p.mdx"):
        assert found.text == "\n".join(lines[found.start_line - 1 : found.end_line])
        assert not found.text.startswith(("import", "export"))


def test_syntax_at_the_end_closes_the_chunk_before_and_every_line_is_covered() -> None:
    text = f"## Intro\n\n{BODY}\n\n## API\n\n::: httpx.Client\n    :docstring:\n"
    spans = _spans(text)
    assert spans == [("intro", 1, 8)]


def test_a_file_of_headings_and_syntax_only_has_no_chunks() -> None:
    assert _spans("# API\n\n::: httpx.Client\n") == []


def test_template_syntax_never_reaches_a_heading_id() -> None:
    text = f'## Theme Variables {{%- include badge.html version="4.3.0" -%}}\n\n{BODY}\n'
    for site in (None, JEKYLL):
        heading = outline_text(text, options=ChunkOptions(sites=(site,) if site else ()))[0]
        assert heading.text == "Theme Variables"
        assert heading.id == "<text>.md#theme-variables"
