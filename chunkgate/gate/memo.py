"""A whole-corpus check's answer, kept for the next run with the same inputs.

A read-only check of the whole corpus is a function of what it reads: the
index, the work tree files the index does not tell (those ``diff-files``
names, touched ones too, and the untracked ones), the configuration (the site
generators' configs are among those files), the baseline's and the record's
manifests, git's attributes files outside the tree, and the code it runs
(chunkgate and the packages it imports). The run keys its answer by a digest
of all of these and keeps the last few under the cache folder; a run with the
same key answers from it, having only listed the work tree (at 100,000 files
about the time of ``git status``, against 3 s of reading every file's
summary). Any change to any input is another key, so a kept answer is never
stale; deleting the cache is always safe. Not covered: the system-wide
attributes file (``$(prefix)/etc/gitattributes``).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

import chunkgate
from chunkgate.cache.blobs import MarshalCache
from chunkgate.config.model import Config
from chunkgate.core.model import CheckResult, Summary, Violation
from chunkgate.core.parallel import in_background
from chunkgate.git import listings, objects
from chunkgate.git.attributes import attributes_files

_VERSION = "chunkgate-run-2"
# Answers kept: the last few distinct inputs (a branch checked out and back, an edit
# undone) are answered too.
_KEPT = 4
# A file larger than this is not read for the key: its size and modification time
# stand for its bytes (chunkgate reads no file above ``max_file_bytes``, 1 MB).
_READ_AT_MOST = 4 << 20


class RunMemo(MarshalCache[tuple[int, CheckResult]]):
    """The kept answers of the last whole-corpus checks of this repository's manifest,
    each with its turn (the newest has the highest)."""

    def __init__(
        self,
        config: Config,
        listing: listings.WorkTreeListing,
        *,
        baseline: str,
        known_from: str | None,
    ) -> None:
        super().__init__("runs", f"{_VERSION}\0{config.root}\0{config.manifest}")
        self._config, self._listing = config, listing
        revisions = [baseline] if known_from is None else [baseline, known_from]
        specs = [
            spec for rev in revisions for spec in (f"{rev}^{{commit}}", f"{rev}:{config.manifest}")
        ]
        self._revisions = in_background(objects.describe_objects, config.root, specs)
        self._attributes = in_background(attributes_files, config.root)
        self._key: str | None = None

    def answer(self) -> CheckResult | None:
        """The answer kept for these inputs, if there is one (made the newest)."""
        found = self.get(self.key())
        if found is None:
            return None
        if found[0] != max(turn for turn, _ in self._known.values()):
            self.keep(found[1])
        return found[1]

    def keep(self, result: CheckResult) -> None:
        """Keep ``result`` as the newest answer, with the ones before it that fit."""
        if not self._loaded:
            self._load()
        key = self.key()
        older = sorted(self._known.items(), key=lambda item: item[1][0], reverse=True)
        older = [(name, kept) for name, kept in older if name != key]
        for name, kept in older[: _KEPT - 1]:
            self.put(name, kept)
        turn = older[0][1][0] + 1 if older else 1
        self.put(key, (turn, result))
        self.save()

    def key(self) -> str:
        if self._key is None:
            self._key = self._digest()
        return self._key

    def _digest(self) -> str:
        digest = hashlib.sha256()

        def part(data: bytes) -> None:
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)

        root = self._config.root
        part(f"{_VERSION}\0{chunkgate.__version__}\0{sys.version}".encode())
        part(_code_signature())
        part(repr(self._config).encode("utf-8", "surrogateescape"))
        for listed in self._listing.raw():
            part(listed)
        for path in self._listing.differing():
            part(path.encode("utf-8", "surrogateescape"))
            part(_file_signature(root / path))
        for file in self._attributes():
            part(_file_signature(file))
        part(self._revisions())
        return digest.hexdigest()

    def _unchanged(self) -> bool:
        return self._used == self._known  # an answer made the newest has another turn

    def _record(self, entries: dict[str, tuple[int, CheckResult]]) -> tuple[Any, ...]:
        return tuple((key, turn, _packed(result)) for key, (turn, result) in entries.items())

    def _entries(self, record: object) -> dict[str, tuple[int, CheckResult]]:
        if not isinstance(record, tuple):
            raise ValueError("a damaged cache file")
        return {key: (turn, _unpacked(packed)) for key, turn, packed in record}


def _packed(result: CheckResult) -> tuple[Any, ...]:
    return (
        tuple(map(tuple, result.violations)),
        tuple(result.summary),
        result.manifest,
        result.manifest_changed,
        tuple(result.notes),
        tuple(map(tuple, result.known)),
    )


def _unpacked(packed: tuple[Any, ...]) -> CheckResult:
    violations, summary, manifest, changed, notes, known = packed
    return CheckResult(
        tuple(map(Violation._make, violations)),
        Summary._make(summary),
        manifest,
        changed,
        tuple(notes),
        tuple(map(Violation._make, known)),
    )


def _file_signature(path: Path) -> bytes:
    """A file's bytes as far as the key needs them: their digest; a large file's size and
    time; a symlink's target; nothing there."""
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            return b"link\0" + os.fsencode(os.readlink(path))
        if not stat.S_ISREG(info.st_mode):
            return b"other"
        if info.st_size > _READ_AT_MOST:
            return b"large\0%d\0%d" % (info.st_size, info.st_mtime_ns)
        return b"file\0" + hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return b"missing"


def _code_signature() -> bytes:
    """What the running code is: chunkgate's modules (each one's size and time, so an edited
    checkout counts) and the folders packages are installed in (installing, removing or
    upgrading one changes its folder's time)."""
    package = Path(chunkgate.__file__).parent
    parts: list[bytes] = []
    for folder, _, names in sorted(os.walk(package)):
        for name in sorted(names):
            if name.endswith(".py"):
                file = os.path.join(folder, name)
                info = os.stat(file)
                named = os.fsencode(os.path.relpath(file, package))
                parts.append(b"%s\0%d\0%d" % (named, info.st_size, info.st_mtime_ns))
    for entry in sys.path:
        if os.path.basename(entry) in ("site-packages", "dist-packages"):
            try:
                parts.append(b"%s\0%d" % (os.fsencode(entry), os.stat(entry).st_mtime_ns))
            except OSError:
                continue
    return b"\n".join(parts)
