"""Fuzz ``chunk_text`` with generated documents of every kind chunkgate chunks (issue 44).

    python benchmarks/fuzz.py                      # 1,000,000 documents, seed 0, one job
    python benchmarks/fuzz.py --count 200000 --jobs 2 --seed 7 --json fuzz.json
    python benchmarks/fuzz.py --replay 7:123456    # one document: its kind, options, outcome

Run by hand, never by the test suite. The documents (``fuzz_docs.py``, their text
``fuzz_kinds.py``): Markdown with the dialects' blocks (front matter, attribute lists,
admonitions, ``:::`` containers, tabs, fences, tables, HTML, links, reference and
footnote definitions, MyST targets, template syntax), Python (classes, methods,
decorators, docstrings, constants, repeated names, one-line bodies, long lines, syntax
errors), reStructuredText, plain text and the tree-sitter languages, with random
``ChunkOptions`` (small ``max`` and ``min`` often, anchor flavours, sites, embed sizes);
a quarter get character-level oddities (CRLF, lone CR, BOM, NUL, line and paragraph
separators, very long lines, rarely a lone surrogate) and an eighth are bytes decoded by
the corpus reader (UTF-8 and UTF-16 BOMs, NUL, invalid UTF-8, a latin-1 coding cookie).

The invariants are ``fuzz_checks.py``'s. Each document is a function of (seed, index):
workers report failing indexes, the smallest raw failure of each class is shrunk
greedily at the end, and the reproducers go to ``--json``. Determinism is checked twice:
every ``--again``-th document is chunked a second time in its worker after the rest of
its batch (state left between documents), and every ``--cross``-th document's digest is
compared with this process's own chunking (another hash seed: workers are spawned).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_checks import digest, failures, reproducer, run, shrink
from fuzz_docs import DEFAULT_KINDS, GENERATORS, document

BATCH = 250
SLOW = 2.0  # seconds of CPU for one document: a failure class of its own (not shrunk)


class Job(NamedTuple):
    seed: int
    start: int
    stop: int
    again: int  # chunk every Nth document twice
    cross: int  # keep every Nth document's digest for the parent
    kinds: frozenset[str]


def batch(job: Job) -> dict[str, Any]:
    """Chunk documents ``start..stop-1``; what the parent merges."""
    seed, start, stop, again, cross, kinds = job
    counts: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    oddities: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    chunks = 0
    found: dict[str, list[Any]] = {}  # key -> [count, smallest index, its size, detail]
    digests: dict[int, str] = {}
    slowest: list[tuple[float, int, str, int]] = []
    firsts = {}
    batch_began = time.process_time()

    def note(index: int, doc_size: int, failure: Any) -> None:
        entry = found.setdefault(failure.key, [0, index, doc_size, failure.detail])
        entry[0] += 1
        if doc_size < entry[2]:
            entry[1:] = [index, doc_size, failure.detail]

    for index in range(start, stop):
        doc = document(seed, index, kinds)
        size = len(doc.text) if doc.text is not None else len(doc.data)
        began = time.process_time()
        outcome = run(doc)
        spent = time.process_time() - began
        counts[doc.kind] += 1
        seconds[doc.kind] += spent
        sizes[doc.kind] += size
        oddities.update(doc.oddities)
        outcomes[
            "unreadable" if outcome.text is None else "raised" if outcome.error else "chunked"
        ] += 1
        chunks += len(outcome.chunks or ())
        slowest = sorted([*slowest, (spent, index, doc.kind, size)], reverse=True)[:3]
        try:
            for failure in failures(doc, outcome):
                note(index, size, failure)
        except Exception as exc:  # a bug of the harness's own: reported, the run goes on
            note(
                index,
                size,
                _Noted(f"harness: {type(exc).__name__} checking {doc.kind}", repr(exc)[:300]),
            )
        if spent > SLOW:
            note(
                index,
                size,
                _Noted(f"{doc.kind}: slow (over {SLOW:g} s)", f"{spent:.1f} s for {size:,} chars"),
            )
        if index % again == 0:
            firsts[index] = (doc, outcome, size)
        if index % cross == 0:
            digests[index] = digest(outcome)
    for index, (doc, outcome, size) in firsts.items():
        if digest(run(doc)) != digest(outcome):
            note(index, size, _Noted(f"{doc.kind}: not deterministic (same process)", ""))
    return {
        "kinds": counts, "outcomes": outcomes, "oddities": oddities, "seconds": seconds,
        "sizes": sizes, "chunks": chunks, "found": found, "digests": digests, "slowest": slowest,
        "cpu": time.process_time() - batch_began,
    }  # fmt: skip


class _Noted(NamedTuple):
    key: str
    detail: str


def _shrink_one(job: tuple[int, int, frozenset[str], str, float]) -> tuple[str, str, int, int]:
    seed, index, kinds, key, seconds = job
    doc = document(seed, index, kinds)
    small = shrink(doc, key, seconds)
    text = small.text if small.text is not None else small.data
    return key, reproducer(small), len(text), len(_lines(text))


def _lines(text: str | bytes) -> list[Any]:
    return text.splitlines()


class Totals:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.oddities: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()
        self.sizes: Counter[str] = Counter()
        self.chunks = 0
        self.cpu = 0.0
        self.found: dict[str, list[Any]] = {}
        self.digests: dict[int, str] = {}
        self.slowest: list[tuple[float, int, str, int]] = []

    def add(self, part: dict[str, Any]) -> None:
        for name in ("kinds", "outcomes", "oddities", "seconds", "sizes"):
            getattr(self, name).update(part[name])
        self.chunks += part["chunks"]
        self.cpu += part["cpu"]
        self.digests.update(part["digests"])
        self.slowest = sorted([*self.slowest, *map(tuple, part["slowest"])], reverse=True)[:10]
        for key, (count, index, size, detail) in part["found"].items():
            entry = self.found.setdefault(key, [0, index, size, detail])
            entry[0] += count
            if size < entry[2]:
                entry[1:] = [index, size, detail]

    @property
    def done(self) -> int:
        return sum(self.kinds.values())


def _cross_check(seed: int, kinds: frozenset[str], totals: Totals) -> None:
    """Chunk the workers' sampled documents here, under this process's hash seed."""
    for index, theirs in sorted(totals.digests.items()):
        doc = document(seed, index, kinds)
        if digest(run(doc)) != theirs:
            entry = totals.found.setdefault(
                f"{doc.kind}: not deterministic (across processes)", [0, index, 0, ""]
            )
            entry[0] += 1


def _report(args: argparse.Namespace, totals: Totals, wall: float, final: bool) -> dict[str, Any]:
    cpu = sum(totals.seconds.values())
    rate = totals.done / wall if wall else 0.0
    per_doc = cpu / max(totals.done, 1)
    worker = totals.cpu / max(totals.done, 1)  # generating and checking too
    return {
        "seed": args.seed, "kind_set": args.kinds, "count": args.count, "done": totals.done, "jobs": args.jobs,
        "wall_seconds": round(wall, 1), "documents_per_second": round(rate, 1),
        "chunk_cpu_ms_per_document": round(per_doc * 1000, 3),
        "worker_cpu_ms_per_document": round(worker * 1000, 3),
        "estimate_1m_minutes_2_jobs": round(worker * 1_000_000 / 2 / 60, 1),
        "chunks": totals.chunks, "kinds": dict(totals.kinds.most_common()),
        "mean_size": {k: round(totals.sizes[k] / n) for k, n in totals.kinds.items()},
        "cpu_ms_per_document": {k: round(totals.seconds[k] / n * 1000, 2) for k, n in totals.kinds.items()},
        "outcomes": dict(totals.outcomes), "oddities": dict(totals.oddities.most_common()),
        "slowest": [{"ms": round(s * 1000, 1), "index": i, "kind": k, "size": n} for s, i, k, n in totals.slowest],
        "failures": {key: {"count": c, "index": i, "size": n, "detail": d} for key, (c, i, n, d) in sorted(totals.found.items())},
        "final": final,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", type=Path, default=Path("fuzz.json"), help="where the results go")
    parser.add_argument("--again", type=int, default=50, help="chunk every Nth document twice")
    parser.add_argument("--cross", type=int, default=1000, help="check every Nth across processes")
    parser.add_argument("--shrink-seconds", type=float, default=60.0, help="per failure class")
    parser.add_argument("--progress", type=float, default=60.0, help="seconds between reports")
    parser.add_argument(
        "--replay", metavar="SEED:INDEX", help="show one document (of --kinds) and its outcome"
    )
    parser.add_argument(
        "--kinds", default="", help="only these kinds, comma-separated (default: all but kotlin)"
    )
    args = parser.parse_args(argv)
    kinds = frozenset(filter(None, args.kinds.split(","))) or DEFAULT_KINDS
    unknown = kinds - set(GENERATORS)
    if unknown:
        parser.error(f"unknown kinds {', '.join(sorted(unknown))}; known: {', '.join(GENERATORS)}")
    args.kinds = ",".join(sorted(kinds))
    if args.replay:
        return _replay(args.replay, kinds)
    jobs = [
        Job(args.seed, s, min(s + BATCH, args.count), args.again, args.cross, kinds)
        for s in range(0, args.count, BATCH)
    ]
    totals = Totals()
    began = last = time.monotonic()
    context = multiprocessing.get_context("spawn")  # a fresh hash seed in every worker
    with context.Pool(args.jobs) as pool:
        for part in pool.imap_unordered(batch, jobs):
            totals.add(part)
            if time.monotonic() - last > args.progress:
                last = time.monotonic()
                _write(args, _report(args, totals, last - began, final=False))
                print(f"{totals.done:,} of {args.count:,}, {totals.done / (last - began):.0f}/s, "
                      f"{sum(c for c, *_ in totals.found.values())} failures in {len(totals.found)} classes", flush=True)  # fmt: skip
        wall = time.monotonic() - began
        _cross_check(args.seed, kinds, totals)
        result = _report(args, totals, wall, final=True)
        shrinking = [
            (args.seed, i, kinds, key, args.shrink_seconds)
            for key, (_, i, _, _) in sorted(totals.found.items())
            if "across" not in key and "slow" not in key
        ]
        for key, code, size, lines in pool.imap_unordered(_shrink_one, shrinking):
            result["failures"][key].update(reproducer=code, shrunk_size=size, shrunk_lines=lines)
    _write(args, result)
    _print(result)
    return 1 if result["failures"] and any("allowed" not in k for k in result["failures"]) else 0


def _write(args: argparse.Namespace, result: dict[str, Any]) -> None:
    temporary = args.json.with_suffix(".tmp")
    temporary.write_text(
        json.dumps(result, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
        errors="surrogatepass",
    )
    os.replace(temporary, args.json)


def _print(result: dict[str, Any]) -> None:
    print(f"{result['done']:,} documents, {result['chunks']:,} chunks in {result['wall_seconds']} s "
          f"({result['documents_per_second']}/s with {result['jobs']} job(s); chunking "
          f"{result['chunk_cpu_ms_per_document']} ms CPU a document, {result['worker_cpu_ms_per_document']} ms with "
          f"generating and checking; 1,000,000 on 2 free cores: "
          f"about {result['estimate_1m_minutes_2_jobs']} min)")  # fmt: skip
    print(
        "kinds:",
        ", ".join(
            f"{k} {n:,} ({result['cpu_ms_per_document'][k]} ms)" for k, n in result["kinds"].items()
        ),
    )
    print("outcomes:", result["outcomes"])
    print("oddities:", ", ".join(f"{k} {n:,}" for k, n in result["oddities"].items()))
    print(
        "slowest:",
        ", ".join(
            f"{s['kind']} #{s['index']} {s['size']:,} chars {s['ms']} ms"
            for s in result["slowest"][:5]
        ),
    )
    if not result["failures"]:
        print("no failures")
    for key, entry in result["failures"].items():
        print(f"\n{key}: {entry['count']:,} (document {entry['index']}; {entry['detail']})")
        if "reproducer" in entry:
            print(
                f"  shrunk to {entry['shrunk_size']} chars, {entry['shrunk_lines']} lines:\n  {entry['reproducer'][:2000]}"
            )


def _replay(which: str, kinds: frozenset[str]) -> int:
    seed, _, index = which.partition(":")
    doc = document(int(seed), int(index), kinds)
    outcome = run(doc)
    print(reproducer(doc)[:5000])
    print("oddities:", doc.oddities)
    print(
        "outcome:",
        "unreadable"
        if outcome.text is None
        else repr(outcome.error)
        if outcome.error
        else f"{len(outcome.chunks or ())} chunks",
    )
    for failure in failures(doc, outcome, twice=True):
        print("FAILS", failure.key, failure.detail)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
