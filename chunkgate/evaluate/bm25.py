"""bm25s's BM25 retriever, its index built with array operations (imported only when a
command ranks chunks: bm25s, and numpy with it, are the ``eval`` extra).

bm25s builds the score matrix one document at a time (a ``Counter`` and a few small
arrays for each), which over FastAPI's 16,000 chunks cost 0.6-0.9 s, more than a
quarter of ``search``'s first query. ``Retriever`` makes the same matrix from all the
documents' token IDs at once: term frequencies from sorting (document, token) pairs,
document frequencies by counting, and bm25s's own idf and term-frequency formulas
(``bm25s.scoring``) over the arrays. The scores are bm25s's to the bit: a test
compares the two matrices.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import bm25s
import numpy
from bm25s.scoring import _build_idf_array, _select_idf_scorer, _select_tfc_scorer


class Retriever(bm25s.BM25):  # type: ignore[misc]  # bm25s has no type hints
    """``bm25s.BM25`` with its default method (lucene: no score for a term a document
    lacks, which BM25L and BM25+ have), the index built at once."""

    def build_index_from_ids(
        self,
        unique_token_ids: list[int],
        corpus_token_ids: list[list[int]],
        show_progress: bool = True,
        leave_progress: bool = False,
    ) -> dict[str, Any]:
        n_docs, n_vocab = len(corpus_token_ids), len(unique_token_ids)
        lengths = numpy.fromiter(map(len, corpus_token_ids), numpy.int64, n_docs)
        tokens = numpy.fromiter(chain.from_iterable(corpus_token_ids), numpy.int64, lengths.sum())
        docs = numpy.repeat(numpy.arange(n_docs, dtype=numpy.int64), lengths)
        # Each (document, token) pair once, documents in order, with its count.
        pairs, counts = numpy.unique(docs * n_vocab + tokens, return_counts=True)
        doc_idx, vocab_idx = pairs // n_vocab, pairs % n_vocab
        frequencies = numpy.bincount(vocab_idx, minlength=n_vocab)
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
