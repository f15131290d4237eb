"""What each capability of issues 8-16 and 20-22 costs the Markdown path (issue 19, target 5).

Run by ``bench.py`` (section ``capabilities``), one process a run::

    python benchmarks/capabilities.py CORPUS_DIR RUN_NUMBER

In one process, every variant below chunks every file of the corpus twice,
the variants taking turns file by file (in an order rotated at each file),
and their CPU times (``process_time``, summed over the calls) are printed as
JSON. Each row of the table is a ratio of two variants of the same
run: the capability configured, on a corpus that does not use it, against
the path without it. Before timing, each pair's chunks are compared: the
corpus does not use the capability only if they are identical.

- registry: ``chunk_bytes`` (the language registry picks the chunker)
  against the Markdown chunker called directly;
- sites: two site generators configured for folders that hold none of the
  files (a MkDocs site with Jinja, a Hugo site);
- Liquid: every file under a Liquid site with GitHub anchors, on a corpus
  without template output lines;
- parts: ``size.split`` on against off, where no section is over ``size.max``;
- embed: the breadcrumb off against on (the default), sizes of the text.

References (CG404) are found by the rules, not on the chunk path; the
flavours that change IDs (``anchors: mkdocs`` ...) and the embed sizes
(``embed.sizes: embed``) use what they configure: their cost is shown
against the plain path, informational.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chunkgate.chunking import ChunkOptions, chunk_bytes, context_for
from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.embedtext import EmbedSettings
from chunkgate.chunking.markdown import chunk_markdown
from chunkgate.chunking.relations import relate
from chunkgate.core.model import Chunk
from chunkgate.corpus.source import decode
from chunkgate.sites.model import Site

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
Variant = Callable[[bytes, str], tuple[Chunk, ...]]

_NEVER_SPLIT = 10**9
ROUNDS = 2  # every variant chunks the corpus this many times a process


def _with(options: ChunkOptions) -> Variant:
    return lambda data, path: chunk_bytes(data, path, options=options).chunks


def _direct(data: bytes, path: str) -> tuple[Chunk, ...]:
    return relate(chunk_markdown(context_for(decode(data, path), path)))


_ELSEWHERE = (
    Site("elsewhere/mkdocs/", AnchorStyle("mkdocs", "toc", source="mkdocs.yml"), liquid=True),
    Site("elsewhere/hugo/", AnchorStyle("hugo", "github", source="hugo.toml")),
)
VARIANTS: dict[str, Variant] = {
    "plain": lambda data, path: chunk_bytes(data, path).chunks,
    "direct": _direct,
    "sites elsewhere": _with(ChunkOptions(sites=_ELSEWHERE)),
    "liquid": _with(ChunkOptions(sites=(Site("", AnchorStyle("github"), liquid=True),))),
    "unsplit, split on": _with(ChunkOptions(max=_NEVER_SPLIT)),
    "unsplit, split off": _with(ChunkOptions(max=_NEVER_SPLIT, split=False)),
    "breadcrumb off": _with(ChunkOptions(embed=EmbedSettings(breadcrumb=False))),
    "split off": _with(ChunkOptions(split=False)),
    "anchors mkdocs": _with(ChunkOptions(anchors="mkdocs")),
    "anchors kramdown": _with(ChunkOptions(anchors="kramdown")),
    "anchors hugo": _with(ChunkOptions(anchors="hugo")),
    "anchors docusaurus": _with(ChunkOptions(anchors="docusaurus")),
    "embed sizes": _with(ChunkOptions(embed=EmbedSettings(sizes="embed"))),
}
# (capability, with it, without it): rows of the targets table, each within 10 %.
UNUSED = (
    ("language registry", "plain", "direct"),
    ("site flavours configured elsewhere", "sites elsewhere", "plain"),
    ("Liquid dialect, no template lines", "liquid", "plain"),
    ("oversized-unit parts, none oversized", "unsplit, split on", "unsplit, split off"),
    ("embed breadcrumb (sizes: text)", "plain", "breadcrumb off"),
)
# (what, variant, against): what a capability costs where the corpus uses it.
USED = (
    ("parts at size.max 2000", "plain", "split off"),
    ("anchors: mkdocs", "anchors mkdocs", "plain"),
    ("anchors: kramdown", "anchors kramdown", "plain"),
    ("anchors: hugo", "anchors hugo", "plain"),
    ("anchors: docusaurus", "anchors docusaurus", "plain"),
    ("embed.sizes: embed", "embed sizes", "plain"),
)


def _corpus(root: Path) -> list[tuple[bytes, str]]:
    return [
        (path.read_bytes(), path.relative_to(root).as_posix())
        for path in sorted(root.rglob("*"))
        if path.suffix in MARKDOWN_SUFFIXES and path.is_file()
    ]


def _unused_differences(files: list[tuple[bytes, str]]) -> list[str]:
    """The UNUSED rows whose two variants give other chunks on these files."""
    return [
        name
        for name, used, against in UNUSED
        if any(VARIANTS[used](*file) != VARIANTS[against](*file) for file in files)
    ]


def measure(root: Path, run: int) -> dict[str, object]:
    """CPU seconds of each variant over the corpus. The variants take turns file by file,
    in an order rotated at each file, so that a busy machine slows them alike."""
    files = _corpus(root)
    variants = list(VARIANTS.items())
    for _, variant in variants:  # untimed: each flavour's module and patterns load on first use
        for data, path in files[:30]:
            variant(data, path)
    cpu = dict.fromkeys(VARIANTS, 0.0)
    clock = time.process_time
    count = len(variants)
    for index, (data, path) in enumerate(files * ROUNDS):
        shift = (index + run) % count
        for name, variant in variants[shift:] + variants[:shift]:
            started = clock()
            variant(data, path)
            cpu[name] += clock() - started
    return {"cpu_s": cpu, "files": len(files), "bytes": sum(len(data) for data, _ in files)}


def main(argv: list[str]) -> int:
    root, run = Path(argv[0]), int(argv[1])
    if run == 0:  # the first run also checks that the corpus uses none of UNUSED
        differing = _unused_differences(_corpus(root))
        if differing:
            print(f"the corpus uses: {', '.join(differing)}", file=sys.stderr)
            return 1
    print(json.dumps(measure(root, run)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
