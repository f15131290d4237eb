"""Plain ``git merge``, without the merge driver (as GitHub's test merge of a pull request
runs it), merges the manifest whenever the two sides changed different files.

Pairs of branches are generated from one base: each side edits, adds, deletes or renames
a few files (neighbours in path order, files of one folder, both sides adding files that
sort between the same two), runs ``update`` and commits; the pair is merged and the result
must have no conflict and pass ``check`` as it is.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest
from helpers import MANIFEST, commit_all, git, git_env, pin_git_env, write

from chunkgate.config.load import load_config
from chunkgate.gate import run_check

PAIRS = 200
# A fixed seed, the same in CI; set CHUNKGATE_MERGE_SEED to explore others.
SEED = int(os.environ.get("CHUNKGATE_MERGE_SEED", "16"))
FOLDERS = ("", "docs/", "docs/guide/")
BASE_NAMES = ("b", "d", "f", "h")  # each folder's files: b.md, d.md, ...
# New names sort into the gaps: c, ca and cb all fall between b.md and d.md.
NEW_NAMES = tuple(f"{gap}{tail}" for gap in "acegi" for tail in ("", "a", "b"))
WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india")


class Op(NamedTuple):
    kind: str  # edit, add, delete, rename
    path: str
    target: str = ""  # a rename's new path

    def touches(self) -> set[str]:
        return {self.path, self.target} - {""}


def page(rng: random.Random, path: str) -> str:
    """A page of a few sections whose text no other page has (no CG501)."""
    sections = []
    for number in range(rng.randint(1, 3)):
        words = " ".join(rng.choice(WORDS) for _ in range(12))
        title = f"{rng.choice(WORDS).title()} {number}"
        sections.append(f"## {title}\n\nAbout {path}, {words}, {rng.getrandbits(48):x}.\n")
    return "\n".join(sections)


BASE = [f"{folder}{name}.md" for folder in FOLDERS for name in BASE_NAMES]


def plan_side(rng: random.Random, taken: set[str], count: int) -> list[Op]:
    """``count`` changes on files no other change of the pair touches."""
    ops: list[Op] = []
    for _ in range(count):
        kind = rng.choice(("edit", "add", "delete", "rename"))
        existing = [p for p in BASE if p not in taken]
        fresh = [f"{f}{n}.md" for f in FOLDERS for n in NEW_NAMES if f"{f}{n}.md" not in taken]
        if kind == "add" or not existing:
            op = Op("add", rng.choice(fresh))
        elif kind == "rename":
            source = rng.choice(existing)
            # Mostly within its folder, now and then into another.
            folder = source.rpartition("/")[0] + "/" if "/" in source else ""
            near = [p for p in fresh if p.startswith(folder) and "/" not in p[len(folder) :]]
            op = Op("rename", source, rng.choice(near if rng.random() < 0.8 else fresh))
        else:
            op = Op(kind, rng.choice(existing))
        ops.append(op)
        taken |= op.touches()
    return ops


def apply(repo: Path, rng: random.Random, ops: list[Op]) -> None:
    for op in ops:
        if op.kind in ("edit", "add"):
            write(repo, op.path, page(rng, op.path))
        elif op.kind == "delete":
            (repo / op.path).unlink()
        else:
            text = (repo / op.path).read_text()
            (repo / op.path).unlink()
            write(repo, op.target, text)


def relations(ours: list[Op], theirs: list[Op]) -> set[str]:
    """Which of the hard cases for a line merge the pair holds."""
    found = set()
    everything = sorted({*BASE, *(p for op in ours + theirs for p in op.touches())})
    for mine in (p for op in ours for p in op.touches()):
        for other in (p for op in theirs for p in op.touches()):
            a, b = sorted((everything.index(mine), everything.index(other)))
            if b - a == 1:
                found.add("neighbours")
            if mine.rpartition("/")[0] == other.rpartition("/")[0]:
                found.add("same folder")
    base_order = sorted(BASE)
    adds = [
        [op.target or op.path for op in side if op.kind in ("add", "rename")]
        for side in (ours, theirs)
    ]
    for mine in adds[0]:
        for other in adds[1]:
            if _gap(base_order, mine) == _gap(base_order, other):
                found.add("both add between the same two files")
    return found


def _gap(order: list[str], path: str) -> int:
    return sum(p < path for p in order)


def plan_pair(rng: random.Random) -> tuple[list[Op], list[Op]]:
    taken: set[str] = set()
    ours = plan_side(rng, taken, rng.randint(1, 3))
    theirs = plan_side(rng, taken, rng.randint(1, 3))
    if rng.random() < 0.25:  # both add a file into one gap, whatever else they do
        folder, gap = rng.choice(FOLDERS), rng.choice("acegi")
        pair = [f"{folder}{gap}{tail}.md" for tail in rng.sample(["", "a", "b"], 2)]
        if not taken & set(pair):
            ours.append(Op("add", pair[0]))
            theirs.append(Op("add", pair[1]))
    return ours, theirs


def updated(repo: Path, ops: list[Op], *, hook: bool) -> None:
    """``update`` on the whole corpus, or as the pre-commit hook runs it: on the staged
    files that exist (it learns deletions from git), on everything when there are none."""
    git(repo, "add", "-A")
    existing = sorted(p for op in ops for p in op.touches() if (repo / p).exists())
    run_check(load_config(repo), existing if hook and existing else None, update=True)
    commit_all(repo, "side")


def merge(repo: Path, branch: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "commit.gpgsign=false", "merge", "-q", "--no-edit", branch],
        capture_output=True,
        text=True,
        env=git_env(),
        check=False,
    )


@pytest.mark.slow
def test_plain_git_merge_of_different_file_changes(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)  # paths given to a run are the command line's
    repo = git_repo
    rng = random.Random(SEED)
    for path in BASE:
        write(repo, path, page(rng, path))
    run_check(load_config(repo), update=True)
    commit_all(repo, "base")
    git(repo, "branch", "base")
    assert not (repo / ".gitattributes").exists()  # no merge driver anywhere
    assert "merge." not in git(repo, "config", "--list")
    kinds: Counter[str] = Counter()  # what the generator made
    cases: Counter[str] = Counter()
    for number in range(PAIRS):
        ours, theirs = plan_pair(rng)
        kinds.update(op.kind for op in ours + theirs)
        cases.update(relations(ours, theirs))
        hook = number % 2 == 1
        where = f"pair {number} (seed {SEED}, hook {hook}): ours {ours}, theirs {theirs}"

        git(repo, "checkout", "-q", "-B", "theirs", "base")
        apply(repo, rng, theirs)
        updated(repo, theirs, hook=hook)
        git(repo, "checkout", "-q", "-B", "ours", "base")
        apply(repo, rng, ours)
        updated(repo, ours, hook=hook)

        merged = merge(repo, "theirs")
        assert merged.returncode == 0, f"{where}\n{merged.stdout}{merged.stderr}"
        assert run_check(load_config(repo)).violations == (), where
        assert git(repo, "status", "--porcelain") == "", where  # and check wrote nothing
        corpus = {
            p.relative_to(repo).as_posix() for p in repo.rglob("*.md") if ".git" not in p.parts
        }
        shards = {
            p.relative_to(repo / MANIFEST).as_posix() for p in (repo / MANIFEST).rglob("*.jsonl")
        }
        assert shards == {f"{path}.jsonl" for path in corpus}, where

    # The generator made every kind of change and every hard case, many times over.
    assert min(kinds[kind] for kind in ("edit", "add", "delete", "rename")) >= 50, kinds
    assert min(cases.values()) >= 20, cases
    assert set(cases) == {"neighbours", "same folder", "both add between the same two files"}
