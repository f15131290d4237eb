"""Adoption: right after ``update`` and a commit, ``check`` passes, on every repository.

Every finding the manifest records is known, as many times as it is made: a
finding made twice is recorded twice, so neither counts as new.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import check_json, commit_all, git, make_repo, pin_git_env, run, shard, write

from chunkgate.links.extract import extract_links

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "corpora"

# A link through a reference definition written inside the list item that uses it.
REFERENCE_IN_LIST_ITEM = "# A\n\n- [Emoji]\n\n  [Emoji]: b.md#nope\n\n## B\n\nA sentence.\n"


def _adopt(repo: Path) -> None:
    commit_all(repo, "the docs")
    code, output = run("update")
    assert code == 0, output
    commit_all(repo, "adopt chunkgate")


def test_a_reference_definition_in_its_list_item_is_one_link() -> None:
    found = extract_links(REFERENCE_IN_LIST_ITEM, local_only=True)
    assert [(link.destination, link.line) for link in found] == [("b.md#nope", 5)]


def test_adoption_with_a_reference_definition_in_a_list_item_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    write(repo, "a.md", REFERENCE_IN_LIST_ITEM)
    write(repo, "b.md", "# B\n\nA sentence.\n")
    _adopt(repo)
    code, report = check_json()
    assert code == 0, report["violations"]
    assert [v["rule"] for v in report["known"]].count("CG404") == 1
    # An edit below the link, brought into the manifest by update, passes too.
    write(repo, "a.md", REFERENCE_IN_LIST_ITEM + "\nOne more sentence.\n")
    assert run("update")[0] == 0
    code, report = check_json("a.md")
    assert code == 0, report["violations"]


def test_a_finding_made_twice_is_recorded_and_known_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    # Twice on one line: the same rule, line, message and fix.
    twice = "# A\n\nSee [b](b.md#nope) here.\n\nSee [b](b.md#nope) and [it](b.md#nope).\n"
    write(repo, "a.md", twice)
    write(repo, "b.md", "# B\n\nA sentence.\n")
    _adopt(repo)
    assert shard(repo, "a.md").read_text(encoding="utf-8").count('"CG404"') == 3
    code, report = check_json()
    assert code == 0, report["violations"]
    assert [v["line"] for v in report["known"] if v["rule"] == "CG404"] == [3, 5, 5]
    # A third copy is new: the record counts them.
    write(repo, "a.md", twice + "\nSee [b](b.md#nope) once more.\n")
    code, report = check_json()
    assert code == 1
    new = [v["line"] for v in report["violations"] if v["rule"] == "CG404"]
    assert len(new) == 1


@pytest.mark.parametrize("site", sorted(p.name for p in SAMPLES.iterdir() if p.is_dir()))
def test_check_passes_right_after_adoption_on_each_real_site(
    site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    shutil.copytree(SAMPLES / site, repo, dirs_exist_ok=True)
    assert run("init")[0] == 0
    _adopt(repo)
    code, report = check_json()
    assert code == 0, report["violations"]
    errors = [v for v in report["known"] if v["severity"] == "error"]
    code, report = check_json("--strict")
    assert code == (1 if errors else 0)


def test_init_lets_git_add_a_manifest_folder_a_python_gitignore_ignores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GitHub's Python .gitignore template ignores `*.manifest` (PyInstaller's files).
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    write(repo, ".gitignore", "__pycache__/\n*.manifest\n*.spec")
    write(repo, "a.md", "# A\n\nA sentence long enough to be a chunk of its own.\n")
    code, output = run("update")
    assert code == 0
    assert (
        "updated chunkgate.manifest/ (1 file changed), which git ignores "
        "(.gitignore:2: *.manifest): add the line `!/chunkgate.manifest/` to .gitignore"
    ) in output
    code, output = run("init")
    assert code == 0
    assert (
        "chunkgate.manifest/ was ignored by git (.gitignore:2: *.manifest): "
        "added `!/chunkgate.manifest/` to .gitignore"
    ) in output
    added = "# chunkgate's manifest is committed (a rule above ignores it)\n!/chunkgate.manifest/\n"
    assert (repo / ".gitignore").read_text() == "__pycache__/\n*.manifest\n*.spec\n" + added
    _adopt(repo)
    assert "chunkgate.manifest/a.md.jsonl" in git(repo, "ls-files")
    assert run("init")[1].count("was ignored by git") == 0  # once is enough
    code, report = check_json()
    assert code == 0, report["violations"]
