"""CG404's suggestions (the closest anchor or page): bounded work per linking page, and
a page's fixes the same whatever other pages the run reads (the hook, a whole check)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from chunkgate.config.model import Config
from chunkgate.links.closest import BUDGET, Suggestions
from chunkgate.rules.references import reference_violations


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many choices each of difflib's searches compared."""
    counts: list[int] = []
    real: Callable[..., list[str]] = difflib.get_close_matches

    def counted(word: str, choices: Sequence[str], *args: object, **kwargs: object) -> list[str]:
        counts.append(len(choices))
        return real(word, choices, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    return counts


def _page(headings: int, links: int) -> str:
    sections = "".join(f"## section {n}\n\ntext\n\n" for n in range(headings))
    return sections + "".join(f"[x](#missing-{n}) " for n in range(links)) + "\n"


def test_a_page_of_many_broken_links_into_many_headings_is_bounded(compared: list[int]) -> None:
    found = reference_violations(Config(root=Path(".")), {"a.md": _page(300, 600)})
    assert len(found) == 600
    assert sum(compared) <= BUDGET  # 300 x 600 = 180,000 pairs before issue 44
    fixes = [v.fix for v in found if hasattr(v, "fix")]
    assert fixes[0] == "link to #section-0 (the closest anchor of a.md)"
    assert fixes[-1] == "link to an existing heading of a.md, or remove the fragment"


def test_the_same_broken_link_is_compared_once(compared: list[int]) -> None:
    found = reference_violations(Config(root=Path(".")), {"a.md": "# a\n" + "[x](#b) " * 5000})
    assert len(found) == 5000
    assert len(compared) == 1


def test_a_pages_fixes_do_not_depend_on_the_other_pages_read() -> None:
    target = _page(300, 0)
    linking = "".join(f"[x](t.md#missing-{n}) " for n in range(400)) + "\n"
    alone = reference_violations(Config(root=Path(".")), {"t.md": target, "b.md": linking})
    before = {"t.md": target, "a.md": linking, "b.md": linking}
    together = reference_violations(Config(root=Path(".")), before)
    assert [v for v in together if v.path == "b.md"] == alone


def test_the_closest_page_is_looked_for_in_its_folder_and_by_its_name() -> None:
    suggest = Suggestions({"docs/setup.md", "docs/guide/install.md", "other/x.md"})
    assert suggest.page("docs/setpu.md") == "docs/setup.md"
    assert suggest.page("guide/install.md") == "docs/guide/install.md"
    assert suggest.page("elsewhere/nothing.md") is None
