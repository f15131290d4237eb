"""Where the Markdown parts path spends its time (issue 19, target 1).

Run by hand, from the repository root::

    python benchmarks/parts_cost.py [CORPUS_DIR] [ROUNDS]

In one process, every Markdown file of the corpus (FastAPI's docs by default)
is chunked by ``chunk_bytes`` with ``size.split`` on (the default) and off,
taking turns file by file, and the CPU time (``process_time``) of each stage
of ``mdparts.markdown_parts`` is summed: the cmark render of each oversized
section, the rest of its block tree, the top-level blocks, and
``split_unit`` (the measure, the packing, the parts' chunks). Prints JSON,
seconds per round.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chunkgate.chunking import ChunkOptions, chunk_bytes, cmark, mdparts, parts

CORPUS = Path("/work/shared/corpora/fastapi-docs/docs")
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")


def _timed(owner: Any, name: str, totals: dict[str, float], key: str) -> None:
    inner: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any) -> Any:
        started = time.process_time()
        try:
            return inner(*args)
        finally:
            totals[key] += time.process_time() - started

    setattr(owner, name, timed)


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else CORPUS
    rounds = int(argv[1]) if len(argv) > 1 else 3
    files = [
        (path.read_bytes(), path.relative_to(root).as_posix())
        for path in sorted(root.rglob("*"))
        if path.suffix in MARKDOWN_SUFFIXES and path.is_file()
    ]
    off = ChunkOptions(split=False)
    for data, name in files[:30]:  # untimed: the parts modules load on first use
        chunk_bytes(data, name)
    totals = dict.fromkeys(("split on", "split off", "markdown_parts", "tree", "render"), 0.0)
    totals |= dict.fromkeys(("top blocks", "split_unit", "pack"), 0.0)
    _timed(mdparts, "markdown_parts", totals, "markdown_parts")
    _timed(mdparts, "_top_blocks", totals, "top blocks")
    _timed(mdparts, "split_unit", totals, "split_unit")
    _timed(parts, "pack", totals, "pack")
    render = cmark.render
    clock = time.process_time

    def section_render(text: str) -> bytes:
        started = clock()
        try:
            return render(text)
        finally:
            totals["render"] += clock() - started

    tree = mdparts._tree

    def timed_tree(*args: Any) -> Any:
        cmark.render = section_render  # only the section's own render, not the pre-scan's
        started = clock()
        try:
            return tree(*args)
        finally:
            totals["tree"] += clock() - started
            cmark.render = render

    mdparts._tree = timed_tree  # type: ignore[assignment]
    for index in range(rounds * len(files)):
        data, name = files[index % len(files)]
        order = ((True, "split on"), (False, "split off"))
        for split, key in order if index % 2 else order[::-1]:
            started = clock()
            chunk_bytes(data, name) if split else chunk_bytes(data, name, options=off)
            totals[key] += clock() - started
    result = {key: round(value / rounds, 4) for key, value in totals.items()}
    result["ratio"] = round(totals["split on"] / totals["split off"], 3)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
