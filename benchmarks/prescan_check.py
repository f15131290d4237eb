"""The heading pre-scan on real corpora: the same chunks as the full parser, and its gain.

Run by hand (never as a test), from the repository root::

    python benchmarks/prescan_check.py [--runs 7] [DIR ...]

For every Markdown file under each DIR (default: the shared corpora) it compares
every chunk (ID, lines, sizes, hash, text, heading path) chunked with the
pre-scan and with the full parser alone, prints how many files and characters
the scan proved, then times heading extraction and the whole library path
(``chunk_bytes``) both ways in alternating runs: CPU seconds, min/median/max.
Exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from chunkgate.chunking import chunk_bytes, cmark, prescan
from chunkgate.chunking.frontmatter import parse_front_matter

HERE = Path(__file__).resolve().parent
CORPORA = next(
    (p / "shared/corpora" for p in HERE.parents if (p / "shared/corpora").is_dir()), HERE
)
SUFFIXES = (".md", ".markdown", ".mdx")
FULL = cmark.headings
FAST = prescan.headings


def files(root: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(root.rglob("*")):
        if path.suffix in SUFFIXES and path.is_file():
            yield path.relative_to(root).as_posix(), path.read_bytes()


def _chunks(corpus: list[tuple[str, bytes]]) -> list[object]:
    out: list[object] = []
    for path, data in corpus:
        try:
            out.append(chunk_bytes(data, path).chunks)
        except Exception as exc:  # unreadable files must fail alike too
            out.append(repr(exc))
    return out


def _texts(corpus: list[tuple[str, bytes]]) -> list[tuple[str, list[str]]]:
    out = []
    for _, data in corpus:
        try:
            text = data.decode("utf-8-sig").replace("\r\n", "\n")
        except UnicodeDecodeError:
            continue
        lines = text.split("\n")
        front = parse_front_matter(lines)
        if front:
            text = "\n" * front.lines + text.split("\n", front.lines)[-1]
        out.append((text, lines))
    return out


def _proven(texts: list[tuple[str, list[str]]]) -> tuple[int, int]:
    count = chars = 0
    for text, _ in texts:
        try:
            found = prescan._scan("\n" + text + "\n")
        except prescan._Unproven:
            continue
        if "]:" in text and any("[" in line for _, _, line in found):
            continue
        count += 1
        chars += len(text)
    return count, chars


def _timed(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def _use(headings: Callable[..., object]) -> None:
    prescan.headings = headings  # type: ignore[assignment]


def compare(root: Path, runs: int) -> bool:
    corpus = list(files(root))
    texts = _texts(corpus)
    _use(FAST)
    fast = _chunks(corpus)
    _use(FULL)
    full = _chunks(corpus)
    _use(FAST)
    same = fast == full
    differ = [path for (path, _), a, b in zip(corpus, fast, full, strict=True) if a != b]
    proven, proven_chars = _proven(texts)
    total_chars = sum(len(t) for t, _ in texts) or 1
    print(
        f"{root.name}: {len(corpus)} files, {sum(len(c) for c in fast if isinstance(c, tuple))}"
        f" chunks, identical: {same}; proven {proven} files, "
        f"{100 * proven_chars / total_chars:.1f} % of characters"
    )
    for path in differ[:10]:
        print(f"  differs: {path}")
    times: dict[str, list[float]] = {"headings full": [], "headings fast": []}
    times |= {"chunk_bytes full": [], "chunk_bytes fast": []}
    for _ in range(runs):
        for name, headings in (("full", FULL), ("fast", FAST)):
            times[f"headings {name}"].append(
                _timed(lambda h=headings: [h(text, lines) for text, lines in texts])
            )
            _use(headings)
            times[f"chunk_bytes {name}"].append(_timed(lambda: _chunks(corpus)))
            _use(FAST)
    for name, values in times.items():
        print(
            f"  {name:18} min {min(values):.3f} s  median {statistics.median(values):.3f} s"
            f"  max {max(values):.3f} s"
        )
    for part in ("headings", "chunk_bytes"):
        ratio = statistics.median(times[f"{part} full"]) / statistics.median(times[f"{part} fast"])
        print(f"  {part}: full / fast, medians: {ratio:.2f}")
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("dirs", nargs="*", type=Path)
    args = parser.parse_args()
    roots = args.dirs or sorted(p for p in CORPORA.iterdir() if p.is_dir())
    ok = [compare(root, args.runs) for root in roots]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
