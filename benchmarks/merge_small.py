"""``markdown.merge_small`` on the corpora: how many sections merge, and CG202 per 100
chunks with the option off and on (issue 41).

Each corpus of ../shared/corpora is copied into a fresh git repository (its
configuration, and so its site generator's dialect, as ``check`` reads them);
its Markdown files are chunked under that configuration with the option off,
then on, and CG202 is counted as ``check`` reports it (inline suppressions
kept out).

    python benchmarks/merge_small.py [--corpora DIR] [--min N]
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import subprocess
import tempfile
from pathlib import Path

from chunkgate.chunking import chunk_bytes, languages
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.core.errors import UnreadableError
from chunkgate.corpus.select import select_files
from chunkgate.rules import size
from chunkgate.rules.base import FileContext

Counts = dict[str, int]


def counts(root: Path, config: Config) -> Counts:
    found = {"chunks": 0, "cg202": 0, "merged": 0, "taken": 0}
    for file in select_files(config).files:
        if languages.language_for(file.path).name != "markdown":
            continue
        data = (root / file.path).read_bytes()
        if len(data) > config.max_file_bytes:
            continue
        try:
            chunked = chunk_bytes(data, file.path, options=config.chunking)
        except UnreadableError:
            continue
        text = data.decode("utf-8", "replace")
        context = FileContext(file.path, len(data), text, chunked.chunks, config, chunked.problems)
        found["cg202"] += sum(
            1
            for f in size.check(context)
            if f.code == "CG202" and not (f.chunk and "CG202" in f.chunk.suppressed)
        )
        found["chunks"] += len(chunked.chunks)
        found["merged"] += sum(1 for c in chunked.chunks if c.merged)
        found["taken"] += sum(len(c.merged) for c in chunked.chunks)
    return found


def corpus(source: Path, minimum: int | None) -> tuple[Counts, Counts]:
    with tempfile.TemporaryDirectory() as work:
        root = Path(work) / source.name
        shutil.copytree(source, root, symlinks=True)
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        config = load_config(root)
        if minimum is not None:
            config = dataclasses.replace(
                config, chunking=dataclasses.replace(config.chunking, min=minimum)
            )
        merging = dataclasses.replace(
            config, chunking=dataclasses.replace(config.chunking, merge_small=True)
        )
        return counts(root, config), counts(root, merging)


def row(name: str, off: Counts, on: Counts) -> str:
    def per100(found: Counts) -> str:
        return f"{found['cg202']} ({100 * found['cg202'] / max(found['chunks'], 1):.2f})"

    return (
        f"| {name} | {off['chunks']:,} | {on['chunks']:,} | {on['merged']:,} | "
        f"{on['taken']:,} | {per100(off)} | {per100(on)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = Path(__file__).resolve()
    found = (p / "shared" / "corpora" for p in here.parents)
    parser.add_argument("--corpora", type=Path, default=next(p for p in found if p.is_dir()))
    parser.add_argument("--min", type=int, help="size.min for both runs (default: the corpus's)")
    args = parser.parse_args()
    print("| corpus | chunks off | chunks on | merged chunks | sections taken in | "
          "CG202 off (/100) | CG202 on (/100) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    total_off: Counts = {}
    total_on: Counts = {}
    for source in sorted(p for p in args.corpora.iterdir() if p.is_dir()):
        off, on = corpus(source, args.min)
        print(row(source.name, off, on), flush=True)
        for total, found in ((total_off, off), (total_on, on)):
            for key, value in found.items():
                total[key] = total.get(key, 0) + value
    print(row("all", total_off, total_on))


if __name__ == "__main__":
    main()
