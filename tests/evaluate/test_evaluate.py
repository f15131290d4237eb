"""``eval``: golden queries, BM25 recall@k and MRR, and a drop against a base revision."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import commit_all, pin_git_env, write

from chunkgate.chunking import chunk_text
from chunkgate.chunking.embedtext import EmbedSettings
from chunkgate.cli import cli
from chunkgate.core.errors import ChunkgateError
from chunkgate.evaluate.golden import GoldenQuery, evaluate, load_golden

CORPUS = Path(__file__).parents[1] / "data" / "corpora" / "fastapi-docs" / "docs" / "en"
GOLDEN = Path(__file__).resolve().parents[2] / "benchmarks" / "golden" / "fastapi.yaml"

DOCS = chunk_text(
    "# Cats\n\nCats purr and like to sleep in the sun.\n\n"
    "# Dogs\n\nDogs bark at the postman and fetch sticks.\n\n"
    "# Fish\n\nFish swim in water and never purr.\n",
    "pets.md",
)


def test_recall_and_mrr() -> None:
    golden = [
        GoldenQuery("which animal purrs in the sun", ("pets.md#cats",), 1),
        GoldenQuery("who barks at the postman", ("pets.md#dogs", "pets.md#fish"), 2),
        GoldenQuery("zebra", ("pets.md#cats",), 3),
    ]
    run = evaluate("now", DOCS, golden, k=2)
    first, second, third = run.results
    assert (first.rank, first.recall) == (1, 1.0)
    assert (second.found, second.recall) == (("pets.md#dogs",), 0.5)
    assert (third.retrieved, third.rank, third.reciprocal_rank) == ((), None, 0.0)
    assert run.recall == pytest.approx(0.5)
    assert run.mrr == pytest.approx(2 / 3)


def test_a_recorded_move_counts_either_way() -> None:
    renamed = [c._replace(id="pets.md#felines") if c.id == "pets.md#cats" else c for c in DOCS]
    golden = [GoldenQuery("which animal purrs in the sun", ("pets.md#cats",), 1)]
    assert evaluate("x", renamed, golden, k=1).recall == 0.0
    moves = [("pets.md#felines", "pets.md#cats")]
    assert evaluate("x", renamed, golden, k=1, moves=moves).recall == 1.0
    newer = [GoldenQuery("which animal purrs in the sun", ("pets.md#felines",), 1)]
    assert evaluate("x", DOCS, newer, k=1, moves=moves).recall == 1.0


def test_eval_ranks_the_embed_text_export_writes() -> None:
    """The breadcrumb (a page's title too) is indexed, as an ingest embeds it; eval and
    search share the index, so a golden query and a typed one agree."""
    titled = [c._replace(title="Felines") if c.id == "pets.md#cats" else c for c in DOCS]
    golden = [GoldenQuery("felines", ("pets.md#cats",), 1)]
    assert evaluate("x", titled, golden, k=1).recall == 1.0
    bare = EmbedSettings(breadcrumb=False)
    assert evaluate("x", titled, golden, k=1, embed=bare).recall == 0.0


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        pytest.param(
            "g.yaml", "- query: a\n  expected: x\n", "g.yaml:1: 'expected'", id="not-an-id"
        ),
        pytest.param("g.yaml", "- query: a\n  expected: [a#b]\n- nope\n", "g.yaml:3:", id="line"),
        pytest.param("g.yaml", "queries: [\n", "g.yaml:2: invalid YAML", id="yaml"),
        pytest.param("g.yaml", "a: 1\n", "expected a list of queries", id="shape"),
        pytest.param(
            "g.jsonl",
            '{"query": "a", "expected": "a#b"}\n{\n',
            "g.jsonl:2: invalid JSON",
            id="json",
        ),
        pytest.param("g.jsonl", "\n", "no queries", id="empty"),
    ],
)
def test_bad_golden_files_name_the_line(
    tmp_path: Path, name: str, content: str, error: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ChunkgateError, match=error.replace("[", r"\[")):
        load_golden(path)


def test_yaml_and_json_lines_read_alike(tmp_path: Path) -> None:
    rows = [{"query": "q one", "expected": ["a.md#x"]}, {"query": "q two", "expected": "b.md#y"}]
    (tmp_path / "g.yaml").write_text(yaml.safe_dump({"queries": rows}), encoding="utf-8")
    (tmp_path / "g.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    as_yaml = [(q.query, q.expected) for q in load_golden(tmp_path / "g.yaml")]
    assert as_yaml == [(q.query, q.expected) for q in load_golden(tmp_path / "g.jsonl")]
    assert as_yaml[1] == ("q two", ("b.md#y",))


def test_the_fastapi_golden_file_names_real_sections() -> None:
    from chunkgate.chunking.outline import outline_bytes

    queries = load_golden(GOLDEN)
    assert len(queries) == 30
    for query in queries:
        for expected in query.expected:
            path, _, _ = expected.partition("#")
            source = CORPUS.parent.parent / path
            ids = {h.id for h in outline_bytes(source.read_bytes(), path)}
            assert expected in ids


@pytest.fixture
def fastapi_repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """FastAPI's English tutorial pages in a repository, with the golden file."""
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    tutorial = CORPUS / "docs" / "tutorial"
    for page in sorted(tutorial.glob("*.md")):
        shutil.copy(page, git_repo / page.name)
    prefix = "docs/en/docs/tutorial/"
    queries = [
        {"query": q.query, "expected": [e.removeprefix(prefix) for e in q.expected]}
        for q in load_golden(GOLDEN)
        if all(e.startswith(prefix) and "/" not in e.removeprefix(prefix) for e in q.expected)
    ]
    assert len(queries) >= 20
    write(git_repo, "golden.yaml", yaml.safe_dump(queries, sort_keys=False))
    commit_all(git_repo)
    return git_repo


def test_eval_reports_every_query_as_json(fastapi_repo: Path) -> None:
    result = CliRunner().invoke(cli, ["eval", "golden.yaml", "--format", "json", "-k", "5"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["base"] is None
    assert report["head"]["recall"] >= 0.7
    assert all(q["retrieved"] for q in report["head"]["queries"])


def test_breaking_a_sections_retrieval_fails_eval_base(
    fastapi_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    same = runner.invoke(cli, ["eval", "golden.yaml", "--base", "HEAD", "--format", "text"])
    assert same.exit_code == 0, same.output
    # The CORS page loses the section that says how to use CORSMiddleware.
    page = fastapi_repo / "cors.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("## Use `CORSMiddleware`")
    end = text.index("\n## ", start + 1)
    page.write_text(
        text[:start] + "## Use it\n\nSee the reference.\n" + text[end:], encoding="utf-8"
    )
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = runner.invoke(cli, ["eval", "golden.yaml", "--base", "HEAD", "--format", "github"])
    assert result.exit_code == 1, result.output
    assert "recall@5 fell from" in result.output
    assert "::error title=chunkgate eval::" in result.output
    written = summary.read_text(encoding="utf-8")
    assert "## chunkgate eval" in written
    assert "CORSMiddleware" in written
    tolerant = runner.invoke(cli, ["eval", "golden.yaml", "--base", "HEAD", "--max-drop", "0.1"])
    assert tolerant.exit_code == 0, tolerant.output
