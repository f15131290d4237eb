"""License texts and copyright boilerplate inside the corpus.

## CG302 license-text

Fires when a whole file, or a chunk, is mostly the text of a known license:
one of the 35 license texts that `identify` vendors from choosealicense.com
(MIT, Apache-2.0, the GPL family, BSD, MPL-2.0, CC-BY-4.0, Unlicense, ...),
including the notices they tell you to paste into each source file ("Licensed
under the Apache License, Version 2.0 ..."). It compares text, not keywords:
both sides are lower-cased and reduced to words, cut into overlapping runs of
five words, and the rule measures which share of the chunk's runs occur in
the best-matching license. At 50% or more (and at least 50 words) it fires,
naming the SPDX ID and the share. A license file (the license and no more
than a title and a copyright line besides) is reported once at line 1;
otherwise each chunk is judged, and neighbouring chunks of one pasted license
are reported together at the first one. A sentence that merely names
a license, or an SPDX header line, never fires. A license file that CG301
already reports by its name (`LICENSE.md`) is not reported twice, and a
Python file's license header is not a finding: comments at its top belong to
no chunk (chunkgate strips them, like front matter), and license text in its
module docstring is its header too.

**Why it matters:** license text is the same in thousands of repositories
and says nothing about your project, yet it is long and full of words such as
"use", "modify" and "distribute" that match real questions, so it crowds out
the answers.

**Fix:** replace the pasted text with one line that names the license and
links the LICENSE file; in source files, shorten the header to an SPDX line
(`# SPDX-License-Identifier: MIT`); exclude a license file in
`.chunkgate.yaml` (`exclude: ["LICENSE.md"]`).

Fires:

```markdown
## License

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:
```

Passes:

```markdown
## License

This project is licensed under the terms of the MIT license, see
[LICENSE](https://github.com/example/example/blob/main/LICENSE).
```
"""

from __future__ import annotations

import functools
import re
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from chunkgate.chunking import languages
from chunkgate.chunking.syntax import included_files
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy
from chunkgate.diff.moves import unit_id
from chunkgate.rules.base import FileContext, Finding, Rule, exclude_hint, literal_glob

RULES = (
    Rule(
        "CG302",
        "license-text",
        "error",
        "a file or chunk is mostly a known license text or copyright boilerplate",
        priority=21,
        never_embed=True,
        version=2,  # issue 15: what real repositories hold
    ),
)
CODE = RULES[0].code

# Five-word runs: long enough that ordinary prose rarely repeats one from a
# license ("the terms of the"), short enough that a reflowed, re-punctuated or
# lightly edited license (another name in the copyright line) still matches.
SHINGLE_WORDS = 5
# Half the text: a license pasted with a short introduction still fires, a
# section that quotes one license sentence among its own prose does not.
MIN_SHARE = 0.5
# The shortest texts in the set (WTFPL, 0BSD, ISC, MIT) have 75-170 words;
# 50 keeps one-line notices and "Licensed under the MIT License." out.
MIN_WORDS = 50

# The license texts are ASCII; a non-ASCII word can never be part of a match.
_WORD = lazy(r"[a-z0-9]+")
# Every license text contains one of these stems (a test checks it). A file
# that contains none cannot hold license text, and nearly all files contain
# none: plain substring searches skip them, three times faster than lower().
_STEMS = tuple(
    variant
    for stem in ("licen", "copyright", "warrant")
    for variant in (stem, stem.capitalize(), stem.upper())
)


# A license word, then nothing or a separator and anything: LICENSE,
# LICENSE.md, LICENSE-MIT.txt, COPYING.LESSER; not "licensing.md".
_LICENSE_NAME = lazy(
    r"(?:(?:un)?licen[cs]es?|copying|copyright|notice|third[-_]?party[-_]?notices?)"
    r"(?:[-_.].*)?",
    re.IGNORECASE,
)
# Names a page may have: `license.md` may be the page about a `license` command.
_PAGE_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".adoc", ".html", ".htm")


class _Index(NamedTuple):
    names: tuple[str, ...]
    # Shingle hash -> bit mask of the licenses that contain it: one dict
    # lookup per shingle answers for all licenses at once.
    licenses_of: dict[int, int]
    sizes: tuple[int, ...]


class _Match(NamedTuple):
    spdx: str
    found: int
    total: int
    words: int
    # Every license that reaches MIN_SHARE, with its count: a section shared
    # by GPL-3.0 and AGPL-3.0 continues a run of either.
    qualifying: dict[str, int]

    def of(self, spdx: str) -> int:
        return self.qualifying.get(spdx, 0)


def check(file: FileContext) -> Iterator[Finding]:
    if not file.chunks or file.text is None:
        return
    if not any(stem in file.text for stem in _STEMS):
        return
    words = _words(file.text)
    shingles = _shingles(words)
    licensed = shingles & _index().licenses_of.keys()
    # A chunk that fires has at least this many shingles from one license, and
    # they are shingles of the file too: most files that mention a license
    # have far fewer, and their chunks need no look.
    if len(licensed) < MIN_SHARE * (MIN_WORDS - SHINGLE_WORDS + 1):
        return
    whole = _whole_license(shingles, len(words))
    # A source file is never a license file, however short it is.
    if whole is not None and not languages.get(file.chunks[0].language).code:
        if _denylisted_by_name(file):
            return  # CG301 reports the license file already, with the same fix
        yield Finding(
            CODE,
            1,
            f"file is {whole.found / whole.total:.0%} {whole.spdx} license text "
            f"({whole.words:,} words)",
            f"exclude it in .chunkgate.yaml: {exclude_hint(literal_glob(file.path))}",
        )
        return
    chunk_words = [_words(chunk.text) for chunk in file.chunks]
    matches = [_best(_shingles(w), len(w)) for w in chunk_words]
    if file.chunks[0].language == "python" and any(matches):
        chunk_words, matches = _without_module_docstring(
            file.text, file.chunks, chunk_words, matches
        )
    short = [len(w) < MIN_WORDS for w in chunk_words]
    yield from _runs(file.chunks, matches, short)


def _without_module_docstring(
    text: str,
    chunks: Sequence[Chunk],
    chunk_words: list[list[str]],
    matches: list[_Match | None],
) -> tuple[list[list[str]], list[_Match | None]]:
    """Judge Python chunks without their module docstring: a license there is the
    file's header, as much as one in the comments above it (``# Copyright ...``)."""
    span = _module_docstring(text)
    if span is None:
        return chunk_words, matches
    first, last = span
    words, found = list(chunk_words), list(matches)
    for index, chunk in enumerate(chunks):
        if found[index] is None or chunk.end_line < first or chunk.start_line > last:
            continue
        kept = [
            line
            for number, line in enumerate(chunk.text.split("\n"), chunk.start_line)
            if not first <= number <= last
        ]
        words[index] = _words("\n".join(kept))
        found[index] = _best(_shingles(words[index]), len(words[index]))
    return words, found


def _module_docstring(text: str) -> tuple[int, int] | None:
    """The 1-based first and last line of a module's docstring, if it has one."""
    import ast  # only for a Python file with license text in its chunks

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not body or not isinstance(body[0], ast.Expr):
        return None
    value = body[0].value
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        return None
    return body[0].lineno, body[0].end_lineno or body[0].lineno


def is_license_name(name: str) -> bool:
    """``LICENSE``, ``license.md``, ``COPYING.LESSER``: a license word in capitals or
    in lower case, as license files are named; ``Copyright.md`` is a page (a Hugo
    method's), and a license text under another name is CG302's to find."""
    if not _LICENSE_NAME.fullmatch(name):
        return False
    stem = name.partition(".")[0]
    return stem.isupper() or stem.islower()


def is_license_file(name: str, text: str | None) -> bool:
    """A file named ``name`` holding ``text`` is a license file: by its name alone, or,
    for a page's name (``license.md``), when its text is a license or includes one."""
    if not is_license_name(name):
        return False
    if text is None or not name.lower().endswith(_PAGE_SUFFIXES):
        return True
    if any(stem in text for stem in _STEMS):
        words = _words(text)
        if _whole_license(_shingles(words), len(words)) is not None:
            return True
    return any(is_license_name(name.rpartition("/")[2]) for name in included_files(text))


def _whole_license(shingles: set[int], words: int) -> _Match | None:
    """The license a text is, when it is the license and at most a title and a copyright
    line besides (a README with a license section has more of its own)."""
    whole = _best(shingles, words)
    return whole if whole is not None and whole.total - whole.found < MIN_WORDS else None


def _denylisted_by_name(file: FileContext) -> bool:
    name = file.path.rpartition("/")[2]
    return file.config.severity("CG301") != "off" and is_license_file(name, file.text)


def _runs(
    chunks: Sequence[Chunk], matches: Sequence[_Match | None], short: Sequence[bool]
) -> Iterator[Finding]:
    """One finding per run of neighbouring chunks that match the same license.

    A chunk too short to judge (a heading of the pasted license and one line)
    neither ends a run nor joins it.
    """
    run: list[tuple[Chunk, _Match]] = []
    for chunk, match, too_short in zip(chunks, matches, short, strict=True):
        if run and too_short:
            continue
        if run and match is not None and match.of(run[0][1].spdx):
            run.append((chunk, match))
            continue
        if run:
            yield _finding(run)
        run = [(chunk, match)] if match is not None else []
    if run:
        yield _finding(run)


def _finding(run: list[tuple[Chunk, _Match]]) -> Finding:
    first, match = run[0]
    found = sum(m.of(match.spdx) for _, m in run)
    total = sum(m.total for _, m in run)
    words = sum(m.words for _, m in run)
    # The parts of one long section are that section.
    units = len({unit_id(chunk.id) for chunk, _ in run})
    if units == 1:
        where = f"{first.kind} is"
    else:
        noun = "sections" if all(chunk.kind == "section" for chunk, _ in run) else "chunks"
        where = f"lines {first.start_line}-{run[-1][0].end_line} ({units} {noun}) are"
    message = f"{where} {found / total:.0%} {match.spdx} license text ({words:,} words)"
    comment = languages.get(first.language).comment
    if comment is not None:
        fix = (
            f"shorten the license header to one line: "
            f"{comment} SPDX-License-Identifier: {match.spdx}"
        )
    else:
        fix = "replace the license text with one line that names the license and links LICENSE"
    return Finding(CODE, first.start_line, message, fix, chunk=first)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _shingles(words: list[str]) -> set[int]:
    # zip stops at the shortest slice: every window of SHINGLE_WORDS words.
    return set(map(hash, zip(*(words[i:] for i in range(SHINGLE_WORDS)), strict=False)))


def _best(shingles: set[int], words: int) -> _Match | None:
    if words < MIN_WORDS or not shingles:
        return None
    index = _index()
    total = len(shingles)
    masks = [mask for mask in map(index.licenses_of.get, shingles) if mask]
    # No license can reach the share if all of them together do not.
    if len(masks) < MIN_SHARE * total:
        return None
    counts = [0] * len(index.names)
    for mask, count in Counter(masks).items():
        bits = mask
        while bits:
            low = bits & -bits
            counts[low.bit_length() - 1] += count
            bits ^= low
    # Ties (GPL-3.0 inside AGPL-3.0) go to the license the text covers most of.
    best = max(range(len(counts)), key=lambda i: (counts[i], counts[i] / index.sizes[i]))
    if counts[best] < MIN_SHARE * total:
        return None
    qualifying = {
        name: count
        for name, count in zip(index.names, counts, strict=True)
        if count >= MIN_SHARE * total
    }
    return _Match(index.names[best], counts[best], total, words, qualifying)


@functools.cache
def _index() -> _Index:
    # identify is imported here, once: most runs never need the license texts.
    from identify.vendor.licenses import LICENSES

    names: list[str] = []
    sizes: list[int] = []
    licenses_of: dict[int, int] = {}
    for bit, (spdx, text) in enumerate(LICENSES):
        shingles = _shingles(_words(text))
        names.append(spdx)
        sizes.append(len(shingles))
        for shingle in shingles:
            licenses_of[shingle] = licenses_of.get(shingle, 0) | (1 << bit)
    return _Index(tuple(names), licenses_of, tuple(sizes))
