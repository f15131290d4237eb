"""The pre-commit hook's cost against ``python -c "import click"`` (issue 16's target).

Builds a small repository (``--pages`` Markdown pages, committed with their
manifest), edits and stages ``--staged`` of them, and times
``chunkgate check --update --hook FILES`` for each chunkgate executable given
(default: the one next to this interpreter) in alternating rounds with
``import click`` run by that executable's own interpreter. CPU is the child's
user + system time (git's processes included), with .pyc files used as on a
user's machine (``PYTHONDONTWRITEBYTECODE`` is dropped). Prints min / median /
max per command and the ratio of medians (and of minimums) to ``import click``.

``python -X importtime`` does not see modules loaded through
``importlib.import_module`` (the rule registry's, the languages' chunkers):
their time shows as the importer's own. ``--imports`` prints the regular
expressions compiled during one hook run instead, by module, the part of
start-up that ``importtime`` hides best.

    python benchmarks/hookstart.py --runs 9 .venv/bin/chunkgate /tmp/base/.venv/bin/chunkgate
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

from gitrepo import ENV

_PAGE = (
    "# Page {n}\n\nText about topic {n}, with a [link](page1.md).\n\n## Section\n\nMore prose.\n"
)


def _make_repo(root: Path, chunkgate: str, pages: int, staged: int) -> list[str]:
    docs = root / "docs"
    docs.mkdir(parents=True)
    for n in range(1, pages + 1):
        (docs / f"page{n}.md").write_text(_PAGE.format(n=n))

    def run(*args: str) -> None:
        subprocess.run(args, cwd=root, env=ENV, check=True, stdout=subprocess.DEVNULL)

    run("git", "init", "-q", "-b", "main")
    run(chunkgate, "init")
    run(chunkgate, "update")
    run("git", "add", "-A")
    run("git", "commit", "-qm", "pages")
    files = [f"docs/page{n}.md" for n in range(1, staged + 1)]
    for name in files:
        with (root / name).open("a") as page:
            page.write("\nAn edit.\n")
    run("git", "add", *files)
    return files


def _cpu_ms(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return used * 1000


def _python_of(chunkgate: str) -> str:
    return str(Path(chunkgate).with_name(Path(sys.executable).name))


_REGEXES = """
import re._compiler as compiler, sys, time
original, spent = compiler.compile, {}
def timed(pattern, flags=0):
    frame = sys._getframe(1)
    while frame and frame.f_globals.get("__name__", "").startswith("re"):
        frame = frame.f_back
    start = time.perf_counter()
    result = original(pattern, flags)
    name = frame.f_globals.get("__name__", "?") if frame else "?"
    count, ms = spent.get(name, (0, 0.0))
    spent[name] = (count + 1, ms + (time.perf_counter() - start) * 1000)
    return result
compiler.compile = timed
sys.argv = ["chunkgate", "check", "--update", "--hook", *sys.argv[1:]]
from chunkgate.cli import main
try:
    main()
except SystemExit:
    pass
total = sum(ms for _, ms in spent.values())
compiled = sum(count for count, _ in spent.values())
print(f"regular expressions: {compiled} compiled, {total:.1f} ms", file=sys.stderr)
for name, (count, ms) in sorted(spent.items(), key=lambda item: -item[1][1])[:20]:
    print(f"  {name}: {count} ({ms:.1f} ms)", file=sys.stderr)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "chunkgate", nargs="*", default=[str(Path(sys.executable).with_name("chunkgate"))]
    )
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--pages", type=int, default=8)
    parser.add_argument("--staged", type=int, default=5)
    parser.add_argument(
        "--imports", action="store_true", help="print the regexes one hook run compiles"
    )
    args = parser.parse_args()
    env = {key: value for key, value in ENV.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        files = _make_repo(root / "repo", args.chunkgate[0], args.pages, args.staged)
        commands: dict[str, list[str]] = {}
        for chunkgate in args.chunkgate:
            commands[f"import click ({_python_of(chunkgate)})"] = [
                _python_of(chunkgate),
                "-c",
                "import click",
            ]
            commands[chunkgate] = [chunkgate, "check", "--update", "--hook", *files]
        for command in commands.values():  # warm: .pyc files written, the manifest updated
            _cpu_ms(command, root / "repo", env)
        samples: dict[str, list[float]] = {label: [] for label in commands}
        for _ in range(args.runs):
            for label, command in commands.items():
                samples[label].append(_cpu_ms(command, root / "repo", env))
        click = [label for label in commands if label.startswith("import click")]
        for label, values in samples.items():
            base = (
                samples[click[args.chunkgate.index(label)]] if label in args.chunkgate else values
            )
            print(
                f"{label}: CPU min {min(values):.0f} / median {median(values):.0f} /"
                f" max {max(values):.0f} ms; x{median(values) / median(base):.2f}"
                f" import click (medians), x{min(values) / min(base):.2f} (minimums)"
            )
        if args.imports:
            for chunkgate in args.chunkgate:
                print(chunkgate, file=sys.stderr)
                subprocess.run(
                    [_python_of(chunkgate), "-c", _REGEXES, *files],
                    cwd=root / "repo",
                    env=env,
                    check=False,
                    stdout=subprocess.DEVNULL,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
