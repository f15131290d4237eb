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

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

from chunkgate.core.regex import lazy
from chunkgate.links.anchors import file_anchors, include_graph
from chunkgate.links.extract import Link, extract_links, readable
from chunkgate.rules.base import Rule
from chunkgate.sites.routes import GITHUB, MARKDOWN_SUFFIXES, Routes, candidates

if TYPE_CHECKING:
    from chunkgate.config.model import Config
    from chunkgate.core.model import Violation

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

_EXTERNAL = lazy(r"[A-Za-z][A-Za-z0-9+.-]*:|//")


class Target(NamedTuple):
    """What a link points at: a corpus file and a percent-decoded fragment."""

    path: str
    fragment: str


class BrokenLink(NamedTuple):
    path: str  # the linking file
    line: int
    link: Link
    target: Target
    moved_to: str | None  # the ID a recorded move redirects the fragment to (gone too)
    closest: str | None  # the closest anchor the target has

    @property
    def message(self) -> str:
        where = "this file" if self.target.path == self.path else self.target.path
        link = readable(self.link.destination)
        return f"link {link}: {where} has no anchor #{self.target.fragment}"

    @property
    def fix(self) -> str:
        if self.moved_to is not None:
            return (
                f"the section moved to {self.moved_to}, which is gone too: link to its section now"
            )
        if self.closest is not None:
            return f"link to #{self.closest} (the closest anchor of {self.target.path})"
        return f"link to an existing heading of {self.target.path}, or remove the fragment"


def resolve(
    destination: str, source: str, exists: Callable[[str], str | None], site: Routes = GITHUB
) -> Target | None:
    """The corpus file and fragment ``destination`` (in ``source``) points at, or None
    when it points outside the corpus, at another site, or has no fragment.

    ``exists(path)`` gives the corpus path of a Markdown file (spelled as the
    corpus spells it, for sites that publish paths in lowercase) or None.
    """
    if _EXTERNAL.match(destination):
        return None
    path, hash_sign, fragment = destination.partition("#")
    if not hash_sign or not fragment:
        return None
    path = unquote(path.partition("?")[0])
    for candidate in candidates(site, source, path):
        found = exists(candidate)
        if found is not None:
            return Target(found, unquote(fragment))
    return None


def check_references(
    links: Mapping[str, Sequence[Link]],
    anchors_of: Callable[[str], Collection[str] | None],
    paths: Collection[str],
    *,
    site: Routes = GITHUB,
    moved: Mapping[str, str] | None = None,
    includers: Mapping[str, Collection[str]] | None = None,
) -> Iterator[BrokenLink]:
    """The broken links among ``links`` (per corpus file), in path and line order.

    ``paths`` are the corpus's Markdown files; ``anchors_of(path)`` gives every
    anchor of one, or None when they cannot be known (the page is written by
    its template). ``moved`` maps an acknowledged old chunk ID to the ID it
    moved to (the manifest's ``moved_from``, inverted). ``includers`` maps a
    file to the pages that include it: its links to its own anchors may land
    on theirs.
    """
    moved = moved or {}
    includers = includers or {}
    lower: dict[str, str] = {}
    for path in paths:
        lower.setdefault(path.lower(), path)

    def exists(path: str) -> str | None:
        # Hugo publishes paths in lowercase: functions/css/Build.md is /functions/css/build/.
        return path if path in paths else lower.get(path.lower())

    cache: dict[str, Collection[str] | None] = {}

    def anchors(path: str) -> Collection[str] | None:
        if path not in cache:
            cache[path] = anchors_of(path)
        return cache[path]

    for path in sorted(links, key=lambda p: p.encode("utf-8", "surrogateescape")):
        for link in links[path]:
            target = resolve(link.destination, path, exists, site)
            if target is None:
                continue
            known = anchors(target.path)
            if known is None or target.fragment in known:
                continue
            if target.path == path and any(
                target.fragment in (anchors(parent) or ()) for parent in includers.get(path, ())
            ):
                continue  # an included file's link to the page that includes it
            redirect = _follow(moved, f"{target.path}#{target.fragment}")
            if redirect is not None:
                redirect_path, _, redirect_anchor = redirect.partition("#")
                if redirect_anchor in (anchors(redirect_path) or ()):
                    continue  # acknowledged: the section moved there
            yield BrokenLink(
                path, link.line, link, target, redirect, _closest(target.fragment, known)
            )


def _follow(moved: Mapping[str, str], chunk_id: str) -> str | None:
    seen: set[str] = set()
    current = moved.get(chunk_id)
    while current is not None and current in moved and current not in seen:
        seen.add(current)
        current = moved[current]
    return current


def _closest(fragment: str, anchors: Collection[str]) -> str | None:
    import difflib  # only for a broken link

    found = difflib.get_close_matches(fragment, list(anchors), n=1, cutoff=0.5)
    return found[0] if found else None


def reference_violations(
    config: Config,
    texts: Mapping[str, str],
    *,
    moved_from: Mapping[str, str] | None = None,
    site: Routes = GITHUB,
) -> list[Violation]:
    """CG404 over a corpus: ``texts`` are its files' texts by path (Markdown ones are
    read), ``moved_from`` maps a chunk ID to the old ID it was acknowledged as moved from.
    """
    if config.severity(CODE) == "off":
        return []
    markdown = {p: t for p, t in texts.items() if p.lower().endswith(MARKDOWN_SUFFIXES)}
    links = {path: extract_links(text, local_only=True) for path, text in markdown.items()}

    def anchors_of(path: str) -> set[str] | None:
        text = markdown.get(path)
        if text is None:
            return None
        return file_anchors(text, path, site, markdown.get, options=config.chunking)

    moved = {old: new for new, old in (moved_from or {}).items()}
    out: list[Violation] = []
    broken = check_references(
        {p: found for p, found in links.items() if found},
        anchors_of,
        markdown.keys(),
        site=site,
        moved=moved,
        includers=include_graph(markdown, site),
    )
    for link in broken:
        found = to_violation(config, link)
        if found is not None:
            out.append(found)
    return out


def to_violation(config: Config, link: BrokenLink) -> Violation | None:
    """The finding of one broken link, at the configured severity (None: the rule is off)."""
    from chunkgate.core.model import Violation
    from chunkgate.rules import RULES

    severity = config.severity(CODE)
    if severity == "off":
        return None
    return Violation(
        CODE, RULES[CODE].name, severity, link.path, link.line, None, link.message, link.fix
    )
