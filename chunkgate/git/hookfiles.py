"""What git says about the few files a pre-commit hook run names, settled from HEAD's
tree and the staged changes where it can be, so that no process reads the whole index twice."""

from __future__ import annotations

from pathlib import Path

from chunkgate.core.parallel import in_background
from chunkgate.git import listings
from chunkgate.git.attributes import files_above, gitattributes_flags
from chunkgate.git.objects import file_blob, hash_blobs, is_regular_file


class NamedListing:
    """What git says about the files a hook run names, asked for before the run needs it.

    The paths are every one given, root-relative: those the configuration leaves
    out are dropped from the answers by the selection, as from any listing.

    Each git process that reads the index reads all of it (0.04-0.07 s of CPU at
    100,000 files, where the index holds the shards too), so the hook starts
    two, beside the imports and the configuration: the staged changes (what the
    commit deletes, and the index's blob of each staged file) and the attributes.
    A named file the commit leaves as it is has HEAD's blob, from HEAD's tree
    (``ls-tree``, which reads no index). Whether the work tree file differs from
    its index blob is decided by hashing its bytes, and by git's filters (one
    ``hash-object``) only for the files whose bytes differ. A named path this
    cannot settle (no HEAD; not a regular file; missing; unmerged; neither in
    HEAD nor staged) sends the listing to ``index_entries`` and
    ``modified_paths``, which ask the index itself.
    """

    def __init__(self, root: Path, paths: list[str]) -> None:
        self.root = root
        self.paths = paths
        self._staged = in_background(listings.staged_changes, root)
        self._attribute_files = files_above(paths)
        self._head = in_background(listings.head_entries, root, [*paths, *self._attribute_files])
        self.attributes = in_background(self._attributes)
        self._answers: tuple[dict[str, str], set[str]] | None = None

    def _attributes(self) -> dict[str, set[str]]:
        """``gitattributes_flags`` of the paths, without the index when git would take no
        ``.gitattributes`` from it."""
        return gitattributes_flags(self.root, self.paths, index=self._attributes_in_index())

    def _attributes_in_index(self) -> bool:
        """Whether git may read a ``.gitattributes`` of the paths' folders from the index:
        it does for a folder whose work tree file it cannot read (missing, a symlink...),
        so when such a file is in HEAD or staged, or there is no HEAD to tell."""
        changes, committed = self._staged(), self._head()
        if changes is None or committed is None or not (self.root / ".git").is_dir():
            return True
        for name in self._attribute_files:
            if is_regular_file(self.root / name):
                continue  # git reads the work tree's
            change = changes.get(name)
            if change.status != "D" if change is not None else name in committed:
                return True
        return False

    def deletions(self) -> list[str]:
        """``staged_deletions``."""
        return listings.deleted(self._staged())

    def entries(self) -> tuple[dict[str, str], set[str]]:
        """``index_entries`` of the paths."""
        return self._answer()[0], set()

    def modified(self) -> set[str]:
        """``modified_paths`` of the paths."""
        return self._answer()[1]

    def _answer(self) -> tuple[dict[str, str], set[str]]:
        if self._answers is None:
            self._answers = self._settled() or self._asked()
        return self._answers

    def _asked(self) -> tuple[dict[str, str], set[str]]:
        modified = in_background(listings.modified_paths, self.root, self.paths)
        blobs, _ = listings.index_entries(self.root, self.paths)
        return blobs, modified()

    def _settled(self) -> tuple[dict[str, str], set[str]] | None:
        changes, head = self._staged(), self._head()
        if changes is None or head is None:
            return None
        regular = listings.REGULAR_MODES
        committed = {path: oid for path, (mode, oid) in head.items() if mode in regular}
        blobs: dict[str, str] = {}
        for path in self.paths:
            change = changes.get(path)
            if change is None:
                blob = committed.get(path)
            elif change.status == "D":
                continue  # not in the index (a file there now is untracked)
            elif change.status in ("A", "M", "T") and change.mode in listings.REGULAR_MODES:
                blob = change.blob
            else:
                return None
            if blob is None or len(blob) != 40:  # neither in HEAD nor staged; or SHA-256
                return None
            blobs[path] = blob
        differing = []
        for path, blob in blobs.items():
            digest = file_blob(self.root / path)
            if digest is None:
                return None
            if digest != blob:
                differing.append(path)
        hashed = hash_blobs(self.root, differing)
        return blobs, {path for path in differing if hashed.get(path) != blobs[path]}
