"""``check`` and ``update``: chunk the corpus, apply the rules, keep the manifest.

``run_check`` is the one entry point; ``run.checked`` does the work.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkgate.config.model import Config
from chunkgate.core.model import CheckResult
from chunkgate.gate.load import expected_header
from chunkgate.gate.run import checked
from chunkgate.git import hookfiles, listings

__all__ = ["expected_header", "run_check"]


def run_check(
    config: Config,
    paths: Sequence[str] | None = None,
    *,
    update: bool = False,
    accept_moves: bool = False,
    jobs: int = 1,
    baseline: str = "HEAD",
    hold_moves: bool = False,
    known_from: str | None = None,
    listing: hookfiles.NamedListing | listings.WorkTreeListing | None = None,
) -> CheckResult:
    """Check the corpus (or the named files) against the rules and the manifest.

    With ``update``, rewrite the shards of the files checked (all, when no
    paths are given) under a lock, so that concurrent invocations never lose
    each other's entries. ``baseline`` is the revision whose committed
    manifest holds the IDs to keep stable. ``hold_moves`` (the hook) leaves the
    entries of files with an unacknowledged move as they were, so that no
    commit of the rewritten manifest (an autofix bot's) can make the move pass.
    ``known_from`` is the revision whose manifest records the known problems (the
    baseline's, unless given: CI names the pull request's base). ``listing`` is what
    git says about ``paths`` (the hook starts it before loading the configuration), or
    about the whole work tree, asked for already.
    """
    writing = update or accept_moves
    whole = listing if isinstance(listing, listings.WorkTreeListing) else None
    if whole is not None and (paths is not None or whole.root != config.root):
        whole = None
    named_listing = listing if isinstance(listing, hookfiles.NamedListing) else None
    return checked(
        config,
        paths,
        writing=writing,
        accept_moves=accept_moves,
        jobs=jobs,
        baseline=baseline,
        hold_moves=hold_moves,
        known_from=known_from,
        listing=named_listing,
        whole=whole,
    )
