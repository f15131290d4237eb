"""Any benchmark, two checkouts, alternating rounds: one table of base, new and their ratio.

Run by hand (never as a test), from anywhere::

    python benchmarks/compare.py --base /work/wt/base --new /work/main [--rounds 4] \
        [--json out.json] -- python {root}/benchmarks/scale.py --files 5000 --json {json}

The command after ``--`` runs once per checkout and round, with ``{root}`` the
checkout (its own benchmark scripts: they import its module paths), ``{json}``
a file the command writes its samples to (``bench.py`` and ``scale.py`` take
``--json``) and ``{work}`` a folder kept per checkout across rounds (for
``scale.py --keep {work}``). ``PYTHONPATH`` is the checkout, so the venv's
interpreter and its ``chunkgate`` console script import that checkout's
package. The order alternates (base, new; new, base; ...), so that a machine
busy with other work slows both alike.

Every number in the JSON is a figure, named by its path (``git/hook/wall_s``);
a list of samples is reduced to its median within the round, and the table
shows each figure's median over the rounds with its min and max. Figures equal
on every round of both sides (file counts, bytes read) are counted, not shown;
a ratio worse than ``--limit`` (new / base, higher is worse) is marked;
``--match PATTERN`` shows only the figures whose names it finds.
``--json`` keeps every round's figures as it goes; ``--table FILE`` prints the
table of such a file (the rounds both sides completed), for a run cut short.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

Figures = dict[str, float]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def figures(value: object, name: str = "") -> Iterator[tuple[str, float]]:
    """Every number in a benchmark's JSON by its path; a list of samples as its medians."""
    prefix = f"{name}/" if name else ""
    if isinstance(value, bool | str) or value is None:
        return
    if isinstance(value, int | float):
        yield name, float(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from figures(item, f"{prefix}{key}")
    elif isinstance(value, list) and value and all(isinstance(v, int | float) for v in value):
        yield name, statistics.median(value)
    elif isinstance(value, list) and value and all(_is_sample(v) for v in value):
        for key, first in value[0].items():
            if _is_number(first):  # a sample's label (bench.py's "tool") is no figure
                yield name + f"/{key}", statistics.median(sample[key] for sample in value)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            # scale.py's results, one a size: named by their size, not their place
            label = item.get("files", index) if isinstance(item, dict) else index
            yield from figures(item, f"{prefix}{label}")


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_sample(value: object) -> bool:
    """One run's measures: numbers, and strings that name them, nothing nested."""
    return (
        isinstance(value, dict)
        and all(_is_number(v) or isinstance(v, str) for v in value.values())
        and any(map(_is_number, value.values()))
    )


def run_round(command: Sequence[str], root: Path, work: Path, out: Path) -> Figures:
    fields = {"root": os.fspath(root), "json": os.fspath(out), "work": os.fspath(work)}
    argv = [part.format(**fields) for part in command]
    env = {**os.environ, "PYTHONPATH": os.fspath(root)}
    proc = subprocess.run(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode} in {root}")
    return dict(figures(json.loads(out.read_text(encoding="utf-8"))))


def compare(
    base: Sequence[Figures], new: Sequence[Figures], limit: float, match: str = ""
) -> tuple[list[str], int]:
    """The table's rows, and how many figures were equal everywhere (not shown)."""
    names = [
        name for name in base[0] if all(name in r for r in (*base, *new)) and re.search(match, name)
    ]
    rows = [
        f"| figure ({len(base)} rounds) | base: median (min-max) | new: median (min-max) "
        "| new / base |",
        "|---|---:|---:|---:|",
    ]
    constant = 0
    for name in names:
        before = [r[name] for r in base]
        after = [r[name] for r in new]
        if len({*before, *after}) == 1:
            constant += 1
            continue
        b, a = statistics.median(before), statistics.median(after)
        ratio = a / b if b else float("inf")
        mark = " **worse**" if ratio > limit else ""
        rows.append(f"| {name} | {_cell(before)} | {_cell(after)} | {ratio:.2f}x{mark} |")
    return rows, constant


def _cell(values: Sequence[float]) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    digits = 3 if high < 100 else 0
    return f"{mid:.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--base", type=Path, help="the older checkout")
    parser.add_argument("--new", type=Path, help="the checkout to judge")
    parser.add_argument("--rounds", type=int, default=4, help="runs of the command per checkout")
    parser.add_argument("--limit", type=float, default=1.10, help="mark ratios above (1.10)")
    parser.add_argument("--match", default="", help="show only figures this pattern finds")
    parser.add_argument(
        "--json", type=Path, help="write every round's figures here, after each round"
    )
    parser.add_argument(
        "--table", type=Path, help="print the table of a --json file (complete rounds), run nothing"
    )
    parser.add_argument("command", nargs="*", help="the benchmark, after --")
    args = parser.parse_args(argv)
    if args.table:
        saved = json.loads(args.table.read_text(encoding="utf-8"))
        complete = min(len(saved["base"]), len(saved["new"]))
        base, new = saved["base"][:complete], saved["new"][:complete]
        print_table(saved["title"], base, new, args.limit, args.match)
        return 0
    if args.base is None or args.new is None or not args.command:
        parser.error("--base, --new and a command after -- are needed (or --table FILE)")
    sides = {"base": args.base.resolve(), "new": args.new.resolve()}
    title = f"base {sides['base']}, new {sides['new']}: {' '.join(args.command)}"
    rounds: dict[str, list[Figures]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory(prefix="chunkgate-compare-") as workdir:
        for number in range(args.rounds):
            order = ("base", "new") if number % 2 == 0 else ("new", "base")
            for side in order:
                log(f"round {number + 1} of {args.rounds}: {side} ({sides[side]})")
                work = Path(workdir) / side
                work.mkdir(exist_ok=True)
                out = Path(workdir) / f"{side}-{number}.json"
                rounds[side].append(run_round(args.command, sides[side], work, out))
                if args.json:  # a long comparison cut short still has its rounds
                    saved = {"title": title, **rounds}
                    args.json.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    print_table(title, rounds["base"], rounds["new"], args.limit, args.match)
    return 0


def print_table(
    title: str, base: list[Figures], new: list[Figures], limit: float, match: str
) -> None:
    rows, constant = compare(base, new, limit, match)
    print(title)
    print("\n".join(rows))
    print(f"({constant} figures equal on every round of both sides not shown)")


if __name__ == "__main__":
    raise SystemExit(main())
