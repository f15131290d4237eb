"""Two builds of the one-file-manifest era against each other, alternating (issue 13).

Run by hand (never as a test), from the repository root::

    python benchmarks/between_builds.py BEFORE/.venv/bin/chunkgate AFTER/.venv/bin/chunkgate \
        [--files 5000] [--runs 11]

``against_before.py`` compares this checkout with an older build; this compares
two older ones, both named ``chunkgate`` and both writing
``chunkgate.manifest.jsonl``, such as a change and its parent (issue 13 measured
the registries commit d351c93 against 232da17 this way). Each build gets its own
repository of the same ``--files`` Markdown files and its own cache folder; the
rounds alternate the order. Prints CPU min / median / max of the hook on 5
edited files and of the whole-corpus check, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import gitrepo
from against_before import Build, spread
from bench import CORPORA, log


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("before", type=Path, help="the first build's console script")
    parser.add_argument("after", type=Path, help="the second build's console script")
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=11)
    fastapi = CORPORA / "fastapi-docs/docs" if CORPORA else None
    parser.add_argument("--markdown", type=Path, default=fastapi, required=fastapi is None)
    args = parser.parse_args()
    builds = [
        Build(name, [os.fspath(script)], ".chunkgate.yaml", "chunkgate.manifest.jsonl")
        for name, script in (("before", args.before), ("after", args.after))
    ]
    samples: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="chunkgate-builds-") as workdir:
        gitrepo.ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        gitrepo.ENV["PYTHONPYCACHEPREFIX"] = os.fspath(Path(workdir) / "pycache")
        envs = {}
        for build in builds:
            cache = os.fspath(Path(workdir) / f"cache-{build.name}")
            gitrepo.ENV["CHUNKGATE_CACHE_DIR"] = cache  # the cold update's cache too
            envs[build.name] = {**gitrepo.ENV}
            log(f"{build.name}: {args.files:,} files")
            repo = Path(workdir) / build.name
            build.prepare(repo, args.markdown.resolve(), args.files, ["check", "--update"])
            build.run_hook(0, envs[build.name])  # warm the bytecode and the caches
            build.run_check(envs[build.name])
        for number in range(args.runs):
            log(f"  round {number + 1} of {args.runs}")
            for build in builds if number % 2 == 0 else builds[::-1]:
                env = envs[build.name]
                hook = build.run_hook(number + 1, env).cpu
                samples.setdefault((build.name, "hook"), []).append(hook)
                samples.setdefault((build.name, "check"), []).append(build.run_check(env).cpu)
    for what in ("hook", "check"):
        before, after = samples[("before", what)], samples[("after", what)]
        ratio = statistics.median(after) / statistics.median(before)
        print(f"{what}, CPU s: before {spread(before)}, after {spread(after)}, {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
