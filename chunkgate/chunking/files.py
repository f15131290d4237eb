"""``chunk_file``: a file on disk chunked as ``check`` chunks it, with its repository's settings.

Above the configuration (which the chunkers never see): the library's entry for one
file, from anywhere.
"""

from __future__ import annotations

import os
from pathlib import Path

from chunkgate.chunking import chunk_bytes
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.sizes import TokenCounter
from chunkgate.config.load import load_config
from chunkgate.core.model import Chunk


def chunk_file(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    options: ChunkOptions | None = None,
    counter: TokenCounter | None = None,
) -> list[Chunk]:
    """The chunks of a file on disk, with the IDs ``check`` gives them.

    IDs use the file's POSIX path relative to ``root``: by default the root of
    the repository that holds the file (found from the file, never from the
    current directory), whose configuration also gives the default ``options``
    (limits, anchor flavours from the site's config) and token counter.
    """
    file = Path(path)
    if root is None or options is None:
        config = load_config(file.parent)
        root = config.root if root is None else root
        options = config.chunking if options is None else options
    try:
        relative = file.resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        relative = file.as_posix()
    data = file.read_bytes()
    return list(chunk_bytes(data, relative, options=options, counter=counter).chunks)
