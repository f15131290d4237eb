"""CG201's hard limit measures what the model embeds (issue 41): the chunk's embed text as
``chunkgate export`` gives it, the overlap, a re-opened fence and the module docstring's
line included, in tokens of the model's own tokenizer, special tokens included. The
tokenizer is a BERT-style WordPiece one the test trains and loads by path; the truth is
that tokenizer's own count of the exported embed text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import check_json, commit_all, invoke, train_tokenizer, write
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_document
from chunkgate.chunking.embedtext import SIZES_OF, EmbedSettings, breadcrumb, embed_text
from chunkgate.config.model import Config
from chunkgate.rules import size
from chunkgate.rules.base import FileContext

_LIMIT = 512
_SENTENCES = [
    "The scheduler starts a worker for every queue it finds in the configuration.",
    "A worker retries a failed job three times before it reports the failure.",
    "Logs are written to the console and, when configured, to a rotating file.",
    "Each job carries its own timeout, which defaults to thirty seconds.",
]
_CODE = "\n".join(
    f"result_{n} = schedule_worker(queue_{n}, retries={n % 4}, timeout=30)" for n in range(200)
)
GUIDE = (
    "# Guide\n\n"
    + _SENTENCES[0]
    + "\n\n## Workers\n\n"
    + "".join(f"{_SENTENCES[n % 4]} {_SENTENCES[(n + 1) % 4]}\n\n" for n in range(60))
    + f"## Code\n\n```python\n{_CODE}\n```\n"
)
_BODY = "\n".join(f"    total += schedule_worker(queue_{n}, retries={n % 4})" for n in range(120))
JOBS = (
    '"""Run jobs on worker queues and report their failures."""\n\n\n'
    f"def handle(queue):\n    total = 0\n{_BODY}\n    return total\n\n\n"
    "def small():\n    return schedule_worker(None, retries=0)\n"
)
FILES = {"docs/guide.md": GUIDE, "pkg/jobs.py": JOBS}


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("model")
    return train_tokenizer(folder / "tokenizer.json", [GUIDE, JOBS] * 5)


def _counter(path: Path) -> Callable[[str], int]:
    """The tokenizer's own count, as the model sees the text: with [CLS] and [SEP]."""
    from tokenizers import Tokenizer

    loaded = Tokenizer.from_file(str(path))
    loaded.no_truncation()
    return lambda text: len(loaded.encode(text, add_special_tokens=True).ids)


def test_errors_are_the_exported_embed_texts_the_tokenizer_counts_over_the_limit(
    cli_repo: Path, tokenizer: Path
) -> None:
    write(
        cli_repo,
        ".chunkgate.yaml",
        "embed: {model: bge-small-en-v1.5, module_summary: true}\n"
        f"tokenizer: huggingface:{tokenizer}\nsize: {{max: 500, overlap: 60}}\n",
    )
    for path, text in FILES.items():
        write(cli_repo, path, text)
    commit_all(cli_repo)
    exported = invoke("export", "--quiet")
    assert exported.exit_code == 0, exported.output
    records = [json.loads(line) for line in exported.output.splitlines()]
    count = _counter(tokenizer)
    over = {r["id"] for r in records if count(r["embed_text"]) > _LIMIT}
    _, report = check_json()
    errors = {
        v["chunk_id"]
        for v in report["violations"]
        if v["rule"] == "CG201" and v["severity"] == "error"
    }
    assert errors == over
    # Each of what the embed text adds to a chunk's text is what puts one over the limit:
    # a fence line (with the overlap), the overlap alone, the module docstring's line.
    by_id = {r["id"]: r for r in records}
    added = {
        chunk_id
        for chunk_id in errors
        if count(f"{by_id[chunk_id]['breadcrumb']}\n{by_id[chunk_id]['text']}") <= _LIMIT
    }
    assert {"docs/guide.md#code~2", "docs/guide.md#workers~2"} <= added
    assert "pkg/jobs.py#function-handle" in added
    assert by_id["docs/guide.md#code~2"]["embed_text"].count("```python") == 1
    assert by_id["pkg/jobs.py#function-handle"]["embed_text"].split("\n")[1] == (
        "Run jobs on worker queues and report their failures."
    )


@settings(max_examples=30, deadline=None)
@given(
    target=st.integers(200, 520),
    overlap=st.integers(0, 199),
    embed=st.builds(
        EmbedSettings,
        breadcrumb=st.booleans(),
        sizes=st.sampled_from(SIZES_OF),
        headings=st.booleans(),
        module_summary=st.booleans(),
    ),
)
def test_the_hard_limit_counts_the_whole_embed_text(
    tokenizer: Path, target: int, overlap: int, embed: EmbedSettings
) -> None:
    """Whatever the target, the overlap and the embed settings: an error for a chunk
    exactly when the tokenizer counts its embed text over the limit."""
    options = ChunkOptions(
        unit="tokens",
        max=target,
        min=0,
        overlap=overlap,
        tokenizer=f"huggingface:{tokenizer}",
        limit=_LIMIT,
        embed=embed,
    )
    config = Config(root=tokenizer.parent, chunking=options)
    count = _counter(tokenizer)
    for path, text in FILES.items():
        chunks = chunk_document(text, path, options=options).chunks
        file = FileContext(path, len(text.encode()), text, chunks, config, ())
        errors = {
            found.chunk.id
            for found in size.check(file)
            if found.code == "CG201" and found.chunk and "as embedded" in found.message
        }
        assert errors == {c.id for c in chunks if count(embed_text(c, embed)) > _LIMIT}


def test_the_estimate_counts_the_lines_the_embed_text_adds(tmp_path: Path) -> None:
    """Without a model (the estimate, a bound skips most chunks): a part whose text fits
    the limit but whose overlap and fence line do not is an error."""
    options = ChunkOptions(max=1_990, min=0, overlap=1_500, limit=512)
    config = Config(root=tmp_path, chunking=options)
    chunks = chunk_document(GUIDE, "docs/guide.md", options=options).chunks
    file = FileContext("docs/guide.md", len(GUIDE.encode()), GUIDE, chunks, config, ())
    errors = {f.chunk.id for f in size.check(file) if f.chunk and "as embedded" in f.message}
    sized = {c.id: (len(embed_text(c).encode()) + 3) // 4 for c in chunks}
    assert errors == {chunk_id for chunk_id, tokens in sized.items() if tokens > 512}
    plain = {c.id for c in chunks if (len(f"{breadcrumb(c)}\n{c.text}".encode()) + 3) // 4 > 512}
    assert plain < errors
