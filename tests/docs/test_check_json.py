"""docs/check-json.md names every key `check --format json` writes, and no other: the
keys of a real run (a copied folder, a named path outside the corpus) and of the records
whose optional keys that run cannot show (a link's edit, an unverified link)."""

from __future__ import annotations

import re
from pathlib import Path

from docspages import page, section
from helpers import check_json, commit_all, committed, write

from chunkgate.core.model import Unverified, Violation


def _documented(heading: str) -> set[str]:
    """The field names in the first column of the table under ``heading``."""
    cells = re.findall(r"^\| (.+?) \|", section(page("check-json.md"), heading), re.M)
    return {name for cell in cells for name in re.findall(r"`(\w+)`", cell)}


def _copied_folder(repo: Path) -> None:
    for number in range(1, 4):
        sections = (
            f"## Section {number} {s}\n\nThe text of section {s} of page {number}, "
            "long enough to count as prose here.\n\n"
            for s in range(1, 9)
        )
        write(repo, f"src/guide/page{number}.md", "".join(sections))
    commit_all(repo, "src")
    for number in range(1, 4):
        text = (repo / f"src/guide/page{number}.md").read_text(encoding="utf-8")
        write(repo, f"material/guide/page{number}.md", text)
    committed(repo, "a built copy")


def test_the_page_names_every_key_a_real_run_writes(cli_repo: Path) -> None:
    _copied_folder(cli_repo)
    write(cli_repo, "package-lock.json", "{}\n")
    _, report = check_json("--strict")
    _, named = check_json("package-lock.json")
    assert set(report) == set(named)
    assert set(report) == {"violations", "known", "unverified", "groups", "outside", "summary"}
    text = page("check-json.md")
    assert all(f"## {key}\n" in text for key in report)
    assert set(report["summary"]) == _documented("summary")
    [group] = report["groups"]
    assert set(group) == _documented("groups")  # ``pairs`` included
    assert set(named["outside"][0]) == _documented("outside")
    found = {key for violation in report["violations"] for key in violation}
    edit = Violation("CG404", "broken-link", "error", "a.md", 1, None, "m", edit=("x", "y"))
    assert found | set(edit.to_dict()) == _documented("violations")
    unverified = Unverified("a.md", 1, "b.md#x", "b.md#x", "a shortcode")
    assert set(unverified.to_dict()) == _documented("unverified")


def test_the_pages_causes_are_the_ones_the_code_writes() -> None:
    causes = section(page("check-json.md"), "violations")
    for cause in ("moved:OLD>NEW", "dropped", "copies:COPY>ORIGINAL", "copies:A|B"):
        assert f"`{cause}`" in causes
