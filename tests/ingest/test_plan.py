"""The re-embed plan: ``chunkgate diff A B --format plan`` and ``chunkgate.plan`` (issue 20)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, git, git_env, pin_git_env, write

from chunkgate.chunking import CHUNKING_VERSION
from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.ingest.records import export
from chunkgate.ingest.reembed import plan, plan_rows

Record = dict[str, object]

GUIDE = """\
# Guide

An introduction to the guide, long enough to stand alone.

## Install

Run pip install chunkgate in a fresh virtual environment.

## Use

Point it at your documentation and commit the manifest.
"""


VERSIONS = {"chunking": CHUNKING_VERSION, "model": None}  # the plan's closing row names them


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    return git_repo


def update(*args: str) -> None:
    result = CliRunner().invoke(cli, ["update", "-q", *args])
    assert result.exit_code == 0, result.output


def rows_of(repo: Path, base: str, head: str | None = None) -> list[Record]:
    return list(plan(load_config(repo), base, head))


def apply(index: dict[str, Record], vectors: dict[str, str], rows: Iterable[Record]) -> int:
    """Apply a plan to an index of export records and the embed texts its vectors were
    made from, as the module describes; return the unchanged count it checked."""
    *changes, last = [dict(row) for row in rows]
    assert last["op"] == "unchanged"
    touched = set()
    for row in changes:
        op = row.pop("op")
        chunk_id = str(row["id"])
        assert chunk_id not in touched, f"{chunk_id} named twice"
        touched.add(chunk_id)
        if op == "delete":
            del index[chunk_id], vectors[chunk_id]
        elif op == "rekey":
            old = str(row.pop("from"))
            embed_changed = row.pop("embed_changed")
            assert chunk_id not in index
            assert embed_changed == (vectors[old] != row["embed_text"])
            del index[old]
            vectors[chunk_id] = vectors.pop(old)
            index[chunk_id] = row
        elif op == "update":
            assert vectors[chunk_id] == row["embed_text"], "an update must not need embedding"
            index[chunk_id] = row
        else:
            assert op == "upsert"
            assert vectors.get(chunk_id) != row["embed_text"], "an upsert of the same text"
            vectors[chunk_id] = str(row["embed_text"])
            index[chunk_id] = row
    rest = [chunk_id for chunk_id in index if chunk_id not in touched]
    for chunk_id in rest:
        index[chunk_id] = {**index[chunk_id], "commit": last["commit"]}
    assert last["count"] == len(rest)
    return len(rest)


def index_of(records: Iterable[Record]) -> tuple[dict[str, Record], dict[str, str]]:
    index = {str(r["id"]): r for r in records}
    return index, {chunk_id: str(r["embed_text"]) for chunk_id, r in index.items()}


def round_trip(repo: Path, base: str, head: str) -> list[Record]:
    config = load_config(repo)
    rows = list(plan(config, base, head))
    index, vectors = index_of(export(config, rev=base))
    after = list(export(config, rev=head))
    apply(index, vectors, rows)
    assert index == {r["id"]: r for r in after}
    return rows


def test_an_acknowledged_heading_rename_is_one_rekey(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    write(repo, "pkg/mod.py", "def run():\n    return 1\n")
    update()
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("## Install", "## Installing it"))
    update("--accept-moves")
    second = commit_all(repo, "rename")
    rows = round_trip(repo, first, second)
    ops = {(row["op"], row.get("id")) for row in rows}
    assert ("rekey", "docs/guide.md#installing-it") in ops
    renamed = [row for row in rows if "installing-it" in str(row.get("id"))]
    assert [row["op"] for row in renamed] == ["rekey"]
    assert renamed[0]["from"] == "docs/guide.md#install"
    assert renamed[0]["moved_from"] == ["docs/guide.md#install"]
    assert renamed[0]["embed_changed"] is True
    assert not [row for row in rows if row["op"] in ("upsert", "delete")]
    # The neighbours' `next`/`prev` and the file's blob changed: metadata only.
    assert sorted(row["id"] for row in rows if row["op"] == "update") == [
        "docs/guide.md#guide",
        "docs/guide.md#use",
    ]
    assert rows[-1] == {"op": "unchanged", "count": 1, "commit": second, **VERSIONS}


def test_an_unacknowledged_rename_is_a_delete_and_an_upsert(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("## Install", "## Installing it"))
    second = commit_all(repo, "rename")
    rows = round_trip(repo, first, second)
    assert [(r["op"], r["id"]) for r in rows if r["op"] in ("delete", "upsert", "rekey")] == [
        ("delete", "docs/guide.md#install"),
        ("upsert", "docs/guide.md#installing-it"),
    ]


def test_a_moved_file_is_rekeyed_without_embedding(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    write(repo, "other.md", "# Other\n\nSomething else entirely, unchanged.\n")
    first = commit_all(repo, "first")
    git(repo, "mv", "docs/guide.md", "guide.md")
    second = commit_all(repo, "move")
    rows = round_trip(repo, first, second)
    assert [(r["op"], r.get("from"), r["id"]) for r in rows[:-1]] == [
        ("rekey", "docs/guide.md#guide", "guide.md#guide"),
        ("rekey", "docs/guide.md#install", "guide.md#install"),
        ("rekey", "docs/guide.md#use", "guide.md#use"),
    ]
    assert {r["embed_changed"] for r in rows[:-1]} == {False}
    assert rows[-1]["count"] == 1


def test_edits_are_upserts_and_the_rest_is_counted(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("fresh virtual", "new virtual"))
    write(repo, "docs/new.md", "# New\n\nA page that was not there before.\n")
    second = commit_all(repo, "edit")
    rows = round_trip(repo, first, second)
    assert [(r["op"], r.get("id")) for r in rows] == [
        ("update", "docs/guide.md#guide"),
        ("upsert", "docs/guide.md#install"),
        ("update", "docs/guide.md#use"),
        ("upsert", "docs/new.md#new"),
        ("unchanged", None),
    ]
    assert rows[-1]["count"] == 0


def test_a_breadcrumb_change_is_an_upsert_of_the_children(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("# Guide", "# Handbook", 1))
    second = commit_all(repo, "retitle")
    rows = round_trip(repo, first, second)
    upserted = [r for r in rows if r["op"] == "upsert"]
    # Their text is the same; what the model sees ("Handbook > Install") is not.
    assert [r["id"] for r in upserted] == [
        "docs/guide.md#handbook",
        "docs/guide.md#install",
        "docs/guide.md#use",
    ]


def test_the_work_tree_as_head(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    write(repo, "b.md", "# B\n\nA second page that stays as committed.\n")
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("commit the manifest", "commit it"))
    config = load_config(repo)
    rows = list(plan(config, "HEAD"))
    index, vectors = index_of(export(config, rev=first))
    apply(index, vectors, rows)
    assert index == {r["id"]: r for r in export(config)}
    assert rows[-1] == {"op": "unchanged", "count": 1, "commit": first, **VERSIONS}
    assert {r["commit"] for r in rows[:-1]} == {None}  # not as committed


def test_the_command_writes_the_library_rows_as_json_lines(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("## Use", "## Usage") + "\n## Más\n\nÜber.\n")
    second = commit_all(repo, "second")
    result = CliRunner().invoke(cli, ["diff", first, second, "--format", "plan"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == rows_of(repo, first, second)
    assert "Über" in result.output  # UTF-8, not escapes
    again = CliRunner().invoke(cli, ["diff", f"{first}..{second}", "--format", "plan"])
    assert again.output == result.output
    proc = subprocess.run(
        [sys.executable, "-m", "chunkgate", "diff", first, second, "--format", "plan"],
        cwd=repo,
        env={**git_env(), "CHUNKGATE_CACHE_DIR": os.environ["CHUNKGATE_CACHE_DIR"]},
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8") == result.output


def test_fail_on_still_applies(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE.replace("## Install", "## Installing it"))
    commit_all(repo, "rename")
    result = CliRunner().invoke(
        cli, ["diff", first, "HEAD", "--format", "plan", "--fail-on", "unstable"]
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout.splitlines()[-1])["op"] == "unchanged"
    assert "1 chunk ID changed without `moved_from`" in result.stderr


def test_an_unknown_revision_is_one_line(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    commit_all(repo, "first")
    result = CliRunner().invoke(cli, ["diff", "no-such-rev", "--format", "plan"])
    assert result.exit_code == 2
    assert "no-such-rev" in result.output
    assert "Traceback" not in result.output


def test_duplicate_ids_are_refused_with_the_file(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    first = commit_all(repo, "first")
    write(repo, "docs/guide.md", GUIDE + "\n## Again {#install}\n\nThe same anchor twice.\n")
    commit_all(repo, "dup")
    result = CliRunner().invoke(cli, ["diff", first, "HEAD", "--format", "plan"])
    assert result.exit_code == 2
    assert "docs/guide.md: chunk ID docs/guide.md#install is used twice (CG101)" in result.output


# Generated histories: a corpus, then a commit of random edits; the plan of the two
# applied to the first export must give the second, embedding only what changed.

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "cache",
    "index",
    "vector",
    "token",
    "shard",
    "merge",
    "commit",
    "branch",
    "section",
    "heading",
    "anchor",
    "parser",
    "config",
    "option",
    "manifest",
    "export",
    "plan",
    "embed",
]


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))).capitalize() + "."


def page(rng: random.Random) -> list[tuple[str, str]]:
    sections = []
    for _ in range(rng.randint(1, 5)):
        body = "\n\n".join(sentence(rng) for _ in range(rng.randint(1, 8)))
        sections.append((rng.choice(("#", "##", "###")) + " " + rng.choice(WORDS).title(), body))
    return sections


def render(sections: list[tuple[str, str]]) -> str:
    return "".join(f"{heading}\n\n{body}\n\n" for heading, body in sections)


def module(rng: random.Random) -> str:
    names = rng.sample(WORDS, rng.randint(1, 4))
    return "".join(f"def {name}():\n    return {rng.randint(0, 9)!r}\n\n\n" for name in names)


def mutate(repo: Path, rng: random.Random, pages: dict[str, list[tuple[str, str]]]) -> None:
    for _ in range(rng.randint(1, 4)):
        action = rng.choice(
            ("edit", "rename", "add-section", "drop-section", "add-file", "drop-file", "move")
        )
        path = rng.choice(sorted(pages)) if pages else None
        if path is None or action == "add-file":
            path = f"docs/{rng.choice(WORDS)}-{rng.randint(0, 99)}.md"
            pages[path] = page(rng)
        elif action == "drop-file":
            del pages[path]
            (repo / path).unlink(missing_ok=True)
            continue
        elif action == "move":
            target = f"moved/{rng.randint(0, 99)}-{Path(path).name}"
            if target in pages:
                continue
            (repo / target).parent.mkdir(exist_ok=True)
            if (repo / path).exists():
                (repo / path).rename(repo / target)
            pages[target] = pages.pop(path)
            continue
        sections = pages[path]
        at = rng.randrange(len(sections))
        heading, body = sections[at]
        if action == "edit":
            sections[at] = (heading, body + "\n\n" + sentence(rng))
        elif action == "rename":
            sections[at] = (heading + " " + rng.choice(WORDS), body)
        elif action == "add-section":
            sections.insert(at, page(rng)[0])
        elif len(sections) > 1:
            del sections[at]
        write(repo, path, render(sections))
    for path, sections in pages.items():
        write(repo, path, render(sections))
    if rng.random() < 0.5:
        write(repo, "pkg/code.py", module(rng))


@pytest.mark.parametrize("seed", range(30))
def test_plan_round_trip_on_generated_histories(repo: Path, seed: int) -> None:
    rng = random.Random(seed)
    write(repo, ".chunkgate.yaml", "size: {max: 400, min: 1}\n")  # units in several parts
    pages = {f"docs/page-{n}.md": page(rng) for n in range(rng.randint(1, 4))}
    for path, sections in pages.items():
        write(repo, path, render(sections))
    write(repo, "pkg/code.py", module(rng))
    update()
    first = commit_all(repo, "first")
    mutate(repo, rng, pages)
    if rng.random() < 0.5:
        update("--accept-moves")
    second = commit_all(repo, "second")
    rows = round_trip(repo, first, second)
    assert rows == rows_of(repo, first, second)  # deterministic
    round_trip(repo, second, first)  # and back
    nothing = rows_of(repo, second, second)
    assert nothing == [
        {
            "op": "unchanged",
            "count": len(list(export(load_config(repo)))),
            "commit": second,
            **VERSIONS,
        }
    ]


def test_changed_settings_compare_every_file(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE)
    write(repo, "b.md", "# B\n\nA second page that stays as committed.\n")
    update()
    first = commit_all(repo, "first")
    write(repo, ".chunkgate.yaml", 'embed: {separator: " / "}\n')
    update()
    second = commit_all(repo, "separator")
    rows = round_trip(repo, first, second)
    # Only the nested sections' breadcrumbs have a separator in them.
    assert [(r["op"], r.get("id")) for r in rows] == [
        ("upsert", "docs/guide.md#install"),
        ("upsert", "docs/guide.md#use"),
        ("unchanged", None),
    ]
    assert rows[-1]["count"] == 2


def test_outside_git_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.md", "# A\n\nText.\n")
    result = CliRunner().invoke(cli, ["diff", "HEAD", "--format", "plan"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "git" in result.output


def test_plan_round_trip_on_fastapi_docs(repo: Path) -> None:
    fastapi = Path(__file__).parents[1] / "data" / "corpora" / "fastapi-docs"
    shutil.copytree(fastapi, repo, dirs_exist_ok=True)
    update()
    first = commit_all(repo, "first")
    pages = sorted((repo / "docs" / "en" / "docs").rglob("*.md"))
    for page in pages[:5]:
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("FastAPI", "FastAPI (the framework)", 1), encoding="utf-8")
    pages[5].unlink()
    pages[6].rename(pages[6].with_name("renamed.md"))
    second = commit_all(repo, "edits")
    rows = round_trip(repo, first, second)
    ops = {str(r["op"]) for r in rows}
    assert {"upsert", "rekey", "delete", "unchanged"} <= ops
    # Only the seven pages touched are named; every other page's chunks stay unchanged.
    edited = {page.relative_to(repo).as_posix() for page in pages[:7]}
    edited.add(pages[6].with_name("renamed.md").relative_to(repo).as_posix())
    assert {str(r["id"]).partition("#")[0] for r in rows[:-1]} <= edited
    assert rows[-1]["count"] > 500


def test_another_model_re_embeds_the_same_embed_text() -> None:
    record: Record = {"id": "a.md#x", "text": "T", "embed_text": "X\nT", "model": None}
    rows = list(
        plan_rows([record], [{**record, "model": "bge-m3"}], commit=None, versions=VERSIONS)
    )
    assert [row["op"] for row in rows] == ["upsert", "unchanged"]
    same = list(plan_rows([record], [{**record, "line": 2}], commit=None, versions=VERSIONS))
    assert [row["op"] for row in same] == ["update", "unchanged"]
