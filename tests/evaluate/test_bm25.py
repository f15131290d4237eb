"""``evaluate.bm25.Retriever``: bm25s's score matrix, built at once, to the bit."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy
import pytest

from chunkgate.evaluate.bm25 import Retriever
from chunkgate.evaluate.index import STOPWORDS, TOKEN_PATTERN

SAMPLE = Path(__file__).parents[1] / "data" / "corpora" / "fastapi-docs"


def _matrix(retriever: bm25s.BM25, texts: list[str]) -> dict[str, object]:
    # A tokenization each: bm25s adds its empty token to the vocabulary it is given.
    tokens = bm25s.tokenize(
        texts, token_pattern=TOKEN_PATTERN, stopwords=STOPWORDS, show_progress=False
    )
    retriever.index(tokens, show_progress=False)
    return {**retriever.scores, "vocab": retriever.vocab_dict}


def _texts() -> list[str]:
    """FastAPI's committed pages, a document a paragraph (long and short ones, code,
    six languages), with an empty one and one of stopwords only."""
    pages = sorted(SAMPLE.rglob("*.md"))
    assert len(pages) > 20
    texts = [part for page in pages for part in page.read_text("utf-8").split("\n\n")]
    return [*texts[:3000], "", "the and of it", "path path path Path"]


@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (1.2, 0.3)])
def test_the_matrix_is_bm25s_own(k1: float, b: float) -> None:
    texts = _texts()
    ours = _matrix(Retriever(k1=k1, b=b), texts)
    theirs = _matrix(bm25s.BM25(k1=k1, b=b), texts)
    assert ours["num_docs"] == theirs["num_docs"] == len(texts)
    assert ours["vocab"] == theirs["vocab"]
    for key in ("data", "indices", "indptr"):
        mine, reference = ours[key], theirs[key]
        assert isinstance(mine, numpy.ndarray)
        assert isinstance(reference, numpy.ndarray)
        assert mine.dtype == reference.dtype, key
        assert numpy.array_equal(mine, reference), key


def test_a_query_scores_as_with_bm25s() -> None:
    texts = _texts()
    ours, theirs = Retriever(), bm25s.BM25()
    _matrix(ours, texts)
    _matrix(theirs, texts)
    query = ["path", "parameter", "type", "declare"]
    assert numpy.array_equal(ours.get_scores(query), theirs.get_scores(query))
