"""``chunkgate export`` against ``chunkgate chunks --format jsonl`` on the same files
(issue 20): wall time and peak RSS of each command, and whether export's bytes are the
same across two runs and with ``--jobs 1`` and ``--jobs 2``. Run by hand:

    python benchmarks/export.py                          # FastAPI's docs and the stdlib
    python benchmarks/export.py --runs 5 DIR [DIR ...]

Each command runs in its own process, from DIR, over ``.`` (the stdlib: a copy,
outside any git repository); its output goes to a
file (what a pipeline does), whose SHA-256 is compared. Peak RSS is GNU time's
``%M`` (the main process; with ``--jobs 2`` each worker has its own, about as
large). The median time of ``--runs`` is shown, and the largest RSS.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[1] / "shared" / "corpora"
if not CORPORA.is_dir():  # run from a worktree: the shared folder is next to the main one
    CORPORA = Path("/work/shared/corpora")
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def run(args: list[str], cwd: Path, out: Path) -> tuple[float, int, str]:
    """Seconds, peak RSS in MiB, and the SHA-256 of what the command wrote."""
    usage = out.with_suffix(".rss")
    # /usr/bin/time's own wait4 of the command: a high-water mark of RSS survives exec,
    # so a child forked from this process (which has read outputs) would report ours.
    command = ["/usr/bin/time", "-f", "%M", "-o", str(usage), sys.executable, "-m", "chunkgate"]
    with out.open("wb") as sink:
        start = time.perf_counter()
        proc = subprocess.run(
            [*command, *args], cwd=cwd, stdout=sink, stderr=subprocess.PIPE, check=False
        )
        seconds = time.perf_counter() - start
    if proc.returncode not in (0, 2):  # 2: a file that cannot be chunked, named on stderr
        raise SystemExit(f"{' '.join(args)} in {cwd} exited {proc.returncode}: {proc.stderr!r}")
    digest = hashlib.sha256()
    with out.open("rb") as written:
        while block := written.read(1 << 20):
            digest.update(block)
    rss = int(usage.read_text().split()[-1]) // 1024
    return seconds, rss, digest.hexdigest()


COMMANDS = {
    "chunks --format jsonl": ["chunks", "--format", "jsonl", "."],
    "chunks --format jsonl --text": ["chunks", "--format", "jsonl", "--text", "."],
    "export": ["export", "."],
}


def measure(folder: Path, runs: int, scratch: Path) -> None:
    print(f"\n{folder}")
    exported: dict[str, set[str]] = {}
    for jobs in ("1", "2"):
        samples: dict[str, list[tuple[float, int, str]]] = {name: [] for name in COMMANDS}
        # Every command once a run, one after the other: a busy machine slows them alike.
        for number in range(runs):
            for name, args in COMMANDS.items():
                out = scratch / f"{name}-{jobs}-{number}.out"
                samples[name].append(run([*args, "--jobs", jobs], folder, out))
        base = statistics.median(s[0] for s in samples["chunks --format jsonl"])
        for name, taken in samples.items():
            seconds = statistics.median(s[0] for s in taken)
            size = (scratch / f"{name}-{jobs}-0.out").stat().st_size / 2**20
            print(
                f"  --jobs {jobs}  {name:<30} {seconds:6.2f} s ({seconds / base:4.2f}x)"
                f"  peak RSS {max(s[1] for s in taken):4d} MiB  output {size:6.1f} MiB"
            )
        exported[jobs] = {s[2] for s in samples["export"]}
        print(f"  --jobs {jobs}  export bytes the same in every run: {len(exported[jobs]) == 1}")
    print(f"  export bytes the same with --jobs 1 and 2: {exported['1'] == exported['2']}")


def stdlib_copy(scratch: Path) -> Path:
    """The stdlib's files in a folder of their own: where it is installed it may sit in a
    git repository that ignores it (pyenv's)."""
    target = scratch / "stdlib"
    ignored = shutil.ignore_patterns("__pycache__", "site-packages", "*.pyc")
    shutil.copytree(STDLIB, target, ignore=ignored, symlinks=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", type=Path, help="default: FastAPI's docs, the stdlib")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folders = options.dirs or [CORPORA / "fastapi-docs", stdlib_copy(Path(scratch))]
        for folder in folders:
            measure(folder, options.runs, Path(scratch))


if __name__ == "__main__":
    main()
