from __future__ import annotations

import codecs
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_bytes, context_for
from chunkgate.chunking.base import SizeUnit, is_blank
from chunkgate.chunking.plain import chunk_plain
from chunkgate.chunking.sizes import TokenCounter, estimate_tokens
from chunkgate.core.model import Chunk


def _chunk(
    text: str,
    *,
    max: int,
    overlap: int = 0,
    unit: SizeUnit = "chars",
    counter: TokenCounter | None = None,
) -> list[Chunk]:
    options = ChunkOptions(unit=unit, max=max, min=0, overlap=overlap)
    ctx = context_for(text, "notes.txt", options=options, counter=counter)
    chunks = chunk_plain(ctx)
    _assert_well_formed(ctx.lines, chunks, options)
    return chunks


def _assert_well_formed(lines: Sequence[str], chunks: list[Chunk], options: ChunkOptions) -> None:
    assert [c.identity for c in chunks] == [f"~{n}" for n in range(1, len(chunks) + 1)]
    covered: set[int] = set()
    previous: Chunk | None = None
    for chunk in chunks:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert not is_blank(lines[chunk.start_line - 1])
        assert not is_blank(lines[chunk.end_line - 1])
        size = chunk.chars if options.unit == "chars" else chunk.tokens
        assert size <= options.max or chunk.start_line == chunk.end_line
        if previous is not None:
            # Progress, and never a window inside the previous one.
            assert chunk.start_line > previous.start_line
            assert chunk.end_line > previous.end_line
            if options.overlap == 0:
                assert chunk.start_line > previous.end_line
            elif chunk.start_line <= previous.end_line:
                shared = "\n".join(lines[chunk.start_line - 1 : previous.end_line])
                assert _size(shared, options) <= options.overlap
        covered.update(range(chunk.start_line, chunk.end_line + 1))
        previous = chunk
    assert {n for n, line in enumerate(lines, 1) if not is_blank(line)} <= covered


def _size(text: str, options: ChunkOptions) -> int:
    return len(text) if options.unit == "chars" else estimate_tokens(text)


def _spans(chunks: list[Chunk]) -> list[tuple[int, int]]:
    return [(c.start_line, c.end_line) for c in chunks]


_PARAGRAPHS = "aaaa\nbbbb\n\ncccc\n\ndddd\neeee\n"


@pytest.mark.parametrize(
    ("text", "max", "overlap", "expected"),
    [
        pytest.param("", 10, 0, [], id="empty"),
        pytest.param("\n \n\t\n", 10, 0, [], id="blank lines only"),
        pytest.param("\n\nabc\ndef\n\n\n", 100, 0, [(3, 4)], id="trimmed of blank lines"),
        pytest.param(_PARAGRAPHS, 15, 0, [(1, 4), (6, 7)], id="paragraphs packed up to max"),
        pytest.param(
            _PARAGRAPHS, 14, 0, [(1, 2), (4, 4), (6, 7)], id="a paragraph that does not fit"
        ),
        pytest.param(
            "xxxx\n" * 5, 10, 0, [(1, 2), (3, 4), (5, 5)], id="long paragraph split by lines"
        ),
        pytest.param(
            "short\n" + "y" * 30 + "\nshort\n", 10, 3, [(1, 1), (2, 2), (3, 3)], id="long line"
        ),
        pytest.param(_PARAGRAPHS, 15, 4, [(1, 4), (4, 7)], id="overlap: trailing lines"),
        pytest.param(
            _PARAGRAPHS, 15, 9, [(1, 4), (4, 7)], id="overlap does not start on a blank line"
        ),
        pytest.param(
            _PARAGRAPHS, 10, 5, [(1, 2), (2, 4), (6, 7)], id="overlap dropped when it cannot fit"
        ),
        pytest.param(
            "ab\n" * 6, 10, 6, [(1, 3), (2, 4), (3, 5), (4, 6)], id="overlap: sliding windows"
        ),
        pytest.param(
            "a" * 9 + "\n" + "b" * 9 + "\n" + "c" * 9 + "\n",
            10,
            9,
            [(1, 1), (2, 2), (3, 3)],
            id="overlap near max still makes progress",
        ),
    ],
)
def test_windows(text: str, max: int, overlap: int, expected: list[tuple[int, int]]) -> None:
    chunks = _chunk(text, max=max, overlap=overlap)
    assert _spans(chunks) == expected
    assert all(c.kind == "text" and c.language == "text" and c.symbol is None for c in chunks)
    assert all(c.id == f"notes.txt#{c.identity}" for c in chunks)


def test_token_windows() -> None:
    chunks = _chunk("abcdefgh\n" * 3, max=5, unit="tokens")
    assert _spans(chunks) == [(1, 2), (3, 3)]
    assert [c.tokens for c in chunks] == [5, 2]


def test_token_windows_with_an_injected_counter() -> None:
    def words(text: str) -> int:
        return len(text.split())

    chunks = _chunk("one two three\nfour five\n\nsix\n", max=6, unit="tokens", counter=words)
    assert _spans(chunks) == [(1, 2), (4, 4)]


def test_language_is_passed_through() -> None:
    ctx = context_for("x = (\n", "m.py")
    assert [c.language for c in chunk_plain(ctx, language="python")] == ["python"]


def test_overlap_must_be_below_max() -> None:
    with pytest.raises(ValueError, match="overlap"):
        ChunkOptions(max=10, min=0, overlap=10)


def test_crlf_and_bom_twin() -> None:
    text = "Para one.\nStill one.\n\nPara two.\n"
    options = ChunkOptions(max=15, min=0, overlap=5)
    plain = chunk_bytes(text.encode(), "notes.txt", options=options).chunks
    twin = codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode()
    crlf = chunk_bytes(twin, "notes.txt", options=options).chunks
    assert [(c.id, c.start_line, c.chars, c.tokens, c.hash) for c in crlf] == [
        (c.id, c.start_line, c.chars, c.tokens, c.hash) for c in plain
    ]


_lines = st.lists(
    st.one_of(
        st.just(""),
        st.just("  "),
        st.text("abc é", min_size=1, max_size=12),
        st.text("xyz", min_size=30, max_size=80),
    ),
    max_size=40,
)


_UNITS: tuple[SizeUnit, ...] = ("chars", "tokens")


@st.composite
def _options(draw: st.DrawFn) -> ChunkOptions:
    unit = draw(st.sampled_from(_UNITS))
    max_size = draw(st.integers(1, 60))
    overlap = draw(st.integers(0, max_size - 1))
    return ChunkOptions(unit=unit, max=max_size, min=0, overlap=overlap)


@settings(max_examples=300, deadline=None)
@given(_lines, _options())
def test_property(lines: list[str], options: ChunkOptions) -> None:
    text = "\n".join(lines)
    ctx = context_for(text, "notes.txt", options=options)
    chunks = chunk_plain(ctx)
    _assert_well_formed(ctx.lines, chunks, options)
    assert chunk_plain(ctx) == chunks
    twin = codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode()
    assert [c.hash for c in chunk_bytes(twin, "notes.txt", options=options).chunks] == [
        c.hash for c in chunks
    ]
