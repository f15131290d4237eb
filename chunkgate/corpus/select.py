"""Which files chunkgate looks at: the corpus of SPEC §3.

In a git repository the corpus comes from the index (plus untracked files no
ignore rule excludes); elsewhere from walking the folder, honouring every
``.gitignore`` on the way. Either way it is filtered by the config's
include/exclude, symlinks are skipped, and paths are root-relative POSIX
strings sorted by their UTF-8 bytes.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import pathspec

from chunkgate.config.model import Config
from chunkgate.core.model import Outside
from chunkgate.core.parallel import in_background
from chunkgate.corpus.paths import relative_paths
from chunkgate.git import hookfiles, listings, process


class SelectedFile(NamedTuple):
    path: str
    blob: str | None  # the index blob when the work tree file matches it, else None


class Selection(NamedTuple):
    files: tuple[SelectedFile, ...]
    missing: tuple[str, ...] = ()  # explicit or tracked paths with no file: deletions
    explicit: bool = False
    named: tuple[str, ...] = ()  # the explicit paths, root-relative
    unselected: tuple[str, ...] = ()  # explicit files that exist but the config leaves out
    outside: tuple[Outside, ...] = ()  # explicit paths not in the corpus, and why
    # Tracked files git keeps out of the work tree (a sparse checkout): neither read nor
    # deleted; their manifest entries stay as recorded.
    sparse: frozenset[str] = frozenset()

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(file.path for file in self.files)


def select_files(
    config: Config, paths: Sequence[str] | None = None, *, include_untracked: bool = True
) -> Selection:
    """The corpus, or the part of it named by ``paths`` (relative to cwd, or absolute)."""
    return _select(config, paths, include_untracked, [])


def select_with_tree(
    config: Config,
    paths: Sequence[str] | None = None,
    *,
    listing: hookfiles.NamedListing | listings.WorkTreeListing | None = None,
) -> tuple[Selection, listings.WorkTree | None]:
    """``select_files``, and (the whole corpus, in git) the work tree as git listed it, of
    which the manifest folder's listing is a part. ``listing``: git's answers about
    ``paths``, or about the whole work tree, asked for already."""
    trees: list[listings.WorkTree] = []
    return _select(config, paths, True, trees, listing), trees[0] if trees else None


def _select(
    config: Config,
    paths: Sequence[str] | None,
    include_untracked: bool,
    trees: list[listings.WorkTree],
    listing: hookfiles.NamedListing | listings.WorkTreeListing | None = None,
) -> Selection:
    root = config.root
    named = None
    unselected: list[str] = []
    outside: list[Outside] = []
    if isinstance(listing, listings.WorkTreeListing) and (
        paths is not None or listing.root != root
    ):
        listing = None
    if paths is not None:
        given = relative_paths(root, paths)
        if isinstance(listing, hookfiles.NamedListing) and (listing.root, listing.paths) != (
            root,
            given,
        ):
            listing = None
        # Pre-commit passes every staged text file: drop the ones the config never
        # selects before asking git about them. Folders stay, to be expanded.
        named = []
        for path in given:
            why = config.left_out(path)
            if why is None or path == "." or (root / path).is_dir():
                named.append(path)
            elif os.path.lexists(root / path):
                unselected.append(path)
                outside.append(Outside(path, why))
            else:
                outside.append(Outside(path, NO_FILE))
    sparse: set[str] = set()
    in_git = _is_work_tree(root)
    if in_git:
        found, missing = _from_git(
            root,
            named,
            include_untracked=include_untracked,
            sparse=sparse,
            trees=trees,
            listing=listing,
        )
    else:
        found, missing = _from_walk(root, named)
    if named is not None:
        absent = {path for path in named if path not in sparse and not os.path.lexists(root / path)}
        outside += _unlisted(root, named, found.keys() | absent | sparse, in_git=in_git)
        outside += [Outside(path, NO_FILE) for path in absent - missing]  # not even tracked
        missing |= absent
    chosen = config.selected(found)
    chosen.sort(key=_sort_key)
    blobs = map(found.__getitem__, chosen)
    return Selection(
        files=tuple(map(SelectedFile._make, zip(chosen, blobs, strict=True))),
        missing=tuple(sorted(config.selected(missing), key=_sort_key)),
        explicit=named is not None,
        named=tuple(named or ()),
        unselected=tuple(unselected),
        outside=tuple(sorted(outside)),
        sparse=frozenset(sparse),
    )


NO_FILE = "no such file"


def _unlisted(
    root: Path, named: Sequence[str], listed: Collection[str], *, in_git: bool
) -> list[Outside]:
    """The named files that exist and include/exclude select, yet the listing left out:
    ignored ones (a symbolic link is named by its target, ``relative_paths``)."""
    why = "git ignores it (`git check-ignore -v PATH` names the rule)"
    if not in_git:
        why = "a .gitignore file ignores it"
    return [
        Outside(path, why)
        for path in named
        if path != "." and path not in listed and not os.path.isdir(os.path.join(root, path))
    ]


def _sort_key(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _is_work_tree(root: Path) -> bool:
    # config.root is the top of the work tree whenever there is one, so .git sits there.
    return os.path.lexists(root / ".git") and process.installed()


def _from_git(
    root: Path,
    named: list[str] | None,
    *,
    include_untracked: bool,
    sparse: set[str],
    trees: list[listings.WorkTree],
    listing: hookfiles.NamedListing | listings.WorkTreeListing | None,
) -> tuple[dict[str, str | None], set[str]]:
    if named is not None and not named:
        return {}, set()
    pathspecs = None if named is None or "." in named else named
    untracked = None
    if listing is not None:  # of every path given: what the selection leaves out drops
        modified = listing.modified
        blobs, skipped = listing.entries()
        if include_untracked and isinstance(listing, listings.WorkTreeListing):
            untracked = listing.untracked
    else:
        # The listings are independent; each git process mostly waits on the file
        # system, so running them side by side costs about as much as the slowest one.
        modified = in_background(listings.modified_paths, root, pathspecs)
        if include_untracked and pathspecs is None:
            untracked = in_background(listings.untracked_paths, root, None)
        blobs, skipped = listings.index_entries(root, pathspecs)
    found: dict[str, str | None] = dict(blobs)
    missing: set[str] = set()
    # os.path on strings: a pathlib join per file costs more than the lstat.
    top = os.fspath(root)
    for path in skipped:
        if path in found and not os.path.lexists(os.path.join(top, path)):
            del found[path]
            sparse.add(path)
    for path in modified():
        if path not in found:
            continue
        if not os.path.lexists(os.path.join(top, path)):
            del found[path]
            missing.add(path)
        elif os.path.islink(os.path.join(top, path)):
            del found[path]  # a tracked file replaced by a symlink
        else:
            found[path] = None
    if include_untracked and untracked is None and pathspecs is not None:
        # Explicit paths that are all tracked files (what pre-commit passes) need no
        # listing of untracked files at all.
        rest = [
            path
            for path in pathspecs
            if path not in found
            and path not in missing
            and os.path.lexists(os.path.join(top, path))
        ]
        if rest:
            untracked = in_background(listings.untracked_paths, root, rest)
    if untracked is not None:
        for path in untracked():
            if not os.path.islink(os.path.join(top, path)):
                found[path] = None
        if pathspecs is None:
            trees.append(listings.WorkTree(blobs, modified(), untracked()))
    return found, missing


def _from_walk(root: Path, named: list[str] | None) -> tuple[dict[str, str | None], set[str]]:
    ignores = _Ignores(root)
    found: dict[str, str | None] = {}
    starts = [""] if named is None else ["" if path == "." else path for path in named]
    for start in starts:
        parts = start.split("/") if start else []
        if ".git" in parts or any(
            ignores.ignored("/".join(parts[: i + 1]), is_dir=True) for i in range(len(parts) - 1)
        ):
            continue
        full = root / start
        if full.is_symlink():
            continue
        if full.is_dir():
            if not start or not ignores.ignored(start, is_dir=True):
                found.update(dict.fromkeys(ignores.walk(start)))
        elif full.is_file() and not ignores.ignored(start, is_dir=False):
            found[start] = None
    return found, set()


def gitignored(root: Path, path: str, *, is_dir: bool) -> bool:
    """Whether the ``.gitignore`` files of the tree at ``root`` ignore ``path``, tracked
    or not (the denylist asks it of build folders committed below the root)."""
    return _ignores(root).ignored(path, is_dir=is_dir)


@functools.lru_cache(maxsize=4)
def _ignores(root: Path) -> _Ignores:
    return _Ignores(root)


class _Ignores:
    """The ``.gitignore`` files of a tree, read by hand (outside git, or for tracked
    files, which git does not check against them).

    A deeper ``.gitignore`` overrides a shallower one, and nothing inside an
    ignored folder can be re-included, as in git.
    """

    def __init__(self, root: Path) -> None:
        self._root = root
        self._chains: dict[str, tuple[tuple[str, _Rules], ...]] = {}

    def _chain(self, folder: str) -> tuple[tuple[str, _Rules], ...]:
        chain = self._chains.get(folder)
        if chain is None:
            parent = () if not folder else self._chain(folder.rpartition("/")[0])
            rules = _Rules.load(self._root / folder / ".gitignore")
            chain = parent if rules is None else (*parent, (folder, rules))
            self._chains[folder] = chain
        return chain

    def ignored(self, path: str, *, is_dir: bool) -> bool:
        folder = path.rpartition("/")[0]
        for base, rules in reversed(self._chain(folder)):
            relative = path[len(base) + 1 :] if base else path
            verdict = rules.verdict(relative + "/" if is_dir else relative)
            if verdict is not None:
                return verdict
        return False

    def walk(self, folder: str) -> Iterator[str]:
        try:
            with os.scandir(self._root / folder) as scan:
                entries = list(scan)
        except OSError:
            return
        prefix = f"{folder}/" if folder else ""
        for entry in entries:
            path = prefix + entry.name
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                if entry.name != ".git" and not self.ignored(path, is_dir=True):
                    yield from self.walk(path)
            elif entry.is_file(follow_symlinks=False) and not self.ignored(path, is_dir=False):
                yield path


class _Rules(NamedTuple):
    spec: pathspec.GitIgnoreSpec
    # The same patterns with negations dropped: tells whether any pattern matches at
    # all, which decides whether this file has a say or its parent's does.
    probe: pathspec.GitIgnoreSpec

    @classmethod
    def load(cls, path: Path) -> _Rules | None:
        try:
            lines = path.read_text("utf-8", "surrogateescape").splitlines()
        except OSError:
            return None
        patterns = [line for line in lines if line.strip() and not line.startswith("#")]
        if not patterns:
            return None
        positive = [line[1:] if line.startswith("!") else line for line in patterns]
        return cls(_compile(patterns), _compile(positive))

    def verdict(self, path: str) -> bool | None:
        if not self.probe.match_file(path):
            return None
        return self.spec.match_file(path)


def _compile(lines: Sequence[str]) -> pathspec.GitIgnoreSpec:
    """The patterns of one ignore file; a line pathspec cannot read is skipped, as git
    skips a malformed line, and the others still apply."""
    import pathspec  # only outside git, where .gitignore files are read by hand

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:  # pathspec's pattern error
        valid = []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except ValueError:
                continue
            valid.append(line)
        return pathspec.GitIgnoreSpec.from_lines(valid)
