"""The corpus as records ready for ingest (``chunkgate export``, issue 20).

(Not ``chunkgate/export.py``: importing a submodule of that name would replace
``chunkgate.ingest``, the library's function, with the module.)

One record a chunk, files in byte order of path, chunks in document order:
the same bytes for the same input, whatever the number of jobs. Each file is
read, chunked and rendered on its own (in a worker process with jobs), so the
memory an export takes does not grow with the corpus. ``rev`` reads the files
from git's objects, never from the work tree, with the configuration
committed in that revision (unless the caller's is forced).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, TypeVar

from chunkgate.chunking import ChunkedFile, chunk_document, languages
from chunkgate.chunking.sizes import TokenCounter, make_counter
from chunkgate.config.model import Config
from chunkgate.core.errors import ChunkgateError, ManifestError, UnreadableError
from chunkgate.core.model import Chunk
from chunkgate.core.parallel import ordered_map
from chunkgate.corpus.select import select_files
from chunkgate.corpus.source import decode
from chunkgate.diff.sides import revision_side
from chunkgate.git import listings, objects, process
from chunkgate.ingest.lines import file_lines
from chunkgate.listing import named_files
from chunkgate.manifest import RevisionManifest, WorkTreeManifest
from chunkgate.manifest.folder import recorded_moves

_Result = TypeVar("_Result")


class Source(NamedTuple):
    """One file to export: where its bytes are, and what git knows of it."""

    path: str
    blob: str | None  # its blob: in the revision, or the index's when the file matches it
    committed: str | None  # its blob in the commit (``commit``), to tell it is unchanged
    moves: tuple[tuple[str, str], ...] = ()  # (chunk ID, the ID it was moved from)


class Skipped(NamedTuple):
    """A file that gives no records, and why (binary, undecodable, unreadable)."""

    path: str
    message: str


class ExportPlan(NamedTuple):
    """What an export reads: the settings, the files, and the revision they come from."""

    config: Config
    sources: tuple[Source, ...]
    rev: str | None  # the commit the files are read from; None: the work tree
    commit: str | None  # the commit records name: ``rev``, or HEAD for the work tree
    in_git: bool

    def files(self, *, jobs: int = 1) -> Iterator[str | Skipped]:
        """Each file's records as JSON lines (one string a file), or why it has none."""
        work = functools.partial(_file_lines, self.rev, self.commit, self.in_git)
        try:
            yield from ordered_map(
                work, self.config, self.sources, jobs, path_of=_path_of, what="exporting"
            )
        finally:
            close_readers()

    def chunks(self, *, jobs: int = 1) -> Iterator[tuple[Chunk, ...] | Skipped]:
        """Each file's chunks, in the plan's order, or why it has none (also a file over
        ``max_file_bytes``, which ``check`` does not chunk)."""
        return self.each(file_chunks, jobs=jobs)

    def each(
        self, work: Callable[[str | None, Config, Source], _Result], *, jobs: int = 1
    ) -> Iterator[_Result]:
        """``work(rev, config, source)`` for each file, in the plan's order, over ``jobs``
        worker processes (``work`` picklable: a module-level function)."""
        try:
            yield from ordered_map(
                functools.partial(work, self.rev),
                self.config,
                self.sources,
                jobs,
                path_of=_path_of,
                what="chunking",
            )
        finally:
            close_readers()

    def records(self, *, jobs: int = 1) -> Iterator[dict[str, object]]:
        for file in self.files(jobs=jobs):
            if isinstance(file, str):
                # Not splitlines: a text may hold U+2028 and the like, which JSON keeps.
                for line in file.split("\n")[:-1]:
                    yield json.loads(line)


def export_records(
    config: Config,
    paths: Sequence[str] | None = None,
    rev: str | None = None,
    *,
    jobs: int = 1,
    revision_config: bool = True,
) -> Iterator[dict[str, object]]:
    """The export's records (see the module), of the corpus or of ``paths`` (files as
    named, folders: their corpus files), from the work tree or from commit ``rev``.
    Files that cannot be chunked give none (``chunkgate export`` names them)."""
    return plan_export(config, paths, rev, revision_config=revision_config).records(jobs=jobs)


export = export_records  # the library's name for it: ``from chunkgate import export``


def plan_export(
    config: Config,
    paths: Sequence[str] | None = None,
    rev: str | None = None,
    *,
    revision_config: bool = True,
) -> ExportPlan:
    root = config.root
    in_git = (root / ".git").exists() and process.installed()
    if rev is not None:
        if not in_git:
            raise ChunkgateError(f"--rev {rev}: {root} is not a git repository")
        return _revision_plan(config, paths, rev, revision_config=revision_config)

    if paths is None:
        chosen = {file.path: file.blob for file in select_files(config).files}
    else:
        named = named_files(config, paths)
        blobs = listings.index_blobs(root, named) if in_git and named else {}
        modified = listings.modified_paths(root, named) if in_git and named else set()
        chosen = {path: None if path in modified else blobs.get(path) for path in named}
    commit = objects.object_id(root, "HEAD^{commit}") if in_git else None
    # The whole tree: one listing, however many paths (they could overflow a command line).
    committed = listings.tree_blobs(root, commit) if commit and chosen else {}
    moves = _moves(config, None) if in_git else {}
    sources = tuple(
        Source(path, chosen[path], committed.get(path), moves.get(path, ()))
        for path in sorted(chosen, key=_byte_order)
    )
    return ExportPlan(config, sources, None, commit, in_git)


def _revision_plan(
    config: Config, paths: Sequence[str] | None, rev: str, *, revision_config: bool
) -> ExportPlan:
    root = config.root
    commit = objects.object_id(root, f"{rev}^{{commit}}")
    if commit is None:
        raise ChunkgateError(f"--rev {rev}: no such commit in {root}")
    with objects.BlobReader(root, lazy=True) as reader:
        side = revision_side(root, commit, rev, reader, None if revision_config else config)
    config, tree = side.config, side.tree or {}
    chosen = list(side.files) if paths is None else _named_in_tree(config, tree, paths, rev)
    moves = _moves(config, commit, tree)
    sources = tuple(
        Source(path, tree[path], tree[path], moves.get(path, ()))
        for path in sorted(set(chosen), key=_byte_order)
    )
    return ExportPlan(config, sources, commit, commit, True)


def _named_in_tree(
    config: Config, tree: dict[str, str], paths: Sequence[str], rev: str
) -> list[str]:
    """Files as named, folders as their corpus files, in the revision's tree."""
    root = config.root.resolve()
    chosen: list[str] = []
    for name in paths:
        given = Path(name)
        absolute = (given if given.is_absolute() else Path.cwd() / given).resolve()
        try:
            relative = absolute.relative_to(root).as_posix()
        except ValueError:
            raise ChunkgateError(f"path outside the repository: {name}") from None
        if relative in tree:
            chosen.append(relative)
            continue
        prefix = "" if relative == "." else relative.rstrip("/") + "/"
        found = [path for path in tree if path.startswith(prefix) and config.selects(path)]
        if not found:
            raise ChunkgateError(f"{name}: no such file or corpus folder in {rev}")
        chosen.extend(found)
    return chosen


def _moves(
    config: Config, commit: str | None, tree: dict[str, str] | None = None
) -> dict[str, tuple[tuple[str, str], ...]]:
    """The moves the manifest (the work tree's, or the commit's) records, by file."""

    with objects.BlobReader(config.root, lazy=True) as reader:
        manifest: WorkTreeManifest | RevisionManifest
        if commit is None:
            manifest = WorkTreeManifest(config.root, config.manifest, in_git=True)
        else:
            manifest = RevisionManifest(config.root, commit, config.manifest, reader, tree=tree)
        try:
            if manifest.header() is None:
                return {}
            found = recorded_moves(manifest, reader)
        except ManifestError:
            return {}  # `check` reports it; without it no move is known
    by_file: dict[str, list[tuple[str, str]]] = {}
    for chunk_id, old in sorted(found.items()):
        by_file.setdefault(chunk_id.rpartition("#")[0], []).append((chunk_id, old))
    return {path: tuple(moves) for path, moves in by_file.items()}


def _byte_order(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _path_of(source: Source) -> str:
    return source.path


# A worker's reader of git objects (one ``cat-file`` a process), for ``--rev``.
_readers: dict[Path, objects.BlobReader] = {}


def _read(config: Config, source: Source, rev: str | None) -> bytes:
    if rev is None:
        return (config.root / source.path).read_bytes()
    reader = _readers.get(config.root)
    if reader is None:
        reader = _readers[config.root] = objects.BlobReader(config.root, lazy=True).__enter__()
    data = reader.read(source.blob or "")
    if data is None:
        raise ChunkgateError(f"{source.path}: blob {source.blob} missing from git's objects")
    return data


def close_readers() -> None:
    """Close the readers of git objects this process opened."""
    while _readers:
        _readers.popitem()[1].close()


class SourceRead(NamedTuple):
    """A source's bytes, decoded and chunked as ``check`` chunks them."""

    source: Source
    data: bytes
    text: str
    chunked: ChunkedFile


def read_source(config: Config, source: Source, rev: str | None) -> SourceRead | Skipped:
    """Read ``source`` (from commit ``rev``'s objects, or the work tree) and chunk it."""
    try:
        data = _read(config, source, rev)
    except OSError as exc:
        return Skipped(source.path, exc.strerror or str(exc))
    spec = languages.language_for(source.path)
    try:
        text = decode(data, source.path, python=spec.encoding == "python")
    except UnreadableError as exc:
        return Skipped(source.path, exc.reason)
    options = config.chunking
    chunked = chunk_document(
        text, source.path, language=spec.name, options=options, counter=_counter(options.tokenizer)
    )
    return SourceRead(source, data, text, chunked)


def _file_lines(
    rev: str | None, commit: str | None, in_git: bool, config: Config, source: Source
) -> str | Skipped:
    read = read_source(config, source, rev)
    if isinstance(read, Skipped):
        return read
    blob = source.blob
    if blob is None and in_git:
        blob = objects.hash_bytes(read.data)
    committed = commit if blob is not None and blob == source.committed else None
    return file_lines(
        read.chunked.chunks,
        read.text,
        config.chunking.embed,
        blob=blob,
        commit=committed,
        model=config.chunking.model,
        moves=source.moves,
    )


def file_chunks(rev: str | None, config: Config, source: Source) -> tuple[Chunk, ...] | Skipped:
    """``source``'s chunks as ``check`` makes them (read from ``rev``), or why it has none."""
    read = read_source(config, source, rev)
    if isinstance(read, Skipped):
        return read
    if len(read.data) > config.max_file_bytes:  # as `check`, which chunks no such file
        return Skipped(source.path, f"over max_file_bytes ({config.max_file_bytes})")
    return read.chunked.chunks


@functools.lru_cache(maxsize=4)
def _counter(spec: str) -> TokenCounter:
    return make_counter(spec)
