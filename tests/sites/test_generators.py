"""chunkgate's anchors and CG404 against small sites built by the real generators.

Each test writes a site of a few pages in a repository, builds it with its
generator (``tests/sites/install-generators`` installs the ones pip does not)
and requires chunkgate to agree with what was built: every Markdown chunk's
anchor is an id on its page, and every link with a fragment is a CG404 exactly
when the built page it lands on lacks that id (or there is no such page).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import commit_all, make_repo, write
from sitebuild import (
    Built,
    build_hugo,
    build_jekyll,
    build_mkdocs,
    build_sphinx,
    build_vitepress,
    differences,
)

MKDOCS_YML = """\
site_name: Fixture
theme: {name: material}
markdown_extensions:
  - toc
  - attr_list
  - footnotes
  - admonition
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.tabbed: {alternate_style: true}
"""

MKDOCS_INDEX = """\
# Home

A paragraph with its own id.
{#para-id}

- a list item with an id
{#item-id}
- braces on the item's line are text {#not-an-id}

## Keyed heading { id="keyed-x" }

## Version { id="9.7.0" }

Text with a footnote[^1].

[^1]: The note.

!!! note "Box"

    Inside a box: [bad](other.md#nope) and [good](other.md#real).

??? tip "Collapsed"

    A collapsed link [to nothing](#missing-in-collapse).

=== "Tab A"

    A tab link [to nothing](other.md#also-missing).

=== "Tab B"

    Another tab.

## Links

[p](#para-id) [i](#item-id) [n](#not-an-id) [k](#keyed-x) [v](#9.7.0) [fn](#fn:1) [back](#fnref:1)
[gone](#no-such) [real](other.md#real) [title](other.md#other)
"""

MKDOCS_OTHER = """\
# Other

## Real

Text.
"""


HUGO_TOML = """\
baseURL = "/"
title = "Fixture"
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
"""

HUGO_DOCS_INDEX = """\
---
title: Docs
---

## First time contributing

Welcome. [child](x/#why) [child, gone](x/#who) [bundle](z/#inside)
"""

HUGO_X = """\
---
title: X
---

## Counter {#counter}

Explicit.

## Counter

Automatic: Hugo makes it counter-1.

## Why

[up](../#first-time-contributing) [up, gone](../#first-timer)
[absolute](/docs/x/#why) [absolute, gone](/docs/x/#what)
[second counter](#counter-1) [other page](/docs/y/#setup)
"""

HUGO_Y = """\
---
title: Y
---

## Setup

[back](../x/#counter) [back, gone](../x/#counter-2) [file](x.md#why)
"""


HUGO_BUNDLE = """\
---
title: Z
---

## Inside

[up](../#first-time-contributing) [sibling](../y/#setup) [sibling, gone](../y/#teardown)
"""


JEKYLL_CONFIG = """\
title: Fixture
permalink: pretty
markdown: kramdown
"""

JEKYLL_RUBY = """\
---
title: Ruby 101
permalink: /docs/ruby-101/
---

## Gems

Gems are packages.

## Bundler {#bundle}

Explicit id.
"""

JEKYLL_INDEX = """\
---
title: Home
---

# Home

[gems](/docs/ruby-101/#gems) [renamed](/docs/ruby-101/#gemz)
[explicit](/docs/ruby-101/#bundle) [by file](docs/ruby-101.md#gems)
[guide](/guide/#setup) [guide, gone](/guide/#install)
"""

JEKYLL_GUIDE = """\
---
title: Guide
permalink: /guide/
---

## Setup

Text.
"""


SPHINX_CONF = """\
project = "Fixture"
extensions = ["myst_parser"]
myst_heading_anchors = 3
html_theme = "alabaster"
"""

SPHINX_INDEX = """\
# Home

```{toctree}
other
```

(intro-label)=
## Introduction

[target](#intro-label) [other](other.md#details) [gone](other.md#nothing-here)
[a label on another page](#details) [no such label](#nowhere)
"""

SPHINX_OTHER = """\
# Other

(details)=
## All the details

Text.
"""


VITEPRESS_CONFIG = """\
import { truth } from './truth.mjs'

export default { title: 'Fixture', cleanUrls: true, ...truth }
"""

VITEPRESS_GUIDE = """\
# Guide

## Hello World {#custom}

## Überblick

## Repeat

## Repeat

## Links

[custom](#custom) [by title](#hello-world) [umlaut](#überblick)
[second](#repeat-1) [third](#repeat-2) [home](./index.md#start) [home, gone](/#end)
"""


@pytest.mark.parametrize(
    ("build", "files"),
    [
        pytest.param(
            build_mkdocs,
            {
                "mkdocs.yml": MKDOCS_YML,
                "docs/index.md": MKDOCS_INDEX,
                "docs/other.md": MKDOCS_OTHER,
            },
            id="mkdocs-material",
        ),
        pytest.param(
            build_hugo,
            {
                "hugo.toml": HUGO_TOML,
                "layouts/_default/single.html": "{{ .Content }}\n",
                "layouts/_default/list.html": "{{ .Content }}\n",
                "content/_index.md": "---\ntitle: Home\n---\n\n## Welcome\n",
                "content/docs/_index.md": HUGO_DOCS_INDEX,
                "content/docs/x.md": HUGO_X,
                "content/docs/y.md": HUGO_Y,
                "content/docs/z/index.md": HUGO_BUNDLE,
            },
            id="hugo",
        ),
        pytest.param(
            build_jekyll,
            {
                "_config.yml": JEKYLL_CONFIG,
                "index.md": JEKYLL_INDEX,
                "docs/ruby-101.md": JEKYLL_RUBY,
                "pages/guide.md": JEKYLL_GUIDE,
            },
            id="jekyll-permalinks",
        ),
        pytest.param(
            build_sphinx,
            {
                "docs/conf.py": SPHINX_CONF,
                "docs/index.md": SPHINX_INDEX,
                "docs/other.md": SPHINX_OTHER,
            },
            id="sphinx-myst",
        ),
        pytest.param(
            build_vitepress,
            {
                "docs/.vitepress/config.mts": VITEPRESS_CONFIG,
                "docs/index.md": "# Home\n\n## Start\n\n[guide](./guide.md#custom)\n",
                "docs/guide.md": VITEPRESS_GUIDE,
            },
            id="vitepress",
        ),
    ],
)
def test_chunkgate_agrees_with_the_built_site(
    tmp_path: Path, build: Callable[[Path, Path], Built], files: dict[str, str]
) -> None:
    """Each generator's fixture site, committed to a repository and built: chunkgate's
    anchors and CG404s are what the site has (the failure lists every difference)."""
    repo = make_repo(tmp_path)
    for path, text in files.items():
        write(repo, path, text)
    commit_all(repo)
    found = differences(repo, build(repo, tmp_path / "site"))
    assert not found, "\n".join(found)
