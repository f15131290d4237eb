from __future__ import annotations

from pathlib import Path

import pytest

from chunkgate.chunking import chunk_document
from chunkgate.config.model import Config
from chunkgate.rules import linkfarm
from chunkgate.rules.base import FileContext, Finding


def _findings(tmp_path: Path, text: str, path: str = "docs/index.md") -> list[Finding]:
    config = Config(root=tmp_path)
    chunked = chunk_document(text, path, options=config.chunking)
    file = FileContext(path, len(text.encode()), text, chunked.chunks, config, chunked.problems)
    return list(linkfarm.check(file))


_TOC = """\
# Guide

Some introduction to the guide, with enough words to be a real paragraph of text
that explains what the reader will learn in the pages below and why it matters.

## Contents

- [Installation](install.md)
- [First steps](first-steps.md)
- [Path parameters](path-params.md)
- [Query parameters](query-params.md)
- [Request body](body.md)
- [Dependencies](dependencies/index.md)
- [Security](security/index.md)
"""

_BADGES = """\
# Example

[![Test](https://github.com/ex/ex/actions/workflows/test.yml/badge.svg)](https://github.com/ex/ex/actions)
[![Coverage](https://coverage.example.com/ex.svg)](https://coverage.example.com/ex)
[![PyPI](https://img.shields.io/pypi/v/ex.svg)](https://pypi.org/project/ex)
[![Python](https://img.shields.io/pypi/pyversions/ex.svg)](https://pypi.org/project/ex)
[![License](https://img.shields.io/badge/license-MIT-blue.svg)](LICENSE)

## Install

Install it with pip, then import it.
"""

_SPONSORS = """\
## Sponsors

<a href="https://a.example.com" target="_blank" title="A"><img src="img/a.png"></a>
<a href="https://b.example.com" target="_blank" title="B"><img src="img/b.png"></a>
<a href="https://c.example.com" target="_blank" title="C"><img src="img/c.png"></a>
<a href="https://d.example.com" target="_blank" title="D"><img src="img/d.png"></a>
<a href="https://e.example.com" target="_blank" title="E"><img src="img/e.png"></a>
"""

_SOCIAL = """\
## Follow the author

You can follow me, the author, in a few places:

* [@ana on **GitHub**](https://github.com/ana).
* [@ana on **X (Twitter)**](https://x.com/ana)
* [@ana.dev on **Bluesky**](https://bsky.app/profile/ana.dev)
* [@ana on **LinkedIn**](https://www.linkedin.com/in/ana/).
* [Ana's blog](https://ana.dev)
"""

_REFERENCES = """\
## See also

* [pydantic][]
* [starlette][]
* [uvicorn][]
* [httpx][]
* [typer][]

[pydantic]: https://docs.pydantic.dev
[starlette]: https://www.starlette.io
[uvicorn]: https://www.uvicorn.org
[httpx]: https://www.python-httpx.org
[typer]: https://typer.tiangolo.com
"""

_URLS = """\
## Mirrors

https://mirror1.example.com/pub/releases/
https://mirror2.example.org/releases/
https://mirror3.example.net/pub/
<https://mirror4.example.com/releases>
<https://mirror5.example.com/releases>
"""

_INLINE = (
    "## More\n\nSee [Installation](install.md), [Tutorial](tutorial.md), "
    "[Deployment](deploy.md), [FAQ](faq.md) and [Changelog](changelog.md).\n"
)


@pytest.mark.parametrize(
    ("text", "line", "links"),
    [
        pytest.param(_TOC, 6, 7, id="toc"),
        pytest.param(_BADGES, 1, 5, id="badges"),
        pytest.param(_SPONSORS, 1, 5, id="sponsor-wall"),
        pytest.param(_SOCIAL, 1, 5, id="social-links"),
        pytest.param(_REFERENCES, 1, 5, id="reference-links"),
        pytest.param(_URLS, 1, 5, id="bare-urls-and-autolinks"),
        pytest.param(_INLINE, 1, 5, id="links-strung-in-a-line"),
    ],
)
def test_fires(tmp_path: Path, text: str, line: int, links: int) -> None:
    (finding,) = _findings(tmp_path, text)
    assert (finding.code, finding.line) == ("CG304", line)
    assert finding.message.startswith(f"{links} links; ")
    assert finding.chunk is not None
    assert finding.chunk.start_line == line
    assert finding.fix == (
        "say in a sentence what each link is for, or leave navigation to the site's nav"
    )


_PROSE = """\
## Next steps

Read [the tutorial](tutorial.md) to build your first app; it assumes you have
[installed](install.md) the package and know a little Python. The
[deployment guide](deployment.md) covers Docker and [Kubernetes](https://kubernetes.io),
and the [FAQ](faq.md) lists the errors people meet most often, with
[their fixes](errors.md) and the settings that avoid them in production.
"""


def _change(text: str, number: int, author: str) -> str:
    pull = f"https://github.com/ex/ex/pull/{number}"
    return f"* {text} PR [#{number}]({pull}) by [@{author}](https://github.com/{author}).\n"


_CHANGELOG = (
    "### Fixes\n\n"
    + _change("🐛 Fix the login redirect when the session expired.", 5801, "ana")
    + _change("🐛 Accept any base test failure as regression.", 5802, "bo")
    + _change("👥 Update FastAPI People.", 5825, "github-actions[bot]")
)

_DESCRIBED = """\
## Libraries

* [Strawberry](https://strawberry.rocks/): a code-first library built on type hints and dataclasses.
* [Ariadne](https://ariadnegraphql.org/): schema first, you write the SDL and bind resolvers.
* [Graphene](https://graphene-python.org/): the oldest of the three, with a Django integration.
* [Tartiflette](https://tartiflette.io/): SDL first and asyncio native, built on libgraphqlparser.
* [gql](https://gql.readthedocs.io/): a client, not a server, for talking to GraphQL APIs.
"""

_CODE = """\
## Mirrors in the config

```yaml
mirrors:
  - https://mirror1.example.com/pub/releases/
  - https://mirror2.example.org/releases/
  - https://mirror3.example.net/pub/
  - https://mirror4.example.com/releases
  - https://mirror5.example.com/releases
```

List the mirrors closest to your users first.
"""


# Starlight's environmental-impact page: a table of measurements, each row naming its source.
_DATA_TABLE = """\
## Comparisons

| Framework                   | CO2 per page visit | Rating |
| --------------------------- | ------------------ | :----: |
| [Starlight][sl-carbon]      | 0.01g              |   A+   |
| [Read the Docs][rtd-carbon] | 0.05g              |   A+   |
| [Sphinx][sx-carbon]         | 0.06g              |   A+   |
| [VitePress][vp-carbon]      | 0.07g              |   A+   |
| [Docus][dc-carbon]          | 0.09g              |   A+   |
"""
# Hugo's store-scope.md: which method makes a store of each scope.
_LOOKUP_TABLE = """\
## Scope

Scope|Method or function
:--|:--
page|[`PAGE.Store`][]
site|[`SITE.Store`][]
global|[`hugo.Store`][]
local|[`collections.NewScratch`][]
shortcode|[`SHORTCODE.Store`][]
"""
_LINK_TABLE = """\
## Pages

| | |
|--|--|
| [Install](install.md) | [Setup](setup.md) |
| [Usage](usage.md) | [Deploy](deploy.md) |
| [FAQ](faq.md) | |
"""


def test_a_table_of_links_alone_still_fires(tmp_path: Path) -> None:
    (finding,) = _findings(tmp_path, _LINK_TABLE)
    assert finding.message.startswith("5 links; 3 of 3 lines are little but a link")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_DATA_TABLE, id="table-of-data-beside-links"),
        pytest.param(_LOOKUP_TABLE, id="lookup-table"),
        pytest.param(_PROSE, id="paragraph-with-links"),
        pytest.param(_CHANGELOG, id="changelog"),
        pytest.param(_DESCRIBED, id="each-link-described"),
        pytest.param(_CODE, id="urls-in-a-code-block"),
        pytest.param(
            "## See also\n\n- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n- [D](d.md)\n", id="four-links"
        ),
        pytest.param("## Plain\n\nNo links at all, just words about the project.\n", id="no-links"),
    ],
)
def test_no_op(tmp_path: Path, text: str) -> None:
    assert _findings(tmp_path, text) == []


def test_python_chunks_are_not_checked(tmp_path: Path) -> None:
    text = "URLS = [\n" + "".join(f'    "https://{n}.example.com",\n' for n in range(8)) + "]\n"
    assert _findings(tmp_path, text, "src/urls.py") == []


def test_text_windows_are_checked(tmp_path: Path) -> None:
    text = "Mirrors:\n" + "".join(f"https://mirror{n}.example.com/pub/\n" for n in range(6))
    (finding,) = _findings(tmp_path, text, "MIRRORS.txt")
    assert finding.message.startswith("6 links; 6 of 7 lines")
