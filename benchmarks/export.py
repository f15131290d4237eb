"""``chunkgate export`` against ``chunkgate chunks --format jsonl`` on the same files
(issue 20): wall time and peak RSS of each command, and whether export's bytes are the
same across two runs and with ``--jobs 1`` and ``--jobs 2``. Run by hand:

    python benchmarks/export.py                          # FastAPI's docs and the stdlib
    python benchmarks/export.py --runs 5 DIR [DIR ...]

Each command runs in its own process, from DIR, over ``.``; its output goes to a
file (what a pipeline does), whose SHA-256 is compared. Peak RSS is the largest
of the command's process and its worker processes (``wait4``'s ``ru_maxrss``).
The median of ``--runs`` is shown.
"""

from __future__ import annotations

import argparse
import hashlib
import os
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
DEFAULT_DIRS = (CORPORA / "fastapi-docs", Path(sysconfig.get_paths()["stdlib"]))


def run(args: list[str], cwd: Path, out: Path) -> tuple[float, int, str]:
    """Seconds, peak RSS in MiB, and the SHA-256 of what the command wrote."""
    command = [sys.executable, "-m", "chunkgate", *args]
    with out.open("wb") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    errors = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode not in (0, 2):  # 2: a file that cannot be chunked, named on stderr
        raise SystemExit(f"{' '.join(args)} in {cwd} exited {proc.returncode}: {errors}")
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    return seconds, usage.ru_maxrss // 1024, digest


def measure(folder: Path, runs: int, scratch: Path) -> None:
    commands = {
        "chunks --format jsonl": ["chunks", "--format", "jsonl", "."],
        "chunks --format jsonl --text": ["chunks", "--format", "jsonl", "--text", "."],
        "export": ["export", "."],
    }
    print(f"\n{folder}")
    for jobs in ("1", "2"):
        digests: dict[str, set[str]] = {}
        base: float | None = None
        for name, args in commands.items():
            samples = [
                run([*args, "--jobs", jobs], folder, scratch / f"{name}-{jobs}-{n}.out")
                for n in range(runs)
            ]
            seconds = statistics.median(s[0] for s in samples)
            rss = max(s[1] for s in samples)
            digests[name] = {s[2] for s in samples}
            base = seconds if base is None else base
            size = (scratch / f"{name}-{jobs}-0.out").stat().st_size / 2**20
            print(
                f"  --jobs {jobs}  {name:<30} {seconds:6.2f} s ({seconds / base:4.2f}x)"
                f"  peak RSS {rss:5d} MiB  output {size:7.1f} MiB"
            )
        export_runs = digests["export"]
        print(f"  --jobs {jobs}  export bytes the same across runs: {len(export_runs) == 1}")
        if jobs == "1":
            single = export_runs
        else:
            print(f"  export bytes the same with --jobs 1 and 2: {single == export_runs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=list(DEFAULT_DIRS))
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for folder in options.dirs:
            measure(folder, options.runs, Path(scratch))


if __name__ == "__main__":
    main()
