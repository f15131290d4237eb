"""``--base auto``: the commit a workflow run's diff should start from, by event.

- pull_request, pull_request_target, checked out as the test merge
  (actions/checkout's default): the merge commit's first parent, the base
  branch as merged;
- the same, checked out at the head
  (``ref: ${{ github.event.pull_request.head.sha }}``) or anything else:
  the merge base of HEAD and ``pull_request.base.sha``;
- merge_group: ``merge_group.base_sha``;
- push: ``before``, the branch's previous tip;
- a push that created a branch: the merge base of HEAD and the default
  branch (``repository.default_branch``), fetched when missing;
- a push that created the default branch: none, nothing to compare with;
- anything else, or outside Actions: the merge base of HEAD and origin's
  default branch.

With a head checkout the base sha alone would be wrong: every commit that
reached the base branch after the pull request left it would show as
removed. A fork's base commit may be missing from a fork checkout's origin;
it is then fetched from the base repository (``pull_request.base.repo``).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import GitError
from chunkgate.git.commits import is_shallow, resolve
from chunkgate.git.events import Event, read_event
from chunkgate.git.revisions import commit, fetch, fetch_branch, merge_base


class Base(NamedTuple):
    sha: str | None  # None: there is nothing to compare with (``how`` says why)
    how: str  # one line for the log: which base, and why this one


def auto_base(root: Path, env: Mapping[str, str]) -> Base:
    event = read_event(env)
    if event is not None:
        if event.is_pull_request:
            return _pull_request(root, event)
        if event.merge_group_base_sha:
            sha = commit(root, event.merge_group_base_sha, ci=True)
            return Base(sha, f"the merge queue's base {sha[:12]}")
        if event.name == "push" or event.ref:
            return _push(root, event)
    return _default_branch(root, event)


def resolve_auto_base(root: Path, env: Mapping[str, str]) -> str:
    """``--base auto``: the base the GitHub event means, else the merge base of HEAD
    with origin's default branch; fetched when missing."""
    found = auto_base(root, env)
    if found.sha is None:
        raise GitError(f"--base auto: {found.how}")
    return found.sha


def _parents(root: Path, sha: str) -> list[str]:
    found = []
    for n in (1, 2):
        try:
            found.append(resolve(root, f"{sha}^{n}"))
        except GitError:
            break
    return found


def _pull_request(root: Path, event: Event) -> Base:
    head = resolve(root, "HEAD")
    if head != event.pr_head_sha:
        parents = _parents(root, head)
        if len(parents) < 2 and is_shallow(root):
            # A depth-1 checkout of the test merge has no parents: two commits more.
            with suppress(GitError):
                fetch(root, head, depth=2)
            parents = _parents(root, head)
        if len(parents) == 2 and parents[1] == event.pr_head_sha:
            return Base(
                parents[0], f"the test merge's first parent {parents[0][:12]} (the base branch)"
            )
    # A head checkout: the pull request's changes start where it left its base.
    sources = ["origin"]
    if event.from_fork and event.base_clone_url:
        sources.append(event.base_clone_url)
    try:
        found = merge_base(root, "HEAD", event.pr_base_sha, sources, ci=True)
    except GitError as exc:
        hint = ""
        if event.from_fork:
            hint = (
                f" (the pull request comes from the fork {event.head_repo}; its base commit "
                f"is in {event.base_repo}, which actions/checkout's default `repository` "
                "checks out)"
            )
        raise GitError(f"the pull request's base{hint}: {exc}") from None
    return Base(found, f"the merge base {found[:12]} of HEAD and the pull request's base")


def _push(root: Path, event: Event) -> Base:
    if event.deleted:
        return Base(None, "the push deleted the branch: nothing to compare")
    if event.before:
        if event.forced:
            try:
                resolve(root, event.before)
            except GitError:
                try:
                    fetch(root, event.before, depth=1 if is_shallow(root) else None)
                except GitError as exc:
                    raise GitError(
                        f"the push was forced and its old tip {event.before} is gone from "
                        f"origin ({exc}): name the base with the action's `base` input, e.g. "
                        f"`base: {event.default_branch or 'main'}...` (the branch's changes "
                        "since it left the default branch)"
                    ) from None
        sha = commit(root, event.before, ci=True)
        return Base(sha, f"the branch's previous tip {sha[:12]}")
    branch = event.ref.removeprefix("refs/heads/")
    if event.default_branch and branch == event.default_branch:
        return Base(None, f"this push created {branch}, the default branch: nothing to compare")
    return _default_branch(root, event, created=True)


def _default_branch(root: Path, event: Event | None, *, created: bool = False) -> Base:
    name = event.default_branch if event is not None else ""
    refs = [f"origin/{name}"] if name else []
    refs += [ref for ref in ("origin/HEAD", "origin/main", "origin/master") if ref not in refs]
    for ref in refs:
        try:
            resolve(root, ref)
        except GitError:
            continue
        break
    else:
        if not name:
            raise GitError(
                "--base auto: no pull request or push event and no origin/HEAD, origin/main "
                "or origin/master; name the base, e.g. `chunkgate diff main...` "
                "(the action's `base` input)"
            )
        try:
            fetch_branch(root, name)
        except GitError as exc:
            raise GitError(f"the default branch {name}: {exc}") from None
        ref = f"origin/{name}"
    # An event is a workflow run's; without one, the environment says where this runs.
    found = merge_base(root, "HEAD", ref, ci=True if event is not None else None)
    why = "the push created this branch" if created else "no pull request or push"
    return Base(found, f"the merge base {found[:12]} of HEAD and {ref} ({why})")
