"""The rule docs, the README and the docs pages state the code's numbers (issue 42:
`chunkgate rules CG402` said 60% similar where the README said 50%)."""

from __future__ import annotations

import re

from docspages import pages, readme

from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.models import DEFAULT_LIMIT
from chunkgate.diff.moves import SIMILARITY_THRESHOLD
from chunkgate.rules import datadump, nearduplicates, rule_docs


def _everywhere() -> str:
    return "\n".join([readme(), *pages().values(), *rule_docs().values()])


def test_every_move_similarity_is_the_threshold_moves_use() -> None:
    stated = re.findall(r"(\d+)% similar", _everywhere())
    assert stated, "the docs say how similar a moved chunk's text must be"
    assert {int(n) for n in stated} == {round(SIMILARITY_THRESHOLD * 100)}
    assert f"{SIMILARITY_THRESHOLD:.0%} similar" in rule_docs()["CG402"]


def test_the_rule_docs_state_the_defaults_the_code_has() -> None:
    docs = rule_docs()
    defaults = ChunkOptions()
    assert f"(default {defaults.max:,}, in `size.unit`)" in docs["CG201"]
    assert f"{DEFAULT_LIMIT:,} tokens" in docs["CG201"]
    assert f"(default {defaults.min}, in `size.unit`" in docs["CG202"]
    assert f"(default {datadump.MAX_FILE_BYTES.default:,})" in docs["CG305"]
    assert f"(default {nearduplicates.THRESHOLD.default})" in docs["CG502"]
