"""A Hugo site's shortcode templates: a page calling one opens only when it can write an id."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write

from chunkgate.chunking import ChunkOptions
from chunkgate.links.anchors import file_anchors
from chunkgate.links.broken import LinkSettings, Sites
from chunkgate.links.shortcodes import quiet_shortcodes, writes_ids
from chunkgate.sites.routes import Routes

HUGO = Sites((Routes("hugo", ("site/content",), directory_urls=True),))


@pytest.mark.parametrize(
    ("template", "writes"),
    [
        pytest.param('<div class="note">{{ .Inner }}</div>', False, id="wrapper"),
        pytest.param("{{ hugo.Version -}}", False, id="a-value"),
        pytest.param('<h2 id="{{ .Get 0 | anchorize }}">{{ .Get 0 }}</h2>', True, id="id"),
        pytest.param("<h3>{{ .Get 0 }}</h3>", True, id="heading-element"),
        pytest.param("## {{ .Get 0 }}\n", True, id="markdown-heading"),
        pytest.param('{{ partial "tabs.html" . }}', True, id="partial"),
        pytest.param("{{ (site.GetPage .Get 0).Content }}", True, id="another-page"),
        pytest.param('{{ readFile "x.md" | .Page.RenderString }}', True, id="a-file"),
    ],
)
def test_what_a_template_can_write(template: str, writes: bool) -> None:
    assert writes_ids(template) is writes


def test_the_site_s_own_and_its_themes_templates_are_found(tmp_path: Path) -> None:
    write(tmp_path, "site/layouts/shortcodes/note.html", "<div>{{ .Inner }}</div>")
    write(tmp_path, "site/layouts/_shortcodes/version.md", "{{ site.Params.version }}")
    write(tmp_path, "site/layouts/shortcodes/heading.html", '<h2 id="x">x</h2>')
    write(tmp_path, "site/themes/t/layouts/shortcodes/card.html", "<div>{{ .Inner }}</div>")
    # The site's own template wins over its theme's of the same name.
    write(tmp_path, "site/themes/t/layouts/shortcodes/note.html", '<h2 id="n">n</h2>')
    assert quiet_shortcodes(tmp_path, HUGO) == {"note", "version", "card"}
    assert quiet_shortcodes(tmp_path, Sites()) == frozenset()


def test_a_quiet_shortcode_leaves_its_page_complete() -> None:
    text = "# A\n\n{{< note >}}\nText.\n{{< /note >}}\n"
    assert file_anchors(text, "a.md", options=ChunkOptions()).open is not None
    page = file_anchors(
        text, "a.md", options=ChunkOptions(), settings=LinkSettings(shortcodes=frozenset({"note"}))
    )
    assert page.open is None
