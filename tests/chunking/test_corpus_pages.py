"""Pages of real sites that once chunked wrongly, chunked as a good ingest does."""

from __future__ import annotations

from pathlib import Path

from chunkgate import chunk_text
from chunkgate.core.model import Chunk

SAMPLES = Path(__file__).parents[1] / "data" / "corpora"


def _chunks(corpus: str, path: str) -> tuple[list[str], list[Chunk]]:
    text = (SAMPLES / corpus / path).read_text(encoding="utf-8")
    found = chunk_text(text, path)
    lines = text.split("\n")
    for chunk in found:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
    return lines, found


def test_starlight_mdx_imports_are_in_no_chunk() -> None:
    lines, found = _chunks("starlight-docs", "docs/src/content/docs/pt-pt/index.mdx")
    imports = [number for number, line in enumerate(lines, 1) if line.startswith("import ")]
    assert imports == [25, 26, 27, 28]
    assert found[0].id.endswith("#~preamble")
    assert found[0].start_line == 30  # the <CardGrid> after the imports
    assert all(not chunk.start_line <= 28 for chunk in found)


def test_hugo_front_matter_of_a_comment_is_front_matter() -> None:
    _, found = _chunks("hugo-docs", "content/en/_common/store-methods.md")
    assert [chunk.identity for chunk in found] == ["methods", "methods~2"]
    assert found[0].start_line == 5
    assert found[0].heading_path == ("Methods",)
