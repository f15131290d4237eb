"""Each file's chunks with their words, found where the file is chunked (issue 43).

Finding the words of FastAPI's 16,516 embed texts (``index.words_of``) costs 0.6 s,
which the main process spent after the workers had chunked, one core idle. A worker
finds them as it chunks each file instead, on both cores, and numbers them by the
file's own list of words (``FileWords``): sending back a file's distinct words once
and numbers for the rest costs a third of sending every word, and the main process
numbers them into its vocabulary by array operations (``bm25.Vocabulary.renumber``).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import count
from typing import NamedTuple

from chunkgate.chunking.embedtext import embed_text
from chunkgate.config.model import Config
from chunkgate.core.model import Chunk
from chunkgate.evaluate.index import numbered, words_of
from chunkgate.ingest.records import Skipped, Source, file_chunks


class FileWords(NamedTuple):
    chunks: tuple[Chunk, ...]
    words: str  # the file's distinct words, in order of first appearance, spaced
    numbers: tuple[bytes, ...]  # each chunk's words, as their positions in ``words``


def chunk_words(rev: str | None, config: Config, source: Source) -> FileWords | Skipped:
    """``source``'s chunks as ``check`` makes them, with the words of their embed texts
    (an ``ExportPlan.each`` work: it runs in the workers)."""
    found = file_chunks(rev, config, source)
    if isinstance(found, Skipped):
        return found
    embed = config.chunking.embed
    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    encoded = tuple(numbered(numbers, words_of(embed_text(chunk, embed))) for chunk in found)
    return FileWords(found, " ".join(numbers), encoded)
