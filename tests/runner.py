"""A GitHub Actions runner in a temporary directory: bare origins with pull request refs,
checkouts made the way actions/checkout makes them, and the environment of a step.

actions/checkout (v4) runs, for a depth-1 pull request checkout::

    git init <path>
    git remote add origin <url>
    git fetch --no-tags --prune --no-recurse-submodules --depth=1 origin \\
        +<GITHUB_SHA>:refs/remotes/pull/<N>/merge
    git checkout --progress --force refs/remotes/pull/<N>/merge

for a branch, ``+<sha>:refs/remotes/origin/<branch>`` and ``git checkout -B
<branch> refs/remotes/origin/<branch>``; with ``fetch-depth: 0`` it first
fetches every branch and tag (``+refs/heads/*:refs/remotes/origin/*``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from helpers import git


class Checkout(NamedTuple):
    path: Path
    sha: str


def bare(tmp_path: Path, source: Path, name: str = "origin.git") -> Path:
    """A bare repository holding every branch of ``source``."""
    target = tmp_path / name
    git(tmp_path, "clone", "-q", "--bare", os.fspath(source), os.fspath(target))
    return target


def url(repo: Path) -> str:
    return f"file://{repo}"


def pull_refs(origin: Path, number: int, head: str, base_branch: str = "main") -> str:
    """Create ``refs/pull/N/head`` and GitHub's test merge ``refs/pull/N/merge`` (base
    branch tip as first parent, the head as second); return the merge commit's sha."""
    git(origin, "update-ref", f"refs/pull/{number}/head", head)
    base = git(origin, "rev-parse", f"refs/heads/{base_branch}").strip()
    tree = git(origin, "merge-tree", "--write-tree", base, head).split()[0]
    merge = git(
        origin, "commit-tree", tree, "-p", base, "-p", head, "-m", f"Merge {head} into {base}"
    ).strip()
    git(origin, "update-ref", f"refs/pull/{number}/merge", merge)
    return merge


def checkout(
    origin_url: str,
    path: Path,
    sha: str,
    *,
    remote_ref: str | None,
    branch: str | None = None,
    depth: int = 1,
) -> Checkout:
    """What actions/checkout does: ``remote_ref`` is where the fetched commit lands
    (``refs/remotes/pull/1/merge``, ``refs/remotes/origin/main``; None for ``ref: <sha>``,
    which is fetched alone and checked out detached)."""
    git(path.parent, "init", "-q", os.fspath(path))
    git(path, "remote", "add", "origin", origin_url)
    common = ["fetch", "--no-tags", "--prune", "--no-recurse-submodules", "-q"]
    refspec = sha if remote_ref is None else f"+{sha}:{remote_ref}"
    if depth == 0:
        everything = ("+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")
        git(path, *common, "origin", *everything)
        git(path, *common, "origin", refspec)
    else:
        git(path, *common, f"--depth={depth}", "origin", refspec)
    if branch is None:
        git(path, "checkout", "-q", "--force", remote_ref or sha)
    else:
        git(path, "checkout", "-q", "--force", "-B", branch, remote_ref)
    return Checkout(path, sha)


def step_env(
    tmp_path: Path,
    event_name: str,
    payload: dict[str, object],
    *,
    sha: str,
    ref: str,
    workspace: Path,
    repository: str = "owner/docs",
) -> dict[str, str]:
    """The variables the runner gives a step, with fresh output and summary files."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps(payload), encoding="utf-8")
    files = tmp_path / "runner"
    files.mkdir(exist_ok=True)
    for name in ("summary.md", "output.txt"):
        (files / name).write_text("", encoding="utf-8")
    return {
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": os.fspath(event),
        "GITHUB_SHA": sha,
        "GITHUB_REF": ref,
        "GITHUB_REPOSITORY": repository,
        "GITHUB_WORKSPACE": os.fspath(workspace),
        "GITHUB_STEP_SUMMARY": os.fspath(files / "summary.md"),
        "GITHUB_OUTPUT": os.fspath(files / "output.txt"),
        "RUNNER_TEMP": os.fspath(files),
    }


def outputs(env: dict[str, str]) -> dict[str, str]:
    text = Path(env["GITHUB_OUTPUT"]).read_text(encoding="utf-8")
    return dict(line.split("=", 1) for line in text.splitlines())


def pull_request_payload(
    number: int,
    *,
    base_sha: str,
    head_sha: str,
    base_repo: str = "owner/docs",
    head_repo: str = "owner/docs",
    base_url: str = "",
) -> dict[str, object]:
    return {
        "action": "synchronize",
        "number": number,
        "pull_request": {
            "number": number,
            "base": {
                "ref": "main",
                "sha": base_sha,
                "repo": {"full_name": base_repo, "clone_url": base_url},
            },
            "head": {"ref": "feature", "sha": head_sha, "repo": {"full_name": head_repo}},
        },
        "repository": {"full_name": base_repo, "default_branch": "main"},
    }


def push_payload(
    *, ref: str, before: str, after: str, created: bool = False, forced: bool = False
) -> dict[str, object]:
    return {
        "ref": ref,
        "before": before,
        "after": after,
        "created": created,
        "deleted": False,
        "forced": forced,
        "repository": {"full_name": "owner/docs", "default_branch": "main"},
    }
