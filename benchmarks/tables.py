"""The tables and ratios ``bench.py`` prints, from its samples."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

Sample = dict[str, float]
Samples = dict[str, list[Sample]]


def median(samples: Sequence[Sample], key: str = "wall_s") -> float:
    return statistics.median(sample[key] for sample in samples)


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
            f"chunkgate chunks --format jsonl (whole process): wall {median(cli):.3f}s, "
            f"CPU {median(cli, 'cpu_s'):.3f}s",
        ],
    )
    ours = median(samples["chunkgate"], "cpu_s")
    langchain = median(samples["langchain"], "cpu_s")
    chonkie = median(samples["chonkie"], "cpu_s")
    # The command against the peers' import + chunk wall time: start-up is ours alone.
    langchain_total = median(samples["langchain"]) + median(samples["langchain"], "import_s")
    chonkie_total = median(samples["chonkie"]) + median(samples["chonkie"], "import_s")
    ratios += [
        _ratio(
            "Markdown: LangChain pair / chunkgate (chunk CPU)",
            langchain / ours,
            "≥ 3",
            _at_least(3),
        ),
        _ratio("Markdown: chunkgate / chonkie (chunk CPU)", ours / chonkie, "≤ 1.5", _at_most(1.5)),
        _ratio(
            "Markdown: LangChain (import+chunk) / `chunkgate chunks` (wall)",
            langchain_total / median(cli),
            "≥ 3",
            _at_least(3),
        ),
        _ratio(
            "Markdown: `chunkgate chunks` / chonkie (import+chunk) (wall)",
            median(cli) / chonkie_total,
            "≤ 1.5",
            _at_most(1.5),
        ),
    ]
    return lines


def report_python(samples: Samples, ratios: list[str]) -> list[str]:
    ratio = median(samples["chunkgate-python"], "cpu_s") / median(samples["ast"], "cpu_s")
    ratios.append(
        _ratio("Python: chunkgate / ast.parse (chunk CPU)", ratio, "≤ 1.5", _at_most(1.5))
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
