"""No input makes a regular expression on the hook path backtrack: time grows linearly.

Every pattern the enumeration finds (tests/adversarial.py) is timed on the
input built for it that was slowest at a small size: searched through (as
``finditer``), matched once where it is only used anchored (ANCHORED), or
through the function that applies it (GUARDED, and the scanners that replaced
patterns, REPLACED). Times are compared between sizes and with a trivial
linear regex over the same text, with generous factors, so that a slow or busy
machine does not flake while a quadratic pattern (16 times slower at 4 times
the size) still fails; one that looks superlinear is timed again at 4 times the
size, where a small quadratic term is 16 times larger.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import partial

import pytest
from adversarial import Found, elapsed, inputs, patterns, scan

from chunkgate.chunking import cmark, spans
from chunkgate.chunking.anchors import kramdown
from chunkgate.chunking.slugs import split_explicit_id
from chunkgate.manifest import summary
from chunkgate.rules import generated, linkfarm

SMALL, LARGE = 2_000, 8_000
SCREEN = 400
# A linear pattern is about 4 times slower at 4 times the size; a quadratic one 16 times.
MAX_GROWTH = 8.0
# Against a regex that matches every character once (about 0.1 µs a character).
MAX_FACTOR = 40.0
# Below this nothing is slow, whatever the ratios say (timer and scheduler noise).
FLOOR = 0.004
_BASELINE = re.compile(r"(?s).")

# Used only anchored (match or fullmatch at one place: a line, a name, where the
# last match ended), never to search: timed as one match at the start.
ANCHORED = {
    "chunkgate.chunking.slugs._ATTRIBUTE_TOKEN": "match from the end of the last token",
    "chunkgate.chunking.mdparts._DELIMITER_ROW": "fullmatch of one table row",
    "chunkgate.chunking.code._CLOSING": "fullmatch of one line",
    "chunkgate.chunking.code.split._CLOSER": "match at the start of a line",
    "chunkgate.chunking.headers._SHEBANG_OR_COOKIE": "match of the first two lines",
    "chunkgate.chunking.markdown._COMMENTS": "fullmatch of a chunk's text",
    "chunkgate.chunking.mdparts._LINK_DEFINITION": "match at the start of a line",
    "chunkgate.chunking.rst._ITEM": "match at the start of a line",
    "chunkgate.chunking.rst.sections._NO_INDEX": "match at the start of a line",
    "chunkgate.chunking.syntax._OPEN_SHORTCODE": "match of a stripped line",
    "chunkgate.chunking.syntax._OUTPUT_LINE": "fullmatch of a stripped line",
    "chunkgate.chunking.syntax._SYNTAX_LINE": "fullmatch of a stripped line",
    "chunkgate.rules.datadump._LIST_ITEM": "match at the start of a line",
    "chunkgate.rules.datadump._TABLE_ROW": "match at the start of a line",
    "chunkgate.rules.denylist._MINIFIED": "fullmatch of a file name",
    "chunkgate.manifest.storage._TEMPORARY": "fullmatch of a file name",
    "chunkgate.links.broken._EXTERNAL": "match at the start of a link destination",
    "chunkgate.chunking.mdparts._FENCE": "match at the start of a line",
    "chunkgate.chunking.fenceparts._OPENER": "fullmatch of one line",
    "chunkgate.chunking.embedtext._ATX": "match at the start of a line",
    "chunkgate.chunking.embedtext._SETEXT": "fullmatch of one line",
    "chunkgate.chunking.mdparts._ELEMENT_START": "match at the start of a line",
    "chunkgate.chunking.mdparts._OPENING_LINE": "fullmatch of one line",
    "chunkgate.rules.exports._TABLE_SEPARATOR": "match at the start of a line",
    "chunkgate.chunking.syntax._JSX": "fullmatch of a stripped line",
    "chunkgate.chunking.anchors.kramdown._IAL_SHAPE": "fullmatch of one line",
    "chunkgate.chunking.syntax._OPEN_JSX": "fullmatch of a stripped line",
}

# Not applied to any text as it is: the function that applies it, timed instead.
GUARDED: dict[str, Callable[[str], object]] = {
    "chunkgate.chunking.cmark._TAG": cmark.without_tags,
    "chunkgate.manifest.summary._SUPPRESSED": summary.suppressed_lists,
    "chunkgate.chunking.anchors.kramdown._IAL_ID": kramdown.explicit_below,
}

# Patterns that backtracked, replaced by one-pass scanners (chunking/spans.py): each
# scanner is timed on the inputs built for the pattern it replaced.
REPLACED: dict[str, tuple[str, Callable[[str], object]]] = {
    "spans.code_spans (kramdown, syntax _CODE_SPAN)": (
        r"(`+)(.+?)\1",
        lambda text: list(spans.code_spans(text, closer_inside=True)),
    ),
    "spans.code_spans (mdparts._CODE_SPAN)": (
        r"(`+)(?:(?!\1).)+?\1",
        lambda text: list(spans.code_spans(text, closer_inside=False)),
    ),
    "spans.template_spans (syntax._INLINE)": (
        r"\{\{[<%].*?[>%]\}\}|\{%.*?%\}|\{\{(?![<%]).*?\}\}",
        lambda text: list(spans.template_spans(text, output=True)),
    ),
    "spans.template_spans (syntax._INLINE_TEMPLATE)": (
        r"\{\{[<%].*?[>%]\}\}|\{%.*?%\}",
        lambda text: list(spans.template_spans(text, output=False)),
    ),
    "spans.without_inline_markup (anchors._INLINE_MARKUP)": (
        r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]|[`*]|(?<!\w)_|_(?!\w)",
        spans.without_inline_markup,
    ),
}
GUARDED.update({name: scanner for name, (_, scanner) in REPLACED.items()})

# Not linear yet (issue 18): each needs a rewrite that keeps its results.
# Not linear yet (issue 18): none left; a pattern that cannot be made linear goes
# here with the reason, and is not timed.
KNOWN: dict[str, str] = {}

ALL = patterns()


def _scan(found: Found, text: str) -> int:
    if found.name in GUARDED:
        return int(bool(GUARDED[found.name](text)))
    if found.name in ANCHORED:
        return int(found.pattern.match(text) is not None)
    return scan(found.pattern, text)


def test_the_patterns_are_found() -> None:
    names = {found.name for found in ALL}
    assert len(ALL) > 100
    assert "chunkgate.rules.linkfarm._LINK" in names
    assert "chunkgate.rules.generated._CODE_MARKERS" in names
    for name in [*ANCHORED, *(set(GUARDED) - set(REPLACED)), *KNOWN]:
        assert name in names, name


def _worst(found: Found) -> tuple[str, str]:
    worst = (-1.0, "", "")
    for description, text in inputs(found.pattern, SCREEN):
        took = elapsed(partial(_scan, found, text), repeat=1)
        if took > worst[0]:
            worst = (took, description, text)
    return worst[1], worst[2]


def _rebuilt(found: Found, description: str, size: int) -> str:
    return dict(inputs(found.pattern, size))[description]


CHECKED = [
    *(found for found in ALL if found.name not in KNOWN),
    *(Found(name, re.compile(old)) for name, (old, _) in REPLACED.items()),
]


@pytest.mark.parametrize("found", CHECKED, ids=lambda found: found.name)
def test_pattern_is_linear_on_adversarial_input(found: Found) -> None:
    """Linear from 2,000 to 8,000 characters and not far slower than a linear scan; a
    pattern that looks worse (noise, or a small quadratic term) must stay linear from
    8,000 to 32,000, where a quadratic term is 16 times larger."""
    description, _ = _worst(found)
    took: list[float] = []
    for size in (SMALL, LARGE, 4 * LARGE):
        text = _rebuilt(found, description, size)
        took.append(elapsed(partial(_scan, found, text)))
        baseline = elapsed(partial(scan, _BASELINE, text))
        if size == SMALL:
            continue
        growth = took[-1] / max(took[-2], 1e-6)
        if took[-1] < FLOOR or (growth < MAX_GROWTH and took[-1] < MAX_FACTOR * baseline):
            return
    pytest.fail(
        f"{found.name} on {description}: "
        + ", ".join(f"{t * 1e3:.1f} ms" for t in took)
        + f" at {SMALL}, {LARGE}, {4 * LARGE} characters "
        f"(a linear scan of the last takes {baseline * 1e3:.2f} ms)"
    )


def _seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


# The reproducers of issue 18: each took from 13 s to over 20 minutes.
def test_heading_attributes_with_a_long_run_of_blanks() -> None:
    text = "x {" + " " * 8_000 + "}x}"
    assert _seconds(lambda: split_explicit_id(text)) < 0.5
    assert split_explicit_id(text) == (text, None)


def test_heading_attributes_still_split() -> None:
    assert split_explicit_id("Install {: #install .big key='a b' }") == ("Install", "install")
    assert split_explicit_id('A {x="a"b=c #i}') == ("A", "i")
    assert split_explicit_id("A {#a #b}") == ("A {#a #b}", None)
    assert split_explicit_id("A " + "b" * 5_000 + "}") == ("A " + "b" * 5_000 + "}", None)


def test_generated_markers_on_a_long_header_line() -> None:
    text = "<!-- " + "Code generated " * 66_000 + "\n"
    assert _seconds(lambda: generated._MARKDOWN_MARKERS.search(generated._header(text))) < 1
    banner = "<!-- Code generated by a tool. DO NOT EDIT. -->\n# Title\n"
    assert generated._MARKDOWN_MARKERS.search(generated._header(banner))


def test_link_pattern_on_many_unclosed_tags() -> None:
    for text in ("<a x>" * 200_000, "<a x" * 200_000, "`" * 200_000 + "\n[a](b)"):
        assert _seconds(partial(linkfarm.link_stats, text)) < 3
    farm = "\n".join(f'<a href="/{n}">Page {n}</a>' for n in range(8))
    stats = linkfarm.link_stats(farm)
    assert stats is not None
    assert stats.links == 8
