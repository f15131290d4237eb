"""Each file's chunks with their words, found where the file is chunked (issue 43).

Finding the words of FastAPI's 16,516 embed texts (``index.words_of``) costs 0.6 s,
which the main process spent after the workers had chunked, a core idle. A worker
finds them as it chunks each file instead, on both cores, and numbers them by the
file's own list of words (``FileWords``): each file's distinct words go back once, as
one string (470,000 words in all, against 1.3 million with their repeats: pickled
and read back in 0.02 s more than the chunks alone, against 0.2 s as lists of words),
and the main process numbers them into its vocabulary by array operations
(``bm25.Vocabulary.renumber``, 0.1 s). The first search there: 1.96 s against 2.08 s
before (medians of 12 alternating runs, 2 cores; CPU 2.88 s against 2.67 s).
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from itertools import count
from typing import NamedTuple

from chunkgate.chunking.embedtext import embed_text
from chunkgate.config.model import Config
from chunkgate.core.model import Chunk
from chunkgate.evaluate.index import words_of
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
    # In C, a defaultdict that counts, as ``bm25.Vocabulary`` numbers words.
    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    encoded = tuple(
        array("I", map(numbers.__getitem__, words_of(embed_text(chunk, embed)))).tobytes()
        for chunk in found
    )
    return FileWords(found, " ".join(numbers), encoded)
