"""The manifest as the gate reads and writes it: the folder in the work tree, or the one
committed in a revision (read from git objects, nothing checked out).

A run on a few files (the pre-commit hook) reads, hashes and writes only
their shards; a whole-corpus run lists every shard and reads their summaries
(``summary.py``), and the whole shard only of files it checks.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from chunkgate.core.errors import ManifestError
from chunkgate.corpus.paths import manifest_folder
from chunkgate.git import listings, objects
from chunkgate.manifest import journal
from chunkgate.manifest.codec import parse_block, parse_header, render_block, render_header
from chunkgate.manifest.confined import Confined
from chunkgate.manifest.layout import HEADER, SUFFIX, shard_name, source_name
from chunkgate.manifest.lines import ManifestSyntaxError
from chunkgate.manifest.lock import LOCK_TIMEOUT, lock_held
from chunkgate.manifest.records import FileEntry, Header
from chunkgate.manifest.storage import remove_temporaries, sync_all, write_atomic, write_temporary
from chunkgate.manifest.summary import ShardSummary, SummaryCache, summarise

# Above this many shards a write fsyncs once for all of them, not once each.
_SYNC_EACH = 16


class Shard(NamedTuple):
    name: str  # relative to the manifest folder
    blob: str | None  # its git blob when the work tree holds exactly that, else None


class Summaries(NamedTuple):
    found: dict[str, ShardSummary]  # by corpus path
    broken: dict[str, ManifestSyntaxError]  # corpus path (or shard name) -> what is wrong


class _Manifest:
    """What both kinds share: shards by corpus path, read once, with their errors."""

    folder: str  # the manifest folder, relative to the repository root

    def __init__(self) -> None:
        self._entries: dict[str, FileEntry | None] = {}
        self._raw: dict[str, bytes | None] = {}
        # Shards the listing found under a name ``shard_name`` does not give their path
        # (a corrupt shortened one is known by its own name): removed by that name.
        self._names: dict[str, str] = {}

    def _read(self, name: str, blob: str | None) -> bytes | None:
        raise NotImplementedError

    def label(self, name: str) -> str:
        return f"{self.folder}/{name}"

    def shard_of(self, path: str) -> str:
        return self._names.get(path) or shard_name(path)

    def raw(self, path: str) -> bytes | None:
        """The bytes of the shard of ``path`` (None: the manifest does not list it)."""
        if path not in self._raw:
            self._raw[path] = self._read(self.shard_of(path), None)
        return self._raw[path]

    def entry(self, path: str) -> FileEntry | None:
        """The entry of ``path``; a corrupt shard raises ``ManifestSyntaxError``."""
        if path not in self._entries:
            data = self.raw(path)
            name = self.label(self.shard_of(path))
            entry = None if data is None else parse_block(data, name)
            if entry is not None and entry.path != path:
                raise ManifestSyntaxError(name, 1, f"the shard of {path} lists {entry.path}")
            self._entries[path] = entry
        return self._entries[path]

    def listing(self) -> dict[str, Shard]:
        raise NotImplementedError

    def summaries(self, cache: SummaryCache, reader: objects.BlobReader | None) -> Summaries:
        """Every shard's summary (a whole-corpus run): from the cache where it can be; the
        others are read, through git's objects in one stream when their blob is known."""
        found: dict[str, ShardSummary] = {}
        broken: dict[str, ManifestSyntaxError] = {}
        unknown: list[tuple[str, Shard]] = []
        for path, shard in self.listing().items():
            summary = cache.get(shard.blob) if shard.blob is not None else None
            if summary is None:
                unknown.append((path, shard))
            else:
                self._take(path, shard, summary, found, broken)
        in_git = [(path, shard) for path, shard in unknown if shard.blob and reader]
        others = [(path, shard) for path, shard in unknown if not (shard.blob and reader)]
        stream = reader.read_many([shard.blob or "" for _, shard in in_git]) if reader else iter(())
        contents = zip(in_git, stream, strict=False)
        read = ((item, self._read_or_error(item[1].name)) for item in others)
        for (path, shard), data in (*contents, *read):
            if data is None:
                continue
            if isinstance(data, ManifestSyntaxError):  # a symlink where the shard is
                broken[path] = data
                continue
            try:
                summary = summarise(data, self.label(shard.name))
            except ManifestSyntaxError as exc:
                broken[path] = exc
                continue
            cache.put(shard.blob or objects.hash_bytes(data), summary)
            self._take(path, shard, summary, found, broken)
        return Summaries(found, broken)

    def _read_or_error(self, name: str) -> bytes | ManifestSyntaxError | None:
        try:
            return self._read(name, None)
        except ManifestSyntaxError as exc:
            return exc

    def _take(
        self,
        path: str,
        shard: Shard,
        summary: ShardSummary,
        found: dict[str, ShardSummary],
        broken: dict[str, ManifestSyntaxError],
    ) -> None:
        if summary.path != path:
            broken[path] = ManifestSyntaxError(
                self.label(shard.name), 1, f"the shard of {path} lists {summary.path}"
            )
        else:
            found[path] = summary


class WorkTreeManifest(_Manifest):
    """The manifest folder in the work tree: what ``check`` compares and ``update`` writes."""

    def __init__(self, root: Path, folder: str, *, in_git: bool, writing: bool = False) -> None:
        super().__init__()
        self.root, self.folder, self.in_git = root, folder, in_git
        self.path = manifest_folder(root, folder)
        # A writer (holding the lock) replaces a symlink it meets; a reader reports it.
        self.files = Confined(self.path, folder, writing=writing)
        self._listing: dict[str, Shard] | None = None
        # Between ``begin`` and ``commit``: the temporary file of each changed target
        # (None: removed), renamed all together by ``commit``.
        self._staged: dict[str, str | None] | None = None

    def exists(self) -> bool:
        return self.path.is_dir()

    def header(self) -> Header | None:
        """The header; None when there is no manifest folder at all."""
        if journal.pending(self.path):
            journal.wait_or_report(
                self.path, self.folder, writer=lambda: lock_held(self.path), wait=LOCK_TIMEOUT
            )
        data = self.files.read(HEADER)
        if data is None:
            if self.exists():
                raise ManifestError(f"{self.label(HEADER)}: missing (run `chunkgate update`)")
            return None
        return parse_header(data, self.label(HEADER))

    def _read(self, name: str, blob: str | None) -> bytes | None:
        return self.files.read(name)

    def listing(self) -> dict[str, Shard]:
        """Every shard in the folder, by the corpus path it stands for."""
        if self._listing is None:
            self._listing = self._list()
        return self._listing

    def list_from(self, tree: listings.WorkTree) -> None:
        """Take the folder's listing from the whole work tree's, which a whole-corpus run
        makes anyway: three git processes fewer."""
        if self._listing is None:
            self._listing = self._list(tree)

    def _list(self, tree: listings.WorkTree | None = None) -> dict[str, Shard]:
        if not self.exists():
            return {}
        if not self.in_git:
            return self._by_path(Shard(name, None) for name in _walk(self.path))
        prefix = self.folder + "/"
        if tree is None:
            blobs = listings.index_blobs(self.root, [self.folder])
            changed = listings.modified_paths(self.root, [self.folder])
            untracked = listings.untracked_paths(self.root, [self.folder])
        else:
            blobs = {path: blob for path, blob in tree.blobs.items() if path.startswith(prefix)}
            changed = {path for path in tree.modified if path.startswith(prefix)}
            untracked = [path for path in tree.untracked if path.startswith(prefix)]
        shards = [
            Shard(path[len(prefix) :], None if path in changed else blob)
            for path, blob in blobs.items()
            if path not in changed or os.path.lexists(self.root / path)
        ]
        shards.extend(Shard(path[len(prefix) :], None) for path in untracked)
        return self._by_path(shard for shard in shards if shard.name != HEADER)

    def _by_path(self, shards: Iterable[Shard]) -> dict[str, Shard]:
        found: dict[str, Shard] = {}
        for shard in shards:
            path = source_name(shard.name)
            if path is None:
                if not shard.name.endswith(SUFFIX):
                    continue  # not a shard (a README someone put there)
                data = self._read(shard.name, None)
                path = _path_in(data) if data is not None else None
                if path is None:
                    path = shard.name  # reported as corrupt when read
                if shard_name(path) != shard.name:
                    self._names[path] = shard.name
            found[path] = shard
        return found

    # -- writing --

    def write(self, entries: Mapping[str, FileEntry | None]) -> list[str]:
        """Write the shards of ``entries`` (None removes one); returns the paths whose
        shard changed. Each shard is replaced atomically."""
        durable = len(entries) <= _SYNC_EACH
        # A writer killed between writing a shard's temporary file and renaming it left
        # the file behind; it must not be committed with the folder (`git add -A`).
        folders = {self.files.path(self.shard_of(path), create=True).parent for path in entries}
        remove_temporaries(sorted(folders | {self.path}))
        changed = [
            path
            for path, entry in entries.items()
            if self.put(path, None if entry is None else render_block(entry), durable=durable)
        ]
        if changed and not durable and self._staged is None:
            sync()
        return changed

    def put(self, path: str, data: bytes | None, *, durable: bool = True) -> bool:
        """Replace the shard of ``path`` with ``data`` (None removes it), atomically;
        whether it changed. Not ``durable``: the caller calls ``sync()`` when done."""
        if data == self.raw(path):
            return False
        self._replace(self.shard_of(path), data, durable=durable)
        if data is None:
            self._names.pop(path, None)
        self._raw[path] = data
        self._entries.pop(path, None)
        self._listing = None
        return True

    def sweep_temporaries(self) -> int:
        """Every temporary file a killed writer left in the folder (a whole-corpus write)."""
        return remove_temporaries([self.path], recursive=True)

    def write_header(self, header: Header) -> bool:
        data = render_header(header)
        with contextlib.suppress(ManifestError):
            if self.files.read(HEADER) == data:
                return False
        self.path.mkdir(parents=True, exist_ok=True)
        self._replace(HEADER, data)
        return True

    @contextlib.contextmanager
    def staging(self) -> Iterator[None]:
        """Hold back the writes made inside until the end, then make them all at once (old
        or new as a whole across a crash); an exception inside writes none of them."""
        self._staged = {}
        try:
            yield
        except BaseException:
            staged, self._staged = self._staged, None
            for temp in staged.values():
                if temp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(self.files.path(temp))
            raise
        staged, self._staged = self._staged, None
        if staged:
            journal.commit(self.files, list(staged.items()))

    def _replace(self, name: str, data: bytes | None, *, durable: bool = True) -> None:
        # A writer's path: a symlinked folder on the way is replaced by a real one.
        target = self.files.path(name, create=True)
        if self._staged is None:
            if data is None:
                self.files.remove(name)
            else:
                write_atomic(target, data, durable=durable)
            return
        earlier = self._staged.pop(name, None)
        if earlier is not None:  # written twice in one run: the last one counts
            os.unlink(self.files.path(earlier))
        temp = None if data is None else write_temporary(target, data, durable=False)
        self._staged[name] = None if temp is None else temp.relative_to(self.path).as_posix()


class RevisionManifest(_Manifest):
    """The manifest folder as committed in a revision (HEAD, a pull request's base)."""

    def __init__(
        self,
        root: Path,
        rev: str,
        folder: str,
        reader: objects.BlobReader,
        *,
        tree: Mapping[str, str] | None = None,  # the revision's files, when already listed
    ) -> None:
        super().__init__()
        self.root, self.rev, self.folder, self.reader = root, rev, folder, reader
        self._tree = tree
        self._listing: dict[str, Shard] | None = None

    def label(self, name: str) -> str:
        return f"{self.rev}:{self.folder}/{name}"

    def header(self) -> Header | None:
        data = self.reader.read(f"{self.rev}:{self.folder}/{HEADER}")
        return None if data is None else parse_header(data, self.label(HEADER))

    def _read(self, name: str, blob: str | None) -> bytes | None:
        return self.reader.read(blob or f"{self.rev}:{self.folder}/{name}")

    def listing(self) -> dict[str, Shard]:
        if self._listing is None:
            prefix = self.folder + "/"
            tree = self._tree or listings.tree_blobs(self.root, self.rev, [self.folder])
            shards = (
                Shard(path[len(prefix) :], blob)
                for path, blob in tree.items()
                if path.startswith(prefix) and path != prefix + HEADER
            )
            self._listing = {}
            for shard in shards:
                self._add(self._listing, shard)
        return self._listing

    def _add(self, listing: dict[str, Shard], shard: Shard) -> None:
        path = source_name(shard.name)
        if path is None:
            if not shard.name.endswith(SUFFIX):
                return  # not a shard (a README someone put there), as in the work tree
            data = self._read(shard.name, shard.blob)
            path = (_path_in(data) if data is not None else None) or shard.name
            if shard_name(path) != shard.name:
                self._names[path] = shard.name
        listing[path] = shard

    def list_from_index(self, current: WorkTreeManifest, tree: listings.WorkTree) -> None:
        """Take the listing from the work tree manifest's, when the index holds exactly
        this revision's folder (``listings.index_matches``): no ``ls-tree`` of every shard. The
        shards the work tree changed or deleted are the index's."""
        prefix = self.folder + "/"
        listed = current.listing()
        listing = {path: shard for path, shard in listed.items() if shard.blob is not None}
        self._names.update((path, name) for path, name in current._names.items() if path in listing)
        for changed in sorted(tree.modified):
            blob = tree.blobs.get(changed)
            if changed.startswith(prefix) and blob is not None and changed != prefix + HEADER:
                self._add(listing, Shard(changed[len(prefix) :], blob))
        self._listing = listing

    def prefetch(self, paths: Iterable[str]) -> None:
        """Read the shards of ``paths`` in one stream from git, ahead of ``entry``."""
        wanted = [path for path in dict.fromkeys(paths) if path not in self._raw]
        specs = [f"{self.rev}:{self.folder}/{self.shard_of(path)}" for path in wanted]
        for path, data in zip(wanted, self.reader.read_many(specs), strict=True):
            self._raw[path] = data

    def blob(self, path: str) -> str | None:
        """The blob of the committed shard of ``path`` (None: not listed)."""
        shard = self.listing().get(path)
        return shard.blob if shard is not None else None


def recorded_moves(
    manifest: WorkTreeManifest | RevisionManifest, reader: objects.BlobReader | None
) -> dict[str, str]:
    """Chunk ID -> the ID it is recorded as moved from, for every move the manifest records
    (only the shards that record one are read whole)."""
    cache = SummaryCache(manifest.root, manifest.folder)
    summaries = manifest.summaries(cache, reader).found
    cache.save()
    moves: dict[str, str] = {}
    for path, summary in summaries.items():
        if not summary.moves:
            continue
        try:
            entry = manifest.entry(path)
        except ManifestError:
            continue  # `check` reports it; without it no move of that file is known
        for chunk in entry.chunks if entry is not None else ():
            if chunk.moved_from is not None:
                moves[chunk.id] = chunk.moved_from
    return moves


def sync() -> None:
    """Flush what was written without ``durable`` to disk, all at once."""
    sync_all()


def _path_in(data: bytes) -> str | None:
    """The corpus path a shard's first line names, if it can be read."""
    try:
        return parse_block(data, "shard").path
    except ManifestError:
        return None


def _walk(folder: Path) -> Iterator[str]:
    """Every file under ``folder`` (its relative POSIX path), symlinks left out."""
    stack = [""]
    while stack:
        relative = stack.pop()
        try:
            with os.scandir(folder / relative) as scan:
                entries = list(scan)
        except OSError:
            continue
        for entry in entries:
            name = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_dir(follow_symlinks=False):
                stack.append(name)
            elif entry.is_file(follow_symlinks=False) and name != HEADER:
                yield name
