"""Sizes: the token estimate, tiktoken through its plugin mechanism, and the size fields."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chunkgate import chunk_text
from chunkgate.chunking import ChunkOptions
from chunkgate.chunking.sizes import estimate_tokens, make_counter, measure
from chunkgate.core.errors import ConfigError

# A tiny byte-level BPE encoding, registered the way tiktoken finds encodings
# (a `tiktoken_ext` plugin module), so no test ever downloads one.
PLUGIN = """
def _tiny():
    ranks = {bytes([i]): i for i in range(256)}
    for rank, pair in enumerate([b"th", b"he", b"the", b"in", b"  "], start=256):
        ranks[pair] = rank
    return {"name": "tiny", "pat_str": r"\\S+|\\s+", "mergeable_ranks": ranks,
            "special_tokens": {}}

ENCODING_CONSTRUCTORS = {"tiny": _tiny}
"""


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("abcd", 1, id="four-ascii-bytes"),
        pytest.param("abcde", 2, id="rounds-up"),
        pytest.param("日本語", 3, id="three-bytes-a-char"),
    ],
)
def test_estimate_is_a_quarter_of_the_utf8_bytes(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens
    assert measure(text, estimate_tokens)[1] == tokens


def test_chars_are_code_points_and_hash_ignores_line_endings() -> None:
    (chunk,) = chunk_text("# Ünï\r\n\r\nbody 😄\r\n", "a.md")
    assert chunk.chars == len("# Ünï\n\nbody 😄")
    assert chunk.hash == measure("# Ünï\n\nbody 😄", estimate_tokens)[2]


def test_an_injected_counter_sizes_the_chunks() -> None:
    (chunk,) = chunk_text("# A\n\none two three\n", "a.md", counter=lambda s: len(s.split()))
    assert chunk.tokens == 5


@pytest.mark.parametrize("spec", ["words", "tiktoken", "tiktoken:", "hf:bert"])
def test_unknown_tokenizer_is_a_config_error(spec: str) -> None:
    with pytest.raises(ConfigError, match="tokenizer"):
        make_counter(spec)


def test_missing_tiktoken_encoding_is_a_clear_error(tmp_path: Path) -> None:
    code = (
        "from chunkgate.chunking.sizes import make_counter\n"
        "from chunkgate.core.errors import ConfigError\n"
        "try:\n    make_counter('tiktoken:no_such_encoding')\n"
        "except ConfigError as exc:\n    print(exc)\n"
    )
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": os.fspath(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert "tiktoken:no_such_encoding" in out
    assert "cannot load the encoding" in out


def test_tiktoken_counts_with_a_small_encoding_built_here(tmp_path: Path) -> None:
    plugin = tmp_path / "tiktoken_ext"
    plugin.mkdir()
    (plugin / "chunkgate_tiny.py").write_text(PLUGIN)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Title\n\nthe theme in the hen\n")
    (tmp_path / ".chunkgate.yaml").write_text(
        "size: {unit: tokens, max: 100, min: 1}\ntokenizer: tiktoken:tiny\n"
    )
    env = {**os.environ, "PYTHONPATH": os.fspath(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "chunkgate", "chunks", "--format", "json", "docs/a.md"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (chunk,) = json.loads(result.stdout)
    # The same count straight from tiktoken with that encoding.
    code = (
        "import tiktoken; e = tiktoken.get_encoding('tiny');"
        "print(len(e.encode('# Title\\n\\nthe theme in the hen')))"
    )
    expected = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.strip()
    assert chunk["tokens"] == int(expected)
    assert chunk["tokens"] < chunk["chars"]  # merges happened


def test_overlap_must_be_below_max() -> None:
    with pytest.raises(ValueError, match="overlap"):
        ChunkOptions(max=100, overlap=100)


def test_an_encoding_that_cannot_be_downloaded_names_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Offline, as on pre-commit.ci: nothing cached, and every connection refused.
    import tiktoken.registry

    # An earlier test in this process may hold the encoding already.
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with pytest.raises(ConfigError) as caught:
        make_counter("tiktoken:cl100k_base")
    message = str(caught.value)
    assert message.startswith(
        "tokenizer 'tiktoken:cl100k_base': tiktoken downloads the encoding on first use, and "
        "the download failed ("
    )
    assert "TIKTOKEN_CACHE_DIR" in message
    assert "`ci: skip: [chunkgate]`" in message
