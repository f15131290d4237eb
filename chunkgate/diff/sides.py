"""A corpus at one revision or in the working tree: its settings, its files, its manifest.

The one place that reads a revision: from git objects (its tree, the
configuration committed in it, its manifest), nothing checked out. ``diff``
compares two ``Side``s; ``eval`` and ``cite`` take one side's chunks whole (a
``Snapshot``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from chunkgate.chunking import ChunkOptions, chunk_bytes
from chunkgate.chunking.embedtext import DEFAULT_EMBED, EmbedSettings
from chunkgate.chunking.sizes import TokenCounter, make_counter
from chunkgate.config.load import load_config, load_config_at
from chunkgate.config.model import Config
from chunkgate.core.errors import GitError, ManifestError, UnreadableError
from chunkgate.core.model import Chunk
from chunkgate.core.progress import tracked
from chunkgate.corpus.select import select_with_tree
from chunkgate.gate.load import expected_header
from chunkgate.git import commits, listings, objects, process
from chunkgate.manifest import RevisionManifest, ShardSummary, SummaryCache, WorkTreeManifest
from chunkgate.manifest.folder import recorded_moves


@dataclass
class Side:
    config: Config
    files: dict[str, str | None]  # corpus path -> blob id (None: read from disk)
    read: Callable[[str], bytes | None]  # any root-relative path, corpus or not
    rev: str | None = None  # None: the working tree
    tree: dict[str, str] | None = None  # a revision's every file and its blob
    work_tree: listings.WorkTree | None = None  # the working side's, as git listed it
    manifest: WorkTreeManifest | RevisionManifest | None = None
    summaries: dict[str, ShardSummary] | None = (
        None  # the manifest's, when made as this side chunks
    )

    @property
    def fingerprint(self) -> str:
        return self.config.chunking.fingerprint()

    def load(self, path: str) -> tuple[bytes | None, str | None]:
        """A corpus file's bytes to chunk, or why it is skipped (both None: it is gone)."""
        data = self.read(path)
        if data is not None and len(data) > self.config.max_file_bytes:
            return None, f"{path}: skipped, over max_file_bytes ({self.config.max_file_bytes})"
        return data, None


def revision_side(
    root: Path, sha: str, name: str, reader: objects.BlobReader, config: Config | None = None
) -> Side:
    """The corpus at commit ``sha`` (``name``, as the user named it), with the
    configuration committed there, or ``config`` (``--config``, or the work tree's)."""
    tree = listings.tree_blobs(root, sha)

    def read(path: str) -> bytes | None:
        blob = tree.get(path)
        return None if blob is None else reader.read(blob)

    if config is None:
        config = load_config_at(root, read, label=name, paths=tree)
    files: dict[str, str | None] = {p: b for p, b in tree.items() if config.selects(p)}
    return Side(config, files, read, rev=sha, tree=tree)


def working_side(
    root: Path, config_path: Path | None, listing: listings.WorkTreeListing | None = None
) -> Side:
    config = load_config(root, config_path=config_path, listing=listing)
    selection, work_tree = select_with_tree(config, listing=listing)
    files = {file.path: file.blob for file in selection.files}

    def read(path: str) -> bytes | None:
        try:
            return (config.root / path).read_bytes()
        except OSError:
            return None

    return Side(config, files, read, work_tree=work_tree)


def read_manifest(root: Path, side: Side, reader: objects.BlobReader, notes: list[str]) -> None:
    """Set the side's manifest (for the moves it records), and its summaries when they
    describe the chunks this side makes (for the chunk counts of unchanged files)."""
    folder = side.config.manifest
    manifest: WorkTreeManifest | RevisionManifest
    if side.rev is None:
        in_git = process.installed()
        manifest = WorkTreeManifest(root, folder, in_git=in_git)
        if side.work_tree is not None and in_git:
            manifest.list_from(side.work_tree)  # the selection listed the folder too
    else:
        manifest = RevisionManifest(root, side.rev, folder, reader, tree=side.tree)
    try:
        header = manifest.header()
    except ManifestError as exc:
        notes.append(f"manifest ignored, so no move counts as acknowledged: {exc}")
        return
    if header is None:
        return
    side.manifest = manifest
    if header.same_chunking(expected_header(side.config)):
        cache = SummaryCache(root, folder)
        side.summaries = manifest.summaries(cache, reader).found
        cache.save()


_COUNTERS: dict[str, TokenCounter] = {}


def counter(spec: str) -> TokenCounter:
    """One counter per tokenizer and process: loading a tokenizer's table is slow."""
    if spec not in _COUNTERS:
        _COUNTERS[spec] = make_counter(spec)
    return _COUNTERS[spec]


def chunk_file(
    data: bytes, path: str, options: ChunkOptions
) -> tuple[tuple[Chunk, ...], str | None]:
    """A file's chunks, or none and why it was skipped."""
    try:
        return chunk_bytes(
            data, path, options=options, counter=counter(options.tokenizer)
        ).chunks, None
    except UnreadableError as exc:
        return (), f"{path}: skipped, {exc.reason}"


class Snapshot(NamedTuple):
    name: str  # as the user named it: "HEAD~1", or "working tree"
    chunks: tuple[Chunk, ...]
    moves: tuple[tuple[str, str], ...]  # (chunk ID, the old ID it was moved from)
    skipped: tuple[str, ...] = ()  # files that could not be chunked, with why
    embed: EmbedSettings = DEFAULT_EMBED  # how the side's settings make an embed text


def working_tree(root: Path, *, config_path: Path | None = None) -> Snapshot:
    side = working_side(root, config_path)
    manifest = WorkTreeManifest(side.config.root, side.config.manifest, in_git=True)
    return _snapshot("working tree", side, recorded_moves(manifest, None))


def at_revision(root: Path, rev: str, *, config_path: Path | None = None) -> Snapshot:
    top = process.find_root(root)
    if top is None:
        raise GitError(f"not a git repository: {root}")
    sha = commits.resolve(top, rev)
    config = load_config(top, config_path=config_path) if config_path is not None else None
    with objects.BlobReader(top) as reader:
        side = revision_side(top, sha, rev, reader, config)
        manifest = RevisionManifest(top, sha, side.config.manifest, reader, tree=side.tree)
        return _snapshot(rev, side, recorded_moves(manifest, reader))


def _snapshot(name: str, side: Side, moves: dict[str, str]) -> Snapshot:
    chunks: list[Chunk] = []
    skipped: list[str] = []
    paths = sorted(side.files, key=lambda p: p.encode("utf-8", "surrogateescape"))
    for path in tracked(paths, len(paths), "chunking"):
        data, problem = side.load(path)
        if data is not None:
            found, problem = chunk_file(data, path, side.config.chunking)
            chunks.extend(found)
        if problem is not None:
            skipped.append(problem)
    return Snapshot(
        name, tuple(chunks), tuple(sorted(moves.items())), tuple(skipped), side.config.embed
    )
