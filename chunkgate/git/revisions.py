"""Which revisions to compare: ``BASE [HEAD]``, ``A...B``, ``A..B``; commits fetched as needed.

A CI checkout is often shallow: the base commit, or the history down to a
merge base, is not there. A missing full sha is fetched (the commit alone:
a tree-to-tree diff needs no history), a missing branch is fetched into its
remote-tracking ref, and a shallow history is deepened step by step until
a merge base turns up. When that fails the error keeps git's own words and
says what fixes this case; the whole history (``fetch-depth: 0`` in CI, ``git fetch
--unshallow`` in a clone of one's own) only where it would help.
``--base auto`` (which base an event means) is ``autobase``'s.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import ChunkgateError, GitError
from chunkgate.core.regex import lazy
from chunkgate.git import commits
from chunkgate.git.objects import object_id
from chunkgate.git.process import GitCommandError

WORKING_TREE = "working tree"
_FULL_SHA = lazy(r"[0-9a-f]{40}|[0-9a-f]{64}")
# Deepen a shallow history this far, step by step, looking for a merge base.
DEEPEN = (50, 500, 5000)
FULL_HISTORY = "set `fetch-depth: 0` on actions/checkout, so that the whole history is there"
UNSHALLOW = "run `git fetch --unshallow` to fetch the whole history"


def full_history(ci: bool | None = None) -> str:
    """What brings the whole history: the checkout's setting in CI (where a fetch by hand
    is lost with the runner), the command in a clone of one's own. ``ci`` None: CI when
    the environment says so (``CI``, ``GITHUB_ACTIONS``); the action says True."""
    if ci is None:
        ci = bool(os.environ.get("CI") or os.environ.get("GITHUB_ACTIONS"))
    return FULL_HISTORY if ci else UNSHALLOW


class Revisions(NamedTuple):
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
        return Revisions(merge_base(root, first, second), base, commit(root, second), second)
    if ".." in base and head is None:
        first, _, second = base.partition("..")
        base, head = first or "HEAD", second or "HEAD"
    head_sha = None if head is None else commit(root, head)
    return Revisions(commit(root, base), base, head_sha, WORKING_TREE if head is None else head)


def git_words(exc: GitError) -> str:
    """What git itself said (the first source's answer, for a fetch), to judge the fix by."""
    if isinstance(exc, FetchError):
        return exc.first
    return exc.stderr if isinstance(exc, GitCommandError) and exc.stderr else str(exc)


class FetchError(GitError):
    """No source had it; ``first`` is what the first source (origin) said."""

    def __init__(self, answers: Sequence[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{source}: {words}" for source, words in answers))
        self.first = answers[0][1] if answers else ""


def fetch(
    root: Path, what: str, sources: Sequence[str] = ("origin",), *, depth: int | None = None
) -> str:
    """Fetch ``what`` (a sha or a refspec) from the first source that has it; return that
    source. Raises FetchError with every source's answer."""
    answers = []
    for source in sources:
        try:
            commits.fetch(root, source, what, depth=depth)
        except GitError as exc:
            answers.append((source, git_words(exc)))
            continue
        return source
    raise FetchError(answers)


def commit(
    root: Path, rev: str, sources: Sequence[str] = ("origin",), *, ci: bool | None = None
) -> str:
    """The sha of ``rev``: a missing full sha is fetched (alone, in a shallow clone), a
    branch missing here is looked for as ``origin/NAME``, and in a shallow clone fetched
    as that. ``ci``: whether to advise as in CI (``full_history``)."""
    try:
        return commits.resolve(root, rev)
    except GitError as exc:
        first = exc
    if _FULL_SHA.fullmatch(rev):
        shallow = commits.is_shallow(root)
        try:
            fetch(root, rev, sources, depth=1 if shallow else None)
        except GitError as exc:
            raise GitError(
                f"commit {rev} is not in this clone and could not be fetched ({exc}): "
                f"{_fetch_fix(git_words(exc), ci)}"
            ) from None
        return commits.resolve(root, rev)
    if re.fullmatch(r"[\w./-]+", rev) and not rev.startswith(("origin/", "refs/", "-")):
        tracking = f"origin/{rev}"
        try:
            return commits.resolve(root, tracking)
        except GitError:
            pass
        shallow = commits.is_shallow(root)
        if shallow:  # a CI checkout: fetch the branch; a local typo goes to no network
            with suppress(GitError):
                return fetch_branch(root, rev)
    if commits.is_shallow(root):
        raise GitError(_shallow_words(root, rev, git_words(first), ci)) from None
    raise first


_ANCESTRY = lazy(r"(?:[~^][0-9]*)+$")  # HEAD~3, main^2, v1^^


def _shallow_words(root: Path, rev: str, words: str, ci: bool | None) -> str:
    """Why ``rev`` is missing from a shallow clone: history cut off (``HEAD~1`` of a depth-1
    clone: fetch more) or a name that exists nowhere (a typo: no fetch depth helps)."""
    named = _ANCESTRY.sub("", rev)
    if named != rev and named and object_id(root, f"{named}^{{commit}}") is not None:
        cut = f"{named} is here, but not the history before it (a shallow clone)"
        return f"{words}: {cut}: {full_history(ci)}"
    if re.fullmatch(r"[0-9a-f]{4,39}", named):  # an abbreviated sha: maybe an older commit
        return f"{words}: no such commit here; a shallow clone lacks older ones: {full_history(ci)}"
    return (
        f"{words}: no branch, tag or commit has that name here or on origin "
        "(`git branch -a` and `git tag` list them)"
    )


def fetch_branch(root: Path, branch: str) -> str:
    """Fetch origin's ``branch`` into ``origin/BRANCH`` (its tip alone in a shallow clone)."""
    depth = 1 if commits.is_shallow(root) else None
    fetch(root, f"+refs/heads/{branch}:refs/remotes/origin/{branch}", depth=depth)
    return commits.resolve(root, f"origin/{branch}")


def merge_base(
    root: Path,
    first: str,
    second: str,
    sources: Sequence[str] = ("origin",),
    *,
    ci: bool | None = None,
) -> str:
    """The merge base of two revisions, deepening a shallow clone until it is there.

    ``sources`` are where ``second``'s history can be fetched from (another repository
    for a fork's base); ``first``'s comes from origin. ``ci`` as for ``commit``.
    """
    a, b = commit(root, first, ci=ci), commit(root, second, sources, ci=ci)
    try:
        return commits.merge_base(root, a, b)
    except GitError as exc:
        failure: GitError = exc
    if not commits.is_shallow(root):
        raise GitError(f"{git_words(failure)}: the histories are unrelated") from None
    for depth in DEEPEN:
        try:
            fetch(root, a, depth=depth)
            fetch(root, b, sources, depth=depth)
        except GitError as exc:
            raise GitError(
                f"the merge base of {first} and {second} is not in this shallow clone, and "
                f"deepening it failed ({exc}): {_fetch_fix(git_words(exc), ci)}"
            ) from None
        try:
            return commits.merge_base(root, a, b)
        except GitError as exc:
            failure = exc
        if not commits.is_shallow(root):
            break  # the whole history is here now: there is none
    raise GitError(
        f"no merge base of {first} and {second} within {DEEPEN[-1]} commits of this shallow "
        f"clone ({git_words(failure)}): {full_history(ci)}"
    ) from None


def _fetch_fix(words: str, ci: bool | None) -> str:
    """What fixes a fetch that failed, judged from what git said."""
    lowered = words.lower()
    if "does not appear to be a git repository" in lowered or "no such remote" in lowered:
        return (
            "this clone has no `origin` to fetch from: check the repository out with "
            "actions/checkout (or `git fetch` the commit before chunkgate runs)"
        )
    if any(
        marker in lowered
        for marker in ("could not read username", "authentication failed", "terminal prompts")
    ):
        return (
            "git has no credentials to fetch with (actions/checkout with "
            f"`persist-credentials: false`?): {FULL_HISTORY} instead"
        )
    if any(marker in lowered for marker in ("not our ref", "couldn't find remote ref", "no such")):
        return (
            "origin does not have it (a force-push rewrote it, or it lives in another "
            "repository): name a base that exists with the action's `base` input "
            "(e.g. `base: main...`)"
        )
    return f"check the network and the remote, or {full_history(ci)}"
