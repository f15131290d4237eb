"""``check`` and ``update``: chunk the corpus, apply the rules, keep the manifest.

``run_check`` is the one entry point. A read-only run over the whole corpus
first asks ``memo`` whether nothing it reads has changed since the last one,
and answers as that one did; this module imports no more than that needs, so
such a run costs little more than git's listing of the work tree. Any other
run is ``run.checked``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chunkgate.config.model import Config
from chunkgate.core.model import CheckResult
from chunkgate.git import hookfiles, listings, process

if TYPE_CHECKING:
    from chunkgate.manifest import Header

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

    A read-only run over the whole corpus answers as the last one did when nothing it
    reads has changed since (``memo``).
    """
    writing = update or accept_moves
    whole = listing if isinstance(listing, listings.WorkTreeListing) else None
    if whole is not None and (paths is not None or whole.root != config.root):
        whole = None
    memo = None
    if not writing and paths is None and (config.root / ".git").exists() and process.installed():
        from chunkgate.gate.memo import RunMemo

        whole = whole or listings.WorkTreeListing(config.root)
        memo = RunMemo(config, whole, baseline=baseline, known_from=known_from)
        kept = memo.answer()
        if kept is not None:
            return kept
    named_listing = listing if isinstance(listing, hookfiles.NamedListing) else None
    from chunkgate.gate import run

    result, of_the_corpus = run.checked(
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
    if memo is not None and of_the_corpus:
        memo.keep(result)
    return result


def expected_header(config: Config) -> Header:
    """The header a manifest made now, with these settings, has."""
    from chunkgate.gate.load import expected_header as made

    return made(config)
