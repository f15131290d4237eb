"""Sphinx with MyST: a page's anchors and how its links resolve, held to what the real
``sphinx-build`` writes (ids) and warns (unresolved links) for a small site."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from docutils.nodes import make_id
from helpers import check_json, committed, write
from hypothesis import given
from hypothesis import strategies as st

from chunkgate import chunk_text
from chunkgate.chunking import context_for
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.anchors.sphinx import docutils_id
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.markdown import chunk_markdown, headings
from chunkgate.links.anchors import file_anchors
from chunkgate.sites import detect
from chunkgate.sites.model import Site
from chunkgate.sites.routes import Routes, detect_routes

CONF = """\
project = "t"
extensions = ["myst_parser"]
myst_heading_anchors = 2
myst_enable_extensions = ["attrs_block", "attrs_inline", "colon_fence", "deflist", "smartquotes"]
"""

INDEX = """\
# Home Page

```{toctree}
other
```

(my_label)=
## Labelled Heading

## Plain Heading!

### Deep One

{#para-id}
A paragraph with a [span]{#span-id} and a footnote.[^note]

[^note]: The note.

:::{note}
:name: a-note

Noted.
:::

```{py:class} pkg.Thing
A thing.
```

```{glossary}
my term
  Its definition.
```

## Über Straße 2nd

Links: [a](other.md#other-heading) [b](other.md#other_label) [c](other.md#para-two)
[e](#my_label) [f](#other_label) [h](#deep-one) [k](<project:other.md#other-heading>)
"""

OTHER = """\
# Other

(other_label)=
## Other Heading

### Deep Other

{#para-two}
Text.
"""

BROKEN = "[d](other.md#nope) [g](#nope-local)\n"


def sphinx_build(root: Path) -> tuple[Path, str]:
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", ".", "_build"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    return root / "_build", done.stderr


def _site(root: Path) -> None:
    write(root, "conf.py", CONF)
    write(root, "index.md", INDEX + BROKEN)
    write(root, "other.md", OTHER)


def content_ids(html: str) -> set[str]:
    body = html[html.index('role="main"') :]
    ids = set(re.findall(r'\bid="([^"]+)"', body)) - {"searchbox"}
    # docutils' numbered ids for a duplicate or an unnamed footnote reference: no author
    # writes a link to them.
    return {i for i in ids if not re.fullmatch(r"id\d+", i)}


def test_a_page_has_every_id_sphinx_writes(tmp_path: Path) -> None:
    _site(tmp_path)
    built, _ = sphinx_build(tmp_path)
    site = detect_routes(["conf.py"], lambda path: (tmp_path / path).read_bytes())
    assert site == Routes("sphinx", ("",))
    for page in ("index", "other"):
        text = (tmp_path / f"{page}.md").read_text()
        page_anchors = file_anchors(text, f"{page}.md", site, options=ChunkOptions())
        assert page_anchors.open is None
        anchors = set(page_anchors.anchors)
        ids = content_ids((built / f"{page}.html").read_text())
        assert ids <= anchors, page
        # Beyond the ids: only the names MyST resolves as written.
        assert anchors - ids <= {"my_label", "other_label", "pkg.thing"} | ids


def test_links_are_judged_as_sphinx_resolves_them(cli_repo: Path) -> None:
    _site(cli_repo)
    _, warnings = sphinx_build(cli_repo)
    # Sphinx's verdict: these two, and no other link, are broken.
    unresolved = re.findall(
        r"(?:local id not found in doc 'other'|target not found): '(\S+)'", warnings
    )
    assert sorted(unresolved) == ["nope", "nope-local"]
    write(cli_repo, ".gitignore", "_build/\n")
    committed(cli_repo)
    _, data = check_json()
    findings = data["violations"] + data.get("known", [])
    # The cross-reference #nope-local names no target of any page, and without intersphinx
    # none of another project either: broken, as Sphinx says.
    assert [v["message"] for v in findings if v["rule"] == "CG404"] == [
        "link other.md#nope: other.md has no anchor #nope",
        "link #nope-local: this file has no anchor #nope-local",
    ]


def test_a_page_whose_directives_write_content_is_open() -> None:
    text = "# API\n\n```{automodule} pkg\n```\n"
    page = file_anchors(text, "api.md", Routes("sphinx", ("",)), options=ChunkOptions())
    assert page.open is not None


def test_a_conf_py_of_another_tool_or_without_myst_is_no_markdown_site() -> None:
    files = {"conf.py": b"DEBUG = True\n", "docs/conf.py": b"extensions = ['sphinx.ext.autodoc']\n"}
    assert detect_routes(files, files.get).generator == "github"
    files = {"docs/conf.py": b"import x\nextensions = x.EXTENSIONS\n"}
    # Computed extensions may hold intersphinx: a `#label` may be another project's.
    assert detect_routes(files, files.get) == Routes("sphinx", ("docs",), other_projects=True)


@pytest.mark.parametrize(
    "name", ["syntax/referencing", "my_label", "Über Straße", "2nd try", "a--b"]
)
def test_docutils_id_is_docutils(name: str) -> None:
    assert docutils_id(name) == make_id(name)


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30))
def test_docutils_id_is_docutils_for_any_latin_name(name: str) -> None:
    if all(ord(c) < 0x250 for c in name):
        assert docutils_id(name) == make_id(name)


HEADINGS = """\
# Home Page

(my_label)=
## Labelled Heading

## A/B test: `code` & more

### Deep One

## Repeated

## Repeated

#### Über Straße

### Why doesn't it "work"

(deep_label)=

#### Labelled deep
"""


def test_chunk_ids_are_the_permalinks_sphinx_writes(tmp_path: Path) -> None:
    write(tmp_path, "conf.py", CONF)
    write(tmp_path, "index.md", HEADINGS)
    built, _ = sphinx_build(tmp_path)
    html = (built / "index.html").read_text()
    permalinks = re.findall(r'<h[1-6][^>]*>.*?class="headerlink" href="#([^"]+)"', html)
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    sites = detect.find_sites(["conf.py"], lambda path: (tmp_path / path).read_bytes())
    options = ChunkOptions(sites=sites)
    _, found = headings(context_for(HEADINGS, "index.md", options=options, counter=len))
    identities = [heading.identity for heading in found]
    assert all(identity in ids for identity in identities)
    # The permalink itself, but for the repeat, whose permalink is docutils' #id1.
    assert permalinks[5] == "id1"
    assert identities[:5] + identities[6:] == permalinks[:5] + permalinks[6:]
    assert identities[5] == "repeated-1"


def test_a_target_opens_the_chunk_of_the_heading_it_labels(tmp_path: Path) -> None:
    write(tmp_path, "conf.py", CONF)
    text = "(top)=\n# Top\n\nSome words about the top.\n\n(next_one)=\n\n## Next\n\nMore words.\n"
    sites = detect.find_sites(["conf.py"], lambda path: (tmp_path / path).read_bytes())
    options = ChunkOptions(sites=sites)
    chunks = chunk_markdown(context_for(text, "index.md", options=options, counter=len))
    assert [(c.id, c.start_line, c.end_line) for c in chunks] == [
        ("index.md#top", 1, 4),
        ("index.md#next-one", 6, 10),
    ]


_TITLES = st.sampled_from(["Setup", "Setup 1", "setup-1", "!", "?", "A/B", "a-b"])


@given(st.lists(st.tuples(st.integers(1, 4), _TITLES), min_size=1, max_size=8))
def test_two_headings_of_a_page_never_share_an_id(headings: list[tuple[int, str]]) -> None:
    # A repeated title past MyST's depth, or one with no id characters, gets a docutils
    # idN chunkgate cannot know; numbered as GitHub numbers a repeat, it is unique.
    text = "".join(f"{'#' * level} {title}\n\nText.\n\n" for level, title in headings)
    sphinx = Site("", AnchorStyle("sphinx", "3"))
    chunks = chunk_text(text, "a.md", options=ChunkOptions(min=0, sites=(sphinx,)))
    ids = [chunk.id for chunk in chunks]
    assert len(ids) == len(set(ids))
