"""The pre-commit hook on pathological inputs of about 150 KB each (issue 44, item 5).

Run by hand (never as a test)::

    python benchmarks/pathological.py [--only links,table-huge] [--scales 1,2,4]
        [--chunkgate PATH] [--kb 150]

Each input is one file, written into a fresh git repository after
``chunkgate init`` (with the corpus widened to reStructuredText, text and
JavaScript), staged, and run through the hook's command,
``chunkgate check --update --hook FILE``, timed from outside (wall and CPU of
the process and its children). The goal is at most 5 s for each. ``--scales
1,2,4`` runs each input also at 2 and 4 times the size: a linear one takes
about 2 and 4 times as long past the process's start-up (``links``, the line
of 18,750 links, is issue 44's). Exit status 1 is expected (most inputs have
findings).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from gitrepo import ENV, chunkgate_command, git, run

INCLUDE = 'include: ["**/*.md", "**/*.py", "**/*.rst", "**/*.txt", "**/*.js"]'


def _repeat(unit: str, size: int, head: str = "") -> str:
    return head + unit * max(1, (size - len(head)) // len(unit))


def _numbered(template: str, size: int, head: str = "") -> str:
    parts = [head]
    total, number = len(head), 0
    while total < size:
        part = template.format(n=number)
        parts.append(part)
        total += len(part)
        number += 1
    return "".join(parts)


def _headings_and_links(size: int) -> str:
    headings = _numbered("## section {n}\n\ntext\n\n", size // 3)
    return headings + _numbered("[x](#missing-{n}) ", size - len(headings))


# name -> (file name, the text for a size in bytes)
CASES: dict[str, tuple[str, Callable[[int], str]]] = {
    "links": ("a.md", lambda s: _repeat("[x](#y) ", s, "# a\n")),
    "links-one-per-line": ("a.md", lambda s: _repeat("[x](#y)\n\n", s, "# a\n")),
    "links-distinct-missing": ("a.md", lambda s: _numbered("[x](#y{n}) ", s, "# a\n")),
    "links-entities": ("a.md", lambda s: _repeat("[x](#&#121;) ", s, "# a\n")),
    "links-entities-distinct": ("a.md", lambda s: _numbered("[x](#&#121;{n}) ", s, "# a\n")),
    "reference-links": ("a.md", lambda s: _repeat("[x][r] ", s, "# a\n\n[r]: #y\n\n")),
    "headings-and-broken-links": ("a.md", _headings_and_links),
    "links-one-missing-page": ("a.md", lambda s: _repeat("[x](gone.md#y) ", s, "# a\n")),
    "links-missing-pages": ("a.md", lambda s: _numbered("[x](gone{n}.md) ", s, "# a\n")),
    "reference-definitions": ("a.md", lambda s: _numbered("[r{n}]: #y{n}\n", s, "# a\n\n")),
    "footnotes": ("a.md", lambda s: _numbered("x[^{n}]\n\n[^{n}]: note\n\n", s)),
    "blockquote-nesting": ("a.md", lambda s: ">" * s + " a\n"),
    "list-nesting": ("a.md", lambda s: _repeat("- ", s) + "a\n"),
    "emphasis-stars": ("a.md", lambda s: "*" * s + "\n"),
    "emphasis-runs": ("a.md", lambda s: _repeat("*a _b ", s)),
    "brackets-open": ("a.md", lambda s: _repeat("[a](", s)),
    "backticks": ("a.md", lambda s: _repeat("`a``", s)),
    "html-angles": ("a.md", lambda s: "<" * s + "\n"),
    "html-tags": ("a.md", lambda s: _repeat('<a href="#y">', s)),
    "headings-many": ("a.md", lambda s: _numbered("# h{n}\n", s)),
    "headings-same": ("a.md", lambda s: _repeat("# a\n", s)),
    "table-huge": ("a.md", lambda s: _repeat("| x | [y](#z) |\n", s, "| a | b |\n|---|---|\n")),
    "one-giant-line": ("a.md", lambda s: _repeat("word ", s)),
    "fences-tiny": ("a.md", lambda s: _repeat("```\na\n```\n", s)),
    "fence-unclosed": ("a.md", lambda s: _repeat("```\n", s)),
    "python-defs": ("a.py", lambda s: _numbered("def f{n}():\n    return {n}\n\n\n", s)),
    "python-same-defs": ("a.py", lambda s: _repeat("def f():\n    pass\n\n\n", s)),
    "python-one-line": ("a.py", lambda s: "x = [" + _repeat("1, ", s) + "]\n"),
    "rst-sections": ("a.rst", lambda s: _numbered("Title {n}\n==========\n\ntext\n\n", s)),
    "text-one-line": ("a.txt", lambda s: _repeat("word ", s)),
    "javascript-functions": ("a.js", lambda s: _numbered("function f{n}() {{ return {n}; }}\n", s)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--chunkgate", help="the chunkgate executable (default: this venv's)")
    parser.add_argument("--kb", type=int, default=150, help="the size of an input, in KB")
    parser.add_argument("--scales", default="1", help="comma-separated size factors")
    args = parser.parse_args()
    command = [args.chunkgate] if args.chunkgate else chunkgate_command()
    names = [name for name in args.only.split(",") if name] or list(CASES)
    scales = [int(scale) for scale in args.scales.split(",")]
    print(f"{'input':<28} {'KB':>6} {'wall s':>7} {'cpu s':>7} exit")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**ENV, "XDG_CACHE_HOME": os.path.join(tmp, "cache")}
        for name, scale in ((name, scale) for name in names for scale in scales):
            file_name, make = CASES[name]
            label = name if scale == 1 else f"{name} x{scale}"
            repo = Path(tmp) / label.replace(" ", "-")
            repo.mkdir()
            git(repo, "init", "-q")
            subprocess.run([*command, "init"], cwd=repo, env=env, capture_output=True, check=True)
            config = repo / ".chunkgate.yaml"
            widened = re.sub(r"(?m)^include:.*$", INCLUDE, config.read_text(encoding="utf-8"))
            config.write_text(widened, encoding="utf-8")
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", "init")
            text = make(scale * args.kb * 1000)
            (repo / file_name).write_text(text, encoding="utf-8")
            git(repo, "add", file_name)
            timed = run([*command, "check", "--update", "--hook", file_name], repo, env=env)
            size = len(text.encode("utf-8")) / 1000
            print(f"{label:<28} {size:>6.0f} {timed.wall:>7.2f} {timed.cpu:>7.2f} {timed.status}")


if __name__ == "__main__":
    main()
