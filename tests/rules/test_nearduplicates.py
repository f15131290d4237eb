"""CG502: near-duplicate bodies, found by MinHash LSH and measured exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkgate.chunking import chunk_text
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.core.errors import ConfigError
from chunkgate.rules import RULES, rule_docs
from chunkgate.rules.nearduplicates import (
    THRESHOLD,
    near_duplicate_violations,
    near_duplicates,
    original_of,
    shingles,
)

PROSE = (
    "Configure the cache directory before the first run, because the default location "
    "is inside the temporary folder and is cleared on every reboot of the machine, which "
    "makes every build download its dependencies again and slows the pipeline down a lot."
)
ON = Config(root=Path("."), severities={"CG502": "warning"})


def _chunks(text: str, path: str = "a.md"):  # type: ignore[no-untyped-def]
    return chunk_text(text, path)


def test_a_pasted_section_under_another_heading_fires() -> None:
    a = _chunks(f"# Linux\n\n{PROSE}\n")
    b = _chunks(f"# macOS\n\n{PROSE.replace('machine', 'Mac')}\n", "b.md")
    (violation,) = near_duplicate_violations(ON, [*b, *a])
    assert (violation.rule, violation.path, violation.chunk_id) == ("CG502", "b.md", "b.md#macos")
    assert "the same text as a.md#linux" in violation.message
    assert violation.severity == "warning"


def test_the_original_is_read_back_from_the_finding() -> None:
    a = _chunks(f"# Linux\n\n{PROSE}\n", "the same text as.md")
    b = _chunks(f"# macOS\n\n{PROSE.replace('machine', 'Mac')}\n", "z.md")
    (violation,) = near_duplicate_violations(ON, [*a, *b])
    assert original_of(violation) == "the same text as.md#linux"
    assert original_of(violation._replace(rule="CG501")) is None


def test_exact_copies_and_short_or_different_bodies_pass() -> None:
    exact = [*_chunks(f"# A\n\n{PROSE}\n"), *_chunks(f"# A\n\n{PROSE}\n", "b.md")]
    assert near_duplicate_violations(ON, exact) == []  # CG501's business
    short = [
        *_chunks("# A\n\nInstall it with pip.\n"),
        *_chunks("# B\n\nInstall it with pipx.\n", "b.md"),
    ]
    assert near_duplicate_violations(ON, short) == []
    other = _chunks("# B\n\n" + " ".join(reversed(PROSE.split())) + "\n", "b.md")
    assert near_duplicate_violations(ON, [*_chunks(f"# A\n\n{PROSE}\n"), *other]) == []


def test_off_by_default_and_the_threshold_is_configurable(tmp_path: Path) -> None:
    assert RULES["CG502"].severity == "off"
    assert "Fires" in rule_docs()["CG502"]
    assert near_duplicate_violations(Config(root=tmp_path), _chunks(f"# A\n\n{PROSE}\n")) == []
    (tmp_path / ".chunkgate.yaml").write_text(
        "near_duplicates: {threshold: 0.95}\n", encoding="utf-8"
    )
    assert load_config(tmp_path).option(THRESHOLD) == 0.95
    for bad in ("near_duplicates: {threshold: 2}\n", "near_duplicates: {limit: 1}\n"):
        (tmp_path / ".chunkgate.yaml").write_text(bad, encoding="utf-8")
        with pytest.raises(ConfigError, match="near_duplicates"):
            load_config(tmp_path)


@given(st.lists(st.sampled_from(PROSE.split()), min_size=25, max_size=60), st.integers(0, 5))
def test_reported_similarity_is_the_exact_jaccard(words: list[str], edits: int) -> None:
    first = " ".join(words)
    changed = words[:]
    for i in range(edits):
        changed[(i * 7) % len(changed)] = f"word{i}"
    a = _chunks(f"# A\n\n{first}\n")
    b = _chunks(f"# B\n\n{' '.join(changed)}\n", "b.md")
    for copy, original, similarity in near_duplicates([*a, *b], 0.5):
        x, y = shingles(copy.body), shingles(original.body)
        assert similarity == pytest.approx(len(x & y) / len(x | y))
        assert similarity >= 0.5
