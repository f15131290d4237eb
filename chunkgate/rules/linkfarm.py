"""Chunks that are navigation, not content.

## CG304 link-farm

Fires on a Markdown or text chunk that is a table of contents, a link list,
a badge row or a sponsor wall: at least 5 links, and either at least 60% of
its lines with text are "link lines" (a link with at most a word or two
around it), or the link texts hold at least 70% of its letters and digits.
Links are Markdown inline and reference links and images, `<https://...>`
autolinks, bare URLs and HTML `<a>` elements. The chunk's own heading line,
link reference definitions and fenced code blocks count neither as prose nor
as links, and a table row with a value beside its link ("| [Sphinx][sx] |
0.06g | A+ |") is data, not a link line. URLs are not text: a changelog line
"Fix the login redirect. PR [#42](https://github.com/...) by
[@ana](https://github.com/ana)" is mostly prose.

**Why it matters:** a list of link titles matches many queries by title
alone, so it is retrieved instead of the pages it points to, and it answers
nothing.

**Fix:** leave navigation to the site generator (MkDocs nav, Docusaurus
sidebars), or write a sentence about each link that says what the reader finds
there. If the list is wanted in the docs but not in the index, suppress it:
`<!-- chunkgate: disable=CG304 -->` on the line before the heading.

Fires:

```markdown
## Contents

- [Installation](install.md)
- [First steps](first-steps.md)
- [Configuration](configuration.md)
- [Deployment](deployment.md)
- [FAQ](faq.md)
```

Passes:

```markdown
## Next steps

Read [the tutorial](tutorial.md) to build your first app; it assumes you
have [installed](install.md) the package. [Deployment](deployment.md) covers
Docker and [Kubernetes](https://kubernetes.io), and the [FAQ](faq.md) lists
the errors people meet most often, with [their fixes](errors.md).
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from chunkgate.chunking import languages
from chunkgate.chunking.syntax import Dialect, dialect_of, prose
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy
from chunkgate.rules.base import FileContext, Finding, Rule

RULES = (
    Rule(
        "CG304",
        "link-farm",
        "warning",
        "a chunk is a table of contents or link list with little prose",
        priority=24,
        version=2,  # 2: a table row with a value beside its link is data, not a link line
    ),
)
CODE = RULES[0].code

# Fewer links are a "see also" line, not a list.
MIN_LINKS = 5
# A link line is a line with a link and at most a word or two around it
# ("* With [docs for FastAPI](...)"): fewer letters of prose than this, and
# fewer than its link text. A changelog line ("Fix typos. PR #61 by @user")
# has more prose than link text, so it is not one.
LINK_LINE_PROSE = 20
# Link lines at 60% of the lines with text: a TOC, a badge row or a sponsor
# wall is near 100%; a list of links that each get a sentence of their own is
# near 0%; FastAPI's "GraphQL libraries" list is 78-89% (by translation).
MIN_LINK_LINES = 0.6
# Or link texts at 70% of all letters: five links strung into one short line
# ("See [A](a.md), [B](b.md), ...") are a link list too. A docs paragraph with a
# few links is at 5-30%.
MIN_LINK_SHARE = 0.7

# The lookahead takes the fence whole (it is never backtracked into), so a long
# run of backticks with no line break after it is read once, not once per length.
_FENCED = lazy(r"^[ \t]{0,3}(?=(`{3,}|~{3,}))\1[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S)
# One pattern per link form, tried left to right; the "text" groups are what
# the reader sees, everything else in a match is markup or a URL. The
# lookahead names every possible first character, which lets the regex engine
# skip the other positions quickly (three times faster on FastAPI's docs).
_LINK = lazy(
    r"(?=[<!\[hH])(?:"
    # An <a> tag's text ends at the next <a ...> at the latest, and its attributes
    # at the next "<": otherwise each of many unclosed tags would scan to the end.
    r"<[aA]\s[^<>]*>(?P<html>(?:(?!<[aA]\s).)*?)</[aA]\s*>"
    # [text](url) and ![alt](src), one level of nested brackets for badges.
    r"|!?\[(?P<inline>(?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
    r"|!?\[(?P<reference>[^\[\]\n]+)\]\[[^\[\]\n]*\]"
    r"|<(?P<autolink>[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]+)>"
    r"|(?P<url>\b[hH][tT][tT][pP][sS]?://[^\s<>()\[\]]+))",
    re.DOTALL,
)
# A reference definition is the URL half of a [text][ref] link: no text.
_DEFINITION = lazy(r"^[ \t]{0,3}\[[^\[\]\n]+\]:[ \t]*\S+[^\n]*$", re.MULTILINE)
_TAG = lazy(r"</?[a-zA-Z][^<>\n]*>")
# A badge's image inside the link text: keep its alt text, drop its URL.
_NESTED = lazy(r"!?\[([^\[\]]*)\]\([^()]*\)")
_WORDY = lazy(r"[^\W_]+")
# A link, once counted, is replaced by \x00<letters of its text>\x01.
_PLACEHOLDER = lazy(r"\x00(\d+)\x01")


class LinkStats(NamedTuple):
    links: int
    link_lines: int
    lines: int
    link_text: int
    prose: int

    @property
    def share(self) -> float:
        return self.link_text / max(self.link_text + self.prose, 1)

    @property
    def line_share(self) -> float:
        return self.link_lines / max(self.lines, 1)

    def is_link_farm(self) -> bool:
        if self.links < MIN_LINKS:
            return False
        return self.line_share >= MIN_LINK_LINES or self.share >= MIN_LINK_SHARE


def check(file: FileContext) -> Iterator[Finding]:
    dialect: Dialect | None = None
    for chunk in file.chunks:
        language = languages.get(chunk.language)
        if language.code:
            continue
        body = _body(chunk)
        if language.markup:
            # Template syntax (a `{: .label }` line, a JSX tag) is neither prose nor a link.
            dialect = dialect or dialect_of(file.path, file.config.chunking)
            body = prose(body, dialect)
        stats = link_stats(body)
        if stats is not None and stats.is_link_farm():
            yield Finding(
                CODE,
                chunk.start_line,
                f"{stats.links} links; {stats.link_lines} of {stats.lines} lines are "
                f"little but a link, link text is {stats.share:.0%} of the text",
                "say in a sentence what each link is for, or leave navigation to the site's nav",
                chunk=chunk,
            )


def link_stats(text: str) -> LinkStats | None:
    """Links, link lines and the letters inside and outside link texts; None if few links."""
    if not _may_have_links(text):
        return None
    if "```" in text or "~~~" in text:
        text = _FENCED.sub("\n", text)
    if "]:" in text:
        text = _DEFINITION.sub("", text)
    replaced = _LINK.sub(_placeholder, text)
    links = replaced.count("\x00")
    if links < MIN_LINKS:
        return None
    link_text = sum(int(letters) for letters in _PLACEHOLDER.findall(replaced))
    prose = _letters(_PLACEHOLDER.sub(" ", replaced))
    lines = link_lines = 0
    for line in replaced.split("\n"):
        if "\x00" not in line:
            if _WORDY.search(_TAG.sub(" ", line) if "<" in line else line):
                lines += 1
            continue
        lines += 1
        if "|" in line and _data_row(line):
            continue
        words = _letters(_PLACEHOLDER.sub(" ", line))
        if words < LINK_LINE_PROSE and words <= sum(map(int, _PLACEHOLDER.findall(line))):
            link_lines += 1
    return LinkStats(links, link_lines, lines, link_text, prose)


def _data_row(line: str) -> bool:
    """Whether a table row holds a value beside its links ("| [Sphinx][sx] | 0.06g | A+ |",
    "page|[`PAGE.Store`][]"): a row of data about the link, not a list of links."""
    cells = line.strip().strip("|").split("|")
    return len(cells) > 1 and any("\x00" not in cell and _WORDY.search(cell) for cell in cells)


def _may_have_links(text: str) -> bool:
    # Substring counts are far cheaper than the link pattern; stop as soon as
    # there are enough hints.
    hints = 0
    for hint in ("](", "://", "][", "<a "):
        hints += text.count(hint)
        if hints >= MIN_LINKS:
            return True
    return False


def _letters(text: str) -> int:
    return sum(map(len, _WORDY.findall(_TAG.sub(" ", text) if "<" in text else text)))


def _placeholder(match: re.Match[str]) -> str:
    shown = match.group("html", "inline", "reference", "autolink", "url")
    visible = next((group for group in shown if group is not None), "")
    if "](" in visible:
        visible = _NESTED.sub(r"\1", visible)
    return f"\x00{_letters(visible)}\x01"


def _body(chunk: Chunk) -> str:
    # The heading is a title, not prose: "## Related projects" does not
    # explain a list of links.
    return chunk.body if chunk.kind == "section" else chunk.text
