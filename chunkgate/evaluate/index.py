"""The BM25 index ``eval`` and ``search`` rank chunks by: their embed texts, tokenized
one way, so a query typed at ``search`` and the same query in a golden file agree.

Tokens are bm25s's own (the ``eval`` extra): lowercased runs of two or more word
characters, English stopwords dropped, no stemming. ``TOKEN`` is that pattern, given
to bm25s rather than left as its default, so the snippets ``search`` marks find the
words the index matched. Ranking is deterministic: equal scores are ordered by corpus
order, and a chunk that matches no term is never ranked.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from chunkgate.chunking.embedtext import DEFAULT_EMBED, EmbedSettings, embed_text
from chunkgate.core.errors import ChunkgateError
from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from chunkgate.evaluate.bm25 import Vocabulary

# bm25s's default, written out (see the module); equivalent to its r"(?u)\b\w\w+\b".
TOKEN_PATTERN = r"(?u)\b\w\w+"
TOKEN = lazy(TOKEN_PATTERN)
STOPWORDS = "en"
_MISSING = (
    "ranking chunks needs bm25s: install chunkgate with its eval extra "
    "(pip install 'chunkgate[eval]'), or pip install bm25s"
)


class Ranked(NamedTuple):
    position: int  # the chunk's position in the indexed sequence
    score: float


class Index:
    """BM25 over documents as a ``Vocabulary`` encodes their words (``words_of`` each
    text); build it with ``index_chunks`` (a clear error without bm25s)."""

    def __init__(self, documents: Sequence[bytes], vocabulary: Vocabulary) -> None:
        # bm25s (the eval extra) and numpy load only when a command ranks chunks
        import bm25s

        from chunkgate.evaluate.bm25 import Retriever  # imports bm25s: deferred with it

        self._bm25s = bm25s
        self._retriever: Any = Retriever()
        self.size = len(documents)
        self.words = 0  # how many distinct words (no stopwords) the documents hold
        if documents:
            self._retriever.index_arrays(documents, vocabulary)
            self.words = self._retriever.words_held

    def terms(self, query: str) -> list[str]:
        """The query's tokens, as the index knows words (duplicates kept: BM25 counts them)."""
        tokens = self._bm25s.tokenize(
            [query],
            token_pattern=TOKEN_PATTERN,
            stopwords=STOPWORDS,
            return_ids=False,
            show_progress=False,
        )
        found: list[str] = tokens[0]
        return found

    def top(self, query: str, k: int) -> list[Ranked]:
        """The k best chunks, best first, ties in corpus order; no zero scores."""
        terms = self.terms(query)
        if not self.size or not terms:
            return []
        # numpy loads only when a command ranks chunks (bm25s needs it)
        import numpy

        scores = self._retriever.get_scores(terms)
        order = numpy.lexsort((numpy.arange(self.size), -scores))[:k]
        return [Ranked(int(i), float(scores[i])) for i in order if scores[i] > 0]

    def weights(self, query: str, index: int) -> list[tuple[str, float]]:
        """Each distinct query term the chunk at ``index`` matches, with what it adds to the
        chunk's score (the weights sum to the score), heaviest first."""
        terms = self.terms(query)
        counts = {term: terms.count(term) for term in terms}
        found = []
        for term, count in counts.items():
            weight = float(self._retriever.get_scores([term])[index]) * count
            if weight > 0:
                found.append((term, weight))
        return sorted(found, key=lambda pair: (-pair[1], pair[0]))


def words_of(text: str) -> list[str]:
    """``text``'s words as bm25s's ``tokenize`` finds them (lowercased, ``TOKEN``), the
    stopwords still in (``Vocabulary`` numbers them first)."""
    words: list[str] = TOKEN.findall(text.lower())
    return words


def vocabulary(known: Sequence[str] = ()) -> Vocabulary:
    """A ``Vocabulary`` with the index's stopwords (and the ``known`` words of an earlier
    one); raises ``ChunkgateError`` without bm25s."""
    try:
        # bm25s and numpy load only when a command ranks chunks
        import bm25s  # noqa: F401  # the extra itself, whatever of ours is loaded already

        from chunkgate.evaluate.bm25 import Vocabulary  # imports bm25s: deferred with it
    except ImportError:
        raise ChunkgateError(_MISSING) from None
    return Vocabulary(STOPWORDS, known)


def word_finding() -> str:
    """How words are found, to key what is kept of them: the pattern and bm25s's
    stopwords (its ``stopwords`` module's bytes, read without importing bm25s, which
    takes 0.3 s with numpy and scipy); raises ``ChunkgateError`` without bm25s."""
    spec = importlib.util.find_spec("bm25s")
    folders = spec.submodule_search_locations if spec else None
    if not folders:
        raise ChunkgateError(_MISSING)
    try:
        listed = hashlib.sha256(Path(folders[0], "stopwords.py").read_bytes()).hexdigest()
    except OSError:
        listed = "?"  # then a vocabulary() names the problem
    return f"{TOKEN_PATTERN}\0{STOPWORDS}\0{listed}"


def index_chunks(chunks: Sequence[Chunk], embed: EmbedSettings = DEFAULT_EMBED) -> Index:
    """An index of the chunks' embed texts (what an ingest embeds, ``embed`` its settings)."""
    words = vocabulary()
    return Index([words.encode(words_of(embed_text(chunk, embed))) for chunk in chunks], words)
