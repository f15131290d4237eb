"""The tables and ratios ``bench.py`` prints, from its samples."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

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
    return f"  {name:<62} {value:6.2f}x  target {target:<6} {_verdict(check(value))}"


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


def report_markdown(name: str, samples: Samples, cli: list[Sample]) -> list[str]:
    return _tool_table(
        f"Markdown, {name}",
        samples,
        [
            "chonkie: RecursiveChunker, markdown recipe built in code (the hub's is a download);",
            "  information since issue 38 (its target replaced by LangChain's and the floor's)",
            "floor: the least target 1 asks (heading lines, their texts, slugs, hashes;",
            "  no checks, no trimming, no parts, no relations): tools.py's _floor",
            "read: read + decode; cmark: cmarkgfm.markdown_to_html with SOURCEPOS alone;",
            "markdown-it (parse) and pyromark (events with ranges): informational",
            f"chunkgate chunks --format jsonl (whole process): wall {median(cli):.3f}s, "
            f"CPU {median(cli, 'cpu_s'):.3f}s",
        ],
    )


LANGCHAIN_GOAL = 3.0  # LangChain pair / chunkgate, chunk CPU: at least
FLOOR_GOAL = 2.5  # chunkgate / floor, chunk CPU: at most


def markdown_targets(name: str, samples: Samples) -> list[Target]:
    """Target 1 as issue 38 decided it (issue 19's target against chonkie replaced)."""
    ours = samples["chunkgate"]
    return [
        Target(
            f"1. {name}: LangChain pair / chunkgate, chunk CPU",
            paired(samples["langchain"], ours, "cpu_s"),
            f"≥ {LANGCHAIN_GOAL:g}",
            _at_least(LANGCHAIN_GOAL),
        ),
        Target(
            f"1. {name}: chunkgate / floor, chunk CPU",
            paired(ours, samples["floor"], "cpu_s"),
            f"≤ {FLOOR_GOAL:g}",
            _at_most(FLOOR_GOAL),
        ),
    ]


def markdown_summary(markdown: dict[str, dict[str, Any]]) -> list[str]:
    """Target 1 on every corpus, one row each (medians of the runs' ratios), with the
    peers beside it as information: chonkie's target was replaced, not its figure."""
    lines = [
        "",
        "Target 1 on every Markdown corpus: chunk CPU ratios, medians of the runs",
        f"  {'corpus':<18} {'LangChain/cg':>12} {f'≥ {LANGCHAIN_GOAL:g}':<7} {'cg/floor':>9}"
        f" {f'≤ {FLOOR_GOAL:g}':<7}"
        f" {'cg/chonkie':>10} {'cg/semchunk':>11}",
    ]
    met = {"langchain": 0, "floor": 0}
    for name, corpus in markdown.items():
        tools: Samples = corpus["tools"]
        ours = tools["chunkgate"]
        langchain = statistics.median(paired(tools["langchain"], ours, "cpu_s"))
        floor = statistics.median(paired(ours, tools["floor"], "cpu_s"))
        met["langchain"] += langchain >= LANGCHAIN_GOAL
        met["floor"] += floor <= FLOOR_GOAL
        lines.append(
            f"  {name[-18:]:<18} {langchain:>11.2f}x {_verdict(langchain >= LANGCHAIN_GOAL):<7}"
            f" {floor:>8.2f}x {_verdict(floor <= FLOOR_GOAL):<7}"
            f" {statistics.median(paired(ours, tools['chonkie'], 'cpu_s')):>9.2f}x"
            f" {statistics.median(paired(ours, tools['semchunk'], 'cpu_s')):>10.2f}x"
        )
    count = len(markdown)
    lines.append(
        f"  on every corpus: LangChain ≥ {LANGCHAIN_GOAL:g} {_verdict(met['langchain'] == count)}"
        f" ({met['langchain']}/{count}), floor ≤ {FLOOR_GOAL:g} {_verdict(met['floor'] == count)}"
        f" ({met['floor']}/{count})"
    )
    return lines


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def report_python(samples: Samples) -> tuple[list[str], list[Target]]:
    ratios = paired(samples["chunkgate-python"], samples["ast"], "cpu_s")
    target = Target("3. Python, stdlib: chunkgate / ast.parse, CPU", ratios, "≤ 1.2", _at_most(1.2))
    return _tool_table("Python (stdlib)", samples), [target]


def report_whole(samples: Samples) -> tuple[list[str], list[Target]]:
    lines = ["", "Whole processes, synthetic pages (wall, CPU: min / median / max)"]
    for name, runs in samples.items():
        lines.append(
            f"  {name:<14} wall {_spread([s['wall_s'] for s in runs], 's')}   "
            f"CPU {_spread([s['cpu_s'] for s in runs], 's')}"
        )
    lines.append("  chunks and export use both cores (-j default); chonkie: tools.py, one process")
    chonkie = samples["chonkie"]
    targets = [
        Target(f"2. `{name}` / chonkie's process, wall", paired(samples[name], chonkie), "< 1",
               lambda ratio: ratio < 1)
        for name in ("chunks", "export")
    ]  # fmt: skip
    return lines, targets


def report_capabilities(runs: list[dict[str, float]]) -> tuple[list[str], list[Target]]:
    from capabilities import UNUSED, USED

    def ratios(variant: str, against: str) -> list[float]:
        return [run[variant] / run[against] for run in runs]

    lines = ["", "Capabilities on FastAPI's docs: CPU of one process a run (min / median / max)"]
    lines += [f"  {name:<22} {_spread([run[name] for run in runs], 's')}" for name in runs[0]]
    lines += ["  where the corpus uses them (informational):"]
    lines += [
        f"  {name:<40} {_spread(ratios(variant, against), 'x')}" for name, variant, against in USED
    ]
    targets = [
        Target(f"5. {name}", ratios(variant, against), "≤ 1.1", _at_most(1.1))
        for name, variant, against in UNUSED
    ]
    return lines, targets


class Target(NamedTuple):
    name: str
    ratios: list[float]  # one a run
    goal: str
    check: Check

    def row(self) -> str:
        met = sum(map(self.check, self.ratios))
        verdict = _verdict(self.check(statistics.median(self.ratios)))
        return (
            f"  {self.name:<58} {_spread(self.ratios, 'x')}  {self.goal:<6} "
            f"{verdict:<6} ({met}/{len(self.ratios)} runs)"
        )


def paired(ours: Sequence[Sample], theirs: Sequence[Sample], key: str = "wall_s") -> list[float]:
    """The ratio of each run's samples: tools of one run share the machine's state."""
    return [a[key] / b[key] for a, b in zip(ours, theirs, strict=False)]


def _spread(values: Sequence[float], unit: str) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    digits = 3 if unit == "s" else 2
    return f"{low:.{digits}f} / {mid:.{digits}f} / {high:.{digits}f}{unit}"


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
    targets: list[Target] = []
    markdown = results.get("markdown")
    if isinstance(markdown, dict):
        for name, corpus in markdown.items():
            lines += report_markdown(name, corpus["tools"], corpus["cli"])
            targets += markdown_targets(name, corpus["tools"])
    for key, section in (
        ("python", report_python),
        ("whole", report_whole),
        ("capabilities", report_capabilities),
    ):
        value = results.get(key)
        if value:
            shown, found = section(value)  # type: ignore[operator]
            lines += shown
            targets += found
    gate: list[str] = []
    git = results.get("git")
    if isinstance(git, dict):
        lines += report_git(git, gate)
    if isinstance(markdown, dict):
        lines += markdown_summary(markdown)
    lines += ["", "Targets (issue 19; 1 as issue 38 decided): each run's ratio, min / median / max"]
    lines += [target.row() for target in sorted(targets, key=lambda t: t.name[:2])]
    if gate:
        lines += ["", "The gate (medians):", *gate]
    return "\n".join(lines)
