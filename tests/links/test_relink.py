"""A link written again to follow a move: the form it was written in is kept."""

from __future__ import annotations

import pytest

from chunkgate.links.relink import Edit, relinked, rewritten


@pytest.mark.parametrize(
    ("destination", "source", "old_page", "new_id", "expected"),
    [
        (
            "models.md#json-mode",
            "docs/use.md",
            "docs/models.md",
            "docs/models.md#json",
            "models.md#json",
        ),
        ("./models.md#a", "docs/use.md", "docs/models.md", "docs/models.md#b", "./models.md#b"),
        ("../models.md#a", "docs/sub/x.md", "docs/models.md", "docs/models.md#b", "../models.md#b"),
        ("#a", "docs/models.md", "docs/models.md", "docs/models.md#b", "#b"),
        ("models/#a", "docs/use.md", "docs/models.md", "docs/models.md#b", "models/#b"),
        # A percent-encoded anchor stays encoded; a plain one stays plain.
        ("p.md#%C3%BCber", "p2.md", "p.md", "p.md#über-uns", "p.md#%C3%BCber-uns"),
        ("p.md#a", "p2.md", "p.md", "p.md#über", "p.md#über"),
        # A page that moved: the path from the linking page's folder, as written.
        ("a.md#x", "docs/use.md", "docs/a.md", "docs/guide/a.md#x", "guide/a.md#x"),
        ("./a.md", "docs/use.md", "docs/a.md", "docs/guide/a.md", "./guide/a.md"),
        ("../a.md#x", "docs/sub/u.md", "docs/a.md", "docs/b.md#y", "../b.md#y"),
        # A site URL into a moved page is the site's to map: no edit.
        ("/docs/a/#x", "docs/use.md", "docs/a.md", "docs/guide/a.md#x", None),
        ("../a/#x", "docs/use.md", "docs/a.md", "docs/guide/a.md#x", None),
    ],
)
def test_relinked_keeps_the_form(
    destination: str, source: str, old_page: str, new_id: str, expected: str | None
) -> None:
    assert relinked(destination, source, old_page, new_id) == expected


def test_rewritten_changes_only_the_destinations() -> None:
    text = (
        '# Use\r\n\r\nSee [models.md#a](models.md#a) and [t](models.md#a "models.md#a").\r\n'
        "[ref]: models.md#a\r\n`[x](models.md#a)` stays, as does [über](p.md#über).\r\n"
    )
    edits = [
        Edit("u.md", 3, "models.md#a", "models.md#b"),
        Edit("u.md", 4, "models.md#a", "models.md#b"),
        Edit("u.md", 5, "p.md#%C3%BCber", "p.md#%C3%BCber-uns"),
    ]
    assert rewritten(text, edits) == (
        '# Use\r\n\r\nSee [models.md#a](models.md#b) and [t](models.md#b "models.md#a").\r\n'
        "[ref]: models.md#b\r\n`[x](models.md#a)` stays, as does [über](p.md#über-uns).\r\n"
    )
    assert rewritten(rewritten(text, edits), edits) == rewritten(text, edits)
