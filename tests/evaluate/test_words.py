"""``evaluate.words``: the words a worker finds for each chunk, numbered by its file's
own list, come out of ``Vocabulary.renumber`` as one vocabulary numbers the embed texts
in the main process; and the cache's key is made without importing bm25s."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from helpers import commit_all, write

from chunkgate.chunking.embedtext import embed_text
from chunkgate.config.load import load_config
from chunkgate.evaluate.index import vocabulary, words_of
from chunkgate.evaluate.words import FileWords, chunk_words
from chunkgate.ingest.records import Skipped, plan_export

SAMPLE = Path(__file__).parents[1] / "data" / "corpora" / "fastapi-docs"


def test_renumbered_words_are_the_embed_texts_words(cli_repo: Path) -> None:
    pages = sorted(SAMPLE.rglob("*.md"))[:40]
    assert len(pages) == 40
    for page in pages:
        shutil.copy(page, cli_repo / page.name)
    write(cli_repo, "empty.md", "")
    write(cli_repo, "stopwords.md", "# The\n\nit is of the and\n")
    commit_all(cli_repo)
    plan = plan_export(load_config(cli_repo))
    embed = plan.config.chunking.embed
    renumbered, encoded = vocabulary(), vocabulary()
    chunks = 0
    for source in plan.sources:
        found = chunk_words(plan.rev, plan.config, source)
        assert isinstance(found, FileWords), found
        words = found.words.split()
        assert len(set(words)) == len(words)
        mine = renumbered.renumber(words, found.numbers)
        theirs = tuple(encoded.encode(words_of(embed_text(c, embed))) for c in found.chunks)
        assert mine == theirs
        chunks += len(found.chunks)
    assert chunks > 100
    assert renumbered.words == encoded.words


def test_a_file_without_chunks_is_skipped(cli_repo: Path) -> None:
    write(cli_repo, "bad.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xc3\x28")
    plan = plan_export(load_config(cli_repo), ["bad.md"])
    assert isinstance(chunk_words(plan.rev, plan.config, plan.sources[0]), Skipped)


def test_the_cache_key_does_not_import_bm25s() -> None:
    code = (
        "import sys\n"
        "from chunkgate.evaluate.index import word_finding\n"
        "assert word_finding()\n"
        "print(sorted(m for m in ('bm25s', 'numpy', 'scipy') if m in sys.modules))\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "[]\n"
