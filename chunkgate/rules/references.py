"""Links inside the corpus that point at a section no longer there.

## CG404 broken-reference

Fires on a Markdown link or link reference definition whose destination is a
file of the corpus (or the linking file itself) with a `#fragment` that no
heading of that file has: `[setup](install.md#setup)`, `[see below](#usage)`,
`[ref]: ../guide/index.md#faq`. Links are found as CommonMark parses them, so
a link in a code span or code block is not one. A link to a page's published
name finds its source where the site generator publishes it so: `page.html`
for `page.md` (mdBook, Jekyll), `page/`, `/dir/page/` and extensionless
`page` for MkDocs, Hugo and Starlight (detected from `mkdocs.yml`,
`hugo.toml`, `astro.config.*`, `book.toml`, `_config.yml`). Anchors are the
IDs chunkgate gives the target's headings (every heading, also one without a
chunk of its own or inside a list) and HTML `id`/`name` attributes.

Links to other sites, and to files outside the corpus, are not checked (no
network). A fragment that a recorded move (`moved_from` in the manifest)
redirects to an existing section is not broken: the move is acknowledged.

**Why it matters:** a link is a citation. Renaming a heading changes its
anchor, and every link to the old anchor then opens the top of the page, or
nothing, for readers and for an answer that cites it.

**Fix:** point the link at the anchor named in the message (the section the
move went to, or the closest existing anchor), or keep the old anchor with an
explicit ID: `## Installing it {#setup}`.

Fires (when `install.md` has no heading "Setup"):

```markdown
Read [the setup guide](install.md#setup) first.
```

Passes:

```markdown
Read [the setup guide](install.md#installing-it) first; `[not a link](x.md#y)`.
```
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from chunkgate.core.model import Violation
from chunkgate.links import gate as links
from chunkgate.links.anchors import file_anchors, include_graph
from chunkgate.links.broken import BrokenLink, Sites, as_sites, check_references
from chunkgate.links.corpus import sites_of
from chunkgate.links.extract import extract_links
from chunkgate.rules.base import CorpusContext, Rule
from chunkgate.sites.mkdocstrings import Sources
from chunkgate.sites.routes import GITHUB, MARKDOWN_SUFFIXES, Routes

if TYPE_CHECKING:
    from chunkgate.config.model import Config

RULES = (
    Rule(
        "CG404",
        "broken-reference",
        "error",
        "a link inside the corpus points at an anchor its target file does not have",
        priority=31,
    ),
)
CODE = RULES[0].code


def check_corpus(context: CorpusContext) -> list[Violation]:
    """CG404 in ``check`` and ``update``: every link of the corpus, or (named files) their
    links and the links elsewhere into the anchors they lost."""
    config = context.config
    sites = sites_of(config.root, config.generator_files)
    if context.whole:
        found: Iterable[BrokenLink] = links.whole_corpus(
            config, context.files, context.moved, sites, jobs=context.jobs
        )
    else:
        found = links.committed_files(
            config,
            context.files,
            before=context.before,
            moved=context.moved,
            sites=sites,
            reader=context.reader,
        )
    return [violation for link in found if (violation := to_violation(config, link)) is not None]


def reference_violations(
    config: Config,
    texts: Mapping[str, str],
    *,
    moved_from: Mapping[str, str] | None = None,
    site: Routes | Sites = GITHUB,
) -> list[Violation]:
    """CG404 over a corpus: ``texts`` are its files' texts by path (Markdown ones are
    read), ``moved_from`` maps a chunk ID to the old ID it was acknowledged as moved from.
    """
    if config.severity(CODE) == "off":
        return []
    sites = as_sites(site)
    markdown = {p: t for p, t in texts.items() if p.lower().endswith(MARKDOWN_SUFFIXES)}
    found = {path: extract_links(text, local_only=True) for path, text in markdown.items()}

    sources = Sources(texts.get, functools.partial(_names_in, texts))

    def anchors_of(path: str) -> set[str] | None:
        text = markdown.get(path)
        if text is None:
            return None
        return file_anchors(
            text, path, sites.of(path), markdown.get, options=config.chunking, source=sources
        )

    broken = check_references(
        {p: each for p, each in found.items() if each},
        anchors_of,
        markdown.keys(),
        site=sites,
        moved={old: new for new, old in (moved_from or {}).items()},
        includers=include_graph(markdown, sites),
    )
    return [violation for link in broken if (violation := to_violation(config, link)) is not None]


def _names_in(texts: Mapping[str, str], folder: str) -> set[str]:
    """The file and folder names directly in ``folder`` among the paths of ``texts``."""
    prefix = f"{folder}/" if folder else ""
    return {path[len(prefix) :].partition("/")[0] for path in texts if path.startswith(prefix)}


def to_violation(config: Config, link: BrokenLink) -> Violation | None:
    """The finding of one broken link, at the configured severity (None: the rule is off)."""
    severity = config.severity(CODE)
    if severity == "off":
        return None
    name = RULES[0].name
    return Violation(CODE, name, severity, link.path, link.line, None, link.message, link.fix)
