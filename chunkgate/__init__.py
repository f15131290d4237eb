"""chunkgate: keep a retrieval corpus's chunks stable, sized and clean.

The public API (the README's table, guarded by tests/test_public_api.py)::

    from chunkgate import chunk_file, chunk_text, corpus_chunks, export, load_config, Chunk

Attributes are imported on first use so that ``import chunkgate`` (and the
pre-commit hook) stays cheap.
"""

from __future__ import annotations

import importlib
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
    "corpus_chunks",
    "export",
    "load_config",
    "outline_text",
    "plan",
]

if TYPE_CHECKING:
    from chunkgate.chunking import chunk_text
    from chunkgate.chunking.base import ChunkOptions
    from chunkgate.chunking.files import chunk_file
    from chunkgate.chunking.outline import outline_text
    from chunkgate.config.load import load_config
    from chunkgate.config.model import Config
    from chunkgate.core.model import Chunk, Heading, Problem
    from chunkgate.ingest.records import export
    from chunkgate.ingest.reembed import plan
    from chunkgate.listing import corpus_chunks

_HOMES = {
    "Chunk": "chunkgate.core.model",
    "Heading": "chunkgate.core.model",
    "Problem": "chunkgate.core.model",
    "ChunkOptions": "chunkgate.chunking.base",
    "chunk_file": "chunkgate.chunking.files",
    "chunk_text": "chunkgate.chunking",
    "Config": "chunkgate.config.model",
    "load_config": "chunkgate.config.load",
    "corpus_chunks": "chunkgate.listing",
    "export": "chunkgate.ingest.records",
    "outline_text": "chunkgate.chunking.outline",
    "plan": "chunkgate.ingest.reembed",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'chunkgate' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
