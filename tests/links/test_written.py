"""Where a link's destination is written: the searches of a block read it a bounded
number of times, however many links it holds (issue 44: a line of 18,750 links)."""

from __future__ import annotations

import pytest

from chunkgate.links.written import MISSED, WINDOW, Block


class _Counted(str):
    """A line that counts the characters its ``find`` calls read: up to the end of what
    they find, or all they were given when they find nothing."""

    read = 0

    def find(self, sub: str, start: int | None = None, end: int | None = None) -> int:  # type: ignore[override]
        at = super().find(sub, start, end)
        stop = at + len(sub) if at >= 0 else len(self) if end is None else min(end, len(self))
        _Counted.read += max(0, stop - (start or 0))
        return at


def _read(lines: list[str], destinations: list[str]) -> tuple[list[int | None], int]:
    _Counted.read = 0
    block = Block([_Counted(line) for line in lines], 1, len(lines))
    return [block.place(destination) for destination in destinations], _Counted.read


@pytest.mark.parametrize(
    ("unit", "destination"),
    [
        pytest.param("[x](#y) ", lambda n: "#y", id="one-destination"),
        pytest.param("[x](#y{n}) ", lambda n: f"#y{n}", id="distinct"),
        pytest.param("[x](#%C3%BC{n}) ", lambda n: f"#%C3%BC{n}", id="percent-encoded"),
        pytest.param("[x](#ü{n}) ", lambda n: f"#%C3%BC{n}", id="written-decoded"),
        pytest.param("[x](#&#121;{n}) ", lambda n: f"#y{n}", id="entities-never-found"),
        pytest.param("[x][r{n}] ", lambda n: f"#r{n}", id="reference-links"),
    ],
)
def test_a_line_of_many_links_is_read_a_bounded_number_of_times(unit, destination) -> None:  # type: ignore[no-untyped-def]
    for count in (1_000, 4_000):
        line = "".join(unit.format(n=n) for n in range(count))
        places, read = _read([line], [destination(n) for n in range(count)])
        # Linear: each link reads at most the window after the cursor for each of its
        # (up to 3) forms, and links are at least 5 characters apart ("[](#)");
        # what the block does not hold is read up to the cap. A search from each link
        # to the end of the line (the old code) reads 4,000 x 33,000 characters.
        bound = (3 * WINDOW // 5 + MISSED[0] + 4) * len(line) + MISSED[1]
        assert read <= bound, (count, read, len(line))
        assert set(places) <= {1, None}


def test_each_link_is_placed_on_its_own_line_in_order() -> None:
    lines = [f"see [x](#a) and [y](#b{n}) then" for n in range(50)]
    places, read = _read(lines, [d for n in range(50) for d in ("#a", f"#b{n}")])
    assert places == [n + 1 for n in range(50) for _ in range(2)]
    assert read <= 4 * sum(len(line) for line in lines) + WINDOW * 100


def test_a_destination_written_far_from_the_cursor_is_found() -> None:
    lines = ["[x](#a) " + "word " * 1000 + "[y](#b)", "[z](\\#c)"]
    assert _read(lines, ["#a", "#b", "#c", "#missing"])[0] == [1, 1, 2, None]
