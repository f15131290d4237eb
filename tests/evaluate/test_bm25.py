"""``evaluate.bm25``: bm25s's scores, to the bit, from an index built at once from the
words' numbers (``Vocabulary``), a kept vocabulary's numbers included."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy
import pytest

from chunkgate.evaluate.bm25 import Retriever, Vocabulary
from chunkgate.evaluate.index import STOPWORDS, TOKEN_PATTERN, words_of

SAMPLE = Path(__file__).parents[1] / "data" / "corpora" / "fastapi-docs"


def _texts() -> list[str]:
    """FastAPI's committed pages, a document a paragraph (long and short ones, code,
    six languages), with an empty one and one of stopwords only."""
    pages = sorted(SAMPLE.rglob("*.md"))
    assert len(pages) > 20
    texts = [part for page in pages for part in page.read_text("utf-8").split("\n\n")]
    return [*texts[:3000], "", "the and of it", "path path path Path"]


def _theirs(texts: list[str], k1: float = 1.5, b: float = 0.75) -> bm25s.BM25:
    retriever = bm25s.BM25(k1=k1, b=b)
    tokens = bm25s.tokenize(
        texts, token_pattern=TOKEN_PATTERN, stopwords=STOPWORDS, show_progress=False
    )
    retriever.index(tokens, show_progress=False)
    return retriever


def _ours(texts: list[str], vocabulary: Vocabulary, k1: float = 1.5, b: float = 0.75) -> Retriever:
    retriever = Retriever(k1=k1, b=b)
    retriever.index_arrays([vocabulary.encode(words_of(t)) for t in texts], vocabulary)
    return retriever


def _same_scores(ours: Retriever, theirs: bm25s.BM25) -> None:
    """Every word's scores (a column each), and queries of several words, to the bit."""
    assert ours.scores["num_docs"] == theirs.scores["num_docs"]
    assert ours.scores["data"].dtype == theirs.scores["data"].dtype
    words = [word for word in theirs.vocab_dict if word]
    assert {word for word in ours.vocab_dict if word} >= set(words)
    for word in words:
        assert numpy.array_equal(ours.get_scores([word]), theirs.get_scores([word])), word
    for query in (["path", "parameter", "type", "declare"], ["fastapi", "path", "path"]):
        assert numpy.array_equal(ours.get_scores(query), theirs.get_scores(query))


@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (1.2, 0.3)])
def test_the_scores_are_bm25s_own(k1: float, b: float) -> None:
    texts = _texts()
    ours = _ours(texts, Vocabulary(STOPWORDS), k1, b)
    theirs = _theirs(texts, k1, b)
    assert ours.vocab_dict.keys() == theirs.vocab_dict.keys()
    _same_scores(ours, theirs)


def test_a_kept_vocabulary_numbers_as_it_did_and_scores_the_same() -> None:
    """A vocabulary made from a kept one's words gives every word its number again; one
    that holds words no document has any more (the files that had them changed) still
    scores as bm25s does over the documents alone."""
    texts = _texts()
    first = Vocabulary(STOPWORDS)
    kept = [first.encode(words_of(t)) for t in [*texts, "zebra quagga okapi"]]
    again = Vocabulary(STOPWORDS, first.words)
    assert again.words == first.words
    assert [again.encode(words_of(t)) for t in texts] == kept[:-1]
    ours = Retriever()
    ours.index_arrays(kept[:-1], again)
    assert "quagga" in ours.vocab_dict
    assert not ours.get_scores(["quagga"]).any()
    _same_scores(ours, _theirs(texts))
