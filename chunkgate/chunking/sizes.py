"""Chunk sizes: code points and tokens through an injected counter.

The default token counter is an estimate: one token per four bytes of UTF-8,
rounded up. That is close to BPE tokenizers on English prose and code (about
four characters a token) and errs on the safe side for scripts that take two
or three bytes a character. It costs one ``str.encode``, which chunking does
anyway for the hash. Use ``tiktoken:<encoding>`` (OpenAI's models) or
``huggingface:<repository or path>`` (open models' ``tokenizer.json``,
``chunking/hftokens.py``) for exact counts; ``embed.model`` names its model's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from chunkgate.chunking.hftokens import huggingface_counter
from chunkgate.core.errors import ConfigError

TokenCounter = Callable[[str], int]
TOKENIZERS = "'estimate', 'tiktoken:<encoding>' or 'huggingface:<repository or path>'"


def estimate_tokens(text: str) -> int:
    return (len(text.encode("utf-8")) + 3) // 4


def make_counter(spec: str) -> TokenCounter:
    """Turn a ``tokenizer`` setting into a counter: ``estimate``, ``tiktoken:<encoding>``
    or ``huggingface:<repository or path>``."""
    if spec == "estimate":
        return estimate_tokens
    kind, _, name = spec.partition(":")
    if kind == "tiktoken" and name:
        return _tiktoken_counter(name)
    if kind == "huggingface" and name:
        return huggingface_counter(name)
    raise ConfigError(f"tokenizer {spec!r}: expected {TOKENIZERS}")


def _tiktoken_counter(name: str) -> TokenCounter:
    try:
        # tiktoken (an extra) loads only when configured: its import is slow
        import tiktoken
    except ImportError:
        raise ConfigError(
            f"tokenizer 'tiktoken:{name}' needs tiktoken: pip install 'chunkgate[tiktoken]'"
        ) from None
    try:
        encoding = tiktoken.get_encoding(name)
    except OSError as exc:  # requests' errors are OSErrors: the download failed
        raise ConfigError(
            f"tokenizer 'tiktoken:{name}': tiktoken downloads the encoding on first use, and "
            f"the download failed ({type(exc).__name__}): run chunkgate once with network and "
            "TIKTOKEN_CACHE_DIR set to a folder that is kept (in CI: cached), or skip the "
            "hook where there is no network at all (pre-commit.ci: `ci: skip: [chunkgate]`)"
        ) from None
    except Exception as exc:  # tiktoken raises ValueError for an unknown name
        raise ConfigError(f"tokenizer 'tiktoken:{name}': cannot load the encoding: {exc}") from None

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    return count


def measure(text: str, counter: TokenCounter) -> tuple[int, int, str]:
    """Return ``(chars, tokens, hash)`` for a chunk's text."""
    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()[:16]
    tokens = (len(data) + 3) // 4 if counter is estimate_tokens else counter(text)
    return len(text), tokens, digest
