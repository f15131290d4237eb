"""Git's listings for a run, started before anything else is imported: the pre-commit
hook's of the named files, or a whole-corpus run's of the work tree.

``chunkgate check --hook FILES`` needs to know from git how the commit leaves
the named files (``git.hookfiles.NamedListing``): two git processes that each read the
whole index, 40-45 ms at 100,000 files. Started from the command, after
click's import and the command line's parsing, they were still running when
the run needed them; started here, first thing in the console script, they
run beside click's import and the rest.

The command line is read here only as far as the hook's own is plain
(``check``, flags without values, ``--option=value``, then paths). The command
uses the listing only if click's parsing gives the same paths; otherwise, or
when nothing was started, it starts its own (``named_listing``).

A whole-corpus ``check`` or ``update`` (no paths, flags without values or
``--option=value``) lists the work tree (``git.listings.WorkTreeListing``, 0.1-0.3 s at
10,000 files, 0.2-0.3 s at 100,000): started here, beside click's import, for
the corpus selection to take (benchmarks/README.md, speed machinery: a check after an
edit at 10,000 files, 2.76 s without, 2.19 s with, medians of 15 rounds).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from chunkgate.core.errors import ChunkgateError
from chunkgate.corpus.paths import relative_paths
from chunkgate.git import listings, process
from chunkgate.git.hookfiles import NamedListing

# A hook run on more files does not start its listings early: git matches every
# index entry against every path, and those the configuration leaves out would cost.
EARLY_PATHS = 64
_FLAGS = frozenset(("--hook", "--update", "--strict", "--show-known", "-q", "--quiet"))
_WHOLE_FLAGS = {
    "check": frozenset(("--all", "--update", "--strict", "--show-known", "-q", "--quiet")),
    "update": frozenset(("--accept-moves", "-q", "--quiet")),
}

_started: tuple[list[str], NamedListing] | None = None
_whole: listings.WorkTreeListing | None = None


def start(argv: Sequence[str]) -> None:
    """Start the listing for ``argv`` (the console script's arguments) if it is a plain
    hook run or a plain whole-corpus run; the command takes it with ``take`` or
    ``take_whole``."""
    global _started, _whole  # noqa: PLW0603 - one process, one command line
    if _is_whole(argv):
        try:
            root = process.find_root(Path.cwd())
            _whole = None if root is None else listings.WorkTreeListing(root)
        except (ChunkgateError, OSError):
            pass  # the command meets it again, and says what it is
        return
    paths = _hook_paths(argv)
    if paths is None:
        return
    try:
        listing = named_listing(paths)
    except (ChunkgateError, OSError):
        return  # the command meets it again, and says what it is
    if listing is not None:
        _started = (paths, listing)


def take(paths: Sequence[str]) -> NamedListing | None:
    """The listing ``start`` began, if it was for these paths (as click parsed them)."""
    global _started
    started, _started = _started, None
    if started is None or started[0] != list(paths):
        return None
    return started[1]


def take_whole() -> listings.WorkTreeListing | None:
    """The listing of the work tree that holds the working folder, if ``start`` began it."""
    global _whole
    started, _whole = _whole, None
    return started


def _is_whole(argv: Sequence[str]) -> bool:
    flags = _WHOLE_FLAGS.get(argv[0]) if argv else None
    return flags is not None and all(
        arg in flags or (arg.startswith("--") and "=" in arg and not arg.startswith("--config"))
        for arg in argv[1:]
    )


def _hook_paths(argv: Sequence[str]) -> list[str] | None:
    if not argv or argv[0] != "check" or "--hook" not in argv:
        return None
    paths: list[str] = []
    for index, arg in enumerate(argv[1:], 1):
        if arg == "--":
            return [*paths, *argv[index + 1 :]]
        if arg.startswith("--") and "=" in arg:
            continue
        if arg.startswith("-") and arg != "-":
            if arg not in _FLAGS:
                return None  # an option that takes a value, or --config: the command decides
            continue
        paths.append(arg)
    return paths


def named_listing(paths: Sequence[str]) -> NamedListing | None:
    """What git says about the files the hook was given, started now (``NamedListing``):
    files only, at most ``EARLY_PATHS``, in the work tree that holds the working folder."""

    if not paths or len(paths) > EARLY_PATHS:
        return None
    root = process.find_root(Path.cwd())
    if root is None:
        return None
    try:
        given = relative_paths(root, paths)
    except ChunkgateError:
        return None  # the run says why
    if any(path == "." or os.path.isdir(root / path) for path in given):
        return None
    return NamedListing(root, given)
