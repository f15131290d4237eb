"""Attribute-list and footnote anchors, against the generators that make them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import markdown
import pytest
from click.testing import CliRunner
from helpers import commit_all, pin_git_env, write

from chunkgate.chunking import context_for
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.markdown import chunk_markdown
from chunkgate.cli import cli
from chunkgate.links.anchors import file_anchors
from chunkgate.links.ids import attribute_ids, footnote_ids
from chunkgate.sites.model import Site
from chunkgate.sites.settings import settings

ATTRIBUTES = """\
# Release { id="9.7.0" .new }

## Keys {: .c id=keys data-x="1" }

## Classes only { .new }

A paragraph with its id.
{: #para }

- a list item
  {: #item }
- another

| name | value |
|------|-------|
| cell {#cell} | x |

A [link](#para){#inline} and `code {#not-an-id}`.

```
{: #in-a-fence }
```
"""
FOOTNOTES = """\
# Notes

Text[^1] again[^1] and a named one[^Note B], and [^missing].

[^1]: One.
[^Note B]: Two.
[^unused]: Three.
"""


REMARK = ("fn-1", "fnref-1", "fnref-1-2", "fn-note b", "fnref-note b", "footnote-label")


def _mkdocs(*markdown: str, attributes: bool = True) -> ChunkOptions:
    style = AnchorStyle("mkdocs", "toc", attributes=attributes, source="mkdocs.yml")
    return ChunkOptions(sites=(Site("docs/", style, markdown=frozenset(markdown)),))


def _ids(html: str) -> set[str]:
    return set(re.findall(r' id="([^"]+)"', html))


def test_attr_list_ids_are_python_markdowns() -> None:
    html = markdown.markdown(ATTRIBUTES, extensions=["attr_list", "tables", "toc", "fenced_code"])
    ours = file_anchors(ATTRIBUTES, "docs/page.md", options=_mkdocs()).anchors
    assert ours is not None
    assert ours == _ids(html)
    assert {"9.7.0", "keys", "classes-only", "para", "item", "cell", "inline"} <= ours


def test_heading_ids_follow_the_key_form() -> None:
    text = '# Release { id="9.7.0" .new }\n\nNotes.\n\n## Classes only { .new }\n\nMore.\n'
    ctx = context_for(text, "docs/page.md", options=_mkdocs())
    assert [c.id for c in chunk_markdown(ctx)] == [
        "docs/page.md#9.7.0",
        "docs/page.md#classes-only",
    ]
    # Without attr_list the list is text, as Python-Markdown leaves it.
    plain = context_for(text, "docs/page.md", options=_mkdocs(attributes=False))
    html = markdown.markdown(text, extensions=["toc"])
    assert [c.identity for c in chunk_markdown(plain)] == re.findall(r'<h\d id="([^"]+)"', html)


@pytest.mark.parametrize(
    ("syntax", "text", "expected"),
    [
        pytest.param("kramdown", "Para\n{: #p}\n\n- item\n{: #l}\n", {"p", "l"}, id="kramdown"),
        pytest.param("kramdown", "Para {#p}\n", set(), id="kramdown-needs-the-colon"),
        pytest.param("goldmark", "Para\n{#p}\n\n- item\n{#l .c}\n", {"p", "l"}, id="goldmark"),
        pytest.param("goldmark", "Para {#p}\n", set(), id="goldmark-own-line-only"),
    ],
)
def test_block_attributes_of_other_generators(syntax: str, text: str, expected: set[str]) -> None:
    assert attribute_ids(text, syntax) == expected


def test_python_markdown_footnotes() -> None:
    html = markdown.markdown(FOOTNOTES, extensions=["footnotes", "toc"])
    ours = file_anchors(FOOTNOTES, "docs/page.md", options=_mkdocs("footnotes")).anchors
    assert ours == _ids(html)
    assert {"fn:1", "fnref:1", "fnref2:1", "fn:Note B", "fn:unused"} <= _ids(html)
    # Without the extension the page has no footnotes.
    assert file_anchors(FOOTNOTES, "docs/page.md", options=_mkdocs()).anchors == {"notes"}


@pytest.mark.parametrize(
    ("flavour", "expected"),
    [
        # kramdown 2 (Jekyll), checked with `ruby -rkramdown` in the test below.
        ("kramdown", {"fn:1", "fnref:1", "fnref:1:1"}),
        # markdown-it-footnote (VitePress): footnote_anchor_name and footnote_ref.
        ("vitepress", {"fn1", "fnref1", "fnref1:1"}),
        # mdast-util-to-hast's footnote-reference.js and footer.js (remark-gfm).
        *(
            (
                flavour,
                {prefix + name for prefix in ("", "user-content-") for name in REMARK},
            )
            for flavour in ("github", "docusaurus", "starlight")
        ),
    ],
)
def test_footnotes_by_generator(flavour: str, expected: set[str]) -> None:
    assert footnote_ids(FOOTNOTES, flavour) == expected


def test_hugo_build_agrees(tmp_path: Path) -> None:
    """Hugo (goldmark) itself: footnotes numbered by first reference, block attributes,
    heading ids in the key form."""
    config = (
        'baseURL = "http://example.org/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
        "[markup.goldmark.parser.attribute]\nblock = true\n"
    )
    headings = '## Key form {id="9.7.0" .c}\n\n## Hash {#h .c}\n\n## Both {#a id=b}\n'
    page = FOOTNOTES.replace("# Notes", "---\ntitle: Notes\n---") + "\nA paragraph.\n{#para}\n"
    page += headings
    (tmp_path / "hugo.toml").write_text(config, encoding="utf-8")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "notes.md").write_text(page, encoding="utf-8")
    (tmp_path / "layouts" / "_default").mkdir(parents=True)
    (tmp_path / "layouts" / "_default" / "single.html").write_text("{{ .Content }}")
    (tmp_path / "layouts" / "_default" / "list.html").write_text("{{ .Content }}")
    subprocess.run(["hugo", "--quiet"], cwd=tmp_path, check=True, timeout=120)
    built = _ids((tmp_path / "public" / "notes" / "index.html").read_text(encoding="utf-8"))
    found = settings("hugo.toml", config.encode(), lambda _: None)
    assert found is not None
    site = Site("content/", AnchorStyle("hugo", "github"), markdown=frozenset(found["markdown"]))
    ours = file_anchors(page, "content/notes.md", options=ChunkOptions(sites=(site,))).anchors
    footnotes = {"fn:1", "fnref:1", "fnref1:1", "fn:2", "fnref:2"}
    assert ours == built == {*footnotes, "para", "9.7.0", "h", "b"}


def test_kramdown_agrees() -> None:
    """kramdown itself (Jekyll's): footnotes, block IALs, a heading's IAL in the key form."""
    ruby = shutil.which("ruby")
    assert ruby is not None  # Jekyll's Debian package brings Ruby and kramdown
    page = FOOTNOTES + '\nPara\n{: #para}\n\n## Key form\n{: id="x" .c}\n\nText.\n'
    html = subprocess.run(
        [ruby, "-rkramdown", "-e", 'puts Kramdown::Document.new(STDIN.read, input: "GFM").to_html'],
        input=page,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    style = AnchorStyle("kramdown", "gfm", source="_config.yml")
    options = ChunkOptions(sites=(Site("", style, liquid=True),))
    assert file_anchors(page, "page.md", options=options).anchors == _ids(html)
    assert {"x", "para", "fnref:1:1"} <= _ids(html)


def test_links_to_them_are_not_broken(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(
        git_repo,
        "mkdocs.yml",
        "site_name: t\nmarkdown_extensions:\n  - attr_list\n  - footnotes\n  - tables\n",
    )
    write(git_repo, "docs/notes.md", FOOTNOTES)
    write(git_repo, "docs/page.md", ATTRIBUTES)
    targets = ["9.7.0", "keys", "para", "item", "cell", "inline", "fn:1", "fnref2:1", "nope"]
    links = "".join(f"- [{t}](notes.md#{t})\n" for t in targets[6:])
    links += "".join(f"- [{t}](page.md#{t})\n" for t in targets[:6])
    write(git_repo, "docs/index.md", f"# Index\n\nEvery anchor below is on its page.\n\n{links}")
    commit_all(git_repo)
    result = CliRunner().invoke(cli, ["check", "--format", "json"])
    broken = [v for v in json.loads(result.output)["violations"] if v["rule"] == "CG404"]
    assert [v["message"].partition(":")[0] for v in broken] == ["link notes.md#nope"]


def test_an_escaped_character_in_an_attribute_list_is_the_character() -> None:
    # pymdown-extensions' magiclink page: `^†^{#\_fn_1}` makes the id `_fn_1`.
    page = "With CSS^[†](#_fn_1)^, icons.\n\n^†^{#\\_fn_1} _CSS is not included._\n"
    html = markdown.markdown(page, extensions=["attr_list", "pymdownx.caret"])
    assert _ids(html) == {"_fn_1"} == attribute_ids(page, "attr_list")
