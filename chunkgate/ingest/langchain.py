"""LangChain ``Document``s of chunkgate's chunks (the ``langchain`` extra: langchain-core).

Each document's ``id`` is the chunk ID, its ``page_content`` the embed text
(breadcrumb line, then the chunk's text: what chunkgate lints; ``content="text"``
for the bare text) and its ``metadata`` the record's other fields, flat
(``chunkgate.ingest.adapters.flat_metadata``). ``ChunkgateLoader`` is a
``BaseLoader``: ``lazy_load`` streams the export, file by file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.ingest.adapters import MissingExtra, flat_metadata
from chunkgate.ingest.records import export_records

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ImportError as exc:  # pragma: no cover - the test extra has it; a test hides it
    raise MissingExtra("chunkgate.ingest.langchain", "langchain", "langchain-core") from exc

Content = Literal["embed_text", "text"]

__all__ = ["ChunkgateLoader", "documents", "to_document"]


def to_document(record: Mapping[str, object], *, content: Content = "embed_text") -> Document:
    """The document of one export record (or a plan's upsert, update or rekey row)."""
    return Document(
        id=str(record["id"]), page_content=str(record[content]), metadata=flat_metadata(record)
    )


def documents(
    config: Config,
    paths: Sequence[str] | None = None,
    rev: str | None = None,
    *,
    content: Content = "embed_text",
) -> Iterator[Document]:
    """The documents of the corpus (or of ``paths``, or of revision ``rev``), streamed."""
    for record in export_records(config, paths, rev):
        yield to_document(record, content=content)


class ChunkgateLoader(BaseLoader):
    """The chunks of a repository (``root``, default: the one you are in), of ``paths``
    in it, or of revision ``rev``, as documents."""

    def __init__(
        self,
        root: str | Path = ".",
        *,
        paths: Sequence[str] | None = None,
        rev: str | None = None,
        content: Content = "embed_text",
    ) -> None:
        self.root = Path(root)
        self.paths = paths
        self.rev = rev
        self.content: Content = content

    def lazy_load(self) -> Iterator[Document]:
        yield from documents(load_config(self.root), self.paths, self.rev, content=self.content)
