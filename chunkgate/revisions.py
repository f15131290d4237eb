"""Which revisions to compare: ``BASE [HEAD]``, ``A...B``, ``A..B`` and ``--base auto``.

A missing base commit is fetched when a remote can give it (a shallow CI
clone); otherwise the error says exactly which ``fetch-depth`` fixes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from chunkgate import git
from chunkgate.errors import ChunkgateError, GitError

WORKING_TREE = "working tree"
_FULL_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class Revisions:
    base: str
    base_name: str
    head: str | None  # None: the working tree
    head_name: str


def resolve_revisions(root: Path, base: str, head: str | None = None) -> Revisions:
    """Commit shas for ``BASE [HEAD]``; ``A...B`` is (merge base of A and B, B), ``A..B`` (A, B)."""
    if "..." in base:
        if head is not None:
            raise ChunkgateError(f"give either {base!r} or BASE and HEAD, not both")
        first, _, second = base.partition("...")
        first, second = first or "HEAD", second or "HEAD"
        return Revisions(_merge_base(root, first, second), base, _commit(root, second), second)
    if ".." in base and head is None:
        first, _, second = base.partition("..")
        base, head = first or "HEAD", second or "HEAD"
    head_sha = None if head is None else _commit(root, head)
    return Revisions(_commit(root, base), base, head_sha, WORKING_TREE if head is None else head)


def resolve_auto_base(root: Path, env: Mapping[str, str]) -> str:
    """``--base auto``: the pull request's base under GitHub Actions, else the merge
    base of HEAD with origin's default branch. Fetches a missing base commit."""
    if env.get("GITHUB_ACTIONS") == "true":
        sha = _event_base(env)
        if sha is not None:
            return _commit(root, sha)
    for ref in ("origin/HEAD", "origin/main", "origin/master"):
        try:
            git.resolve(root, ref)
        except GitError:
            continue
        return _merge_base(root, ref, "HEAD")
    raise GitError(
        "--base auto: no pull request event and no origin/HEAD, origin/main or origin/master; "
        "name the base, e.g. `chunkgate diff main...`"
    )


def _event_base(env: Mapping[str, str]) -> str | None:
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            event = json.load(handle)
    except (OSError, ValueError) as exc:
        raise ChunkgateError(f"GITHUB_EVENT_PATH {path}: cannot read the event: {exc}") from None
    if not isinstance(event, dict):
        return None
    for outer, inner in (("pull_request", "base"), ("merge_group", None)):
        section = event.get(outer)
        if isinstance(section, dict):
            found = section.get(inner) if inner else section
            sha = found.get("sha" if inner else "base_sha") if isinstance(found, dict) else None
            if isinstance(sha, str) and sha:
                return sha
    before = event.get("before")
    # A push that creates a branch has no "before": all zeros.
    if isinstance(before, str) and before.strip("0"):
        return before
    return None


def _shallow_fix(what: str) -> str:
    return (
        f"this is a shallow clone without {what}: set `fetch-depth: 0` on actions/checkout "
        "(or `fetch-depth: 2` to diff HEAD~1)"
    )


def _commit(root: Path, rev: str) -> str:
    """The sha of ``rev``; a missing full sha is fetched from origin first."""
    try:
        return git.resolve(root, rev)
    except GitError:
        if _FULL_SHA.fullmatch(rev):
            _fetch(root, rev)
            return git.resolve(root, rev)
        if git.is_shallow(root):
            raise GitError(_shallow_fix(rev)) from None
        raise


def _fetch(root: Path, sha: str) -> None:
    # A tree-to-tree diff needs the commit and its tree, not its history: depth 1,
    # unless the clone is complete (a depth would make it shallow).
    shallow = git.is_shallow(root)
    try:
        git.fetch(root, "origin", sha, depth=1 if shallow else None)
    except GitError as exc:
        if shallow:
            raise GitError(_shallow_fix(sha)) from None
        raise GitError(
            f"unknown revision {sha!r} (fetching it from origin failed: {exc})"
        ) from None


def _merge_base(root: Path, first: str, second: str) -> str:
    a, b = _commit(root, first), _commit(root, second)
    try:
        return git.merge_base(root, a, b)
    except GitError:
        if git.is_shallow(root):
            raise GitError(_shallow_fix(f"the merge base of {first} and {second}")) from None
        raise
