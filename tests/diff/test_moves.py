from __future__ import annotations

import random
import time

import pytest

from chunkgate.chunking import chunk_text
from chunkgate.core.model import Chunk
from chunkgate.diff.moves import (
    SIMILARITY_THRESHOLD,
    find_moves,
    gone_units,
    join_parts,
    new_units,
    similarity,
    unit_id,
)

LOREM = (
    "Retrieval pipelines cite chunks by their identifiers so every citation, evaluation "
    "question and vector store key points at one stable section of the documentation. "
    "When a heading is renamed the identifier changes although the text stays, and every "
    "stored reference silently breaks until somebody notices wrong answers in production."
)


def chunks(text: str, path: str = "docs/a.md") -> list[Chunk]:
    return chunk_text(text, path)


def one(text: str, path: str = "docs/a.md") -> Chunk:
    (chunk,) = chunks(text, path)
    return chunk


def pairs(moves: list) -> list[tuple[str, str, str]]:  # type: ignore[type-arg]
    return [(m.old.id, m.new.id, m.how) for m in moves]


def random_text(rng: random.Random, words: int) -> str:
    return " ".join(
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
        for _ in range(words)
    )


def test_identical_text_under_another_id() -> None:
    old = one(f"# Install\n\n{LOREM}\n", "docs/old.md")
    new = one(f"# Install\n\n{LOREM}\n", "docs/new.md")
    (move,) = find_moves([old], [new])
    assert (move.old.id, move.new.id, move.how, move.similarity) == (
        "docs/old.md#install",
        "docs/new.md#install",
        "identical",
        1.0,
    )


def test_renamed_heading_is_a_body_move() -> None:
    old = one(f"# Install\n\n{LOREM}\n")
    new = one(f"# Installation\n\n{LOREM}\n")
    assert pairs(find_moves([old], [new])) == [
        ("docs/a.md#install", "docs/a.md#installation", "body")
    ]


def test_renamed_python_function_is_a_body_move() -> None:
    body = (
        "    total = 0\n"
        "    for item in items:\n"
        "        total += item.price * item.count\n"
        "    return total\n"
    )
    old = one(f"def total(items):\n{body}", "shop/cart.py")
    new = one(f"def cart_total(items):\n{body}", "shop/cart.py")
    assert pairs(find_moves([old], [new])) == [
        ("shop/cart.py#function-total", "shop/cart.py#function-cart_total", "body")
    ]


def test_text_less_placeholders_match_by_hash_only() -> None:
    real = one(f"# Install\n\n{LOREM}\n", "docs/new.md")
    placeholder = real._replace(id="docs/old.md#install", path="docs/old.md", text="")
    assert pairs(find_moves([placeholder], [real])) == [
        ("docs/old.md#install", "docs/new.md#install", "identical")
    ]
    other = placeholder._replace(hash="0" * 16)
    assert find_moves([other], [real]) == []


def test_similar_text_above_the_threshold_moves() -> None:
    edited = LOREM.replace("silently breaks", "breaks without a warning")
    old = one(f"# Install\n\n{LOREM}\n")
    new = one(f"# Setup\n\n{edited}\n")
    score = similarity(LOREM, edited)
    assert SIMILARITY_THRESHOLD <= score < 1
    (move,) = find_moves([old], [new])
    assert (move.how, move.similarity) == ("similar", round(score, 4))


def test_text_below_the_threshold_is_no_move() -> None:
    half = LOREM[: len(LOREM) // 2] + " " + random_text(random.Random(1), 30)
    assert similarity(LOREM, half) < SIMILARITY_THRESHOLD
    old = one(f"# Install\n\n{LOREM}\n")
    new = one(f"# Setup\n\n{half}\n")
    assert find_moves([old], [new]) == []


def test_a_stricter_threshold_drops_weaker_pairs() -> None:
    edited = LOREM.replace("silently breaks", "breaks without a warning")
    old = one(f"# Install\n\n{LOREM}\n")
    new = one(f"# Setup\n\n{edited}\n")
    assert find_moves([old], [new], threshold=0.99) == []
    with pytest.raises(ValueError, match="threshold"):
        find_moves([old], [new], threshold=0)


@pytest.mark.parametrize(
    ("old_text", "new_text", "old_path", "new_path"),
    [
        pytest.param("# A\n\nTODO\n", "# B\n\nTODO\n", "a.md", "b.md", id="tiny-body-other-file"),
        pytest.param("# A\n\nsee the docs\n", "# A\n\nsee docs\n", "a.md", "b.md", id="tiny-edit"),
    ],
)
def test_tiny_chunks_only_match_exactly(
    old_text: str, new_text: str, old_path: str, new_path: str
) -> None:
    assert find_moves([one(old_text, old_path)], [one(new_text, new_path)]) == []


def test_tiny_body_matches_within_one_file() -> None:
    old = one("# A\n\nTODO\n")
    new = one("# B\n\nTODO\n")
    assert pairs(find_moves([old], [new])) == [("docs/a.md#a", "docs/a.md#b", "body")]


def test_pairs_are_one_to_one_and_identical_wins() -> None:
    old = one(f"# Install\n\n{LOREM}\n", "a.md")
    exact = one(f"# Install\n\n{LOREM}\n", "b.md")
    renamed = one(f"# Setup\n\n{LOREM}\n", "a.md")
    moves = find_moves([old], [renamed, exact])
    assert pairs(moves) == [("a.md#install", "b.md#install", "identical")]


def test_each_removed_chunk_gets_its_own_partner() -> None:
    rng = random.Random(7)
    texts = [random_text(rng, 40) for _ in range(3)]
    old = [one(f"# Old {n}\n\n{text}\n", "a.md") for n, text in enumerate(texts)]
    new = [one(f"# New {n}\n\n{text} extra\n", "b.md") for n, text in enumerate(texts)]
    assert sorted((m.old.id, m.new.id) for m in find_moves(old, new[::-1])) == [
        ("a.md#old-0", "b.md#new-0"),
        ("a.md#old-1", "b.md#new-1"),
        ("a.md#old-2", "b.md#new-2"),
    ]


def test_ties_prefer_same_file_then_same_name_then_nearest_line() -> None:
    old = one(f"# Install\n\n{LOREM}\n", "docs/a.md")
    other_file = one(f"# Install\n\n{LOREM}\n", "docs/z.md")
    same_name = one(f"# Install\n\n{LOREM}\n", "other/a.md")
    assert pairs(find_moves([old], [other_file, same_name])) == [
        ("docs/a.md#install", "other/a.md#install", "identical")
    ]
    text = f"# One\n\n{LOREM}\n\n# Mid\n\n" + "filler\n\n" * 30 + f"# Two\n\n{LOREM}\n"
    first, _, second = chunks(text, "docs/a.md")
    assert pairs(find_moves([old], [second, first])) == [
        ("docs/a.md#install", "docs/a.md#one", "body")
    ]


def test_same_id_edit_is_kept_not_moved() -> None:
    old = one(f"# Install\n\n{LOREM}\n\nMore words that were here before the split.\n")
    kept = one(f"# Install\n\n{LOREM}\n")
    (move,) = find_moves([old], [kept])
    assert move.old.id == move.new.id == "docs/a.md#install"


def test_results_do_not_depend_on_input_order() -> None:
    rng = random.Random(3)
    base = [random_text(rng, 30) for _ in range(20)]
    old = [one(f"# O{n}\n\n{text}\n", f"d{n % 3}.md") for n, text in enumerate(base)]
    new = [one(f"# N{n}\n\n{text}\n", f"d{n % 4}.md") for n, text in enumerate(base * 2)]
    expected = pairs(find_moves(old, new))
    for seed in range(5):
        shuffled_old, shuffled_new = old[:], new[:]
        random.Random(seed).shuffle(shuffled_old)
        random.Random(seed + 100).shuffle(shuffled_new)
        assert pairs(find_moves(shuffled_old, shuffled_new)) == expected
    assert len(expected) == 20


def _unrelated_moves_time(count: int) -> float:
    """The fastest of three ``find_moves`` runs over ``count`` unrelated chunks a side."""
    rng = random.Random(11)
    old = [one(f"# O{n}\n\n{random_text(rng, 60)}\n", f"o{n % 50}.md") for n in range(count)]
    new = [one(f"# N{n}\n\n{random_text(rng, 60)}\n", f"n{n % 50}.md") for n in range(count)]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        assert find_moves(old, new) == []
        best = min(best, time.perf_counter() - start)
    return best


def test_no_quadratic_blow_up_on_unrelated_chunks() -> None:
    # 8x the chunks may take 24x the time (quadratic would be 64x); relative, so that
    # a loaded machine slows both sizes alike
    small, large = _unrelated_moves_time(125), _unrelated_moves_time(1000)
    assert large < 24 * max(small, 0.002)


def test_many_identical_boilerplate_chunks_pair_in_order() -> None:
    old = chunks(
        "".join(f"# S{n}\n\nsame boilerplate text in every section\n\n" for n in range(400))
    )
    new = chunks(
        "".join(f"# T{n}\n\nsame boilerplate text in every section\n\n" for n in range(400))
    )
    moves = find_moves(old, new)
    assert len(moves) == 400
    assert all(m.how == "body" for m in moves)


# --- units and their parts ---------------------------------------------------

PARA = (
    "A paragraph of the long section, one of several, each with enough words that "
    "a part holds a few of them and the cuts fall between them."
)


def long_section(title: str, paragraphs: int, extra: str = "") -> str:
    body = "\n\n".join(f"{PARA} Number {n}." for n in range(paragraphs))
    return f"# {title}\n\n{extra}{body}\n"


def small(text: str, path: str = "docs/a.md") -> list[Chunk]:
    from chunkgate.chunking import ChunkOptions

    return chunk_text(text, path, options=ChunkOptions(max=400, min=0))


@pytest.mark.parametrize(
    ("chunk_id", "unit"),
    [
        pytest.param("a.md#install~2", "a.md#install", id="part"),
        pytest.param("a.md#install~12", "a.md#install", id="part-12"),
        pytest.param("a.md#install", "a.md#install", id="first-part"),
        pytest.param("a.md#~preamble~3", "a.md#~preamble", id="preamble"),
        pytest.param("m.py#function-f~2", "m.py#function-f", id="python"),
        pytest.param("a.txt#~2", "a.txt#~2", id="text-window"),
        pytest.param("a.md#install~1", "a.md#install~1", id="no-part-1"),
        pytest.param("a.md#v~02", "a.md#v~02", id="leading-zero"),
    ],
)
def test_unit_id(chunk_id: str, unit: str) -> None:
    assert unit_id(chunk_id) == unit


def test_join_parts_makes_each_unit_one_chunk() -> None:
    found = small(long_section("Install", 6) + "\n## Usage\n\nShort.\n")
    assert [c.identity for c in found] == ["install", "install~2", "install~3", "usage"]
    joined = join_parts(found)
    assert [(c.id, c.part, c.parts) for c in joined] == [
        ("docs/a.md#install", 0, 3),
        ("docs/a.md#usage", 1, 1),
    ]
    unit = joined[0]
    assert (unit.start_line, unit.end_line) == (found[0].start_line, found[2].end_line)
    assert unit.chars == sum(c.chars for c in found[:3])
    assert unit.body.strip().startswith(PARA)
    assert joined[1] is found[3]


def test_the_same_text_cut_elsewhere_is_the_same_unit() -> None:
    # The first paragraph split in two moves every later cut; the unit's text, its
    # whitespace aside, is the same.
    text = long_section("Install", 6)
    resplit = text.replace(f"{PARA} Number 0.", f"{PARA}\n\nNumber 0.")
    before, after = small(text), small(resplit)
    assert [c.hash for c in before] != [c.hash for c in after]
    assert join_parts(before)[0].hash == join_parts(after)[0].hash


def test_gone_units() -> None:
    before = ["a.md#install", "a.md#install~2", "a.md#install~3", "a.md#usage", "a.md#old~2"]
    after = ["a.md#install", "a.md#install~2", "a.md#usage~2"]
    # install~3 went with a shrinking section, usage~2 is a part of usage: edits.
    assert gone_units(before, after) == {"a.md#old~2"}


def test_a_boundary_moving_between_parts_is_an_edit_not_a_move() -> None:
    before = small(long_section("Install", 6))
    after = small(long_section("Install", 8, extra=f"{PARA} Inserted.\n\n"))
    assert [c.identity for c in after][-1] == "install~5"
    assert len(before) == 3
    (move,) = find_moves(join_parts(before), join_parts(after))
    assert (move.old.id, move.new.id) == ("docs/a.md#install", "docs/a.md#install")


def test_a_renamed_long_section_is_one_move_of_its_unit() -> None:
    before = small(long_section("Install", 6))
    after = small(long_section("Installing", 6))
    assert len(before) == 3
    assert pairs(find_moves(join_parts(before), join_parts(after))) == [
        ("docs/a.md#install", "docs/a.md#installing", "body")
    ]


def test_new_units_leaves_out_parts_added_to_a_unit_that_was_there() -> None:
    before = small(long_section("Install", 4))
    after = small(long_section("Install", 8) + "\n## Usage\n\n" + PARA + "\n")
    added = [c for c in after if c.id not in {b.id for b in before}]
    assert [c.identity for c in added] == ["install~3", "install~4", "usage"]
    assert [c.id for c in new_units(added, [c.id for c in before])] == ["docs/a.md#usage"]
