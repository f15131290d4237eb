"""The public API is the documentation's: ``chunkgate.__all__`` against the table of
docs/library.md, and the ingest snippets of docs/ingest.md run as written in a real
repository (issue 20)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from docspages import page
from docspages import section as section_of
from helpers import commit_all, pin_git_env, write

import chunkgate
from chunkgate import export, load_config, plan
from chunkgate.ingest.adapters import flat_metadata

INGEST = page("ingest.md")

Record = dict[str, object]


def test_the_docs_list_exactly_the_public_api() -> None:
    listed = re.findall(r"^\| `(\w+)", section_of(page("library.md"), "The API"), re.M)
    assert sorted(listed) == sorted(chunkgate.__all__)
    assert len(listed) == len(set(listed))


@pytest.mark.parametrize("name", [name for name in chunkgate.__all__ if name != "__version__"])
def test_every_public_name_is_its_home_modules(name: str) -> None:
    home = importlib.import_module(chunkgate._HOMES[name])
    assert getattr(chunkgate, name) is getattr(home, name)


def test_the_public_names_chunk_a_repositorys_file_as_configured(git_repo: Path) -> None:
    write(git_repo, ".chunkgate.yaml", "size: {max: 500, min: 0}\n")
    write(git_repo, "docs/a.md", "# A\n\nText of a.\n\n## B\n\nText of b.\n")
    config = chunkgate.load_config(git_repo)
    assert isinstance(config, chunkgate.Config)
    assert (config.chunking.max, config.chunking.min) == (500, 0)
    chunks = chunkgate.chunk_file(git_repo / "docs" / "a.md")
    assert all(isinstance(chunk, chunkgate.Chunk) for chunk in chunks)
    assert [(c.id, c.text, c.parent) for c in chunks] == [
        ("docs/a.md#a", "# A\n\nText of a.", None),
        ("docs/a.md#b", "## B\n\nText of b.", "docs/a.md#a"),
    ]
    text = chunkgate.chunk_text("# A\n\nText of a.\n\n## B\n\nText of b.\n", "docs/a.md")
    assert [c.id for c in text] == ["docs/a.md#a", "docs/a.md#b"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", chunkgate.__version__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        chunkgate.nothing  # type: ignore[attr-defined]  # noqa: B018


def snippet(marker: str) -> str:
    found = re.findall(
        rf"<!-- docs-test: {re.escape(marker)} -->\n```python\n(.*?)```", INGEST, re.S
    )
    assert len(found) == 1, f"one snippet marked {marker!r}"
    return str(found[0])


@pytest.mark.parametrize("marker", ["plan", "langchain", "llama-index"])
def test_snippets_are_short(marker: str) -> None:
    assert len(snippet(marker).splitlines()) <= 20


GUIDE = """\
# Guide

An introduction to the guide, long enough to stand alone.

## Install

Run pip install chunkgate in a fresh virtual environment.

## Use

Point it at your documentation and commit the manifest.
"""


@pytest.fixture
def history(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two commits: a heading renamed (acknowledged), a page edited, a module moved, a
    page added, one deleted and one left alone."""
    from click.testing import CliRunner

    from chunkgate.cli import cli

    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "docs/guide.md", GUIDE)
    write(git_repo, "docs/faq.md", "# FAQ\n\nQuestions that come up, and their answers.\n")
    write(git_repo, "docs/old.md", "# Old\n\nA page about to be deleted for good.\n")
    write(git_repo, "pkg/tool.py", "def run():\n    return 1\n")
    write(git_repo, "stable.md", "# Stable\n\nA page that stays exactly as it is.\n")
    assert CliRunner().invoke(cli, ["update", "-q"]).exit_code == 0
    commit_all(git_repo, "first")
    write(git_repo, "docs/guide.md", GUIDE.replace("## Install", "## Installing it"))
    write(git_repo, "docs/faq.md", "# FAQ\n\nQuestions that come up, and the answers.\n")
    (git_repo / "docs" / "old.md").unlink()
    write(git_repo, "docs/new.md", "# New\n\nA page that was not there before.\n")
    (git_repo / "pkg" / "tool.py").rename(git_repo / "tool.py")
    assert CliRunner().invoke(cli, ["update", "-q", "--accept-moves"]).exit_code == 0
    commit_all(git_repo, "second")
    return git_repo


def counting(embed: Callable[[str], list[float]]) -> tuple[Callable[[str], list[float]], list[str]]:
    seen: list[str] = []

    def counted(text: str) -> list[float]:
        seen.append(text)
        return embed(text)

    return counted, seen


def fake_vector(text: str) -> list[float]:
    return [float(len(text)), float(sum(map(ord, text)) % 997)]


def test_the_plan_snippet_embeds_only_what_changed(history: Path) -> None:
    config = load_config(history)
    head = {str(r["id"]): r for r in export(config, rev="HEAD")}
    rows = list(plan(config, "HEAD~1", "HEAD"))
    embed, seen = counting(fake_vector)
    store = {
        str(r["id"]): (fake_vector(str(r["embed_text"])), r) for r in export(config, rev="HEAD~1")
    }
    exec(snippet("plan"), {"store": store, "embed": embed})
    assert sorted(store) == sorted(head)
    assert sorted(seen) == sorted(str(r["embed_text"]) for r in rows if r["op"] == "upsert")
    assert "rekey" in {r["op"] for r in rows}
    stale = {str(r["id"]) for r in rows if r.get("embed_changed")}
    # The renamed heading, and the moved module (its breadcrumb names the module).
    assert stale == {"docs/guide.md#installing-it", "tool.py#function-run"}
    for chunk_id, (vector, record) in store.items():
        assert record["text"] == head[chunk_id]["text"]
        if chunk_id not in stale:
            assert vector == fake_vector(str(head[chunk_id]["embed_text"]))


def test_the_langchain_snippet_ends_with_the_head_documents(
    history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    embedded: list[str] = []
    original = DeterministicFakeEmbedding.embed_documents

    def embed_documents(self: DeterministicFakeEmbedding, texts: list[str]) -> list[list[float]]:
        embedded.extend(texts)
        return original(self, texts)

    monkeypatch.setattr(DeterministicFakeEmbedding, "embed_documents", embed_documents)
    namespace: dict[str, object] = {}
    exec(snippet("langchain"), namespace)
    store = namespace["store"]
    head = {str(r["id"]): r for r in export(load_config(history), rev="HEAD")}
    kept = store.store  # type: ignore[attr-defined]
    assert sorted(kept) == sorted(head)
    for chunk_id, item in kept.items():
        assert item["text"] == head[chunk_id]["embed_text"]
        unchanged = {k: v for k, v in flat_metadata(head[chunk_id]).items() if k != "commit"}
        assert {k: v for k, v in item["metadata"].items() if k != "commit"} == unchanged
    first_load = len(list(export(load_config(history), rev="HEAD~1")))
    rows = list(plan(load_config(history), "HEAD~1", "HEAD"))
    added = [r for r in rows if r["op"] in ("upsert", "update", "rekey")]
    assert len(embedded) == first_load + len(added)  # the unchanged are not added again
    assert rows[-1]["count"] == 1


def test_the_llama_index_snippet_embeds_only_the_upserts(
    history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llama_index.core.embeddings import MockEmbedding

    embedded: list[str] = []
    original = MockEmbedding._get_text_embeddings

    def get_text_embeddings(self: MockEmbedding, texts: list[str]) -> list[list[float]]:
        embedded.extend(texts)
        return original(self, texts)

    monkeypatch.setattr(MockEmbedding, "_get_text_embeddings", get_text_embeddings)
    config = load_config(history)
    before = list(export(config, rev="HEAD~1"))
    rows = list(plan(config, "HEAD~1", "HEAD"))
    namespace: dict[str, object] = {}
    exec(snippet("llama-index"), namespace)
    index = namespace["index"]
    head = {str(r["id"]): r for r in export(config, rev="HEAD")}
    docs = index.docstore.docs  # type: ignore[attr-defined]
    assert sorted(docs) == sorted(head)
    assert {i: n.text for i, n in docs.items()} == {i: r["text"] for i, r in head.items()}
    vectors = index.vector_store.data.embedding_dict  # type: ignore[attr-defined]
    assert sorted(vectors) == sorted(head)
    upserts = [str(r["embed_text"]) for r in rows if r["op"] == "upsert"]
    assert sorted(embedded) == sorted([str(r["embed_text"]) for r in before] + upserts)


def test_chunk_text_refuses_a_language_it_does_not_know() -> None:
    assert [c.language for c in chunkgate.chunk_text("x = 1\n", "a.txt", language="python")] == [
        "python"
    ]
    with pytest.raises(ValueError, match="unknown language 'pyhton'; known: c, cpp, ") as caught:
        chunkgate.chunk_text("x = 1\n", "a.txt", language="pyhton")
    assert ", markdown, " in str(caught.value)
