"""``lint EXPORT``: chunkgate's rules on other pipelines' chunks, exported by the real libraries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkgate.cli import cli
from chunkgate.config.model import Config
from chunkgate.lint import lint_export, read_export
from chunkgate.rules import RULES, rule_docs
from chunkgate.rules.exports import ExportRow, check_rows, fence_state

FASTAPI = Path(__file__).parents[1] / "data" / "corpora" / "fastapi-docs"
TUTORIAL = FASTAPI / "docs" / "en" / "docs" / "tutorial"
PAGES = sorted(TUTORIAL.glob("*.md"))[:12]


def _codes(result: object) -> dict[str, int]:
    counts: dict[str, int] = {}
    for violation in result.violations:  # type: ignore[attr-defined]
        counts[violation.rule] = counts.get(violation.rule, 0) + 1
    return counts


def _fences_cut(texts: list[str]) -> set[int]:
    """Rows (1-based) a fence runs into or out of, by a plain CommonMark count per source."""
    rows = [ExportRow(i, "x", "a.md", ("h",), t) for i, t in enumerate(texts, 1)]
    return {f.line for f in check_rows(rows) if f.code == "CG604"}


@pytest.fixture(scope="module")
def langchain_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from langchain_core.documents import Document
    from langchain_text_splitters import MarkdownTextSplitter

    splitter = MarkdownTextSplitter(chunk_size=800, chunk_overlap=0)
    pages = [
        Document(
            page_content=p.read_text(encoding="utf-8"), metadata={"source": f"tutorial/{p.name}"}
        )
        for p in PAGES
    ]
    path = tmp_path_factory.mktemp("lc") / "langchain.jsonl"
    rows = [doc.model_dump() for doc in splitter.split_documents(pages)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _llamaindex_nodes() -> list[dict[str, object]]:
    from llama_index.core import Document
    from llama_index.core.node_parser import MarkdownNodeParser, SentenceSplitter

    documents = [
        Document(text=p.read_text(encoding="utf-8"), metadata={"file_path": f"tutorial/{p.name}"})
        for p in PAGES
    ]
    sections = MarkdownNodeParser().get_nodes_from_documents(documents)
    nodes = SentenceSplitter(chunk_size=256, chunk_overlap=0).get_nodes_from_documents(sections)
    return [node.to_dict() for node in nodes]


@pytest.fixture(scope="module")
def llamaindex_exports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("li")
    paths = folder / "run1.jsonl", folder / "run2.jsonl"
    for path in paths:  # two ingests of the same corpus
        rows = _llamaindex_nodes()
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return paths


def test_langchain_fields_are_mapped(langchain_export: Path) -> None:
    rows = read_export(langchain_export)
    assert all(row.source and row.source.startswith("tutorial/") for row in rows)
    assert all(row.text for row in rows)


def test_langchain_chunks_that_cut_fences_are_found(langchain_export: Path) -> None:
    rows = read_export(langchain_export)
    result = lint_export(Config(root=langchain_export.parent), langchain_export)
    cut = {v.line for v in result.violations if v.rule == "CG604"}
    # Every row whose text has an odd number of fence lines is among them.
    odd = {row.line for row in rows if _odd_fences(row.text or "")}
    assert odd
    assert odd <= cut
    assert result.errors
    assert "CG607" in _codes(result)  # the recursive splitter keeps no heading


def _odd_fences(text: str) -> bool:
    return sum(line.lstrip().startswith(("```", "~~~")) for line in text.split("\n")) % 2 == 1


def test_llamaindex_chunks_that_cut_fences_are_found_and_ids_change(
    llamaindex_exports: tuple[Path, Path],
) -> None:
    first, second = llamaindex_exports
    rows = read_export(first)
    assert all(row.source and row.id for row in rows)
    assert any(row.headings for row in rows)  # header_path
    result = lint_export(Config(root=first.parent), first, against=second)
    codes = _codes(result)
    assert codes.get("CG604", 0) >= 1
    cut = {v.line for v in result.violations if v.rule == "CG604"}
    assert {row.line for row in rows if _odd_fences(row.text or "")} <= cut
    # LlamaIndex gives every node a random UUID: nothing keeps its ID between runs.
    assert codes["CG608"] == len({row.text for row in rows if row.text and row.text.strip()})


def test_chunkgates_own_export_is_clean_of_export_faults(tmp_path: Path) -> None:
    from chunkgate import chunk_file

    export = tmp_path / "chunks.jsonl"
    with export.open("w", encoding="utf-8") as out:
        for page in PAGES:
            for chunk in chunk_file(page, root=TUTORIAL):
                out.write(json.dumps(chunk.to_dict()) + "\n")
    result = lint_export(Config(root=tmp_path), export)
    codes = _codes(result)
    for code in ("CG601", "CG602", "CG603", "CG604", "CG607", "CG608"):
        assert code not in codes


@pytest.mark.parametrize(
    ("texts", "cut"),
    [
        pytest.param(["a\n```py\nx = 1\n```\nb"], set(), id="whole-block"),
        pytest.param(["a\n```py\nx = 1", "y = 2\n```\nb"], {1, 2}, id="split-block"),
        pytest.param(["a\n````\n```\nx\n````"], set(), id="longer-fence"),
        pytest.param(["a\n~~~\nx", "x\n~~~"], {1, 2}, id="tildes"),
        pytest.param(["a\n```py\nx", "```py\nx\n```\nb"], {1}, id="overlap-repeats-the-opening"),
        pytest.param(["a\n```\nx", "x", "x\n```"], {1, 2, 3}, id="whole-chunk-inside"),
    ],
)
def test_fences(texts: list[str], cut: set[int]) -> None:
    assert _fences_cut(texts) == cut


def test_fence_state_names_the_fence_left_open() -> None:
    assert fence_state("a\n```python\nimport x", None) == (False, "```python")
    assert fence_state("x = 1\n```\nafter", "```python") == (True, None)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        pytest.param("", "CG601", id="empty"),
        pytest.param("and then restart the server after you edit it.", "CG605", id="connector"),
        pytest.param("Install the package and then configure the cache dir", "CG605", id="no-end"),
        pytest.param("Ends with a comma, which is not an end,", "CG605", id="comma"),
        pytest.param("| a | 1 |\n| b | 2 |", "CG606", id="table-without-header"),
    ],
)
def test_export_faults_fire(text: str, code: str) -> None:
    rows = [ExportRow(1, "a.md#x", "a.md", ("A",), text)]
    assert code in {f.code for f in check_rows(rows)}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Then restart the server.", id="sentence"),
        pytest.param("- a list item without a full stop", id="list"),
        pytest.param("## A heading at the end", id="heading"),
        pytest.param("| name | n |\n|---|---|\n| a | 1 |", id="table"),
        pytest.param("See https://example.com/docs", id="url"),
        pytest.param("Run this:", id="colon"),
    ],
)
def test_export_faults_pass(text: str) -> None:
    rows = [ExportRow(1, "a.md#x", "a.md", ("A",), text)]
    assert [f.code for f in check_rows(rows)] == []


def test_missing_fields_and_field_overrides(tmp_path: Path) -> None:
    export = tmp_path / "e.jsonl"
    rows = [{"body": "Install it with pip, then run it.", "meta": {"file": "a.md", "uid": "u1"}}]
    export.write_text(json.dumps(rows[0]) + "\n", encoding="utf-8")
    plain = lint_export(Config(root=tmp_path), export)
    assert "CG601" in _codes(plain)  # no text field it knows
    fields = {"text": "body", "source": "meta.file", "id": "meta.uid"}
    mapped = lint_export(Config(root=tmp_path), export, fields=fields)
    assert set(_codes(mapped)) <= {"CG202", "CG607"}
    result = CliRunner().invoke(
        cli, ["lint", str(export), "--field", "text=body", "--field", "nope=x", "--format", "json"]
    )
    assert result.exit_code == 2
    assert "NAME one of text, id, source, heading" in result.output


def test_chunklint_json_exports_are_read(tmp_path: Path) -> None:
    from chunklint.loader import export_chunks

    export = tmp_path / "chunks.json"
    export_chunks(
        [
            {
                "id": "c1",
                "text": "Install it with pip.",
                "metadata": {"source": "a.md", "heading": "Install"},
            }
        ],
        export,
    )
    (row,) = read_export(export)
    assert (row.id, row.source, row.headings, row.text) == (
        "c1",
        "a.md",
        ("Install",),
        "Install it with pip.",
    )


def test_bad_exports_are_one_line_errors(tmp_path: Path) -> None:
    export = tmp_path / "e.jsonl"
    export.write_text('{"text": "a"}\n{broken\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", str(export)])
    assert result.exit_code == 2
    assert result.output.strip().endswith(
        "e.jsonl:2: invalid JSON: Expecting property name enclosed in double quotes"
    )


def test_every_export_rule_is_registered_and_documented() -> None:
    docs = rule_docs()
    for code in ("CG601", "CG602", "CG603", "CG604", "CG605", "CG606", "CG607", "CG608"):
        assert code in RULES
        assert "Fires" in docs[code]


def test_chonkie_chunks_are_read_and_name_no_source(tmp_path: Path) -> None:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(chunk_size=256)
    export = tmp_path / "chonkie.jsonl"
    with export.open("w", encoding="utf-8") as out:
        for page in PAGES[:3]:
            for chunk in chunker.chunk(page.read_text(encoding="utf-8")):
                out.write(json.dumps(chunk.to_dict()) + "\n")
    rows = read_export(export)
    assert all(row.id and row.id.startswith("chnk_") and row.text for row in rows)
    result = lint_export(Config(root=tmp_path), export)
    assert _codes(result)["CG602"] == len(rows)  # chonkie keeps no source
    assert {row.line for row in rows if _odd_fences(row.text or "")} <= {
        v.line for v in result.violations if v.rule == "CG604"
    }
