"""Token counts from a ``tokenizer.json``: by path, by folder, by a model's name in the
Hugging Face cache, and the one-line error that names the file to provide offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import token_count, train_tokenizer

from chunkgate.chunking.sizes import make_counter
from chunkgate.core.errors import ConfigError

_TEXTS = [
    "The cache is shared between processes; clear it with the cache command.",
    "Install the package with pip. You need Python 3.10 or newer.",
    "def configure(path): return load(path) if path else defaults()",
]
_SAMPLES = [*_TEXTS, "", "naïve café, 東京 and emoji 🙂", "Unseen words: zyxwv qwerty. " * 200]


@pytest.fixture
def tokenizer(tmp_path: Path) -> Path:
    return train_tokenizer(tmp_path / "model" / "tokenizer.json", _TEXTS * 20)


def test_a_path_counts_as_the_tokenizer_itself_untruncated(tokenizer: Path) -> None:
    count = make_counter(f"huggingface:{tokenizer}")
    for text in _SAMPLES:
        assert count(text) == token_count(tokenizer, text)
    assert count(_SAMPLES[-1]) > 512  # the file truncates at 512; a count does not
    assert count("") == 2  # [CLS] and [SEP]: the model's limit counts them too


def test_a_folder_holding_the_file(tokenizer: Path) -> None:
    count = make_counter(f"huggingface:{tokenizer.parent}")
    assert count(_TEXTS[0]) == token_count(tokenizer, _TEXTS[0])


def test_a_model_name_from_the_hugging_face_cache(
    tokenizer: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "hub"
    repo = cache / "models--acme--tiny-embedder"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("abc123\n")
    (repo / "snapshots" / "abc123").mkdir(parents=True)
    (repo / "snapshots" / "abc123" / "tokenizer.json").write_bytes(tokenizer.read_bytes())
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    count = make_counter("huggingface:acme/tiny-embedder")
    assert count(_TEXTS[1]) == token_count(tokenizer, _TEXTS[1])


def test_offline_a_missing_model_is_one_line_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    with pytest.raises(ConfigError) as caught:
        make_counter("huggingface:acme/absent-embedder")
    message = str(caught.value)
    assert "\n" not in message
    assert "tokenizer.json is not in the Hugging Face cache" in message
    assert "huggingface-cli download acme/absent-embedder tokenizer.json" in message


def test_a_missing_path_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "tokenizer.json"
    with pytest.raises(ConfigError) as caught:
        make_counter(f"huggingface:{missing}")
    assert f"no file {missing}: provide it there" in str(caught.value)


def test_a_file_that_is_not_a_tokenizer(tmp_path: Path) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{}")
    with pytest.raises(ConfigError, match="cannot read"):
        make_counter(f"huggingface:{bad}")
