"""chunkgate against the peers and the floors, and its gate paths, with the ratios of issue 5.

Run by hand (never as a test), from the repository root::

    pip install -e '.[bench]'
    python benchmarks/bench.py [--runs 5] [--markdown DIR] [--json out.json]
                               [--only markdown,python,git]

Every tool runs in its own process (``tools.py``), once per run; the tools
of a run go one after the other, so that a busy machine slows all of them
alike, and the table shows medians. "chunk" is the CPU time
(``process_time``) of reading and chunking every file, measured inside the
tool's process after its imports; "wall" is the same loop's wall time;
"import" is the import time. Whole commands (``chunkgate chunks``, the gate,
``python -c "import click"``) are timed from outside: wall time including
interpreter start-up.

Every process gets a bytecode cache (``PYTHONPYCACHEPREFIX`` in a temporary
folder, warmed before timing), as an installed package has: an editable
checkout under ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile all of
chunkgate on every start.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path

import gitrepo
from tables import Sample, Samples, report

HERE = Path(__file__).resolve().parent
DEFAULT_MARKDOWN = HERE.parents[1] / "shared/corpora/fastapi-docs/docs"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
MARKDOWN_TOOLS = ("chunkgate", "langchain", "chonkie", "semchunk", "read", "cmark", "pyromark")
INFORMATIONAL = ("markdown-it",)  # minutes per run: --informational-runs
PYTHON_TOOLS = ("chunkgate-python", "ast")
IMPORT_CLICK = [sys.executable, "-c", "import click"]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def tool_run(tool: str, corpus: Path) -> Sample:
    proc = subprocess.run(
        [sys.executable, str(HERE / "tools.py"), tool, str(corpus)],
        capture_output=True,
        text=True,
        check=True,
        env=gitrepo.ENV,
    )
    sample: Sample = json.loads(proc.stdout)
    return sample


def command_run(command: Sequence[str], cwd: Path) -> Sample:
    result = gitrepo.run(command, cwd, capture=True)
    if result.status not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} failed ({result.status}): {result.stderr}")
    return {"wall_s": result.wall, "cpu_s": result.cpu, "max_rss_kb": result.max_rss_kb}


# -- chunking: one process per tool and run --


def bench_chunking(
    corpus: Path,
    tools: Sequence[str],
    runs: int,
    *,
    extra: Sequence[str] = (),
    extra_runs: int = 1,
    cli: Sequence[str] = (),
) -> tuple[Samples, list[Sample]]:
    """Samples of each tool, and of the ``cli`` command run in the corpus folder."""
    samples: Samples = {tool: [] for tool in (*tools, *extra)}
    commands: list[Sample] = []
    for tool in samples:
        _warm([sys.executable, str(HERE / "tools.py"), "--warm", tool], corpus)
    if cli:
        _warm(cli, corpus)
    for number in range(runs):
        log(f"  run {number + 1}/{runs}")
        for tool in tools:
            samples[tool].append(tool_run(tool, corpus))
        if cli:
            commands.append(command_run(cli, corpus))
        if number < extra_runs:
            for tool in extra:
                samples[tool].append(tool_run(tool, corpus))
    return samples, commands


# -- the gate, in temporary git repositories --


def bench_git(
    corpus: Path, runs: int, hook_runs: int, workdir: Path, config: str | None
) -> dict[str, object]:
    out: dict[str, object] = {}
    cg = gitrepo.chunkgate_command()
    debug = {**gitrepo.ENV, "CHUNKGATE_DEBUG_GIT": "1"}

    log("  cold update of 1,000 files (peak RSS)")
    small = workdir / "repo1000"
    gitrepo.build(small, corpus, 1000, config=config)
    _warm([*cg, "update", "-q"], small)
    _warm([*cg, "check"], small)
    out["rss_1000"] = [_cold_update(small, 1)[0] for _ in range(runs)]

    log(f"  cold update of 5,000 files, --jobs 1 and --jobs 2, {runs} runs each")
    repo = workdir / "repo5000"
    files = gitrepo.build(repo, corpus, 5000, config=config)
    jobs1: list[Sample] = []
    jobs2: list[Sample] = []
    for _ in range(runs):
        sample1, manifest1 = _cold_update(repo, 1)
        sample2, manifest2 = _cold_update(repo, 2)
        if manifest1 != manifest2:
            raise AssertionError("--jobs 1 and --jobs 2 wrote different manifests")
        jobs1.append(sample1)
        jobs2.append(sample2)
    out["update_jobs1"], out["update_jobs2"] = jobs1, jobs2
    gitrepo.update_and_commit(repo)

    log(f"  hook: check --update on 5 edited files of 5,000, {hook_runs} runs")
    edited = gitrepo.EditedFiles(repo, files[:: len(files) // 5][:5])
    hook_command = [*cg, "check", "--update", *edited.paths]
    hook: list[Sample] = []
    click: list[Sample] = []
    for number in range(hook_runs):
        edited.edit(number)
        hook.append(command_run(hook_command, repo))
        edited.restore()
        click.append(command_run(IMPORT_CLICK, repo))
    edited.edit(hook_runs)
    out["hook_git"] = _last_line(gitrepo.run(hook_command, repo, env=debug, capture=True).stderr)
    edited.restore()
    out["hook"] = hook

    log(f"  check of 7,000 files with an up-to-date manifest, {hook_runs} runs")
    large = workdir / "repo7000"
    gitrepo.build(large, corpus, 7000, config=config)
    gitrepo.update_and_commit(large)
    cached: list[Sample] = []
    for _ in range(hook_runs):
        cached.append(command_run([*cg, "check"], large))
        click.append(command_run(IMPORT_CLICK, large))
    out["cached_check"] = cached
    out["cached_git"] = _last_line(
        gitrepo.run([*cg, "check"], large, env=debug, capture=True).stderr
    )
    out["import_click"] = click
    return out


def _warm(command: Sequence[str], cwd: Path) -> None:
    """Run a command once, untimed: its imports compile into the bytecode cache."""
    gitrepo.run(command, cwd)


def _cold_update(repo: Path, jobs: int) -> tuple[Sample, bytes]:
    shutil.rmtree(repo / gitrepo.MANIFEST, ignore_errors=True)
    sample = command_run([*gitrepo.chunkgate_command(), "update", "-q", "--jobs", str(jobs)], repo)
    return sample, gitrepo.manifest_bytes(repo)


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per tool (default 5)")
    parser.add_argument("--hook-runs", type=int, default=10, help="runs of the gate commands")
    parser.add_argument("--informational-runs", type=int, default=1, help="runs of markdown-it")
    parser.add_argument("--markdown", type=Path, default=DEFAULT_MARKDOWN, help="Markdown corpus")
    parser.add_argument("--only", default="markdown,python,git", help="sections to run")
    parser.add_argument(
        "--default-config",
        action="store_true",
        help="gate repositories with chunkgate's defaults instead of a config the corpus passes",
    )
    parser.add_argument("--json", type=Path, help="also write every sample here")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    corpus: Path = args.markdown.resolve()
    results: dict[str, object] = {"runs": args.runs, "markdown_corpus": str(corpus)}
    with tempfile.TemporaryDirectory(prefix="chunkgate-bench-") as workdir:
        _bytecode_cache(Path(workdir))
        if "markdown" in sections:
            log(f"Markdown: {corpus}")
            results["markdown"], results["markdown_cli"] = bench_chunking(
                corpus,
                MARKDOWN_TOOLS,
                args.runs,
                extra=INFORMATIONAL,
                extra_runs=args.informational_runs,
                cli=[*gitrepo.chunkgate_command(), "chunks", "--format", "jsonl", "."],
            )
        if "python" in sections:
            log(f"Python: {STDLIB}")
            results["python"], _ = bench_chunking(STDLIB, PYTHON_TOOLS, args.runs)
        if "git" in sections:
            log("The gate")
            config = None if args.default_config else gitrepo.CLEAN_CONFIG
            results["git"] = bench_git(corpus, args.runs, args.hook_runs, Path(workdir), config)
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


def _bytecode_cache(workdir: Path) -> None:
    """Give every timed process a bytecode cache (see the module docstring), and
    chunkgate a cache folder of its own (the parsed config).

    The caches are filled by a first, untimed run of every command.
    """
    gitrepo.ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    gitrepo.ENV["PYTHONPYCACHEPREFIX"] = os.fspath(workdir / "pycache")
    gitrepo.ENV["CHUNKGATE_CACHE_DIR"] = os.fspath(workdir / "chunkgate-cache")
    _warm(IMPORT_CLICK, workdir)


if __name__ == "__main__":
    raise SystemExit(main())
