"""Links inside the corpus that point at a section, or a page, no longer there.

## CG404 broken-reference

Fires on a Markdown link or link reference definition whose destination is a
file of the corpus (or the linking file itself) with a `#fragment` that no
heading of that file has: `[setup](install.md#setup)`, `[see below](#usage)`,
`[ref]: ../guide/index.md#faq`. Links are found as CommonMark parses them, so
a link in a code span or code block is not one. A link to a page's published
name finds its source where the site generator publishes it so: `page.html`
for `page.md` (mdBook, Jekyll, VitePress), `page/`, `/dir/page/` and extensionless
`page` for MkDocs, Hugo and Starlight (detected from `mkdocs.yml`, `.vitepress/config.*`,
`hugo.toml`, `astro.config.*`, `book.toml`, `_config.yml`). Anchors are the
IDs chunkgate gives the target's headings (every heading, also one without a
chunk of its own or inside a list) and HTML `id`/`name` attributes.

Links to other sites, and to files outside the corpus, are not checked (no
network). A fragment whose section moved (a rename this change makes, or one
the manifest records as `moved_from`) is still broken on the site: the finding
names where the section went, and `chunkgate fix-links` rewrites the link
there. Accepting the move keeps citations working, not links.

A page holding what makes anchors at build time that chunkgate does not
model (an autodoc block `::: pkg.module`, a block-level shortcode, Liquid or
Jinja call or MDX component, raw HTML with an `id` expression, a heading a
site hook rewrites, an include of a file not in the corpus) is open: a link
into it whose anchor is not found is not a finding but unverified, counted
in the summary and listed by `check --show-unverified`. `links.anchors`
declares what a site's hooks make (a pattern and the anchor it gives),
`links.ignore` the links not to check. `check --site DIR` takes the anchors
from a built site instead: a page it serves has exactly its ids.

**Why it matters:** a link is a citation. Renaming a heading changes its
anchor, and every link to the old anchor then opens the top of the page, or
nothing, for readers and for an answer that cites it.

**Fix:** point the link at the anchor named in the message (the section the
move went to: `chunkgate fix-links` does it; or the closest existing anchor),
or keep the old anchor with an explicit ID: `## Installing it {#setup}`.

Fires (when `install.md` has no heading "Setup"):

```markdown
Read [the setup guide](install.md#setup) first.
```

Passes:

```markdown
Read [the setup guide](install.md#installing-it) first; `[not a link](x.md#y)`.
```

## CG405 missing-page

Fires on a link to a Markdown page that is not there: a link to a `.md` file
(as the site resolves it: from the linking page, and for Docusaurus and Hugo
from the docs folder too) when no such file exists in the repository at all,
and, in the hook, any link (a site URL like `/docs/setup/` too) to a page the
commit deletes or moves. A file that exists but is outside the corpus
(`exclude`) is no finding: the site still publishes it. Links to other sites,
to assets, and site URLs of pages chunkgate cannot know (tag lists, search,
generated API pages) are never findings.

**Why it matters:** a deleted or moved page takes every link to it down with
it; the site shows a 404 and an answer citing the page cites nothing.

**Fix:** link to the page's new path (named when a detected or recorded move
says where it went; `chunkgate fix-links` rewrites a link to the `.md` file),
or to the closest existing page the message names, or remove the link.

Fires (when `install.md` was deleted):

```markdown
Read [the setup guide](install.md) first.
```

Passes:

```markdown
Read [the setup guide](setup/install.md) first; [the API](/api/) is generated.
```
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from chunkgate.core.model import Unverified, Violation
from chunkgate.links import gate as links
from chunkgate.links.anchors import anchors_reader, include_graph
from chunkgate.links.broken import (
    BrokenLink,
    LinkSettings,
    MissingPage,
    Sites,
    as_sites,
    check_references,
)
from chunkgate.links.corpus import sites_of
from chunkgate.links.extract import page_links
from chunkgate.links.gate import route_of
from chunkgate.links.openings import PageAnchors
from chunkgate.links.shortcodes import quiet_shortcodes
from chunkgate.rules.base import CorpusContext, Option, Rule
from chunkgate.rules.stability import moved_cause
from chunkgate.sites.built import read_site
from chunkgate.sites.mkdocstrings import Sources
from chunkgate.sites.routes import GITHUB, MARKDOWN_SUFFIXES, Routes
from chunkgate.sites.urls import page_urls

if TYPE_CHECKING:
    from chunkgate.config.model import Config

RULES = (
    Rule(
        "CG404",
        "broken-reference",
        "error",
        "a link inside the corpus points at an anchor its target file does not have",
        priority=31,
        options=(
            Option(
                "links.anchors",
                "anchor_patterns",
                (),
                "anchors a site's hooks or macros make: a regex over a page's lines and the "
                "anchor it makes, e.g. {pattern: '<!-- md:setting (\\S+) -->', anchor: '\\1'}",
            ),
            Option(
                "links.ignore",
                "regexes",
                (),
                "CG404 skips a link when one of these regexes is found in its destination "
                "or in the path of the page it lands on",
            ),
        ),
    ),
    Rule(
        "CG405",
        "missing-page",
        "error",
        "a link inside the corpus points at a Markdown page that is not there",
        priority=32,
    ),
)
CODE = RULES[0].code
ANCHORS, IGNORE = RULES[0].options
MISSING = RULES[1]


def check_corpus(context: CorpusContext) -> list[Violation | Unverified]:
    """CG404 in ``check`` and ``update``: every link of the corpus, or (named files) their
    links and the links elsewhere into the anchors they lost; the links into open pages
    are unverified."""
    config = context.config
    sites = sites_of(config.root, config.generator_files)
    settings = link_settings(config, sites)
    if context.whole:
        found: Iterable[BrokenLink | MissingPage] = links.whole_corpus(
            config, context.files, context.moved, sites, jobs=context.jobs, settings=settings
        )
    else:
        found = links.committed_files(
            config,
            context.files,
            before=context.before,
            moved=context.moved,
            sites=sites,
            reader=context.reader,
            settings=settings,
        )
    return judged(config, found)


def reference_violations(
    config: Config,
    texts: Mapping[str, str],
    *,
    moved_from: Mapping[str, str] | None = None,
    site: Routes | Sites = GITHUB,
) -> list[Violation | Unverified]:
    """CG404 over a corpus: ``texts`` are its files' texts by path (Markdown ones are
    read), ``moved_from`` maps a chunk ID to the old ID it was acknowledged as moved from.
    """
    if config.severity(CODE) == "off":
        return []
    sites = as_sites(site)
    settings = link_settings(config, sites)
    markdown = {p: t for p, t in texts.items() if p.lower().endswith(MARKDOWN_SUFFIXES)}
    found = {path: page_links(text, path, config.chunking) for path, text in markdown.items()}

    sources = Sources(texts.get, functools.partial(_names_in, texts))
    page_anchors = anchors_reader(
        sites, markdown.get, options=config.chunking, settings=settings, source=sources
    )

    def anchors_of(path: str) -> PageAnchors | None:
        text = markdown.get(path)
        return None if text is None else page_anchors(text, path)

    broken = check_references(
        {p: each for p, each in found.items() if each},
        anchors_of,
        markdown.keys(),
        site=sites,
        moved={old: new for new, old in (moved_from or {}).items()},
        includers=include_graph(markdown, sites),
        ignore=settings.ignore,
        built=settings.built,
        urls=page_urls(sites.of, ((path, route_of(text)) for path, text in markdown.items())),
    )
    return judged(config, broken)


def link_settings(config: Config, sites: Sites) -> LinkSettings:
    built = read_site(config.site) if config.site is not None else None
    quiet = quiet_shortcodes(config.root, sites)
    return LinkSettings(config.option(ANCHORS), config.option(IGNORE), built, quiet)


def judged(
    config: Config, found: Iterable[BrokenLink | MissingPage]
) -> list[Violation | Unverified]:
    """Each broken link's finding at the configured severity (none when the rule is off),
    or, into an open page, the unverified link; a link to a page that is not there is
    CG405's."""
    out: list[Violation | Unverified] = []
    for link in found:
        if isinstance(link, BrokenLink) and link.open is not None:
            if config.severity(CODE) != "off":
                target = f"{link.target.path}#{link.target.fragment}"
                out.append(
                    Unverified(link.path, link.line, link.link.destination, target, link.open)
                )
            continue
        rule = MISSING if isinstance(link, MissingPage) else RULES[0]
        severity = config.severity(rule.code)
        if severity != "off":
            new = link.replacement
            edit = (link.link.destination, new) if new is not None else None
            cause = None
            if isinstance(link, MissingPage) and link.moved_from is not None:
                cause = f"moved:{link.moved_from}>{link.path}"  # a moved page's own link
            elif isinstance(link, MissingPage) and link.moved_to is not None:
                cause = f"moved:{link.target}>{link.moved_to}"
            elif isinstance(link, BrokenLink) and link.moved_to is not None:
                cause = moved_cause(f"{link.target.path}#{link.target.fragment}", link.moved_to)
            out.append(
                Violation(
                    rule.code,
                    rule.name,
                    severity,
                    link.path,
                    link.line,
                    None,
                    link.message,
                    link.fix,
                    edit=edit,
                    cause=cause,
                )
            )
    return out


def _names_in(texts: Mapping[str, str], folder: str) -> set[str]:
    """The file and folder names directly in ``folder`` among the paths of ``texts``."""
    prefix = f"{folder}/" if folder else ""
    return {path[len(prefix) :].partition("/")[0] for path in texts if path.startswith(prefix)}
