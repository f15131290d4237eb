"""The baseline of a hook run: whose committed manifest holds the IDs to keep stable.

A commit compares with ``HEAD``'s manifest. ``pre-commit run --from-ref A
--to-ref B`` (in CI, or as a pre-push hook) checks the files changed between
the merge base of A and B and B, and sets ``PRE_COMMIT_FROM_REF`` and
``PRE_COMMIT_TO_REF``: the baseline is then that merge base, as pre-commit's
own file list is (``git diff A...B``, or ``A..B`` when there is none). So a
move committed with ``--no-verify``, manifest rewritten and all, is still
CG402 against the range's start until ``moved_from`` records it; no later
commit of a rewritten manifest (an autofix) can make it pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from chunkgate.core.errors import GitError
from chunkgate.git import commits

HEAD = "HEAD"


def hook_baseline(root: Path, env: Mapping[str, str]) -> str:
    from_ref = env.get("PRE_COMMIT_FROM_REF", "").strip()
    to_ref = env.get("PRE_COMMIT_TO_REF", "").strip()
    if not from_ref or not to_ref:
        return HEAD
    try:
        return commits.merge_base(root, from_ref, to_ref)
    except GitError as exc:
        if "no common ancestor" not in str(exc):
            raise GitError(f"PRE_COMMIT_FROM_REF {from_ref!r}: {exc}") from None
    return commits.resolve(root, from_ref)


def hook_note(revision: str) -> str:
    return (
        f"chunk IDs compared with the manifest at {revision[:12]}, the start of "
        "PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF; record intended moves with "
        f"`chunkgate update --accept-moves --baseline {revision[:12]}`"
    )
