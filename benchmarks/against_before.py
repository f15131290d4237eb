"""The hook and the whole-corpus check against an older build, alternating (issue 13).

Run by hand (never as a test), from the repository root::

    python benchmarks/against_before.py --before OLD_CHECKOUT/.venv/bin/NAME \
        [--files 5000] [--runs 9]

Two repositories of the same ``--files`` Markdown files (FastAPI's docs,
copied as ``bench.py`` copies them), one per build, each committed with the
manifest of its own cold ``update``. Then ``--runs`` rounds, each running, in
turn, the hook on 5 edited files (``check --update`` as each build's
``.pre-commit-hooks.yaml`` runs it) and the whole-corpus check, of this build
and of the older one, so that a busy machine slows both alike. The older
build is named by its console script, ``NAME``: it reads ``.NAME.yaml``,
writes ``NAME.manifest.jsonl`` and its environment variables start with
``NAME_`` in capitals (the release before the rename). Prints CPU and
wall min / median / max, the median ratio, and each command's git processes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import gitrepo
from bench import CORPORA, log

EDITED = 5


class Build:
    def __init__(self, name: str, command: list[str], config: str, manifest: str) -> None:
        self.name, self.command, self.config, self.manifest = name, command, config, manifest

    def prepare(self, repo: Path, corpus: Path, files: int, hook: list[str]) -> None:
        written = gitrepo.build(repo, corpus, files, config=None)
        (repo / self.config).write_text(gitrepo.CLEAN_CONFIG, encoding="utf-8")
        gitrepo.git(repo, "add", "-A")
        gitrepo.git(repo, "commit", "-q", "-m", "config")
        status = gitrepo.run([*self.command, "update", "-q"], repo).status
        if status != 0:
            raise RuntimeError(f"{self.name}: update exited {status}")
        gitrepo.git(repo, "add", "-A")
        gitrepo.git(repo, "commit", "-q", "-m", "manifest")
        gitrepo.settle(repo)
        self.repo = repo
        self.edited = gitrepo.EditedFiles(repo, written[:: len(written) // EDITED][:EDITED])
        self.edited.manifest = _manifest_files(repo, self.manifest)
        self.hook = [*self.command, *hook, *self.edited.paths]

    def run_hook(self, number: int, env: dict[str, str] | None = None) -> gitrepo.Run:
        self.edited.edit(number)
        try:
            return _checked(gitrepo.run(self.hook, self.repo, env=env, capture=True), self.name)
        finally:
            _restore(self.edited, self.manifest)

    def run_check(self, env: dict[str, str] | None = None) -> gitrepo.Run:
        command = [*self.command, "check", "-q"]
        return _checked(gitrepo.run(command, self.repo, env=env, capture=True), self.name)


def _checked(result: gitrepo.Run, name: str) -> gitrepo.Run:
    if result.status not in (0, 1):
        raise RuntimeError(f"{name} exited {result.status}:\n{result.stderr[-2000:]}")
    return result


def _manifest_files(repo: Path, manifest: str) -> dict[str, bytes]:
    target = repo / manifest
    if target.is_file():
        return {"": target.read_bytes()}
    return gitrepo.manifest_files(repo)


def _restore(edited: gitrepo.EditedFiles, manifest: str) -> None:
    target = edited.repo / manifest
    if target.is_file():
        for path, data in edited.originals.items():
            (edited.repo / path).write_bytes(data)
        target.write_bytes(edited.manifest[""])
        gitrepo.git(edited.repo, "add", "--", *edited.paths, manifest)
        gitrepo.git(edited.repo, "update-index", "-q", "--refresh")
    else:
        edited.restore()


def spread(values: Sequence[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f}"


def git_processes(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.endswith(" git processes")]
    return lines[-1].split(": ", 1)[-1] if lines else "?"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the older console script")
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=9)
    fastapi = CORPORA / "fastapi-docs/docs" if CORPORA else None
    parser.add_argument("--markdown", type=Path, default=fastapi, required=fastapi is None)
    args = parser.parse_args(argv)
    old_name = args.before.name
    now = Build("chunkgate", gitrepo.chunkgate_command(), ".chunkgate.yaml", gitrepo.MANIFEST)
    before = Build(
        "before", [os.fspath(args.before)], f".{old_name}.yaml", f"{old_name}.manifest.jsonl"
    )
    with tempfile.TemporaryDirectory(prefix="chunkgate-before-") as workdir:
        gitrepo.ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        gitrepo.ENV["PYTHONPYCACHEPREFIX"] = os.fspath(Path(workdir) / "pycache")
        gitrepo.ENV["CHUNKGATE_CACHE_DIR"] = os.fspath(Path(workdir) / "cache")
        gitrepo.ENV[f"{old_name.upper()}_CACHE_DIR"] = os.fspath(Path(workdir) / "cache-before")
        for build, hook in (
            (now, ["check", "--update", "--hook"]),
            (before, ["check", "--update"]),
        ):
            log(f"{build.name}: {args.files:,} files")
            build.prepare(Path(workdir) / build.name, args.markdown.resolve(), args.files, hook)
            build.run_hook(0)  # warm the bytecode and the caches
            build.run_check()
        debug = {**gitrepo.ENV, "CHUNKGATE_DEBUG_GIT": "1", f"{old_name.upper()}_DEBUG_GIT": "1"}
        counts = {
            build.name: (
                git_processes(build.run_hook(0, debug).stderr),
                git_processes(build.run_check(debug).stderr),
            )
            for build in (now, before)
        }
        samples: dict[tuple[str, str], list[gitrepo.Run]] = {}
        for number in range(args.runs):
            log(f"  round {number + 1} of {args.runs}")
            for build in (now, before) if number % 2 == 0 else (before, now):
                samples.setdefault((build.name, "hook"), []).append(build.run_hook(number + 1))
                samples.setdefault((build.name, "check"), []).append(build.run_check())
    print(f"| {args.files:,} files, {args.runs} rounds | chunkgate | before | ratio (medians) |")
    print("|---|---:|---:|---:|")
    for what in ("hook", "check"):
        for kind in ("cpu", "wall"):
            cells = [
                [getattr(r, kind) for r in samples[(b, what)]] for b in ("chunkgate", "before")
            ]
            ratio = statistics.median(cells[0]) / statistics.median(cells[1])
            label = f"{what}, {kind} s (min / median / max)"
            print(f"| {label} | {spread(cells[0])} | {spread(cells[1])} | {ratio:.2f}x |")
        procs = [counts[b][0 if what == "hook" else 1] for b in ("chunkgate", "before")]
        print(f"| {what}, git processes | {procs[0]} | {procs[1]} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
