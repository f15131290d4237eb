"""The manifest's records: what they keep canonical and what they refuse."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from manifest_samples import BLOB, CONFIG, HASH, HEADER, chunk, entry, finding

from chunkgate.core.model import Chunk
from chunkgate.manifest import FORMAT_VERSION, ChunkEntry, FileEntry, Header, path_key


def make_chunk(chunk_id: str = "a.md#new", suppressed: frozenset[str] = frozenset()) -> Chunk:
    return Chunk(
        id=chunk_id, path="a.md", kind="section", language="markdown", symbol=None,
        heading_path=("New",), level=2, start_line=3, end_line=7, chars=50, tokens=13,
        hash=HASH, text="## New\n…", body_line=4, suppressed=suppressed,
    )  # fmt: skip


def test_same_chunking_compares_format_chunking_version_and_settings() -> None:
    assert HEADER.same_chunking(replace(HEADER, rules="rules=other", anchors="mkdocs"))
    assert not HEADER.same_chunking(replace(HEADER, chunking=4))
    assert not HEADER.same_chunking(replace(HEADER, config=CONFIG + ";x=1"))
    assert not HEADER.same_chunking(replace(HEADER, format=FORMAT_VERSION + 1))


@pytest.mark.parametrize(
    ("now", "changes"),
    [
        pytest.param(HEADER, [], id="nothing"),
        pytest.param(replace(HEADER, rules="rules=other"), [], id="rule-settings-change-no-chunk"),
        pytest.param(
            replace(HEADER, chunking=4, config="size.max=1"),
            ["chunkgate's chunking version 3 → 4"],
            id="chunking-version-says-it-all",
        ),
        pytest.param(
            replace(HEADER, config=CONFIG.replace("size.max=2000", "size.max=3000")),
            ["size.max 2000 → 3000"],
            id="one-setting",
        ),
        pytest.param(
            replace(HEADER, config=CONFIG.replace("size.min=40;", "") + ";size.overlap=10"),
            ["size.min 40 → -", "size.overlap - → 10"],
            id="removed-and-added",
        ),
        pytest.param(
            replace(
                HEADER, config=CONFIG.replace("anchors=auto[]", "anchors=mkdocs"), anchors="mkdocs"
            ),
            ["heading anchors github → mkdocs"],
            id="anchors-in-words",
        ),
    ],
)
def test_header_changes_name_what_changed(now: Header, changes: list[str]) -> None:
    assert HEADER.changes(now) == changes


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: FileEntry("a.md", None, (chunk("b.md", "x"),)), id="chunk-of-another-file"
        ),
        pytest.param(
            lambda: FileEntry("a.md", None, (ChunkEntry("a.md#", (1, 1), 1, 1, HASH),)),
            id="chunk-without-identity",
        ),
        pytest.param(lambda: FileEntry("\ud800.md", None, ()), id="lone-high-surrogate"),
        pytest.param(lambda: finding("cg201"), id="finding-rule-lowercase"),
        pytest.param(lambda: finding("CG20"), id="finding-rule-short"),
        pytest.param(lambda: finding("CG２０１"), id="finding-rule-other-digits"),
        pytest.param(lambda: finding(line=0), id="finding-line-zero"),
        pytest.param(lambda: finding(line=True), id="finding-line-bool"),
        pytest.param(lambda: finding(message=None), id="finding-message-none"),
        pytest.param(
            lambda: entry("a.md", "x", findings=(finding(chunk_id="b.md#x"),)),
            id="finding-on-a-chunk-of-another-file",
        ),
        pytest.param(lambda: chunk("a.md", "x", suppressed=("ALL",)), id="suppressed-not-a-code"),
    ],
)
def test_records_refuse_what_cannot_be_written(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the message is checked elsewhere
        make()


def test_file_entry_keeps_findings_in_manifest_order_with_repeats() -> None:
    late = finding("CG201", 9, "a.md#x")
    whole = finding("CG302", 1)
    on_chunk = finding("CG302", 1, "a.md#x")
    other_fix = finding("CG302", 1, "a.md#x", fix="another fix")
    made = entry("a.md", "x", findings=(late, other_fix, on_chunk, whole, late))
    # By line, rule, chunk (none first), message, fix; a finding made twice is known twice.
    assert made.findings == (whole, on_chunk, other_fix, late, late)
    assert made == entry("a.md", "x", findings=(whole, on_chunk, other_fix, late, late))


def test_chunk_entry_keeps_suppressed_sorted_and_unique() -> None:
    assert chunk("a.md", "x", suppressed=("CG501", "CG201", "CG501")).suppressed == (
        "CG201",
        "CG501",
    )
    assert chunk("a.md", "x").suppressed == ()


def test_file_entry_from_chunks_records_moves_suppressions_and_findings() -> None:
    found = finding("CG202", 3, "a.md#new")
    # A disable comment may name anything; only rule codes are kept.
    suppressed = frozenset({"CG501", "CG201", "ALL"})
    made = FileEntry.from_chunks(
        "a.md",
        BLOB,
        [make_chunk(suppressed=suppressed)],
        findings=[found],
        moved={"a.md#new": "a.md#old"},
    )
    assert made == FileEntry(
        "a.md",
        BLOB,
        (ChunkEntry("a.md#new", (3, 7), 50, 13, HASH, "a.md#old", ("CG201", "CG501")),),
        (found,),
    )
    assert made.moved_from("a.md#new") == "a.md#old"
    assert made.moved_from("a.md#other") is None


def test_with_moved_from_and_same_chunks() -> None:
    plain = entry("a.md", "one", "two")
    moved = plain.with_moved_from("a.md#two", "a.md#deux")
    assert moved.chunks[1].moved_from == "a.md#deux"
    assert moved.chunks[0] == plain.chunks[0]
    assert plain.with_moved_from("a.md#absent", "a.md#x") is plain
    assert moved.same_chunks(plain)
    assert FileEntry("a.md", None, plain.chunks, (finding(),)).same_chunks(plain)
    suppressing = (plain.chunks[0], chunk("a.md", "two", 3, 4, suppressed=("CG501",)))
    assert FileEntry("a.md", BLOB, suppressing).same_chunks(plain)
    assert not entry("a.md", "one").same_chunks(plain)


def test_placeholder_chunk_keeps_what_the_manifest_knows() -> None:
    placeholder = chunk("a.md", "x", 4, 6, suppressed=("CG402",)).placeholder("a.md")
    assert (placeholder.id, placeholder.path, placeholder.start_line, placeholder.end_line) == (
        "a.md#x",
        "a.md",
        4,
        6,
    )
    assert (placeholder.hash, placeholder.chars, placeholder.text) == (HASH, 60, "")
    assert placeholder.suppressed == {"CG402"}


def test_path_key_is_git_byte_order() -> None:
    assert path_key("a\udcff") == b"a\xff"
