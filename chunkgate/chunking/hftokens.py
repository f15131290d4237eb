"""Token counts from a Hugging Face ``tokenizer.json`` (``tokenizer: huggingface:<name>``).

``<name>`` is a path to the file (or to the folder that holds it), or a model's
repository on the Hub (``BAAI/bge-small-en-v1.5``), read from the local Hugging Face
cache where ``huggingface-cli download`` leaves it. chunkgate never downloads it: a
hook and CI run offline, so a missing file is a one-line error naming what to
provide. ``tokenizers`` is an extra, imported only when a tokenizer is configured.

A count includes the special tokens the tokenizer adds (BERT's ``[CLS]`` and
``[SEP]``): the model's input limit counts them too. A ``tokenizer.json`` that
truncates at the model's limit is read without truncation, or nothing would ever
count over it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

from chunkgate.core.errors import ConfigError

_FILE = "tokenizer.json"


@functools.cache  # a tokenizer.json takes tens of milliseconds to load: once a process
def huggingface_counter(name: str) -> Callable[[str], int]:
    path = tokenizer_file(name)
    try:
        # tokenizers (an extra) loads only when configured: its import is slow
        import tokenizers
    except ImportError:
        raise ConfigError(
            f"tokenizer 'huggingface:{name}' needs tokenizers: pip install 'chunkgate[tokenizers]'"
        ) from None
    try:
        tokenizer = tokenizers.Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception for a bad file
        raise ConfigError(f"tokenizer 'huggingface:{name}': cannot read {path}: {exc}") from None
    tokenizer.no_truncation()
    tokenizer.no_padding()

    def count(text: str) -> int:
        # With the special tokens, as the model's positions hold them (see the module).
        return len(tokenizer.encode(text, add_special_tokens=True).ids)

    return count


def tokenizer_file(name: str) -> Path:
    """The ``tokenizer.json`` that ``name`` (a path or a Hub repository) stands for."""
    given = Path(name).expanduser()
    if given.is_dir():
        given = given / _FILE
    if given.is_file():
        return given
    if name.endswith(".json") or given.is_absolute() or name.startswith("."):
        raise ConfigError(f"tokenizer 'huggingface:{name}': no file {given}: provide it there")
    cache = hub_cache()
    found = _cached(cache / ("models--" + name.replace("/", "--")))
    if found is None:
        raise ConfigError(
            f"tokenizer 'huggingface:{name}': {_FILE} is not in the Hugging Face cache "
            f"({cache}) and chunkgate does not download it: provide it with "
            f"`huggingface-cli download {name} {_FILE}`, or set tokenizer: "
            f"huggingface:<path to {name}'s {_FILE}>"
        )
    return found


def hub_cache() -> Path:
    """Where the Hugging Face Hub's client caches repositories (its own variables)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "huggingface" / "hub"


def _cached(repo: Path) -> Path | None:
    """The repository's ``tokenizer.json``: in the snapshot ``refs/main`` names, else in
    the last snapshot (by name) that has one."""
    ref = repo / "refs" / "main"
    if ref.is_file():
        pinned = repo / "snapshots" / ref.read_text(encoding="utf-8").strip() / _FILE
        if pinned.is_file():
            return pinned
    snapshots = repo / "snapshots"
    found = sorted(snapshots.glob(f"*/{_FILE}")) if snapshots.is_dir() else []
    return found[-1] if found else None
