"""bm25s's BM25 retriever, its index built with array operations (imported only when a
command ranks chunks: bm25s, and numpy with it, are the ``eval`` extra).

bm25s builds the score matrix one document at a time (a ``Counter`` and a few small
arrays for each), which over FastAPI's 16,000 chunks cost 0.6-0.9 s, more than a
quarter of ``search``'s first query. ``Retriever`` makes the same scores from all the
documents' word numbers (``Vocabulary``) at once: term frequencies from sorting
(document, word) pairs, document frequencies by counting, and bm25s's own idf and
term-frequency formulas (``bm25s.scoring``) over the arrays. The scores are bm25s's
to the bit: a test compares every word's and several queries' scores.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import accumulate, count, pairwise
from typing import Any

import bm25s
import numpy
from bm25s.scoring import _build_idf_array, _select_idf_scorer, _select_tfc_scorer
from bm25s.tokenization import _infer_stopwords


class Vocabulary:
    """A number for every word: bm25s's stopwords first, then each new word the next one.
    A document is kept as its words' numbers (``encode``: C unsigned ints, as bytes), so
    that a corpus of them is indexed by array operations alone (``Retriever.index_arrays``)
    and a search cache holds no word twice (``evaluate.kept``). ``known``: the words of
    an earlier vocabulary, in number order, to number as it did."""

    def __init__(self, stopwords: str, known: Iterable[str] = ()) -> None:
        self._numbers: defaultdict[str, int] = defaultdict(count().__next__)
        for word in _infer_stopwords(stopwords):
            self._numbers[word]
        self.stopwords = len(self._numbers)  # the numbers below it are stopwords
        for word in known:
            self._numbers[word]

    def encode(self, words: Iterable[str]) -> bytes:
        # In C, a defaultdict that counts: no Python step a word, here or when the kept
        # numbers are indexed.
        return array("I", map(self._numbers.__getitem__, words)).tobytes()

    def renumber(self, words: Sequence[str], documents: Sequence[bytes]) -> tuple[bytes, ...]:
        """``documents`` whose words are numbered by their positions in ``words`` (a
        file's own list: ``evaluate.words``), as ``encode`` numbers them."""
        mine = numpy.frombuffer(self.encode(words), numpy.uintc)
        renumbered = mine[numpy.frombuffer(b"".join(documents), numpy.uintc)].tobytes()
        ends = accumulate(map(len, documents), initial=0)
        return tuple(renumbered[start:end] for start, end in pairwise(ends))

    @property
    def words(self) -> list[str]:
        """Every word, in number order."""
        return list(self._numbers)


def _numbers(documents: Sequence[bytes]) -> tuple[Any, Any]:
    """The documents' word numbers one after the other, and each one's length."""
    size = array("I").itemsize
    numbers = numpy.frombuffer(b"".join(documents), numpy.uintc).astype(numpy.int64)
    lengths = numpy.fromiter(map(len, documents), numpy.int64, len(documents)) // size
    return numbers, lengths


class Retriever(bm25s.BM25):  # type: ignore[misc]  # bm25s has no type hints
    """``bm25s.BM25`` with its default method (lucene: no score for a term a document
    lacks, which BM25L and BM25+ have), the index built at once."""

    def index_arrays(self, documents: Sequence[bytes], vocabulary: Vocabulary) -> None:
        """``index`` of documents as ``Vocabulary.encode`` gives them, stopwords dropped,
        without a Python step a word. A word's column is its number in the vocabulary
        (bm25s numbers them by first appearance; the scores do not depend on it), and a
        word of the vocabulary that no document holds has an empty one."""
        numbers, lengths = _numbers(documents)
        document = numpy.repeat(numpy.arange(len(documents), dtype=numpy.int64), lengths)
        kept = numbers >= vocabulary.stopwords
        numbers, document = numbers[kept] - vocabulary.stopwords, document[kept]
        lengths = numpy.bincount(document, minlength=len(documents))
        words = vocabulary.words[vocabulary.stopwords :]
        self.scores = self._matrix(numbers, lengths, len(words))
        vocab = dict(zip(words, range(len(words)), strict=True))
        vocab[""] = len(vocab)  # bm25s's empty token, as ``index`` adds it
        self.vocab_dict = vocab
        self.unique_token_ids_set = set(vocab.values())

    def _matrix(self, tokens: Any, lengths: Any, n_vocab: int) -> dict[str, Any]:
        n_docs = len(lengths)
        docs = numpy.repeat(numpy.arange(n_docs, dtype=numpy.int64), lengths)
        # Each (document, token) pair once, documents in order, with its count: the runs
        # of a stable sort (timsort, which finds the documents in order already), 23 ms
        # against numpy.unique's 68 ms for FastAPI's 1.3 million words.
        keys = numpy.sort(docs * n_vocab + tokens, kind="stable")
        starts = numpy.flatnonzero(numpy.diff(keys, prepend=-1))
        pairs, counts = keys[starts], numpy.diff(starts, append=len(keys))
        doc_idx, vocab_idx = pairs // n_vocab, pairs % n_vocab
        frequencies = numpy.bincount(vocab_idx, minlength=n_vocab)
        self.words_held = int(numpy.count_nonzero(frequencies))  # the others: no document's
        idf = _build_idf_array(
            doc_frequencies=dict(enumerate(frequencies.tolist())),
            n_docs=n_docs,
            compute_idf_fn=_select_idf_scorer(self.idf_method),
            dtype=self.dtype,
        )
        # As bm25s: float32 counts over float64 length terms, each document's length
        # against the mean, a float32 idf times that.
        tfc = _select_tfc_scorer(self.method)(
            tf_array=counts.astype(self.dtype),
            l_d=lengths[doc_idx],
            l_avg=lengths.mean(),
            k1=self.k1,
            b=self.b,
            delta=self.delta,
        )
        scores = (idf[vocab_idx] * tfc).astype(self.dtype)
        # Column by column (token by token), each column's documents in order, as
        # scipy's csc_matrix makes it for bm25s.
        by_token = numpy.argsort(vocab_idx, kind="stable")
        indptr = numpy.zeros(n_vocab + 1, dtype=numpy.int64)
        numpy.cumsum(frequencies, out=indptr[1:])
        self.nonoccurrence_array = None  # lucene scores no term a document lacks
        return {
            "data": scores[by_token],
            "indices": doc_idx[by_token].astype(self.int_dtype),
            "indptr": indptr,
            "num_docs": n_docs,
        }
