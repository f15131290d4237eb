"""chunkguard against the peers and the floors, and its gate paths, with the ratios of issue 5.

Run by hand (never as a test), from the repository root::

    pip install -e '.[bench]'
    python benchmarks/bench.py [--runs 5] [--markdown DIR] [--json out.json]
                               [--only markdown,python,git]

Every tool runs in its own process (``tools.py``), once per run; the tools
of a run go one after the other, so that a busy machine slows all of them
alike, and the table shows medians. "chunk" is the CPU time
(``process_time``) of reading and chunking every file, measured inside the
tool's process after its imports; "wall" is the same loop's wall time;
"import" is the import time. Whole commands (``chunkguard chunks``, the gate,
``python -c "import click"``) are timed from outside: wall time including
interpreter start-up.

Every process gets a bytecode cache (``PYTHONPYCACHEPREFIX`` in a temporary
folder, warmed before timing), as an installed package has: an editable
checkout under ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile all of
chunkguard on every start.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import gitrepo

HERE = Path(__file__).resolve().parent
DEFAULT_MARKDOWN = HERE.parents[1] / "shared/corpora/fastapi-docs/docs"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
MARKDOWN_TOOLS = ("chunkguard", "langchain", "chonkie", "semchunk", "read", "cmark", "pyromark")
INFORMATIONAL = ("markdown-it",)  # minutes per run: --informational-runs
PYTHON_TOOLS = ("chunkguard-python", "ast")
IMPORT_CLICK = [sys.executable, "-c", "import click"]

Sample = dict[str, float]
Samples = dict[str, list[Sample]]


def median(samples: Sequence[Sample], key: str = "wall_s") -> float:
    return statistics.median(sample[key] for sample in samples)


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
    cg = gitrepo.chunkguard_command()
    debug = {**gitrepo.ENV, "CHUNKGUARD_DEBUG_GIT": "1"}

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
    manifest = repo / gitrepo.MANIFEST
    manifest.unlink(missing_ok=True)
    sample = command_run([*gitrepo.chunkguard_command(), "update", "-q", "--jobs", str(jobs)], repo)
    return sample, manifest.read_bytes()


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


# -- the report --

Check = Callable[[float], bool]


def _at_least(target: float) -> Check:
    return lambda ratio: ratio >= target


def _at_most(target: float) -> Check:
    return lambda ratio: ratio <= target


def _ratio(name: str, value: float, target: str, check: Check) -> str:
    return f"  {name:<62} {value:6.2f}x  target {target:<6} {'met' if check(value) else 'MISSED'}"


def _tool_table(title: str, samples: Samples, notes: Sequence[str] = ()) -> list[str]:
    first = next(iter(samples.values()))[0]
    lines = [
        "",
        f"{title}: {int(first['files']):,} files, {first['bytes'] / 1e6:.1f} MB (medians)",
        f"  {'tool':<20} {'runs':>4} {'import':>8} {'chunk CPU':>10} {'wall':>8} {'chunks':>9}",
    ]
    for tool, runs in samples.items():
        if not runs:
            continue
        lines.append(
            f"  {tool:<20} {len(runs):>4} {median(runs, 'import_s'):>7.3f}s "
            f"{median(runs, 'cpu_s'):>9.3f}s {median(runs, 'wall_s'):>7.3f}s "
            f"{int(runs[0]['chunks']):>9,}"
        )
    lines.extend(f"  {note}" for note in notes)
    return lines


def report_markdown(samples: Samples, cli: list[Sample], ratios: list[str]) -> list[str]:
    lines = _tool_table(
        "Markdown",
        samples,
        [
            "chonkie: RecursiveChunker, markdown recipe built in code (the hub's is a download)",
            "read: read + decode; cmark: cmarkgfm.markdown_to_html with SOURCEPOS alone;",
            "markdown-it (parse) and pyromark (events with ranges): informational",
            f"chunkguard chunks --format jsonl (whole process): wall {median(cli):.3f}s, "
            f"CPU {median(cli, 'cpu_s'):.3f}s",
        ],
    )
    ours = median(samples["chunkguard"], "cpu_s")
    langchain = median(samples["langchain"], "cpu_s")
    chonkie = median(samples["chonkie"], "cpu_s")
    # The command against the peers' import + chunk wall time: start-up is ours alone.
    langchain_total = median(samples["langchain"]) + median(samples["langchain"], "import_s")
    chonkie_total = median(samples["chonkie"]) + median(samples["chonkie"], "import_s")
    ratios += [
        _ratio(
            "Markdown: LangChain pair / chunkguard (chunk CPU)",
            langchain / ours,
            "≥ 3",
            _at_least(3),
        ),
        _ratio(
            "Markdown: chunkguard / chonkie (chunk CPU)", ours / chonkie, "≤ 1.5", _at_most(1.5)
        ),
        _ratio(
            "Markdown: LangChain (import+chunk) / `chunkguard chunks` (wall)",
            langchain_total / median(cli),
            "≥ 3",
            _at_least(3),
        ),
        _ratio(
            "Markdown: `chunkguard chunks` / chonkie (import+chunk) (wall)",
            median(cli) / chonkie_total,
            "≤ 1.5",
            _at_most(1.5),
        ),
    ]
    return lines


def report_python(samples: Samples, ratios: list[str]) -> list[str]:
    ratio = median(samples["chunkguard-python"], "cpu_s") / median(samples["ast"], "cpu_s")
    ratios.append(
        _ratio("Python: chunkguard / ast.parse (chunk CPU)", ratio, "≤ 1.5", _at_most(1.5))
    )
    return _tool_table("Python (stdlib)", samples)


def report_git(git: dict[str, object], ratios: list[str]) -> list[str]:
    def runs(key: str) -> list[Sample]:
        value = git[key]
        assert isinstance(value, list)
        return value

    click = median(runs("import_click"))
    hook = median(runs("hook"))
    cached = median(runs("cached_check"))
    jobs1 = median(runs("update_jobs1"))
    jobs2 = median(runs("update_jobs2"))
    rss1000 = median(runs("rss_1000"), "max_rss_kb") / 1024
    rss5000 = median(runs("update_jobs1"), "max_rss_kb") / 1024
    ratios += [
        _ratio(
            "hook: check --update, 5 of 5,000 files / import click",
            hook / click,
            "≤ 3",
            _at_most(3),
        ),
        _ratio(
            "check, 7,000 files, manifest up to date / import click",
            cached / click,
            "≤ 4",
            _at_most(4),
        ),
        _ratio(
            "cold update, 5,000 files: --jobs 1 / --jobs 2", jobs1 / jobs2, "≥ 1.6", _at_least(1.6)
        ),
        _ratio(
            "cold update peak RSS: 5,000 files / 1,000 files",
            rss5000 / rss1000,
            "≈ 1",
            _at_most(1.25),
        ),
    ]
    rows = [
        ("python -c 'import click'", click, ""),
        ("check --update, 5 edited files of 5,000", hook, str(git["hook_git"])),
        ("check, 7,000 files, manifest up to date", cached, str(git["cached_git"])),
        ("cold update, 5,000 files, --jobs 1", jobs1, f"peak RSS {rss5000:.0f} MB"),
        ("cold update, 5,000 files, --jobs 2", jobs2, "manifest byte-identical to --jobs 1"),
    ]
    lines = ["", "The gate: whole processes in temporary git repositories (wall medians)"]
    lines += [f"  {name:<42} {seconds:7.3f}s  {note}" for name, seconds, note in rows]
    lines.append(f"  cold update, 1,000 files, --jobs 1: peak RSS {rss1000:.0f} MB")
    return lines


def report(results: dict[str, object]) -> str:
    lines: list[str] = []
    ratios: list[str] = []
    markdown, cli = results.get("markdown"), results.get("markdown_cli")
    if isinstance(markdown, dict) and isinstance(cli, list):
        lines += report_markdown(markdown, cli, ratios)
    python = results.get("python")
    if isinstance(python, dict):
        lines += report_python(python, ratios)
    git = results.get("git")
    if isinstance(git, dict):
        lines += report_git(git, ratios)
    lines += ["", "Ratios against issue 5's targets (medians):", *ratios]
    return "\n".join(lines)


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
        help="gate repositories with chunkguard's defaults instead of a config the corpus passes",
    )
    parser.add_argument("--json", type=Path, help="also write every sample here")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    corpus: Path = args.markdown.resolve()
    results: dict[str, object] = {"runs": args.runs, "markdown_corpus": str(corpus)}
    with tempfile.TemporaryDirectory(prefix="chunkguard-bench-") as workdir:
        _bytecode_cache(Path(workdir))
        if "markdown" in sections:
            log(f"Markdown: {corpus}")
            results["markdown"], results["markdown_cli"] = bench_chunking(
                corpus,
                MARKDOWN_TOOLS,
                args.runs,
                extra=INFORMATIONAL,
                extra_runs=args.informational_runs,
                cli=[*gitrepo.chunkguard_command(), "chunks", "--format", "jsonl", "."],
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
    """Give every timed process a bytecode cache (see the module docstring).

    The cache is filled by a first, untimed run of every command.
    """
    gitrepo.ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    gitrepo.ENV["PYTHONPYCACHEPREFIX"] = os.fspath(workdir / "pycache")
    _warm(IMPORT_CLICK, workdir)


if __name__ == "__main__":
    raise SystemExit(main())
