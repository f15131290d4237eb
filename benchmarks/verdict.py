"""Findings per 100 chunks, by rule, on real corpora with the default configuration.

Copies each corpus of ../shared/corpora (and the installed CPython standard
library, without site-packages) into a fresh git repository, runs `update`,
commits, runs `check --format json`, and prints errors and warnings per 100
chunks by rule, and the exit code of that check (0: adoption passes).
`--save FILE` keeps every finding, to sample them by hand or to compare two
runs (`--compare OLD.json`).

    python benchmarks/verdict.py --save /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path


def default_corpora() -> Path:
    """``shared/corpora`` beside the checkout (or beside one of its parent folders)."""
    for folder in Path(__file__).resolve().parents:
        if (folder / "shared" / "corpora").is_dir():
            return folder / "shared" / "corpora"
    raise SystemExit("no shared/corpora found above this checkout: pass --corpora DIR")


def corpora(where: Path) -> dict[str, Path]:
    found = {p.name: p for p in sorted(where.iterdir()) if p.is_dir()}
    found["stdlib"] = Path(sysconfig.get_paths()["stdlib"])
    return found


def copy(src: Path, dst: Path) -> None:
    ignore = shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc")
    shutil.copytree(src, dst, ignore=ignore, symlinks=True)


def git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    subprocess.run(["git", *args], cwd=repo, check=True, env=env, capture_output=True)


def measure(cmd: str, name: str, src: Path, work: Path) -> dict[str, object]:
    repo = work / name
    copy(src, repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "corpus")
    # As a new user adopts it: init (its config is the default one), update, commit.
    subprocess.run([cmd, "init"], cwd=repo, capture_output=True, check=False)
    subprocess.run([cmd, "update", "-q"], cwd=repo, capture_output=True, check=False)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "manifest")
    out = subprocess.run(
        [cmd, "check", "--format", "json"], cwd=repo, capture_output=True, text=True, check=False
    )
    report = json.loads(out.stdout)
    # Every finding counts, the ones the just-committed manifest records (known) too: the
    # verdict is what a new user is told about the repository, not what would fail.
    findings = [*report["violations"], *report.get("known", [])]
    by_rule: collections.Counter[tuple[str, str]] = collections.Counter()
    for v in findings:
        by_rule[v["rule"], v["severity"]] += 1
    summary = dict(report["summary"])
    # Right after adoption, check must pass: every finding is one the manifest records.
    summary["exit"] = out.returncode
    summary["errors"] = sum(v["severity"] == "error" for v in findings)
    summary["warnings"] = sum(v["severity"] == "warning" for v in findings)
    return {
        "summary": summary,
        "by_rule": {f"{r}:{s}": n for (r, s), n in sorted(by_rule.items())},
        "violations": findings,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cmd", default="chunkgate")
    parser.add_argument("--only", action="append", help="a corpus folder name, or stdlib")
    parser.add_argument("--corpora", type=Path, help="default: shared/corpora above the checkout")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path, help="an earlier --save, shown side by side")
    args = parser.parse_args()
    before = json.loads(args.compare.read_text()) if args.compare else {}
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in corpora(args.corpora or default_corpora()).items():
            if args.only and name not in args.only:
                continue
            results[name] = measure(args.cmd, name, src, Path(tmp))
            s = results[name]["summary"]
            chunks = max(s["chunks"], 1)
            errors, warnings = s["errors"], s["warnings"]
            by_rule = results[name]["by_rule"]
            e501, w501 = by_rule.get("CG501:error", 0), by_rule.get("CG501:warning", 0)
            print(
                f"{name}: {s['chunks']} chunks, {errors} errors ({100 * errors / chunks:.2f}/100), "
                f"{warnings} warnings ({100 * warnings / chunks:.2f}/100); without CG501: "
                f"{100 * (errors - e501) / chunks:.2f} errors, "
                f"{100 * (warnings - w501) / chunks:.2f} warnings /100; "
                f"check after adoption exits {s['exit']}"
            )
            old = before.get(name, {})
            old_chunks = max(old.get("summary", {}).get("chunks", 0), 1)
            keys = sorted(set(results[name]["by_rule"]) | set(old.get("by_rule", {})))
            for key in keys:
                n = results[name]["by_rule"].get(key, 0)
                line = f"    {key:16} {n:6}  {100 * n / chunks:6.2f}/100"
                if old:
                    m = old["by_rule"].get(key, 0)
                    line += f"   (before: {m:6}  {100 * m / old_chunks:6.2f}/100)"
                print(line)
            sys.stdout.flush()
    if args.save:
        args.save.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
