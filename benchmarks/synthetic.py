"""Two synthetic Markdown corpora of other shapes than FastAPI's docs, for ``bench.py``.

    python benchmarks/synthetic.py pages OUT_DIR      # 3,000 small pages, 2.6 MB
    python benchmarks/synthetic.py chapters OUT_DIR   # 60 long chapters, 13 MB
    python benchmarks/synthetic.py pages OUT_DIR 7500 # any number of them
    python benchmarks/bench.py --only markdown --markdown OUT_DIR

- *pages*: thousands of short pages (a title, an introduction, one to four
  sections, some code), where what a tool spends per file counts most;
- *chapters*: long chapters with deep heading trees (400 sections each, at
  levels 2 to 6, headings with inline code and emphasis), where what it
  spends per section counts most.

The text is random words from a small vocabulary, seeded, so every run writes
the same bytes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

_WORDS = (  # noqa: SIM905 - a vocabulary reads better as text
    "the of and to in is you that it for on with as are this be at by from or an can "
    "your which have not will all data model request response api user file list value "
    "type function server client query memory thread lock queue"
).split()


def _paragraph(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + ".\n"


def pages(out: Path, count: int = 3000) -> None:
    rng = random.Random(7)
    for number in range(count):
        parts = [f"# Page {number} title\n", _paragraph(rng, 40)]
        for section in range(rng.randint(1, 4)):
            parts += [f"## Part {section} of {number}\n", _paragraph(rng, rng.randint(20, 80))]
            if rng.random() < 0.3:
                parts.append("```python\nprint('hello')\nx = 1\n```\n")
        _write(out / f"section{number % 30}" / f"page-{number}.md", parts)


def chapters(out: Path, count: int = 60, sections: int = 400) -> None:
    rng = random.Random(11)
    for number in range(count):
        parts = [f"# Chapter {number}\n", _paragraph(rng, 60)]
        level = 1
        for section in range(sections):
            level = max(2, min(6, level + rng.choice((-2, -1, 0, 1, 1))))
            word = rng.choice(_WORDS)
            parts.append(f"{'#' * level} Section {number}.{section} {word} `code` *em*\n")
            parts += [_paragraph(rng, rng.randint(15, 90)) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.2:
                parts.append("```python\nfor x in range(10):\n    print(x)\n```\n")
            if rng.random() < 0.15:
                parts.append("- item one\n- item two with [a link](https://example.com)\n")
        _write(out / f"chapter-{number:02d}.md", parts)


def _write(path: Path, parts: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("\n".join(parts).encode("utf-8"))


SHAPES = {"pages": pages, "chapters": chapters}


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3) or argv[0] not in SHAPES:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[1])
    if out.exists() and any(out.iterdir()):
        print(f"{out} is not empty", file=sys.stderr)
        return 2
    SHAPES[argv[0]](out, *map(int, argv[2:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
