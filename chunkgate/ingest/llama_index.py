"""LlamaIndex ``TextNode``s of chunkgate's chunks (the ``llama-index`` extra:
llama-index-core).

Each node's ``id_`` is the chunk ID and its ``text`` the chunk's text;
``start_char_idx``/``end_char_idx`` cut it from the file's text (line endings
as ``\\n``, no BOM). ``relationships`` name the file (``SOURCE``, by path), the
enclosing section's chunk (``PARENT``) and the chunks before and after it
(``PREVIOUS``, ``NEXT``). The breadcrumb is the one metadata field the
embedding sees, and what the embed text holds around the text (a part's
overlap and re-opened fence lines, the module docstring's line of
``embed.module_summary``) is in the node's ``text_template``, so that
``node.get_content(MetadataMode.EMBED)`` is chunkgate's embed text exactly, what
CG201 measures against the model's limit; the other fields (flat, as vector
stores want) are kept from the embedding and the LLM. Without a breadcrumb
(``embed: {breadcrumb: false}``) LlamaIndex embeds the text alone, and so do
nodes whose embed text leaves out the headings the breadcrumb holds
(``embed: {headings: false}``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from chunkgate.config.model import Config
from chunkgate.ingest.adapters import MissingExtra, flat_metadata
from chunkgate.ingest.records import export_records

try:
    from llama_index.core.schema import NodeRelationship, ObjectType, RelatedNodeInfo, TextNode
except ImportError as exc:  # pragma: no cover - the test extra has it; a test hides it
    raise MissingExtra("chunkgate.ingest.llama_index", "llama-index", "llama-index-core") from exc

__all__ = ["nodes", "to_node"]

_SHOWN = "breadcrumb"


def to_node(record: Mapping[str, object]) -> TextNode:
    """The node of one export record (or a plan's upsert, update or rekey row)."""
    metadata = flat_metadata(record)
    hidden = sorted(key for key in metadata if key != _SHOWN)
    relationships = {
        NodeRelationship.SOURCE: RelatedNodeInfo(
            node_id=str(record["path"]), node_type=ObjectType.DOCUMENT
        )
    }
    for relation, key in (
        (NodeRelationship.PARENT, "parent"),
        (NodeRelationship.PREVIOUS, "prev"),
        (NodeRelationship.NEXT, "next"),
    ):
        if record.get(key) is not None:
            relationships[relation] = RelatedNodeInfo(
                node_id=str(record[key]), node_type=ObjectType.TEXT
            )
    start, end = record["start_char"], record["end_char"]
    return TextNode(
        id_=str(record["id"]),
        text=str(record["text"]),
        metadata=metadata,
        relationships=relationships,
        start_char_idx=start if isinstance(start, int) else None,
        end_char_idx=end if isinstance(end, int) else None,
        excluded_embed_metadata_keys=hidden,
        excluded_llm_metadata_keys=hidden,
        metadata_template="{value}",
        text_template=_template(record),
    )


def _template(record: Mapping[str, object]) -> str:
    """The node's ``text_template``: the breadcrumb (``metadata_str``), then what the embed
    text holds before the text, the text, and the line it holds after it."""
    embedded, text = str(record["embed_text"]), str(record["text"])
    crumb = str(record.get("breadcrumb") or "")
    head = f"{crumb}\n" if crumb else ""
    # The embed text is its lines joined: a closing fence line is all it holds after.
    for after in ("", "\n" + embedded.rpartition("\n")[2]):
        end = len(embedded) - len(after)
        start = end - len(text)
        if start >= len(head) and embedded.startswith(head) and embedded[start:] == text + after:
            before = embedded[len(head) : start]
            return f"{{metadata_str}}\n{_literal(before)}{{content}}{_literal(after)}"
    return "{metadata_str}\n{content}"


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def nodes(
    config: Config, paths: Sequence[str] | None = None, rev: str | None = None
) -> Iterator[TextNode]:
    """The nodes of the corpus (or of ``paths``, or of revision ``rev``), streamed."""
    for record in export_records(config, paths, rev):
        yield to_node(record)
