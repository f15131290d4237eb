"""The gate on synthetic repositories of 10,000 to 100,000 Markdown files (issue 16).

Run by hand (never as a test), from the repository root::

    python benchmarks/scale.py --files 10000 --files 50000 [--runs 5] [--json out.json]

For each size, a seeded repository (the same bytes every time: pages of 3 to
10 sections, 100 pages a folder) is committed, then its manifest from a cold
``chunkgate update --jobs 2`` (timed), then a 5-file commit made as the hook
makes it (the bytes it adds to ``.git``, from ``git count-objects -v``).
Then, ``--runs`` rounds, each command once a round, one after the other so
that a busy machine slows all of them alike (wall times of whole processes):

- floor: ``python -c "import click"``, and ``git status`` (``--floor``
  adds them: the least a whole-corpus check must do to notice a change);
- hook: five other pages edited and staged, then ``chunkgate check --update
  --hook FILES`` as ``.pre-commit-hooks.yaml`` runs it; restored after;
- ``chunkgate check``, the whole corpus, manifest up to date (nothing changed
  since the warm-up run);
- ``chunkgate check`` after one page is edited (not staged): it reads every
  shard's summary and the edited page;
- ``chunkgate diff HEAD~1`` (the 5-file commit).

Every process gets a bytecode cache and a chunkgate cache folder, warmed by
an untimed run, as in ``bench.py``. The table shows min / median / max.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import gitrepo
from synthetic import _WORDS, _paragraph

IMPORT_CLICK = [sys.executable, "-c", "import click"]
MANIFEST = "chunkgate.manifest"
CONFIG = "size: {max: 30000, min: 0}\nrules: {CG304: off}\n"
PER_FOLDER = 100
EDITED = 5


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def page(rng: random.Random, number: int) -> str:
    """One page: a title, an introduction and 3 to 10 sections at levels 2 and 3."""
    parts = [f"# Page {number} {rng.choice(_WORDS)}\n", _paragraph(rng, rng.randint(20, 60))]
    for section in range(rng.randint(3, 10)):
        level = 2 if section == 0 or rng.random() < 0.6 else 3
        parts.append(f"{'#' * level} Section {section} of page {number} {rng.choice(_WORDS)}\n")
        parts += [_paragraph(rng, rng.randint(15, 90)) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.25:
            parts.append("```python\nfor x in range(10):\n    print(x)\n```\n")
        if rng.random() < 0.15:
            parts.append("- item one\n- item two with [a link](https://example.com)\n")
    return "\n".join(parts)


def generate(repo: Path, files: int, seed: int) -> list[str]:
    """The repository, committed and tagged ``corpus``; one kept from an earlier run
    (``--keep``) is put back to that commit instead of generated again."""
    if (repo / ".git").is_dir():
        gitrepo.git(repo, "reset", "-q", "--hard", "corpus")
        gitrepo.git(repo, "clean", "-q", "-f", "-d", "-x")
        # The last run's manifest and commits must go: a commit of the same objects again
        # would add nothing to .git.
        gitrepo.git(repo, "reflog", "expire", "--expire=now", "--all")
        gitrepo.git(repo, "gc", "-q", "--prune=now")
        return sorted(gitrepo.git(repo, "ls-files", "docs").splitlines())
    rng = random.Random(seed)
    paths = []
    for number in range(files):
        relative = f"docs/part{number // (PER_FOLDER * 100):02d}/folder{number // PER_FOLDER:04d}"
        relative += f"/page-{number:06d}.md"
        target = repo / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page(rng, number).encode("utf-8"))
        paths.append(relative)
    (repo / ".chunkgate.yaml").write_text(CONFIG, encoding="utf-8")
    gitrepo.git(repo, "init", "-q", "-b", "main")
    gitrepo.git(repo, "config", "gc.auto", "0")  # no repack inside a measured commit
    gitrepo.git(repo, "add", "-A")
    gitrepo.git(repo, "commit", "-q", "-m", "corpus")
    gitrepo.git(repo, "tag", "corpus")
    return paths


def git_bytes(repo: Path) -> int:
    """Bytes of git's objects, loose and packed (``git count-objects -v``, KiB)."""
    fields = dict(
        line.split(": ", 1) for line in gitrepo.git(repo, "count-objects", "-v").splitlines()
    )
    return (int(fields["size"]) + int(fields["size-pack"])) * 1024


def new_object_bytes(repo: Path) -> int:
    """Bytes on disk of the objects HEAD has and HEAD~1 does not (``%(objectsize:disk)``)."""
    listed = gitrepo.git(repo, "rev-list", "--objects", "HEAD", "--not", "HEAD~1")
    names = "".join(line.split(" ", 1)[0] + "\n" for line in listed.splitlines())
    proc = subprocess.run(
        ["git", "-C", os.fspath(repo), "cat-file", "--batch-check=%(objectsize:disk)"],
        input=names, capture_output=True, text=True, env=gitrepo.ENV, check=True,
    )  # fmt: skip
    return sum(int(size) for size in proc.stdout.split())


def edit(repo: Path, paths: Sequence[str], mark: str) -> None:
    for path in paths:
        with (repo / path).open("a", encoding="utf-8") as handle:
            handle.write(f"\nAn edited paragraph, {mark}.\n")
    gitrepo.git(repo, "add", "--", *paths)


def restore(repo: Path) -> None:
    gitrepo.git(repo, "reset", "-q", "--hard", "HEAD")
    gitrepo.settle(repo)


def checked(result: gitrepo.Run, what: str, allowed: Sequence[int] = (0,)) -> gitrepo.Run:
    """``result``, or an error if it exited otherwise (the hook exits 1 when it rewrote shards)."""
    if result.status not in allowed:
        raise RuntimeError(f"{what} exited {result.status}:\n{result.stderr[-2000:]}")
    return result


def measure(repo: Path, paths: list[str], runs: int, seed: int) -> dict[str, object]:
    chunkgate = gitrepo.chunkgate_command()
    rng = random.Random(seed + 1)
    out: dict[str, object] = {"files": len(paths)}
    log("  cold update --jobs 2")
    cold = checked(
        gitrepo.run([*chunkgate, "update", "-q", "--jobs", "2"], repo, capture=True), "update"
    )
    out["cold_update_jobs2"] = {"wall": cold.wall, "cpu": cold.cpu, "max_rss_kb": cold.max_rss_kb}
    gitrepo.git(repo, "add", "-A")
    gitrepo.git(repo, "commit", "-q", "-m", "manifest")
    out["manifest_bytes"] = sum(
        f.stat().st_size for f in (repo / MANIFEST).rglob("*") if f.is_file()
    )
    gitrepo.settle(repo)

    log("  a 5-file commit as the hook makes it")
    gitrepo.git(repo, "gc", "-q")  # everything packed: the commit's objects are the loose ones
    before = git_bytes(repo)
    committed = rng.sample(paths, EDITED)
    edit(repo, committed, "committed")
    checked(
        gitrepo.run([*chunkgate, "check", "--update", "--hook", *committed], repo, capture=True),
        "hook",
        (0, 1),
    )
    gitrepo.git(repo, "add", "-A")
    gitrepo.git(repo, "commit", "-q", "-m", "five files")
    out["git_bytes_per_5_file_commit"] = git_bytes(repo) - before
    out["git_new_object_bytes"] = new_object_bytes(repo)
    gitrepo.settle(repo)

    commands = {
        "import click": lambda: gitrepo.run(IMPORT_CLICK, repo),
        "git status": lambda: gitrepo.run(["git", "status"], repo),
        "hook, 5 files": lambda: hook(repo, chunkgate, rng.sample(paths, EDITED)),
        "check (whole corpus)": lambda: checked(
            gitrepo.run([*chunkgate, "check", "-q"], repo, capture=True), "check"
        ),
        "check, a file edited": lambda: check_edited(repo, chunkgate, rng.choice(paths)),
        "diff HEAD~1": lambda: checked(
            gitrepo.run([*chunkgate, "diff", "--format", "text", "HEAD~1"], repo, capture=True),
            "diff",
        ),
    }
    for run in commands.values():  # warm the bytecode and config caches
        run()
    samples: dict[str, list[gitrepo.Run]] = {name: [] for name in commands}
    for number in range(runs):
        log(f"  round {number + 1} of {runs}")
        for name, run in commands.items():
            samples[name].append(run())
    out["wall"] = {name: [r.wall for r in rs] for name, rs in samples.items()}
    out["cpu"] = {name: [r.cpu for r in rs] for name, rs in samples.items()}
    for kind in ("wall", "cpu"):
        out[f"floor_{kind}"] = [
            getattr(click, kind) + getattr(status, kind)
            for click, status in zip(samples["import click"], samples["git status"], strict=True)
        ]
    return out


def hook(repo: Path, chunkgate: list[str], paths: list[str]) -> gitrepo.Run:
    edit(repo, paths, "hook round")
    try:
        command = [*chunkgate, "check", "--update", "--hook", *paths]
        return checked(gitrepo.run(command, repo, capture=True), "hook", (0, 1))
    finally:
        restore(repo)


def check_edited(repo: Path, chunkgate: list[str], path: str) -> gitrepo.Run:
    """The whole-corpus check after an edit it has not seen."""
    with (repo / path).open("a", encoding="utf-8") as handle:
        handle.write(f"\nAn edited paragraph, {time.time_ns()}.\n")
    try:
        command = [*chunkgate, "check", "-q"]
        return checked(gitrepo.run(command, repo, capture=True), "check", (0, 1))
    finally:
        gitrepo.git(repo, "checkout", "-q", "--", path)


def spread(values: Sequence[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f}"


def table(results: list[dict[str, object]]) -> None:
    print("| measure | " + " | ".join(f"{r['files']:,} files" for r in results) + " |")
    print("|---|" + "---:|" * len(results))
    names = list(results[0]["wall"])  # type: ignore[call-overload]
    for name in names:
        for kind in ("wall", "cpu"):
            cells = [spread(r[kind][name]) for r in results]  # type: ignore[index]
            print(f"| {name}, {kind} s (min / median / max) | " + " | ".join(cells) + " |")
    for kind in ("wall", "cpu"):
        cells = [spread(r[f"floor_{kind}"]) for r in results]  # type: ignore[arg-type]
        print(f"| floor: git status + import click, {kind} s | " + " | ".join(cells) + " |")
    for kind in ("wall", "cpu"):
        for name, floor in (("hook, 5 files", "import click"), ("check (whole corpus)", None)):
            cells = []
            for r in results:
                time_ = statistics.median(r[kind][name])  # type: ignore[index]
                base = r[kind][floor] if floor else r[f"floor_{kind}"]  # type: ignore[index]
                cells.append(f"{time_ / statistics.median(base):.1f}x")
            against = "import click" if floor else "git status + import click"
            print(f"| {name} / {against}, {kind} medians | " + " | ".join(cells) + " |")
    cells = [
        f"{r['cold_update_jobs2']['wall']:.1f} / {r['cold_update_jobs2']['cpu']:.1f}"  # type: ignore[index]
        for r in results
    ]
    print("| cold update --jobs 2, wall / cpu s (one run) | " + " | ".join(cells) + " |")
    cells = [f"{r['manifest_bytes'] / 1e6:.1f} MB" for r in results]  # type: ignore[operator]
    print("| manifest folder on disk | " + " | ".join(cells) + " |")
    cells = [f"{r['git_bytes_per_5_file_commit'] / 1024:.0f} KiB" for r in results]  # type: ignore[operator]
    print("| .git growth by a 5-file commit (count-objects -v) | " + " | ".join(cells) + " |")
    cells = [f"{r['git_new_object_bytes']:,} B" for r in results]
    print("| its new objects, compressed (objectsize:disk) | " + " | ".join(cells) + " |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, action="append", help="repository size (repeat)")
    parser.add_argument("--runs", type=int, default=5, help="timed rounds per size")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--json", type=Path, help="write every sample here")
    parser.add_argument(
        "--keep", type=Path, help="build the repositories here and keep them (and reuse them)"
    )
    args = parser.parse_args(argv)
    sizes = args.files or [10_000, 50_000, 100_000]
    workdir = Path(tempfile.mkdtemp(prefix="chunkgate-scale-"))
    gitrepo.ENV.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    gitrepo.ENV["PYTHONPYCACHEPREFIX"] = os.fspath(workdir / "pycache")
    gitrepo.ENV["CHUNKGATE_CACHE_DIR"] = os.fspath(workdir / "chunkgate-cache")
    results = []
    try:
        for files in sizes:
            repo = (args.keep or workdir) / f"repo-{files}"
            log(f"{files:,} files: generating {repo}")
            started = time.perf_counter()
            paths = generate(repo, files, args.seed)
            log(f"  generated and committed in {time.perf_counter() - started:.1f} s")
            results.append(measure(repo, paths, args.runs, args.seed))
            if args.keep is None:
                shutil.rmtree(repo)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
