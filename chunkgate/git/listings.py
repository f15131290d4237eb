"""Git's lists of paths, ``-z`` all: the index (``ls-files``), what differs from it
(``diff-files``, ``diff-index``), the untracked files and a tree (``ls-tree``)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import GitError
from chunkgate.core.parallel import in_background
from chunkgate.core.regex import lazy
from chunkgate.git.objects import hash_blobs
from chunkgate.git.process import GitCommandError, decode, popen, run, split_z

REGULAR_MODES = ("100644", "100755")
GITLINK, SYMLINK = "160000", "120000"
# Keep command lines well under Windows' 32 KiB limit; pathspecs beyond it go in batches.
_ARGV_BUDGET = 24_000
# `ls-files -s -t` records: "<tag> <mode> <object> <stage>\t<path>", NUL-separated; the
# tag S marks a skip-worktree entry (outside a sparse checkout's cone).
LS_STAGE = ("ls-files", "-z", "-s", "-t")
_STAGE_RECORD = lazy(r"(\S) (\d+) ([0-9a-f]+) (\d)\t([^\0]*)")
_DIFF_FILES = ("diff-files", "-z", "--no-ext-diff")
_LS_UNTRACKED = ("ls-files", "-z", "-o", "--exclude-standard")


def _pathspec_batches(paths: Sequence[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for path in paths:
        if batch and size + len(path) > _ARGV_BUDGET:
            yield batch
            batch, size = [], 0
        batch.append(path)
        size += len(path) + 1
    if batch:
        yield batch


def _list(root: Path, args: Sequence[str], paths: Sequence[str] | None) -> Iterator[str]:
    """Records of a ``-z`` listing command, limited to literal pathspecs when given."""
    if paths is None:
        yield from split_z(run(root, *args))
        return
    for batch in _pathspec_batches(paths):
        yield from split_z(run(root, "--literal-pathspecs", *args, "--", *batch))


def index_blobs(root: Path, paths: Sequence[str] | None = None) -> dict[str, str]:
    """POSIX path → blob id of every regular file in the index (stage 0, else "ours")."""
    return index_entries(root, paths)[0]


def index_entries(
    root: Path, paths: Sequence[str] | None = None
) -> tuple[dict[str, str], set[str]]:
    """``index_blobs``, and the paths among them git keeps out of the work tree
    (skip-worktree: a sparse checkout's files outside its cone)."""
    return _index_entries("\0".join(_list(root, LS_STAGE, paths)))


def _index_entries(listing: str) -> tuple[dict[str, str], set[str]]:
    """``index_entries`` of an ``ls-files -z -s -t`` listing."""
    blobs: dict[str, str] = {}
    ours: dict[str, str] = {}
    skipped: set[str] = set()
    for tag, mode, oid, stage, path in _STAGE_RECORD.findall(listing):
        if mode in (GITLINK, SYMLINK):  # a submodule's gitlink is not a corpus file
            continue
        if tag == "S":
            skipped.add(path)
        if stage == "0":
            blobs[path] = oid
        elif stage == "2":
            ours[path] = oid
    for path, blob in ours.items():
        blobs.setdefault(path, blob)
    return blobs, skipped


def modified_paths(root: Path, paths: Sequence[str] | None = None) -> set[str]:
    """Tracked paths whose work tree file differs from the index, deleted ones included:
    what ``ls-files -m`` lists.

    ``diff-files`` trusts stat data, so it also reports files that were merely
    touched; those are compared by content (``hash-object``, with the path's
    filters) in one more process, and only when there are any. ``ls-files -m``
    itself is not used because given more than one pathspec it stats every
    tracked file, which on a hook run costs more than the rest of git's work.
    """
    return _modified(root, _list(root, _DIFF_FILES, paths))


def _modified(root: Path, records: Iterator[str]) -> set[str]:
    """``modified_paths`` of the records of a ``diff-files -z`` listing."""
    modified: set[str] = set()
    touched: dict[str, str] = {}  # path -> index blob, when only stat data differs
    for meta, path in zip(records, records, strict=True):  # records alternate: meta, path
        # ":<index mode> <work tree mode> <index blob> <work tree blob> <status>"
        index_mode, tree_mode, index_blob, tree_blob, status = meta[1:].split(" ")
        unhashed = tree_blob.strip("0") == "" and index_blob.strip("0") != ""
        if status == "M" and unhashed and index_mode == tree_mode in REGULAR_MODES:
            touched.setdefault(path, index_blob)
        else:
            modified.add(path)
    candidates = [path for path in touched if path not in modified]
    if candidates:
        hashed = hash_blobs(root, candidates)
        modified.update(path for path in candidates if hashed.get(path) != touched[path])
    return modified


class WorkTree(NamedTuple):
    """The whole work tree as a whole-corpus run lists it, for the parts that need it."""

    blobs: dict[str, str]  # ``index_blobs``
    modified: set[str]  # ``modified_paths``
    untracked: list[str]  # ``untracked_paths``


class WorkTreeListing:
    """What a whole-corpus run asks git about the work tree, asked at once: the index
    (``ls-files -s -t``), the tracked files that differ from it (``diff-files``) and the
    untracked ones, three processes side by side (each mostly waits on the file system).
    ``raw`` is what git printed, by which a run recognises a work tree it has seen."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._index = in_background(run, root, *LS_STAGE)
        self._diff = in_background(run, root, *_DIFF_FILES)
        self._others = in_background(run, root, *_LS_UNTRACKED)
        self._modified: set[str] | None = None
        self._untracked: list[str] | None = None

    def raw(self) -> tuple[bytes, bytes, bytes]:
        return self._index(), self._diff(), self._others()

    def entries(self) -> tuple[dict[str, str], set[str]]:
        """``index_entries``."""
        return _index_entries(decode(self._index()))

    def modified(self) -> set[str]:
        """``modified_paths``."""
        if self._modified is None:
            self._modified = _modified(self.root, split_z(self._diff()))
        return self._modified

    def untracked(self) -> list[str]:
        """``untracked_paths``."""
        if self._untracked is None:
            self._untracked = _untracked(split_z(self._others()))
        return self._untracked

    def differing(self) -> list[str]:
        """Every path ``diff-files`` names (a file merely touched too) and the untracked
        ones: the files whose bytes the index does not tell."""
        records = list(split_z(self._diff()))
        return [*records[1::2], *self.untracked()]


class Staged(NamedTuple):
    """One path the index holds differently from HEAD (``diff-index --cached`` raw)."""

    status: str  # A, M, T (the index's mode and blob follow), D (gone), U (unmerged)
    mode: str
    blob: str


def staged_changes(root: Path) -> dict[str, Staged] | None:
    """Every path whose index entry differs from HEAD's, a rename as a deletion and an
    addition; None before the first commit. Compares the index with HEAD's tree, so its
    cost follows the change."""
    args = ("diff-index", "--cached", "--no-renames", "-z", "HEAD")
    try:
        out = run(root, *args)
    except GitCommandError as exc:
        if exc.returncode == 128:  # no HEAD to compare with
            return None
        raise
    records = list(split_z(out))
    changes: dict[str, Staged] = {}
    for meta, path in zip(records[::2], records[1::2], strict=True):  # meta, path
        # ":<HEAD mode> <index mode> <HEAD blob> <index blob> <status>"
        _, mode, _, blob, status = meta[1:].split(" ")
        changes[path] = Staged(status[:1], mode, blob)
    return changes


def staged_deletions(root: Path) -> list[str]:
    """Paths the index no longer has that HEAD has (a rename's old path included): what a
    commit deletes."""
    return deleted(staged_changes(root))


def deleted(changes: dict[str, Staged] | None) -> list[str]:
    """The deletions among ``staged_changes``."""
    return [path for path, change in (changes or {}).items() if change.status == "D"]


def index_matches(root: Path, rev: str, folder: str) -> bool:
    """Whether the index holds exactly ``rev``'s tree under ``folder`` (``diff --cached
    --quiet``: it stops at the first difference; a conflict is one)."""
    args = ("--literal-pathspecs", "diff", "--cached", "--quiet", "--no-renames")
    proc = popen(
        root,
        (*args, "--end-of-options", rev, "--", folder),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc.wait() == 0


def untracked_paths(root: Path, paths: Sequence[str] | None = None) -> list[str]:
    """Untracked files that no ignore rule excludes (nested repositories left out)."""
    return _untracked(_list(root, _LS_UNTRACKED, paths))


def _untracked(records: Iterable[str]) -> list[str]:
    # A nested repository is listed as its folder, with a trailing slash.
    return [record for record in records if not record.endswith("/")]


def tree_blobs(root: Path, rev: str, paths: Sequence[str] = ()) -> dict[str, str]:
    """POSIX path → blob id of every regular file in the tree of ``rev`` (under ``paths``,
    literal folders or files, when given)."""
    limit = ["--", *paths] if paths else []
    try:
        out = run(
            root,
            "--literal-pathspecs",
            "ls-tree",
            "-r",
            "-z",
            "--full-tree",
            "--end-of-options",
            rev,
            *limit,
        )
    except GitCommandError as exc:
        if "not a valid object name" in exc.stderr.lower():
            raise GitError(f"git ls-tree: unknown revision {rev!r}") from None
        raise
    blobs: dict[str, str] = {}
    for record in split_z(out):
        meta, _, path = record.partition("\t")
        mode, kind, oid = meta.split(" ")
        if kind == "blob" and mode in REGULAR_MODES:
            blobs[path] = oid
    return blobs


def head_entries(root: Path, paths: list[str]) -> dict[str, tuple[str, str]] | None:
    """Path -> (mode, blob) of HEAD's blobs under ``paths``, whatever their mode (trees
    only, no index); None without a HEAD."""
    args = ("--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", "HEAD", "--")
    try:
        out = run(root, *args, *paths)
    except GitCommandError:
        return None
    entries: dict[str, tuple[str, str]] = {}
    for record in split_z(out):
        meta, _, path = record.partition("\t")
        mode, kind, oid = meta.split(" ")
        if kind == "blob":
            entries[path] = (mode, oid)
    return entries


def ignored_by(root: Path, path: str) -> str | None:
    """The ignore rule that makes git leave ``path`` (a folder) out of ``git add``, as
    ``.gitignore:31: *.manifest``; None when git would add it (or cannot tell)."""
    try:
        found = run(root, "check-ignore", "-v", "--no-index", "--", path + "/", check=False)
    except GitError:
        return None
    source, _, rest = decode(found).partition("\t")[0].partition(":")
    line, _, pattern = rest.partition(":")
    if not source or not line or pattern.startswith("!"):
        return None
    return f"{source}:{line}: {pattern}"
