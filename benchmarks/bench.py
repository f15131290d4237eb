"""chunkgate against the peers and the floors, and its gate paths: the targets of issues 19 and 38.

Run by hand (never as a test), from anywhere::

    pip install -e '.[bench]'
    python benchmarks/bench.py [--runs 5] [--markdown DIR ...] [--json out.json]
                               [--only markdown,python,whole,capabilities,git]

Every tool runs in its own process (``tools.py``), once per run; the tools
of a run go one after the other, so that a busy machine slows all of them
alike. "chunk" is the CPU time (``process_time``) of reading and chunking
every file, measured inside the tool's process after its imports; "wall" is
the same loop's wall time; "import" is the import time. Whole commands
(``chunkgate chunks``, ``chunkgate export``, chonkie's process, the gate,
``python -c "import click"``) are timed from outside: wall time including
interpreter start-up. A ratio is taken within each run, between tools of
that run, and the targets table shows the min, median and max of the runs'
ratios: the machine's noise.

The Markdown corpora are the shared ones (``shared/corpora`` above this file:
FastAPI's docs and ten sites of other generators) and the two synthetic ones
of ``synthetic.py``, written to a temporary folder, unless ``--markdown`` names
others; ``whole`` runs on 7,500 synthetic pages.

Target 1 (issue 38's decision on issue 19), on every Markdown corpus: chunk
CPU at least 3x below LangChain's header splitter followed by its recursive
splitter (as a pipeline combines them), and at most 2.5x ``tools.py``'s floor.
chonkie, semchunk and the parsers are information, not targets.

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
import synthetic
from tables import Sample, Samples, report

HERE = Path(__file__).resolve().parent
# The shared corpora lie in a folder above the checkout (/work/shared for /work/main and
# for a work tree in /work/wt/NAME alike).
CORPORA = next(
    (p / "shared/corpora" for p in HERE.parents if (p / "shared/corpora").is_dir()), None
)
# The shared Markdown corpora, FastAPI first (capabilities and the gate run on it).
SHARED = {
    "FastAPI": "fastapi-docs/docs",
    "httpx": "httpx-docs",
    "Hugo": "hugo-docs",
    "Docsy": "docsy-docs",
    "just-the-docs": "just-the-docs",
    "Starlight": "starlight-docs",
    "Vite": "vite-docs",
    "Redux": "redux-docs",
    "MyST-Parser": "myst-docs",
    "mkdocstrings": "mkdocstrings-docs",
    "Rust by Example": "rust-by-example",
}
WHOLE_PAGES = 7500  # target 2: whole processes on 7,000+ small files
STDLIB = Path(sysconfig.get_paths()["stdlib"])
MARKDOWN_TOOLS = (
    *("chunkgate", "langchain", "chonkie", "semchunk", "floor", "read", "cmark", "pyromark"),
)
INFORMATIONAL = ("markdown-it",)  # minutes per run: --informational-runs
PYTHON_TOOLS = ("chunkgate-python", "ast")
SECTIONS = ("markdown", "python", "whole", "capabilities", "git")
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


# -- whole processes on many small files, and the capabilities --


def bench_whole(pages: Path, runs: int) -> Samples:
    """``chunkgate chunks`` and ``export`` against chonkie's whole process, alternating."""
    cg = gitrepo.chunkgate_command()
    commands = {
        "chunks": [*cg, "chunks", "--format", "jsonl", "."],
        "chunks -j 1": [*cg, "chunks", "--format", "jsonl", "-j", "1", "."],
        "export": [*cg, "export", "-q", "."],
        "chonkie": [sys.executable, str(HERE / "tools.py"), "chonkie", "."],
    }
    for command in commands.values():
        _warm(command, pages)
    samples: Samples = {name: [] for name in commands}
    for number in range(runs):
        log(f"  run {number + 1}/{runs}")
        for name, command in commands.items():
            samples[name].append(command_run(command, pages))
    return samples


def bench_capabilities(corpus: Path, runs: int) -> list[dict[str, float]]:
    """Each run's CPU seconds of every variant of ``capabilities.py``, in one process."""
    out: list[dict[str, float]] = []
    for number in range(runs):
        log(f"  run {number + 1}/{runs}")
        proc = subprocess.run(
            [sys.executable, str(HERE / "capabilities.py"), str(corpus), str(number)],
            check=False,
            capture_output=True,
            text=True,
            env=gitrepo.ENV,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"capabilities.py failed: {proc.stderr}")
        out.append(json.loads(proc.stdout)["cpu_s"])
    return out


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
    parser.add_argument(
        "--markdown",
        type=Path,
        action="append",
        help="a Markdown corpus (repeatable; default: the shared ones, synthetic pages, chapters)",
    )
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections to run")
    parser.add_argument(
        "--default-config",
        action="store_true",
        help="gate repositories with chunkgate's defaults instead of a config the corpus passes",
    )
    parser.add_argument("--json", type=Path, help="also write every sample here")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    results: dict[str, object] = {"runs": args.runs}
    with tempfile.TemporaryDirectory(prefix="chunkgate-bench-") as workdir:
        work = Path(workdir)
        _bytecode_cache(work)
        corpora = _markdown_corpora(args.markdown, work)
        fastapi = next(iter(corpora.values()))
        if "markdown" in sections:
            markdown: dict[str, object] = {}
            for name, corpus in corpora.items():
                log(f"Markdown: {name} ({corpus})")
                samples, cli = bench_chunking(
                    corpus,
                    MARKDOWN_TOOLS,
                    args.runs,
                    extra=INFORMATIONAL,
                    extra_runs=args.informational_runs,
                    cli=[*gitrepo.chunkgate_command(), "chunks", "--format", "jsonl", "."],
                )
                markdown[name] = {"corpus": str(corpus), "tools": samples, "cli": cli}
            results["markdown"] = markdown
        if "python" in sections:
            log(f"Python: {STDLIB}")
            results["python"], _ = bench_chunking(STDLIB, PYTHON_TOOLS, args.runs)
        if "whole" in sections:
            pages = work / "pages-whole"
            synthetic.pages(pages, WHOLE_PAGES)
            log(f"Whole processes: {WHOLE_PAGES:,} synthetic pages")
            results["whole"] = bench_whole(pages, args.runs)
        if "capabilities" in sections:
            log(f"Capabilities: {fastapi}")
            results["capabilities"] = bench_capabilities(fastapi, args.runs)
        if "git" in sections:
            log("The gate")
            config = None if args.default_config else gitrepo.CLEAN_CONFIG
            results["git"] = bench_git(fastapi, args.runs, args.hook_runs, work, config)
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


def _markdown_corpora(named: list[Path] | None, work: Path) -> dict[str, Path]:
    """The Markdown corpora by name: those named, else the shared ones and the synthetic two."""
    if named:
        return {path.resolve().as_posix(): path.resolve() for path in named}
    if CORPORA is None:
        raise SystemExit("no shared/corpora above this file: name a corpus with --markdown")
    corpora = {name: CORPORA / folder for name, folder in SHARED.items()}
    for shape in ("pages", "chapters"):
        corpora[shape] = work / shape
        synthetic.SHAPES[shape](corpora[shape])
    return corpora


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
