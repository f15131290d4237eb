"""The one-pass scanners give exactly what the backtracking patterns they replace gave.

Compared on random strings of the characters the patterns touch, on the hostile
inputs that made the patterns hang (short enough for the old patterns to finish),
and on every line of the real sites' samples (tests/data/corpora) that holds a backtick or
a bracket.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from chunkgate.chunking.cmark import without_tags
from chunkgate.chunking.spans import (
    blank_code_spans,
    code_spans,
    template_spans,
    without_inline_markup,
)

# The patterns as they were (chunking/anchors/kramdown.py, syntax.py, mdparts.py,
# anchors.py, cmark.py).
_LAZY = re.compile(r"(`+)(.+?)\1")
_STRICT = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE_MARKUP = re.compile(
    r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]|[`*]|(?<!\w)_|_(?!\w)"
)
_TAG = re.compile(r"<[^>]*>")
_TEMPLATE = r"\{\{[<%].*?[>%]\}\}|\{%.*?%\}"
_INLINE = re.compile(_TEMPLATE + r"|\{\{(?![<%]).*?\}\}")
_INLINE_TEMPLATE = re.compile(_TEMPLATE)
SAMPLES = Path(__file__).parents[1] / "data" / "corpora"
CORPORA = ("fastapi-docs", "hugo-docs", "httpx-docs", "just-the-docs", "starlight-docs")


def _old(text: str) -> tuple[object, ...]:
    return (
        [(m.start(), len(m.group(1)), m.end()) for m in _LAZY.finditer(text)],
        [(m.start(), len(m.group(1)), m.end()) for m in _STRICT.finditer(text)],
        _LAZY.sub(lambda m: "\0" * len(m.group(0)), text),
        _INLINE_MARKUP.sub(lambda m: m.group(1) or m.group(2) or "", text),
        _TAG.sub("", text),
        [m.span() for m in _INLINE.finditer(text)],
        [m.span() for m in _INLINE_TEMPLATE.finditer(text)],
    )


def _new(text: str) -> tuple[object, ...]:
    return (
        list(code_spans(text, closer_inside=True)),
        list(code_spans(text, closer_inside=False)),
        blank_code_spans(text),
        without_inline_markup(text),
        without_tags(text),
        list(template_spans(text, output=True)),
        list(template_spans(text, output=False)),
    )


def _random(seed: int, alphabet: str, count: int, longest: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))


@pytest.mark.parametrize(
    ("alphabet", "longest"),
    [
        ("`` a\n", 12),
        ("```x `\n", 40),
        ("[]()!_*`aé\n<>", 16),
        ("[](!_a", 60),
        ("<>a<", 20),
        ("{}<>%\na ", 16),
    ],
)
def test_random_strings(alphabet: str, longest: int) -> None:
    for text in _random(len(alphabet) * longest, alphabet, 20_000, longest):
        assert _new(text) == _old(text), repr(text)


HOSTILE = [
    "`" * 300,
    "` " * 300,
    "``" + "` `` " * 60,
    "`" * 150 + "\n" + "` " * 150,
    ("`" * 7 + " ``` ") * 40,
    "![" * 300,
    "[a](" * 200,
    "[a][" * 200,
    "[" * 300 + "]",
    "_" * 300,
    "a_b_" * 100,
    "<" * 300,
    "<a" * 200 + ">",
    "{{<" * 200 + "}}",
    "{%" * 200 + "\n%}",
    "{{" * 200,
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda text: repr(text[:12]))
def test_hostile_strings(text: str) -> None:
    assert _new(text) == _old(text)


@pytest.mark.parametrize("name", CORPORA)
def test_every_corpus_line(name: str) -> None:
    root = SAMPLES / name
    lines = 0
    for path in sorted(root.rglob("*")):
        if path.suffix not in {".md", ".mdx", ".markdown", ".html"} or not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if any(mark in line for mark in "`[<_{"):
                lines += 1
                assert _new(line) == _old(line), (path, line)
    assert lines > 100


# Patterns made linear by a lookbehind (a match that could start inside a run of
# blanks starts at its first blank instead: the leftmost match is the same) or by
# writing adjacent quantifiers over the same blanks as one (the same language).
_REWRITTEN = [
    (r"[ \t]*\{([^{}\n]*)\}[ \t]*$", 0, "chunkgate.chunking.anchors.hugo._ATTRIBUTES"),
    (r"[ \t]*\{#([A-Za-z][\w:-]*)\}[ \t]*$", 0, "chunkgate.chunking.anchors.kramdown._HEADER_ID"),
    (r"\s*\{#([^{}]+?)\}\s*$", 0, "chunkgate.chunking.anchors.slugger._DOCUSAURUS_ID"),
    (r"(?:^|[ \t]+)#+[ \t]*$", 0, "chunkgate.chunking.markdown._ATX_CLOSING"),
    (r"(?:^|[ \t]+)#+[ \t]*$", 0, "chunkgate.chunking.prescan._ATX_CLOSING"),
    (
        r"^[ \t]*(?:>[ \t]?)*[ \t]*\[((?:[^\[\]\\\n]|\\.){1,999})\]:",
        re.M,
        "chunkgate.links.extract._DEFINITION",
    ),
    (
        r"[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+]|\d{1,9}[.)])?[ \t]*(?:```|~~~)",
        0,
        "chunkgate.chunking.mdparts._FENCE",  # used with match only, as below
    ),
    (
        r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$",
        0,
        "chunkgate.rules.exports._TABLE_SEPARATOR",
    ),
]
# Used with match only (the old ones were cubic when searched through a long line).
_ANCHORED = {"chunkgate.chunking.mdparts._FENCE", "chunkgate.rules.exports._TABLE_SEPARATOR"}
# The characters each is tried with: blanks, its markers, and a letter.
_ALPHABET = " \t{}#:a-\n>[]\\`~*1.|"


def _matches(pattern: re.Pattern[str], text: str) -> tuple[object, ...]:
    found = pattern.search(text)
    return (found and (found.span(), found.groups()), pattern.sub("", text))


@pytest.mark.parametrize(("old", "flags", "name"), _REWRITTEN, ids=[r[2] for r in _REWRITTEN])
def test_rewritten_patterns_match_as_before(old: str, flags: int, name: str) -> None:
    module, _, attribute = name.rpartition(".")
    new = getattr(importlib.import_module(module), attribute)
    before = re.compile(old, flags)
    texts = [
        *_random(len(old), _ALPHABET, 20_000, 14),
        *_random(len(old) + 1, " \t>-`|:[]a", 10_000, 30),
        *(line for corpus in CORPORA for line in _corpus_lines(corpus, "{#>|`~[")),
    ]
    anchored = name in _ANCHORED
    for text in texts:
        if not anchored:
            assert _matches(new, text) == _matches(before, text), repr(text)
        found = new.match(text)
        assert (found and found.span()) == (before.match(text) and before.match(text).span())


def _corpus_lines(name: str, marks: str) -> Iterator[str]:
    for path in sorted((SAMPLES / name).rglob("*")):
        if path.suffix in {".md", ".mdx", ".markdown"} and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            yield from (line for line in text.splitlines() if any(m in line for m in marks))


_IAL_ID = re.compile(
    r"[ \t]{0,3}\{:[ \t]*(?:[^{}\n]*?[ \t])?#([A-Za-z][\w:-]*)(?=[ \t}])[^{}\n]*\}[ \t]*"
)


def test_block_attribute_ids_as_before() -> None:
    from chunkgate.chunking.anchors.kramdown import explicit_below

    rng = random.Random(9)
    pieces = [" ", "\t", "#a", "#b1", "#", ".c", "a", "x=y", "-", "#a.", "{", "}", ":"]
    shaped = [
        " " * rng.randint(0, 4)
        + "{:"
        + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        + "}" * rng.randint(0, 2)
        + " " * rng.randint(0, 2)
        for _ in range(40_000)
    ]
    texts = [
        *shaped,
        *_random(7, " \t{:}#ab.-\n", 20_000, 16),
        *(line for corpus in CORPORA for line in _corpus_lines(corpus, "{:")),
    ]
    for text in texts:
        old = _IAL_ID.fullmatch(text)
        if old is None and "id=" in text:
            continue  # the key form, which the pattern did not read
        assert explicit_below(text) == (old.group(1) if old else None), repr(text)
    assert explicit_below('{: id="x" .c}') == "x"


_PRESCAN_LINE = re.compile(
    r"\n(?:"
    r"(?P<atx>\#{1,6})(?=[ \t\n])"
    r"|(?P<indent>[ ]{0,3})(?:(?P<fence>`{3,}|~{3,})|(?P<html><))"
    r"|(?P<prefix>[ \t>*+\-0-9.)]*)"
    r"(?:(?P<hash>\#{1,6}(?=[ \t\n]))|(?:=+|-+)[ \t]*(?=\n)|`{3}|~{3}|<)"
    r")"
)


def _lines(pattern: re.Pattern[str], text: str) -> list[tuple[object, ...]]:
    starts = [i for i, char in enumerate(text) if char == "\n"]
    found = [pattern.search(text, start) for start in starts[:200]]
    return [(m.span(), m.groupdict()) if m else None for m in found]


def test_prescan_lines_as_before() -> None:
    from chunkgate.chunking.prescan import _LINE

    texts = [
        *_random(11, "\n -=#>*+0.)`~<\ta", 20_000, 16),
        *_random(12, "\n -=\t", 20_000, 24),
    ]
    for text in texts:
        assert _lines(_LINE, text) == _lines(_PRESCAN_LINE, text), repr(text)
    for corpus in CORPORA:
        for path in sorted((SAMPLES / corpus).rglob("*.md")):
            text = "\n" + path.read_text(encoding="utf-8", errors="replace")
            new = [(m.span(), m.groupdict()) for m in _LINE.finditer(text)]
            assert new == [(m.span(), m.groupdict()) for m in _PRESCAN_LINE.finditer(text)]
