"""One ``check`` or ``update`` run over the corpus, in pieces with one job each, state
passed as values:

- ``load``: the current manifest (the work tree's folder) and the baseline
  (the one committed at ``HEAD``, or the revision CI compares against);
- ``assess``: whether the current entries can be trusted as they are;
- ``scope``: which files to check, which are known, which are gone;
- then ``rebuild`` (an update with nothing to compare with: it streams) or
  ``incremental`` (the files of the scope checked, the rule families' file
  checks in ``filecheck``, the manifest and corpus rules, the shards written).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack

from chunkgate.chunking.extras import missing_extras
from chunkgate.config.model import Config
from chunkgate.core.model import CheckResult
from chunkgate.core.parallel import in_background
from chunkgate.corpus.paths import manifest_folder
from chunkgate.corpus.select import select_with_tree
from chunkgate.gate.assess import assess
from chunkgate.gate.incremental import incremental
from chunkgate.gate.load import expected_header, load
from chunkgate.gate.rebuild import rebuild
from chunkgate.gate.scope import scope_files, scope_whole
from chunkgate.git import hookfiles, listings
from chunkgate.git.attributes import gitattributes_flags
from chunkgate.manifest import SummaryCache, manifest_lock

__all__ = ["checked"]


def checked(
    config: Config,
    paths: Sequence[str] | None,
    *,
    writing: bool,
    accept_moves: bool,
    jobs: int,
    baseline: str,
    hold_moves: bool,
    known_from: str | None,
    listing: hookfiles.NamedListing | None,
    whole: listings.WorkTreeListing | None,
) -> CheckResult:
    """``run_check``'s work: the scope of the run decided, then a rebuild or an
    incremental run over it."""
    with ExitStack() as stack:
        if writing:
            folder = manifest_folder(config.root, config.manifest, writing=True)
            folder.parent.mkdir(parents=True, exist_ok=True)  # the lock sits beside it
            stack.enter_context(manifest_lock(folder))
        loaded = load(config, stack, baseline=baseline, known_from=known_from, writing=writing)
        expected = expected_header(config, loaded.header)
        state = assess(config, loaded, expected, writing=writing)
        explicit = paths is not None and not state.rebuild
        # Each of the hook's git processes reads the whole index (0.05-0.08 s at 100,000
        # files): what the commit deletes and the files' attributes are asked for beside
        # the listing, not after it (or were, before the run: ``listing``).
        in_git = explicit and loaded.reader is not None
        if not in_git or (listing is not None and listing.root != config.root):
            listing = None
        deletions = None
        if listing is not None:
            deletions = listing.deletions
        elif in_git:
            deletions = in_background(listings.staged_deletions, config.root)
        # A whole-corpus run takes the baseline's listing from the work tree's when the
        # index holds the baseline's folder as it is (no `ls-tree` of every shard).
        as_staged = None
        if not explicit and loaded.baseline is not None:
            as_staged = in_background(
                listings.index_matches, config.root, loaded.baseline.rev, config.manifest
            )
        selection, tree = select_with_tree(
            config, paths if explicit else None, listing=listing if explicit else whole
        )
        cache = SummaryCache(config.root, config.manifest)
        attributes = None
        if in_git and selection.files:
            named = [file.path for file in selection.files]
            if listing is not None and set(named) <= set(listing.paths):
                attributes = listing.attributes
            else:
                attributes = in_background(gitattributes_flags, config.root, named)
        if explicit:
            scope = scope_files(config, loaded, selection, deletions() if deletions else [])
        else:
            if tree is not None and loaded.current.in_git:
                loaded.current.list_from(tree)
                if loaded.baseline is not None and as_staged is not None and as_staged():
                    loaded.baseline.list_from_index(loaded.current, tree)
            summaries = loaded.current.summaries(cache, loaded.reader)
            scope = scope_whole(
                config,
                loaded,
                selection,
                summaries,
                cache=state.findings_ok and not loaded.legacy,
                settings=expected.digest(),
            )
        if writing and not explicit and loaded.baseline is None and not scope.cached:
            result = rebuild(config, loaded, scope, state, expected, jobs=jobs)
        else:
            result = incremental(
                config,
                loaded,
                scope,
                state,
                expected,
                writing=writing,
                accept_moves=accept_moves,
                explicit=explicit,
                jobs=jobs,
                hold_moves=hold_moves,
                attributes=attributes,
            )
        if not explicit:
            cache.save()
        # One note per optional extra the corpus needs and this installation lacks.
        extras = missing_extras(file.path for file in selection.files)
        if writing and loaded.record is None and result.violations and not config.strict:
            extras.insert(0, ADOPTING)
        result = result._replace(
            summary=result.summary._replace(files=len(selection.files)),
            notes=(*result.notes, *extras),
            outside=selection.outside,
        )
        return result


ADOPTING = (
    "no manifest is committed yet: once this one is, the problems it records are known "
    "(listed in one line, failing nothing until fixed; `--strict` fails on them), and only "
    "new ones fail"
)


ADOPTING = (
    "no manifest is committed yet: once this one is, the problems it records are known "
    "(listed in one line, failing nothing until fixed; `--strict` fails on them), and only "
    "new ones fail"
)
