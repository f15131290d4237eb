"""CG402/CG403 take time linear in the changed chunks (issue 18, defect 5).

A file of many chunks that all changed since the baseline used to cost a pass
over the file's entry for every old chunk: 5,000 / 10,000 chunks took 5.7 /
19.7 s in a whole-corpus check. The bound is relative to the same function at a
small size, scaled linearly, so a busy machine does not flake while a quadratic
step (8 times the chunks, 64 times the time) fails.
"""

from __future__ import annotations

import time
from pathlib import Path

from chunkgate.chunking import chunk_text
from chunkgate.config.load import load_config
from chunkgate.core.model import Chunk
from chunkgate.manifest import FileEntry
from chunkgate.rules.stability import check_stability

SMALL, LARGE = 500, 4_000
# Linear is 8 times slower at 8 times the chunks; quadratic 64 times.
MAX_GROWTH = 3.0 * LARGE / SMALL


def _document(sections: int, salt: str) -> list[Chunk]:
    text = "\n".join(
        f"## s{i}\n\ntext {salt} of section {i}, long enough for a chunk.\n"
        for i in range(sections)
    )
    return chunk_text(text, "big.md")


def _seconds(sections: int, tmp_path: Path) -> float:
    config = load_config(tmp_path)
    before, after = _document(sections, "a"), _document(sections, "b")
    entries = {"big.md": FileEntry.from_chunks("big.md", None, after)}
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        result = check_stability(config, before, after, entries)
        best = min(best, time.perf_counter() - start)
    assert result.violations == []  # every ID is still there: nothing moved or went
    return best


def test_changed_chunks_of_one_file_are_checked_in_linear_time(tmp_path: Path) -> None:
    small = _seconds(SMALL, tmp_path)
    large = _seconds(LARGE, tmp_path)
    assert large < MAX_GROWTH * max(small, 0.002), (small, large)


def test_a_removed_chunk_among_many_is_still_reported(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    before = _document(50, "a")
    after = [c for c in _document(50, "b") if c.id != "big.md#s7"]
    entries = {"big.md": FileEntry.from_chunks("big.md", None, after)}
    found = check_stability(config, before, after, entries).violations
    assert [(v.rule, v.chunk_id) for v in found] == [("CG403", "big.md#s7")]
