"""Each file's chunks and their words, kept between ``search`` runs by git blob (issue 43).

A search ranks every chunk of the corpus, and chunking it is most of the first
query's time (FastAPI's docs: 2 s of CPU over 2 jobs, the words of the 16,516
embed texts found with the chunks, ``evaluate.words``). A file's chunks and words
depend only on its bytes, its path (the IDs, the language, the anchor flavour) and
the settings, so they are kept under the user's cache folder by blob and path, in
one file per repository and settings, and a search on an unchanged work tree reads
them instead. Files git does not know as they are (modified, untracked) are chunked
every time.

A chunk's words are kept as their numbers in the file's one vocabulary
(``bm25.Vocabulary``), so that no word is read back more than once and the index is
built from the numbers by array operations. Content-addressed: an entry is never
stale, deleting the cache is always safe, and any failure to read or write it is
ignored (``cache.blobs``).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any, NamedTuple

from chunkgate.cache.blobs import MarshalCache
from chunkgate.chunking import CHUNKING_VERSION, ChunkOptions
from chunkgate.core.model import Chunk

# 1: chunks as tuples, each chunk's words as numbers, the vocabulary
_VERSION = "chunkgate-search-1"


class Kept(NamedTuple):
    chunks: tuple[Chunk, ...]
    words: tuple[bytes, ...]  # each chunk's words, as the vocabulary encodes them


class KeptChunks(MarshalCache[Kept]):
    """Columns: the keys (``key``), each file's chunks as plain tuples, their words, and
    the vocabulary's words (``words``: set before ``save``, read back by ``get``).

    The settings in the file's name: the chunking version, a chunk's fields, the
    options' fingerprint (what the manifest's chunks depend on) and the embed settings,
    the file size limit, and how words are found (the pattern, and the stopwords a
    vocabulary numbers first)."""

    def __init__(self, root: Path, options: ChunkOptions, max_bytes: int, words: str) -> None:
        shape = ",".join(Chunk._fields)
        chunking = f"{options.fingerprint()}\0{options.embed!r}"  # not a set's repr: unordered
        settings = f"{CHUNKING_VERSION}\0{shape}\0{chunking}\0{max_bytes}\0{words}"
        super().__init__("search", f"{_VERSION}\0{root}\0{settings}")
        self.words: list[str] = []

    def _record(self, entries: dict[str, Kept]) -> tuple[Any, ...]:
        chunks = [[tuple(chunk) for chunk in kept.chunks] for kept in entries.values()]
        words = [kept.words for kept in entries.values()]
        return (list(entries), chunks, words, self.words if entries else [])

    def _unpack(self, data: bytes) -> dict[str, Kept]:
        # The collector paused: unmarshalling FastAPI's 16,516 chunks and their words
        # makes enough containers for it to run many times over (0.23 s, 0.05 s paused),
        # and a record has no cycles.
        enabled = gc.isenabled()
        gc.disable()
        try:
            return super()._unpack(data)
        finally:
            if enabled:
                gc.enable()

    def _entries(self, record: object) -> dict[str, Kept]:
        if not (isinstance(record, tuple) and len(record) == 4):
            raise ValueError("a damaged cache file")
        keys, chunks, words, self.words = record
        made = Chunk._make
        kept = (Kept(tuple(map(made, c)), w) for c, w in zip(chunks, words, strict=True))
        return dict(zip(keys, kept, strict=True))


def key(blob: str, path: str) -> str:
    """A file's entry: its blob and its path (its chunks' IDs hold the path)."""
    return f"{blob}\0{path}"
