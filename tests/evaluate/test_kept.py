"""``evaluate.kept``: a search reads the chunks and words of the files git knows as they
are from the cache, and chunks the others; the ranking is the same either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import commit_all, write

from chunkgate.cache import store
from chunkgate.config.load import load_config
from chunkgate.evaluate import words
from chunkgate.evaluate.search import Corpus, load_corpus, search
from chunkgate.ingest import records

PROSE = "Cats purr and like to sleep in the sun on warm afternoons in the garden.\n"
DOGS = "Dogs bark at the mail carrier and fetch sticks thrown into the lake.\n"


def _repo(cli_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(cli_repo.parent / "cache"))
    write(cli_repo, "docs/cats.md", "# Cats\n\n" + PROSE * 3 + "\n## Naps\n\n" + PROSE)
    write(cli_repo, "docs/dogs.md", "# Dogs\n\n" + DOGS * 2)
    write(cli_repo, "notes.py", '"""Notes on pets."""\n\n\ndef feed(cat):\n    return cat\n')
    commit_all(cli_repo)
    return cli_repo


def _chunked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths chunked from here on (the cache's misses)."""
    seen: list[str] = []
    chunk = records.file_chunks

    def spy(rev: str | None, config: object, source: records.Source) -> object:
        seen.append(source.path)
        return chunk(rev, config, source)  # type: ignore[arg-type]

    monkeypatch.setattr(words, "file_chunks", spy)
    return seen


def _ranking(corpus: Corpus, query: str) -> list[tuple[str, float]]:
    return [(hit.chunk.id, hit.score) for hit in search(corpus, query, k=8).hits]


def test_a_second_search_chunks_nothing_and_ranks_the_same(
    cli_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(cli_repo, monkeypatch)
    chunked = _chunked(monkeypatch)
    first = load_corpus(load_config(repo))
    assert sorted(chunked) == ["docs/cats.md", "docs/dogs.md", "notes.py"]
    chunked.clear()
    again = load_corpus(load_config(repo))
    assert chunked == []
    assert again.chunks == first.chunks
    for query in ("cats sleep in the sun", "dogs bark", "feed cat", "garden lake"):
        assert _ranking(again, query) == _ranking(first, query)


def test_an_edited_file_is_chunked_again_and_found(
    cli_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(cli_repo, monkeypatch)
    load_corpus(load_config(repo))
    chunked = _chunked(monkeypatch)
    write(repo, "docs/dogs.md", "# Dogs\n\nDogs chase squirrels up the oak trees.\n")
    corpus = load_corpus(load_config(repo))
    assert chunked == ["docs/dogs.md"]
    assert _ranking(corpus, "squirrels")[0][0] == "docs/dogs.md#dogs"
    assert not search(corpus, "mail carrier", k=8).hits
    commit_all(repo)  # committed: its new blob is kept, the old one's words stay unused
    chunked.clear()
    again = load_corpus(load_config(repo))
    assert chunked == ["docs/dogs.md"]
    chunked.clear()
    last = load_corpus(load_config(repo))
    assert chunked == []
    assert _ranking(last, "squirrels") == _ranking(again, "squirrels")
    assert not search(last, "mail carrier", k=8).hits


def test_a_damaged_or_missing_cache_is_a_miss(
    cli_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(cli_repo, monkeypatch)
    first = load_corpus(load_config(repo))
    (kept,) = (cli_repo.parent / "cache" / "search").iterdir()
    kept.write_bytes(kept.read_bytes()[:-40])
    chunked = _chunked(monkeypatch)
    assert load_corpus(load_config(repo)).chunks == first.chunks
    assert len(chunked) == 3
    monkeypatch.setenv("CHUNKGATE_NO_CACHE", "1")
    assert store.folder() is None
    chunked.clear()
    assert _ranking(load_corpus(load_config(repo)), "cats") == _ranking(first, "cats")
    assert len(chunked) == 3


def test_a_vocabulary_of_mostly_old_words_starts_afresh(
    cli_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept vocabulary keeps the words of files that changed; once they are more
    than half of it, the cache is emptied and the next search keeps a new one."""
    repo = _repo(cli_repo, monkeypatch)
    many = " ".join(f"word{n}" for n in range(400))
    write(repo, "docs/dogs.md", f"# Dogs\n\n{many}\n")
    commit_all(repo)
    load_corpus(load_config(repo))
    write(repo, "docs/dogs.md", "# Dogs\n\n" + DOGS)
    commit_all(repo)
    chunked = _chunked(monkeypatch)
    load_corpus(load_config(repo))
    assert chunked == ["docs/dogs.md"]
    chunked.clear()
    corpus = load_corpus(load_config(repo))
    assert sorted(chunked) == ["docs/cats.md", "docs/dogs.md", "notes.py"]
    assert _ranking(corpus, "mail carrier")[0][0] == "docs/dogs.md#dogs"
    chunked.clear()
    load_corpus(load_config(repo))
    assert chunked == []
