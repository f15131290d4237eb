"""chunkguard: keep a retrieval corpus's chunks stable, sized and clean.

The public API (guarded by tests/test_api.py)::

    from chunkguard import chunk_file, chunk_text, load_config, Chunk

Attributes are imported on first use so that ``import chunkguard`` (and the
pre-commit hook) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Chunk",
    "ChunkOptions",
    "Config",
    "Heading",
    "Problem",
    "__version__",
    "chunk_file",
    "chunk_text",
    "load_config",
    "outline_text",
]

if TYPE_CHECKING:
    from chunkguard.chunking import chunk_file, chunk_text
    from chunkguard.chunking.base import ChunkOptions
    from chunkguard.config import Config, load_config
    from chunkguard.model import Chunk, Heading, Problem
    from chunkguard.outline import outline_text

_HOMES = {
    "Chunk": "chunkguard.model",
    "Heading": "chunkguard.model",
    "Problem": "chunkguard.model",
    "ChunkOptions": "chunkguard.chunking.base",
    "chunk_file": "chunkguard.chunking",
    "chunk_text": "chunkguard.chunking",
    "Config": "chunkguard.config",
    "load_config": "chunkguard.config",
    "outline_text": "chunkguard.outline",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'chunkguard' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
