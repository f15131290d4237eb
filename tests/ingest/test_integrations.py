"""The LangChain and LlamaIndex adapters, against the real libraries (issue 20)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import commit_all, pin_git_env, write

from chunkgate.config.load import load_config
from chunkgate.ingest.records import export
from chunkgate.ingest.reembed import plan

GUIDE = """\
---
title: The Guide
tags: [setup, network]
---
Welcome to the guide.

# Configuration

Every setting has a default.

## Networking

The timeout defaults to 30s.

## Storage

Data lives under `~/.cache`, 🗄 one folder a project.
"""
LONG = "# Long\n\n" + "\n\n".join(
    f"Paragraph {n} of a long section, with words." for n in range(80)
)
CODE = (
    "class Client:\n    def send(self):\n        return 1\n\n\ndef main():\n    return Client()\n"
)
RST = ":author: Ada\n\nTitle\n=====\n\nSome reStructuredText prose here.\n"


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, ".chunkgate.yaml", 'include: ["**/*.md", "**/*.py", "**/*.rst"]\n')
    write(git_repo, "docs/guide.md", GUIDE)
    write(git_repo, "docs/long.md", LONG)
    write(git_repo, "crlf.md", "\ufeff# Windows\r\n\r\nLines end in CRLF here.\r\n")
    write(git_repo, "pkg/client.py", CODE)
    write(git_repo, "docs/page.rst", RST)
    commit_all(git_repo, "first")
    return git_repo


def file_text(repo: Path, path: str) -> str:
    """The text offsets count in: line endings as \\n, no BOM."""
    text = (repo / path).read_text(encoding="utf-8").replace("\r\n", "\n")
    return text.removeprefix("\ufeff")


def assert_flat(metadata: dict[str, object]) -> None:
    for key, value in metadata.items():
        assert isinstance(value, (str, int, float, bool)), (key, value)


def test_langchain_documents_have_the_chunk_ids_and_flat_metadata(repo: Path) -> None:
    from langchain_core.documents import Document

    from chunkgate.ingest.langchain import documents

    config = load_config(repo)
    records = list(export(config))
    docs = list(documents(config))
    assert all(isinstance(doc, Document) for doc in docs)
    assert [doc.id for doc in docs] == [r["id"] for r in records]
    assert [doc.page_content for doc in docs] == [r["embed_text"] for r in records]
    for doc in docs:
        assert_flat(doc.metadata)
    networking = next(d for d in docs if d.id == "docs/guide.md#networking")
    assert networking.page_content.startswith("The Guide > Configuration > Networking\n")
    meta = networking.metadata
    assert meta["heading_path"] == "Configuration > Networking"
    assert meta["tags"] == "setup, network"
    assert meta["title"] == "The Guide"
    assert (meta["start_line"], meta["end_line"]) == (11, 13)
    assert meta["parent"] == "docs/guide.md#configuration"
    assert meta["prev"] == "docs/guide.md#configuration"
    assert meta["next"] == "docs/guide.md#storage"
    preamble = next(d for d in docs if d.id == "docs/guide.md#~preamble")
    assert "parent" not in preamble.metadata  # None is left out: stores refuse it
    assert "text" not in meta
    assert "embed_text" not in meta
    rst = next(d for d in docs if d.metadata["path"] == "docs/page.rst")
    assert rst.metadata["field.author"] == "Ada"
    bare = list(documents(config, ["docs/guide.md"], content="text"))
    assert [d.page_content for d in bare] == [r["text"] for r in records if "guide" in r["path"]]


def test_the_langchain_loader_streams_into_a_vector_store(repo: Path) -> None:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.vectorstores import InMemoryVectorStore

    from chunkgate.ingest.langchain import ChunkgateLoader

    loader = ChunkgateLoader(repo)
    assert isinstance(loader, BaseLoader)
    stream = loader.lazy_load()
    first = next(stream)
    assert first.id == "crlf.md#windows"
    docs = [first, *stream]
    assert docs == loader.load()
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    store.add_documents(docs)
    store.add_documents(loader.load())  # the same IDs: replaced, not added again
    assert len(store.store) == len(docs)
    found = store.get_by_ids(["pkg/client.py#class-Client"])
    assert found[0].page_content.startswith("pkg.client > Client\n")
    old = ChunkgateLoader(repo, rev="HEAD", paths=["docs"]).load()
    assert {d.metadata["path"] for d in old} == {"docs/guide.md", "docs/long.md", "docs/page.rst"}


def test_plan_rows_make_documents_and_nodes(repo: Path) -> None:
    from chunkgate.ingest.langchain import to_document
    from chunkgate.ingest.llama_index import to_node

    write(repo, "docs/guide.md", GUIDE.replace("30s", "60s"))
    commit_all(repo, "second")
    rows = [r for r in plan(load_config(repo), "HEAD~1", "HEAD") if r["op"] == "upsert"]
    assert [r["id"] for r in rows] == ["docs/guide.md#networking"]
    doc, node = to_document(rows[0]), to_node(rows[0])
    assert doc.id == node.id_ == "docs/guide.md#networking"
    assert "op" not in doc.metadata
    assert "op" not in node.metadata
    assert doc.page_content.endswith("60s.")


def test_llama_index_nodes_slice_the_file_and_link_their_neighbours(repo: Path) -> None:
    from llama_index.core.schema import MetadataMode, NodeRelationship, TextNode

    from chunkgate.ingest.llama_index import nodes

    config = load_config(repo)
    records = {str(r["id"]): r for r in export(config)}
    found = list(nodes(config))
    assert [n.id_ for n in found] == list(records)
    parts = [n for n in found if n.metadata["parts"] != 1]
    assert len(parts) > 1  # the long section comes in parts
    for node in found:
        record = records[node.id_]
        assert isinstance(node, TextNode)
        assert node.start_char_idx is not None
        assert node.end_char_idx is not None
        text = file_text(repo, str(record["path"]))
        assert text[node.start_char_idx : node.end_char_idx] == node.text == record["text"]
        assert node.get_content(MetadataMode.EMBED) == record["embed_text"]
        assert node.get_content(MetadataMode.NONE) == record["text"]
        assert_flat(node.metadata)
        relations = node.relationships
        assert relations[NodeRelationship.SOURCE].node_id == record["path"]
        for relation, key in (
            (NodeRelationship.PARENT, "parent"),
            (NodeRelationship.PREVIOUS, "prev"),
            (NodeRelationship.NEXT, "next"),
        ):
            linked = relations.get(relation)
            assert (linked.node_id if linked is not None else None) == record[key]  # type: ignore[union-attr]
    storage = next(n for n in found if n.id_ == "docs/guide.md#storage")
    assert storage.parent_node is not None
    assert storage.parent_node.node_id == "docs/guide.md#configuration"
    assert storage.prev_node is not None
    assert storage.prev_node.node_id == "docs/guide.md#networking"


def test_both_adapters_embed_the_overlap_fence_lines_and_module_summary(repo: Path) -> None:
    """What the embed text holds around a chunk's text (a part's overlap, a re-opened
    fence, the module docstring's line) is what LangChain's document holds and what
    LlamaIndex's node embeds, while the node's text stays the chunk's own."""
    from llama_index.core.schema import MetadataMode

    from chunkgate.ingest.langchain import documents
    from chunkgate.ingest.llama_index import nodes

    write(
        repo,
        ".chunkgate.yaml",
        'include: ["**/*.md", "**/*.py"]\nsize: {max: 300, overlap: 80}\n'
        "embed: {module_summary: true}\n",
    )
    code = "\n".join(f"call_{n}(value={{'n': {n}}})" for n in range(40))
    write(repo, "docs/run.md", f"# Run\n\n```python\n{code}\n```\n")
    write(repo, "pkg/client.py", f'"""A client for the {{API}}."""\n\n\n{CODE}')
    config = load_config(repo)
    records = {str(r["id"]): r for r in export(config)}
    around = [r for r in records.values() if r["embed_text"] != f"{r['breadcrumb']}\n{r['text']}"]
    assert {r["path"] for r in around} >= {"docs/run.md", "docs/long.md", "pkg/client.py"}
    for node in nodes(config):
        record = records[node.id_]
        assert node.get_content(MetadataMode.EMBED) == record["embed_text"]
        assert node.text == record["text"]
    assert [d.page_content for d in documents(config)] == [
        r["embed_text"] for r in records.values()
    ]


def test_llama_index_without_a_breadcrumb_embeds_the_text(repo: Path) -> None:
    from llama_index.core.schema import MetadataMode

    from chunkgate.ingest.llama_index import nodes

    write(repo, ".chunkgate.yaml", "embed: {breadcrumb: false}\n")
    for node in nodes(load_config(repo)):
        assert node.get_content(MetadataMode.EMBED) == node.text


def test_llama_index_nodes_build_an_index(repo: Path) -> None:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding

    from chunkgate.ingest.llama_index import nodes

    found = list(nodes(load_config(repo)))
    index = VectorStoreIndex(found, embed_model=MockEmbedding(embed_dim=8))
    stored = index.docstore.get_node("docs/guide.md#networking")
    assert stored.get_content() == "## Networking\n\nThe timeout defaults to 30s."
    hits = index.as_retriever(similarity_top_k=2).retrieve("timeout")
    assert {hit.node.node_id for hit in hits} <= {n.id_ for n in found}


@pytest.mark.parametrize(
    ("module", "hidden", "extra"),
    [
        pytest.param("langchain", "langchain_core", "langchain", id="langchain"),
        pytest.param("llama_index", "llama_index", "llama-index", id="llama-index"),
    ],
)
def test_a_missing_library_names_the_extra(module: str, hidden: str, extra: str) -> None:
    script = (
        "import sys\n"
        f"sys.modules[{hidden!r}] = None\n"
        "try:\n"
        f"    import chunkgate.ingest.{module}\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert f"pip install 'chunkgate[{extra}]'" in proc.stdout
    assert proc.stdout.startswith(f"chunkgate.ingest.{module} needs ")


def test_importing_chunkgate_imports_neither_library() -> None:
    script = (
        "import sys, chunkgate\n"
        "from chunkgate import export, plan\n"
        "import chunkgate.ingest.adapters\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('langchain_core', 'llama_index')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "[]"
