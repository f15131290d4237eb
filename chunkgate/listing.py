"""Chunk, outline or size up files (``chunks``, ``outline``, ``stats``)."""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from chunkgate.chunking import ChunkedFile, chunk_bytes, languages
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.outline import outline_bytes
from chunkgate.chunking.sizes import make_counter
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.core.errors import ManifestError, UnreadableError
from chunkgate.core.model import Chunk, Heading
from chunkgate.core.parallel import ordered_map
from chunkgate.core.progress import tracked
from chunkgate.corpus.paths import read_regular, relative_paths
from chunkgate.corpus.select import select_files
from chunkgate.gate.duplicates import row
from chunkgate.gate.load import expected_header
from chunkgate.git import process
from chunkgate.manifest import WorkTreeManifest
from chunkgate.rules.duplicates import Row, duplicate_violations
from chunkgate.stats import Stats, corpus_stats

_Out = TypeVar("_Out")


@dataclass(frozen=True, slots=True)
class Failure:
    path: str
    message: str


def named_files(config: Config, paths: Sequence[str]) -> list[str]:
    """Root-relative POSIX paths for the files and folders named on the command line
    (``corpus.paths.relative_paths``: a symlink stands for its target inside the
    repository). Files are taken as named, whatever the config includes; folders expand
    to the corpus files under them."""
    out: list[str] = []
    for relative in relative_paths(config.root, paths):
        folder = config.root / relative
        if os.path.isdir(folder):
            out.extend(select_files(config, [os.fspath(folder)]).paths)
        else:
            out.append(relative)
    return list(dict.fromkeys(out))


def chunk_named(
    config: Config,
    paths: Sequence[str],
    convert: Callable[[ChunkedFile], _Out],
    *,
    jobs: int = 1,
) -> Iterator[_Out | Failure]:
    """``convert`` of each named file's chunks, in order, or why the file has none.

    With ``jobs`` > 1 and enough files, the files are chunked and converted in
    worker processes: ``convert`` must be picklable (a module-level function or
    a ``functools.partial`` of one), and what it returns should be smaller than
    the chunks, such as their output text.
    """
    work = functools.partial(_chunk_one, convert)
    return ordered_map(work, config, named_files(config, paths), jobs, path_of=str, what="chunking")


def corpus_chunks(
    config: Config | None = None, paths: Sequence[str] | None = None
) -> Iterator[Chunk]:
    """Every chunk of the corpus (or of the named files and folders), as ``check`` sees
    it: the files the configuration selects, in path order, with its options and IDs.
    A file that cannot be chunked (binary, undecodable) gives none; ``check`` reports it.
    ``config`` defaults to the repository's that holds the current directory."""
    config = config or load_config()
    counter = make_counter(config.chunking.tokenizer)
    for file in select_files(config, paths).files:
        try:
            data = read_regular(config.root / file.path)
            chunked = chunk_bytes(data, file.path, options=config.chunking, counter=counter)
        except (OSError, UnreadableError):
            continue
        yield from chunked.chunks


def whole(file: ChunkedFile) -> ChunkedFile:
    """The ``convert`` for output that needs the chunks themselves."""
    return file


def _chunk_one(convert: Callable[[ChunkedFile], _Out], config: Config, path: str) -> _Out | Failure:
    try:
        data = read_regular(config.root / path)
        counter = make_counter(config.chunking.tokenizer)
        return convert(chunk_bytes(data, path, options=config.chunking, counter=counter))
    except UnreadableError as exc:
        return Failure(path, exc.reason)
    except OSError as exc:
        return Failure(path, exc.strerror or str(exc))


def kept(results: Iterable[_Out | Failure], failures: list[Failure]) -> Iterator[_Out]:
    """The results that are not failures, as they come; the failures go to ``failures``,
    for the command to report once its output is written."""
    for result in results:
        if isinstance(result, Failure):
            failures.append(result)
        else:
            yield result


def outline_named(config: Config, paths: Sequence[str]) -> Iterator[list[Heading] | Failure]:
    for path in named_files(config, paths):
        if languages.language_for(path).outline is None:
            continue
        try:
            data = read_regular(config.root / path)
            yield outline_bytes(data, path, options=config.chunking)
        except UnreadableError as exc:
            yield Failure(path, exc.reason)
        except OSError as exc:
            yield Failure(path, exc.strerror or str(exc))


class SizedChunk(NamedTuple):
    id: str
    size: int  # in the configured unit
    path: str
    line: int  # its first line


class CorpusSizes(NamedTuple):
    chunks: list[SizedChunk]  # every chunk, in path order
    known: Counter[str]  # the problems the manifest records (the known ones), by rule

    @property
    def sizes(self) -> list[tuple[str, int]]:
        """(chunk ID, size) of every chunk."""
        return [(chunk.id, chunk.size) for chunk in self.chunks]


def corpus_sizes(config: Config, paths: Sequence[str] | None = None) -> CorpusSizes:
    """Every chunk's size, from the manifest where current (else chunked now), and the
    problems the manifest records in those files: what the file rules found, and the
    copies among the recorded chunks (CG501, which ``check`` tells from the recorded
    hashes, not from a record of findings), so that ``stats`` and ``check`` count the
    same known problems."""
    manifest = WorkTreeManifest(config.root, config.manifest, in_git=process.installed())
    try:
        header = manifest.header()
    except ManifestError:
        header = None
    if header is not None and not header.same_chunking(expected_header(config)):
        header = None
    tokens = config.chunking.unit == "tokens"
    counter = make_counter(config.chunking.tokenizer)
    sizes: list[SizedChunk] = []
    known: Counter[str] = Counter()
    rows: list[Row] = []
    files = select_files(config, paths).files
    for file in tracked(files, len(files), "sizing"):
        try:
            entry = manifest.entry(file.path) if header is not None else None
        except ManifestError:
            entry = None
        if entry is not None and file.blob is not None and file.blob == entry.blob:
            sizes.extend(
                SizedChunk(c.id, c.tokens if tokens else c.chars, file.path, c.lines[0])
                for c in entry.chunks
            )
            known.update(finding.rule for finding in entry.findings)
            rows.extend(row(file.path, chunk) for chunk in entry.chunks)
            continue
        try:
            data = read_regular(config.root / file.path)
            chunks = chunk_bytes(data, file.path, options=config.chunking, counter=counter).chunks
        except (OSError, UnreadableError):
            continue
        sizes.extend(
            SizedChunk(c.id, c.tokens if tokens else c.chars, file.path, c.start_line)
            for c in chunks
        )
    known.update(violation.rule for violation in duplicate_violations(config, rows))
    return CorpusSizes(sizes, known)


def size_stats(config: Config, paths: Sequence[str] | None, *, largest: int) -> Stats:
    """``chunkgate stats``: the size distribution of the corpus's (or the named) chunks
    against the configured limits, with the ``largest`` chunks named."""
    return stats_of(config.chunking, corpus_sizes(config, paths), largest=largest)


def stats_of(options: ChunkOptions, found: CorpusSizes, *, largest: int) -> Stats:
    """``found``'s sizes against the limits of ``options``."""
    return corpus_stats(
        found.sizes,
        max_size=options.max,
        min_size=options.min,
        unit=options.unit,
        largest=largest,
        known=found.known,
        model=options.model,
    )
