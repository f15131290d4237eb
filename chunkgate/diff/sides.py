"""A corpus's chunks and recorded moves at one revision, or in the working tree.

A revision is read from git objects (its tree, its configuration, its
manifest), as ``diff`` reads one: nothing is checked out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from chunkgate.chunking import chunk_bytes
from chunkgate.chunking.sizes import make_counter
from chunkgate.config import Config, load_config, load_config_at
from chunkgate.core.errors import GitError, UnreadableError
from chunkgate.core.model import Chunk
from chunkgate.corpus.select import select_files
from chunkgate.git import commits, listings, objects, process


class Snapshot(NamedTuple):
    name: str  # as the user named it: "HEAD~1", or "working tree"
    chunks: tuple[Chunk, ...]
    moves: tuple[tuple[str, str], ...]  # (chunk ID, the old ID it was moved from)
    skipped: tuple[str, ...] = ()  # files that could not be chunked, with why


def working_tree(root: Path, *, config_path: Path | None = None) -> Snapshot:
    config = load_config(root, config_path=config_path)
    files = [file.path for file in select_files(config).files]

    def read(path: str) -> bytes | None:
        try:
            return (config.root / path).read_bytes()
        except OSError:
            return None

    from chunkgate.manifest import WorkTreeManifest
    from chunkgate.manifest.folder import recorded_moves

    moves = recorded_moves(WorkTreeManifest(config.root, config.manifest, in_git=True), None)
    return _snapshot("working tree", config, files, read, moves)


def at_revision(root: Path, rev: str, *, config_path: Path | None = None) -> Snapshot:
    top = process.find_root(root)
    if top is None:
        raise GitError(f"not a git repository: {root}")
    sha = commits.resolve(top, rev)
    tree = listings.tree_blobs(top, sha)
    with objects.BlobReader(top) as reader:

        def read(path: str) -> bytes | None:
            blob = tree.get(path)
            return None if blob is None else reader.read(blob)

        if config_path is not None:
            config = load_config(top, config_path=config_path)
        else:
            config = load_config_at(top, read, label=rev)
        files = [path for path in tree if config.selects(path)]
        files.sort(key=lambda p: p.encode("utf-8", "surrogateescape"))
        from chunkgate.manifest import RevisionManifest
        from chunkgate.manifest.folder import recorded_moves

        manifest = RevisionManifest(top, sha, config.manifest, reader, tree=tree)
        moves = recorded_moves(manifest, reader)
        return _snapshot(rev, config, files, read, moves)


def _snapshot(
    name: str,
    config: Config,
    files: list[str],
    read: Callable[[str], bytes | None],
    moves: dict[str, str],
) -> Snapshot:
    counter = make_counter(config.chunking.tokenizer)
    chunks: list[Chunk] = []
    skipped: list[str] = []
    for path in files:
        data = read(path)
        if data is None:
            continue
        if len(data) > config.max_file_bytes:
            skipped.append(f"{path}: over max_file_bytes")
            continue
        try:
            chunks.extend(chunk_bytes(data, path, options=config.chunking, counter=counter).chunks)
        except UnreadableError as exc:
            skipped.append(f"{path}: {exc.reason}")
    return Snapshot(name, tuple(chunks), tuple(sorted(moves.items())), tuple(skipped))
