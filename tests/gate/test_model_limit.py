"""Sizes against the model that embeds the chunks (issue 41): with ``embed.model`` named,
CG201 is an error for exactly the chunks whose embed text the model's tokenizer counts
over its input limit, and a warning for a block over the target that fits; ``export``
and ``stats`` give sizes in the model's tokens. The model's tokenizer here is one the
test trains itself, given by path, as a user without network provides the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import check_json, commit_all, invoke, token_count, train_tokenizer, write

from chunkgate.config.load import load_config
from chunkgate.ingest.records import export_records

_MODEL = "bge-small-en-v1.5"  # 512 tokens: the target defaults to 384
_SENTENCES = [
    "The scheduler starts a worker for every queue it finds in the configuration.",
    "A worker retries a failed job three times before it reports the failure.",
    "Logs are written to the console and, when configured, to a rotating file.",
    "Each job carries its own timeout, which defaults to thirty seconds.",
]


def _log(entries: int) -> str:
    # One line: a code block is cut between its lines, so only a line is unsplittable.
    body = " ".join(f"INFO worker {n} started the job queue" for n in range(entries))
    return f"```text\n{body}\n```\n"


GUIDE = (
    "# Guide\n\n"
    + _SENTENCES[0]
    + "\n\n## Workers\n\n"
    + "".join(f"{_SENTENCES[n % 4]} {_SENTENCES[(n + 1) % 4]}\n\n" for n in range(40))
    + "## Long log\n\n"
    + _log(200)
    + "\n## Medium log\n\n"
    + _log(60)
    + "\n## Short log\n\n"
    + _log(5)
)
DATA = "TABLE = [\n" + "".join(f"    ({n}, 'worker {n}'),\n" for n in range(150)) + "]\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    tokenizer = train_tokenizer(cli_repo.parent / "tokenizer.json", [GUIDE, DATA] * 5)
    write(
        cli_repo,
        ".chunkgate.yaml",
        f"embed: {{model: {_MODEL}}}\ntokenizer: huggingface:{tokenizer}\n",
    )
    write(cli_repo, "docs/guide.md", GUIDE)
    write(cli_repo, "pkg/data.py", DATA)
    commit_all(cli_repo)
    return cli_repo


def _tokenizer(repo: Path) -> Path:
    return repo.parent / "tokenizer.json"


def test_errors_are_exactly_the_chunks_the_models_tokenizer_counts_over_its_limit(
    repo: Path,
) -> None:
    records = list(export_records(load_config(repo)))
    counts = {str(r["id"]): token_count(_tokenizer(repo), str(r["embed_text"])) for r in records}
    _, report = check_json()
    found = [v for v in report["violations"] if v["rule"] == "CG201"]
    errors = {v["chunk_id"] for v in found if v["severity"] == "error"}
    assert errors == {chunk_id for chunk_id, count in counts.items() if count > 512}
    assert {"docs/guide.md#long-log", "pkg/data.py#module"} <= errors
    warnings = {v["chunk_id"] for v in found if v["severity"] == "warning"}
    assert warnings == {"docs/guide.md#medium-log"}
    assert 384 < counts["docs/guide.md#medium-log"] <= 512
    long_log = next(v for v in found if v["chunk_id"] == "docs/guide.md#long-log")
    assert long_log["message"].startswith(
        f"section is {counts['docs/guide.md#long-log']:,} tokens as embedded, over "
        f"{_MODEL}'s input limit 512: its fenced code block"
    )
    # The prose over the target is split into parts, none of them over it.
    parts = [chunk_id for chunk_id in counts if chunk_id.startswith("docs/guide.md#workers")]
    assert len(parts) > 1


def test_export_and_stats_give_sizes_in_the_models_tokens(repo: Path) -> None:
    records = list(export_records(load_config(repo)))
    for record in records:
        assert record["model"] == _MODEL
        assert record["tokens"] == token_count(_tokenizer(repo), str(record["text"]))
    result = invoke("stats", "--format", "json")
    stats = json.loads(result.output)
    assert (stats["unit"], stats["model"], stats["limits"]["max"]) == ("tokens", _MODEL, 384)
    assert stats["total"] == sum(int(str(record["tokens"])) for record in records)
    text = invoke("stats").output
    assert f"tokens of {_MODEL} in total" in text.splitlines()[0]
