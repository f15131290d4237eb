"""chunkgate's anchors and CG404 against small sites built by the real generators.

Each test writes a site of a few pages in a repository, builds it with its
generator (``tests/sites/install-generators`` installs the ones pip does not)
and requires chunkgate to agree with what was built: every Markdown chunk's
anchor is an id on its page, and every link with a fragment is a CG404 exactly
when the built page it lands on lacks that id (or there is no such page).
"""

from __future__ import annotations

from pathlib import Path

from helpers import commit_all, make_repo, write
from sitebuild import (
    build_hugo,
    build_jekyll,
    build_mkdocs,
    build_sphinx,
    build_vitepress,
    differences,
)


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = make_repo(tmp_path)
    for path, text in files.items():
        write(repo, path, text)
    commit_all(repo)
    return repo


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


def test_mkdocs_material(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {"mkdocs.yml": MKDOCS_YML, "docs/index.md": MKDOCS_INDEX, "docs/other.md": MKDOCS_OTHER},
    )
    built = build_mkdocs(repo, tmp_path / "site")
    found = differences(repo, built)
    assert not found, "\n".join(found)


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


def test_hugo(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
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
    )
    built = build_hugo(repo, tmp_path / "site")
    found = differences(repo, built)
    assert not found, "\n".join(found)


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


def test_jekyll_permalinks(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {
            "_config.yml": JEKYLL_CONFIG,
            "index.md": JEKYLL_INDEX,
            "docs/ruby-101.md": JEKYLL_RUBY,
            "pages/guide.md": JEKYLL_GUIDE,
        },
    )
    built = build_jekyll(repo, tmp_path / "site")
    found = differences(repo, built)
    assert not found, "\n".join(found)


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
"""

SPHINX_OTHER = """\
# Other

(details)=
## All the details

Text.
"""


def test_sphinx_myst(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {"docs/conf.py": SPHINX_CONF, "docs/index.md": SPHINX_INDEX, "docs/other.md": SPHINX_OTHER},
    )
    built = build_sphinx(repo, tmp_path / "site")
    found = differences(repo, built)
    assert not found, "\n".join(found)


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


def test_vitepress(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {
            "docs/.vitepress/config.mts": VITEPRESS_CONFIG,
            "docs/index.md": "# Home\n\n## Start\n\n[guide](./guide.md#custom)\n",
            "docs/guide.md": VITEPRESS_GUIDE,
        },
    )
    built = build_vitepress(repo, tmp_path / "site")
    found = differences(repo, built)
    assert not found, "\n".join(found)
