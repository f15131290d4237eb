"""What a change costs `check` on a real corpus: whole-corpus and hook, two checkouts.

Run by hand (never as a test)::

    python benchmarks/check_cost.py --base /work/wt/base --new /work/main CORPUS [--rounds 4]

Each checkout gets its own copy of the corpus in a fresh git repository, its own
cache folder, and an `update` and commit first (warm caches, as a hook runs); then
`check` (the whole corpus) and `check PAGE` (the hook's run on one page) are timed
from outside, in rounds that alternate the order, and the medians are printed.
Compile bytecode first (`python -m compileall -q CHECKOUT/chunkgate`) where
`PYTHONDONTWRITEBYTECODE` is set, or the imports are compiled on every run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--base", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    sides = {"base": args.base, "new": args.new}
    names = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x"}
    names |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}
    with tempfile.TemporaryDirectory() as tmp:
        repos = {}
        for side, root in sides.items():
            env = {**os.environ, **names, "PYTHONPATH": root}
            env["XDG_CACHE_HOME"] = str(Path(tmp) / f"cache-{side}")
            repo = Path(tmp) / side
            shutil.copytree(args.corpus, repo)
            for command in (
                ["git", "init", "-q"],
                ["git", "add", "-A"],
                ["git", "commit", "-qm", "corpus"],
                ["chunkgate", "update", "-q"],
                ["git", "add", "-A"],
                ["git", "commit", "-qm", "manifest"],
            ):
                subprocess.run(command, cwd=repo, env=env, capture_output=True, check=False)
            pages = sorted(p for p in repo.rglob("*.md") if ".git" not in p.parts)
            page = next(p for p in pages if "chunkgate.manifest" not in p.parts)
            repos[side] = (repo, env, page.relative_to(repo).as_posix())
        times: dict[tuple[str, str], list[float]] = {}
        for number in range(args.rounds):
            order = list(sides) if number % 2 == 0 else list(reversed(sides))
            for side in order:
                repo, env, page = repos[side]
                for kind, command in (("whole", ["check"]), ("hook", ["check", page])):
                    start = time.perf_counter()
                    subprocess.run(["chunkgate", *command], cwd=repo, env=env, capture_output=True)
                    times.setdefault((side, kind), []).append(time.perf_counter() - start)
        for kind in ("whole", "hook"):
            base = statistics.median(times["base", kind])
            new = statistics.median(times["new", kind])
            print(f"{args.corpus.name} {kind}: base {base:.3f} s, new {new:.3f} s, {new / base:.2f}x")


if __name__ == "__main__":
    main()
