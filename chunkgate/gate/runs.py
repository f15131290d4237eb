"""``check`` and ``update`` as a user starts them: which files (the named ones, or the whole
corpus with git's listing of the work tree), which configuration and rules, which baseline."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from chunkgate.config.load import load_config
from chunkgate.config.model import Config, with_rules
from chunkgate.core.model import CheckResult
from chunkgate.corpus import paths as corpus_paths
from chunkgate.gate import run_check
from chunkgate.git import commits, hookfiles, listings, process
from chunkgate.hooks import start as hookstart
from chunkgate.hooks.baseline import hook_baseline, hook_note


class Checked(NamedTuple):
    result: CheckResult
    output: Path | None  # the report file, checked: never a corpus file or the manifest


def check_run(
    paths: Sequence[str],
    *,
    whole: bool,
    hook: bool,
    update: bool,
    jobs: int,
    baseline: str | None,
    select: str | None,
    ignore: str | None,
    strict: bool,
    show_known: bool,
    config_path: Path | None,
    output: Path | None,
    listing: hookfiles.NamedListing | None,
    env: Mapping[str, str],
    show_unverified: bool = False,
    site: Path | None = None,
) -> Checked:
    """``chunkgate check``: the named files (always, with ``hook``) or the whole corpus.
    ``listing`` is git's listing of the hook's files, started before this module's imports."""
    named = list(paths) if hook or (paths and not whole) else None
    run_listing: hookfiles.NamedListing | listings.WorkTreeListing | None = listing
    if named is None:
        loaded, run_listing = _load_whole(config_path)
    else:
        loaded = _load(config_path, list(paths) if hook else None)
    config = with_rules(loaded, select=select, ignore=ignore, strict=strict)
    if site is not None:
        config = dataclasses.replace(config, site=site.resolve())
    if output is not None:
        output = _output_path(config, output)
    revision, note = _baseline(config.root, baseline, env)
    result = run_check(
        config,
        named,
        update=update,
        jobs=jobs,
        baseline=revision,
        hold_moves=update,  # the hook: an autofix commit must not make a move pass
        listing=run_listing,
    )
    if note and result.violations:
        result = result._replace(notes=(*result.notes, note))
    if show_known:
        result = result.with_known()
    if hook:  # pre-commit names every staged file: saying why each is no corpus file is noise
        result = result._replace(outside=())
    return Checked(result._replace(listing=show_unverified), output)


def update_run(
    paths: Sequence[str],
    *,
    accept_moves: bool,
    jobs: int,
    baseline: str | None,
    config_path: Path | None,
    env: Mapping[str, str],
) -> CheckResult:
    """``chunkgate update``: rewrite the manifest entries of the named files, or of all."""
    listing = None
    if paths:
        config = _load(config_path)
    else:
        config, listing = _load_whole(config_path)
    return run_check(
        config,
        list(paths) or None,
        listing=listing,
        update=True,
        accept_moves=accept_moves,
        jobs=jobs,
        baseline=_baseline(config.root, baseline, env)[0],
    )


def _load(config_path: Path | None, hook_files: Sequence[str] | None = None) -> Config:
    return load_config(Path.cwd(), config_path=config_path, hook_files=hook_files)


def _load_whole(config_path: Path | None) -> tuple[Config, listings.WorkTreeListing | None]:
    """The configuration of a run over the whole corpus, and git's listing of the work
    tree, started first: its untracked files are the untracked site configs the
    configuration looks for, and the run's corpus (one walk of the tree, not two)."""
    listing = hookstart.take_whole()
    if listing is None:
        root = process.find_root(Path.cwd()) if process.installed() else None
        listing = None if root is None else listings.WorkTreeListing(root)
    return load_config(Path.cwd(), config_path=config_path, listing=listing), listing


def _baseline(root: Path, given: str | None, env: Mapping[str, str]) -> tuple[str, str]:
    """The baseline revision (``--baseline``, pre-commit's from-ref, else HEAD) and a note
    that says how to record moves against it, when it is not HEAD."""
    if given is not None:
        return commits.resolve(root, given), ""
    if not env.get("PRE_COMMIT_FROM_REF"):  # pre-commit run --from-ref/--to-ref
        return "HEAD", ""
    revision = hook_baseline(root, env)
    return revision, hook_note(revision)


def _output_path(config: Config, output: Path) -> Path:
    """``-o FILE``: inside the work tree, never a corpus file, the manifest or under .git."""
    relative = corpus_paths.relative_to_root(config.root, output)
    return corpus_paths.allowed(
        config.root,
        relative,
        what="-o",
        read_by=config.reads,
        fix="name a new report file, or redirect the output (> FILE)",
    )
