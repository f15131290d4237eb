"""Time ``chunkgate diff FIRST LAST`` across a 100-commit history of a real docs tree.

Run by hand (not a test)::

    python benchmarks/diff_history.py [--corpus PATH] [--commits 100] [--runs 5]

It copies the corpus (default: FastAPI's docs, ../shared/corpora/fastapi-docs/docs)
into a temporary repository and commits it in steps: the first commit holds
half the files, every later one adds a batch of the rest and, at random but
reproducibly, edits paragraphs, renames headings, renames files and moves
files into other folders. Then it runs ``chunkgate diff FIRST LAST --format
json`` in its own process a few times and prints the median wall time, the
git processes chunkgate started (``CHUNKGATE_DEBUG_GIT=1``) and what the
diff found.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared/corpora/fastapi-docs/docs"
_HEADING = re.compile(r"^(#{2,4}) +(.+?)( *\{[^}]*\})?\s*$", re.MULTILINE)
_PROSE = re.compile(r"[^\W\d_]")
_ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@chunkgate.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@chunkgate.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def _git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", os.fspath(repo), *args], capture_output=True, text=True, env=_ENV, check=True
    )
    return proc.stdout.strip()


class History:
    def __init__(self, repo: Path, rng: random.Random) -> None:
        self.repo = repo
        self.rng = rng
        self.stats = dict.fromkeys(
            (
                "edits",
                "heading renames",
                "explicit-ID heading rewordings",
                "file renames",
                "file moves",
            ),
            0,
        )

    def files(self) -> list[Path]:
        return sorted(p for p in (self.repo / "docs").rglob("*.md") if p.is_file())

    def edit(self, path: Path) -> None:
        """Append a sentence to a prose paragraph (never to a fence, heading or table)."""
        text = path.read_text(encoding="utf-8")
        paragraphs = text.split("\n\n")
        prose = [
            i
            for i, block in enumerate(paragraphs)
            if _PROSE.match(block) and "```" not in block and "\n" not in block.strip()
        ]
        if not prose:
            return
        at = self.rng.choice(prose)
        paragraphs[at] += " This sentence was added by a later commit to change the section."
        path.write_text("\n\n".join(paragraphs), encoding="utf-8")
        self.stats["edits"] += 1

    def rename_heading(self, path: Path) -> None:
        """Reword a heading. One with an explicit ``{ #id }`` keeps that ID half the
        time; otherwise the ID changes too (as when someone renames the anchor)."""
        text = path.read_text(encoding="utf-8")
        headings = list(_HEADING.finditer(text))
        if not headings:
            return self.edit(path)
        found = self.rng.choice(headings)
        attribute = found.group(3) or ""
        if attribute and self.rng.random() < 0.5:
            self.stats["explicit-ID heading rewordings"] += 1
        else:
            attribute = attribute.replace("}", "").rstrip() + "-revisited }" if attribute else ""
            self.stats["heading renames"] += 1
        renamed = f"{found.group(1)} {found.group(2)} revisited{attribute}"
        path.write_text(text[: found.start()] + renamed + text[found.end() :], encoding="utf-8")
        return None

    def rename_file(self, path: Path) -> None:
        target = path.with_name(f"{path.stem}-renamed{path.suffix}")
        path.rename(target)
        self.stats["file renames"] += 1

    def move_file(self, path: Path) -> None:
        folder = self.repo / "docs" / "moved"
        folder.mkdir(exist_ok=True)
        target = folder / f"{path.parent.name}-{path.name}"
        if target.exists():
            return
        path.rename(target)
        self.stats["file moves"] += 1

    def mutate(self) -> None:
        files = self.files()
        for action in (self.edit, self.edit, self.rename_heading, self.rename_heading):
            action(self.rng.choice(files))
        if self.rng.random() < 0.5:
            self.rename_file(self.rng.choice(self.files()))
        if self.rng.random() < 0.3:
            self.move_file(self.rng.choice(self.files()))


def build(repo: Path, corpus: Path, commits: int, seed: int) -> tuple[str, str, dict[str, int]]:
    _git(repo.parent, "init", "-q", "-b", "main", os.fspath(repo))
    sources = sorted(p for p in corpus.rglob("*") if p.is_file())
    rng = random.Random(seed)
    rng.shuffle(sources)
    half = len(sources) // 2
    batches = [sources[:half]]
    rest = sources[half:]
    size = -(-len(rest) // (commits - 1))
    batches += [rest[i : i + size] for i in range(0, len(rest), size)]
    history = History(repo, rng)
    shas = []
    for number in range(commits):
        for source in batches[number] if number < len(batches) else ():
            target = repo / "docs" / source.relative_to(corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        if number:
            history.mutate()
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "--allow-empty", "-m", f"step {number}")
        shas.append(_git(repo, "rev-parse", "HEAD"))
    return shas[0], shas[-1], history.stats


def time_diff(repo: Path, first: str, last: str, runs: int) -> tuple[list[float], str, str]:
    command = [sys.executable, "-m", "chunkgate", "diff", first, last, "--format", "json"]
    env = {**os.environ, "CHUNKGATE_DEBUG_GIT": "1"}
    times, out, err = [], "", ""
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(
            command, cwd=repo, capture_output=True, text=True, env=env, check=False
        )
        times.append(time.perf_counter() - start)
        if proc.returncode:
            raise SystemExit(f"chunkgate diff failed ({proc.returncode}): {proc.stderr}")
        out, err = proc.stdout, proc.stderr
    return times, out, err


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--commits", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chunkgate-diff-bench-") as temp:
        repo = Path(temp) / "repo"
        start = time.perf_counter()
        first, last, stats = build(repo, args.corpus, args.commits, args.seed)
        built = time.perf_counter() - start
        files = len(_git(repo, "ls-files").splitlines())
        print(f"history: {args.commits} commits, {files} files at the last, built in {built:.1f} s")
        print("changes made: " + ", ".join(f"{v} {k}" for k, v in stats.items()))
        times, out, err = time_diff(repo, first, last, args.runs)
        diff = json.loads(out)
        processes = re.search(r"(\d+) git processes", err)
        hows: dict[str, int] = {}
        for move in diff["moved"]:
            hows[move["how"]] = hows.get(move["how"], 0) + 1
        print(
            f"chunkgate diff {first[:10]} {last[:10]}: median {statistics.median(times):.2f} s "
            f"(runs: {', '.join(f'{t:.2f}' for t in times)})"
        )
        print(f"git processes started: {processes.group(1) if processes else '?'}")
        print(
            f"found: {len(diff['added'])} added, {len(diff['removed'])} removed, "
            f"{len(diff['modified'])} modified, {len(diff['moved'])} moved "
            f"({', '.join(f'{n} {how}' for how, n in sorted(hows.items()))}), "
            f"{diff['unchanged']} unchanged"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
