"""size.overlap for parts: context in the embed text, never in a part's lines (overlap.py)."""

from __future__ import annotations

import itertools

from chunkgate.chunking import ChunkOptions, chunk_text
from chunkgate.chunking.embedtext import embed_text
from chunkgate.core.model import Chunk

SENTENCE = "Each paragraph of this guide says one thing about the setup of the server."


def chunks(text: str, path: str, overlap: int) -> list[Chunk]:
    return chunk_text(text, path, options=ChunkOptions(max=300, min=0, overlap=overlap))


def test_a_part_embeds_the_end_of_the_part_before_and_keeps_its_lines() -> None:
    text = "# Setup\n\n" + "\n\n".join(f"{n}. {SENTENCE}" for n in range(12)) + "\n"
    plain = chunks(text, "docs/a.md", 0)
    found = chunks(text, "docs/a.md", 160)
    assert len(found) > 2
    assert [(c.id, c.text, c.start_line, c.end_line) for c in found] == [
        (c.id, c.text, c.start_line, c.end_line) for c in plain
    ]
    assert found[0].embed_before == ""
    for before, part in itertools.pairwise(found):
        last = before.text.split("\n")[-1]
        assert part.embed_before.endswith(last)
        assert len(part.embed_before) <= 160
        assert embed_text(part) == f"Setup\n{part.embed_before}\n{part.text}"


def test_a_part_inside_a_fence_keeps_the_fence_line_first() -> None:
    code = "\n".join(f"step_{n}(arguments_for_the_step)" for n in range(30))
    text = f"# Run\n\n```python\n{code}\n```\n"
    found = chunks(text, "docs/run.md", 80)
    assert len(found) > 2
    second = found[1]
    lead = second.embed_before.split("\n")
    assert lead[0] == "```python"
    assert lead[-1] == found[0].text.split("\n")[-1]
    assert second.embed_after == "```"


def test_python_parts_overlap_and_whole_units_do_not() -> None:
    body = "\n".join(f"    total += compute_the_value({n})" for n in range(30))
    text = f"def first():\n    return 1\n\n\ndef long():\n    total = 0\n{body}\n    return total\n"
    found = chunks(text, "pkg/mod.py", 100)
    assert found[0].embed_before == ""
    parts = [c for c in found if c.identity.startswith("function-long")]
    assert len(parts) > 2
    assert parts[0].embed_before == ""
    assert all(
        p.embed_before.endswith(b.text.split("\n")[-1]) for b, p in itertools.pairwise(parts)
    )


def test_text_windows_overlap_in_their_lines_only() -> None:
    text = "\n\n".join(f"{n}. {SENTENCE}" for n in range(12))
    found = chunks(text, "notes.txt", 100)
    assert not any(c.embed_before for c in found)
