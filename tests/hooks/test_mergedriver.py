"""The merge driver: one shard or the header three ways, in memory, on files, and through
real git merges with the driver configured (same-file changes, both sides' settings)."""

from __future__ import annotations

import shlex
import shutil
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import (
    MANIFEST,
    commit_all,
    git,
    git_env,
    manifest_snapshot,
    pin_git_env,
    shard,
    write,
)
from manifest_samples import BLOB, HEADER

from chunkgate.cli import cli
from chunkgate.hooks.mergedriver import MergeOutcome, merge_headers, merge_shards, run_merge_driver
from chunkgate.manifest import (
    ChunkEntry,
    FileEntry,
    StoredFinding,
    render_block,
    render_header,
)


def entry(
    path: str,
    *identities: str,
    blob: str = BLOB,
    found: str | None = None,
    suppressed: tuple[str, ...] = (),
) -> FileEntry:
    """``found``: a CG201 finding on that chunk; ``suppressed``: on every chunk."""
    chunks = tuple(
        ChunkEntry(f"{path}#{name}", (i + 1, i + 1), 10, 3, "0123456789abcdef", None, suppressed)
        for i, name in enumerate(identities)
    )
    findings = (
        () if found is None else (StoredFinding("CG201", 1, f"{path}#{found}", "big", "split"),)
    )
    return FileEntry(path, blob, chunks, findings)


def data(e: FileEntry | None) -> bytes:
    return b"" if e is None else render_block(e)


A = entry("a.md", "one")
A_OURS = entry("a.md", "one", "ours", blob="1" * 40)
A_THEIRS = entry("a.md", "one", "theirs", blob="2" * 40)
# Same chunks as A, with what the rules found and what is suppressed recorded.
A_FOUND = entry("a.md", "one", blob="5" * 40, found="one")
A_SUPPRESSED = entry("a.md", "one", blob="6" * 40, suppressed=("CG201", "CG501"))
CONFLICT_A = "a.md: both sides changed its chunks; run `chunkgate update a.md` after the merge"
# A written again under new settings (a settings change rewrites every shard).
A_RESTAMPED = replace(A, settings="1" * 16)


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected"),
    [
        pytest.param(A, A, A, A, id="nothing-changed"),
        pytest.param(A, A_OURS, A, A_OURS, id="ours-changed"),
        pytest.param(A, A, A_THEIRS, A_THEIRS, id="theirs-changed"),
        pytest.param(A, A_OURS, A_OURS, A_OURS, id="identical-changes"),
        pytest.param(None, A, A, A, id="both-added-the-same"),
        pytest.param(A, A_FOUND, A, A_FOUND, id="ours-findings"),
        pytest.param(A, A, A_SUPPRESSED, A_SUPPRESSED, id="theirs-suppressions"),
        pytest.param(A_FOUND, A_FOUND, A, A, id="theirs-drops-the-findings"),
        pytest.param(A, A_FOUND, A_FOUND, A_FOUND, id="identical-findings"),
        pytest.param(A, A_OURS, A_RESTAMPED, A_OURS, id="theirs-only-restamped"),
        pytest.param(A, A_RESTAMPED, A_THEIRS, A_THEIRS, id="ours-only-restamped"),
    ],
)
def test_clean_shard_merges(
    base: FileEntry | None, ours: FileEntry, theirs: FileEntry, expected: FileEntry
) -> None:
    assert merge_shards(data(base), data(ours), data(theirs)) == (data(expected), [])


@pytest.mark.parametrize(
    ("base", "ours", "theirs"),
    [
        pytest.param(A, A_OURS, A_THEIRS, id="both-changed"),
        pytest.param(None, A_OURS, A_THEIRS, id="both-added-differently"),
        pytest.param(A, A_FOUND, A_SUPPRESSED, id="only-findings-and-suppressions-differ"),
        pytest.param(
            A, A_OURS, replace(A_THEIRS, settings="1" * 16), id="theirs-changed-and-restamped"
        ),
    ],
)
def test_shard_conflicts_keep_ours_and_say_what_to_run(
    base: FileEntry | None, ours: FileEntry, theirs: FileEntry
) -> None:
    assert merge_shards(data(base), data(ours), data(theirs)) == (data(ours), [CONFLICT_A])


def test_a_shard_with_other_line_endings_is_the_same_shard() -> None:
    crlf = data(A_OURS).replace(b"\n", b"\r\n")
    assert merge_shards(data(A), data(A), crlf) == (crlf, [])
    assert merge_shards(data(A), data(A_OURS), crlf) == (data(A_OURS), [])


def test_conflict_message_quotes_an_odd_path() -> None:
    odd = entry("my docs/a b.md", "x")
    ours, theirs = entry(odd.path, "x", "o"), entry(odd.path, "x", "t")
    _, messages = merge_shards(data(odd), data(ours), data(theirs))
    assert messages == [
        "my docs/a b.md: both sides changed its chunks; "
        "run `chunkgate update 'my docs/a b.md'` after the merge"
    ]


NEW_CHUNKING = replace(HEADER, chunking=4)
NEW_CONFIG = replace(HEADER, config=HEADER.config.replace("size.max=2000", "size.max=3000"))
OTHER_CONFIG = replace(HEADER, config="size.min=10", rules="rules=other")
NEW_ANCHORS = replace(HEADER, anchors="mkdocs")


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected"),
    [
        pytest.param(HEADER, HEADER, HEADER, HEADER, id="nothing-changed"),
        pytest.param(HEADER, HEADER, NEW_CHUNKING, NEW_CHUNKING, id="theirs-upgraded"),
        pytest.param(HEADER, NEW_CONFIG, HEADER, NEW_CONFIG, id="ours-changed-settings"),
        pytest.param(HEADER, NEW_CONFIG, NEW_CONFIG, NEW_CONFIG, id="the-same-change"),
        pytest.param(None, HEADER, HEADER, HEADER, id="both-added-the-same"),
    ],
)
def test_clean_header_merges(base: object, ours: object, theirs: object, expected: object) -> None:
    def raw(header: object) -> bytes:
        return b"" if header is None else render_header(header)  # type: ignore[arg-type]

    assert merge_headers(raw(base), raw(ours), raw(theirs)) == (raw(expected), [])


@pytest.mark.parametrize(
    ("ours", "theirs", "what"),
    [
        pytest.param(NEW_CHUNKING, NEW_CONFIG, "chunking version and settings", id="version"),
        pytest.param(NEW_CONFIG, OTHER_CONFIG, "settings and rule settings", id="settings"),
        pytest.param(HEADER, replace(OTHER_CONFIG, config=HEADER.config), "rule settings", id="r"),
        pytest.param(NEW_CONFIG, NEW_ANCHORS, "settings and heading anchors", id="anchors"),
        pytest.param(
            replace(HEADER, anchors="hugo"), NEW_ANCHORS, "heading anchors", id="only-anchors"
        ),
    ],
)
def test_both_sides_changed_the_settings(ours: object, theirs: object, what: str) -> None:
    base = render_header(replace(HEADER, rules="rules=base"))
    mine = render_header(ours)  # type: ignore[arg-type]
    merged, messages = merge_headers(base, mine, render_header(theirs))  # type: ignore[arg-type]
    assert merged == mine
    assert messages == [
        f"the two sides were made with different {what}; run `chunkgate update` after the merge"
    ]


@pytest.mark.parametrize(
    ("side", "garbage", "reason"),
    [
        pytest.param("ours", b"not json\n", "ours:1: invalid JSON", id="ours-garbage"),
        pytest.param("theirs", b"", "theirs:1: empty file", id="theirs-empty"),
        pytest.param(
            "theirs",
            data(A) + b"<<<<<<< HEAD\n",
            "theirs:3: merge conflict markers at line 3",
            id="theirs-conflicted",
        ),
        pytest.param("base", b"\x00\x01", "base:1: invalid JSON", id="base-binary"),
        pytest.param(
            "theirs",
            data(A).replace(b'"a.md#one"', b'"b.md#one"'),
            'theirs:2: chunk "b.md#one" does not belong to "a.md"',
            id="theirs-corrupt",
        ),
    ],
)
def test_unparseable_shard_keeps_ours(side: str, garbage: bytes, reason: str) -> None:
    sides = {"base": data(A), "ours": data(A_OURS), "theirs": data(A_THEIRS)}
    sides[side] = garbage
    merged, messages = merge_shards(sides["base"], sides["ours"], sides["theirs"])
    assert merged == sides["ours"]
    assert len(messages) == 1
    assert messages[0].startswith(f"cannot merge the shard ({reason}")
    assert messages[0].endswith("; kept ours; run `chunkgate update` after the merge")


def test_unparseable_header_keeps_ours() -> None:
    future = render_header(HEADER).replace(b'"chunkgate_manifest": 3', b'"chunkgate_manifest": 9')
    merged, messages = merge_headers(render_header(HEADER), render_header(NEW_CONFIG), future)
    assert merged == render_header(NEW_CONFIG)
    assert messages == [
        "cannot merge the manifest's header (theirs:2: manifest format 9 is newer than this "
        "chunkgate supports (3); upgrade chunkgate); kept ours; "
        "run `chunkgate update` after the merge"
    ]


# -- run_merge_driver on files ---------------------------------------------------------------


def three_files(tmp_path: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[Path, ...]:
    paths = tuple(tmp_path / name for name in ("base", "ours", "theirs"))
    for path, content in zip(paths, (base, ours, theirs), strict=True):
        path.write_bytes(content)
    return paths


def test_driver_writes_the_merge_to_ours(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), data(A), data(A_THEIRS))
    assert run_merge_driver(base, ours, theirs, f"{MANIFEST}/a.md.jsonl") == MergeOutcome(0, [])
    assert ours.read_bytes() == data(A_THEIRS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base", "ours", "theirs"]


def test_driver_reports_a_conflict_with_status_1(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), data(A_OURS), data(A_THEIRS))
    status, messages = run_merge_driver(str(base), str(ours), str(theirs))
    assert (status, messages) == (1, [CONFLICT_A])
    assert ours.read_bytes() == data(A_OURS)


@pytest.mark.parametrize("name", [f"{MANIFEST}/manifest.json", "sub/manifest.json", None])
def test_driver_tells_the_header_by_its_name_or_its_content(tmp_path: Path, name: str) -> None:
    base, ours, theirs = three_files(
        tmp_path, render_header(HEADER), render_header(HEADER), render_header(NEW_CONFIG)
    )
    assert run_merge_driver(base, ours, theirs, name) == MergeOutcome(0, [])
    assert ours.read_bytes() == render_header(NEW_CONFIG)


def test_driver_takes_a_shard_called_like_the_header_for_a_shard(tmp_path: Path) -> None:
    # docs/manifest.json's shard is docs/manifest.json.jsonl, never manifest.json.
    doc = entry("docs/manifest.json", "x")
    newer = entry("docs/manifest.json", "x", "y")
    base, ours, theirs = three_files(tmp_path, data(doc), data(doc), data(newer))
    assert run_merge_driver(base, ours, theirs, f"{MANIFEST}/docs/manifest.json.jsonl") == (0, [])
    assert ours.read_bytes() == data(newer)


def test_driver_leaves_ours_untouched_on_garbage(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), b"garbage", data(A_THEIRS))
    before = ours.stat()
    status, _ = run_merge_driver(base, ours, theirs)
    assert status == 1
    assert ours.read_bytes() == b"garbage"
    assert ours.stat().st_ino == before.st_ino


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_driver_keeps_the_permission_bits_of_ours(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), data(A), data(A_THEIRS))
    ours.chmod(0o600)
    run_merge_driver(base, ours, theirs)
    assert stat.S_IMODE(ours.stat().st_mode) == 0o600


def test_the_command_prints_the_messages_and_exits_with_the_status(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), data(A_OURS), data(A_THEIRS))
    result = CliRunner().invoke(cli, ["merge-driver", str(base), str(ours), str(theirs)])
    assert result.exit_code == 1
    assert result.stderr == f"chunkgate: {CONFLICT_A}\n"
    missing = CliRunner().invoke(cli, ["merge-driver", str(base), str(tmp_path / "x"), str(ours)])
    assert missing.exit_code == 2  # click's own one-line usage error
    assert "Traceback" not in missing.output


# -- through git, with the driver configured ----------------------------------------------------

SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"


def page(*headings: str) -> str:
    return "".join(f"## {heading}\n\n{SECTION}\n" for heading in headings)


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    write(git_repo, ".gitattributes", f"{MANIFEST}/** merge=chunkgate\n")
    driver = f"{shlex.quote(sys.executable)} -m chunkgate merge-driver %O %A %B %P"
    git(git_repo, "config", "merge.chunkgate.name", "chunkgate manifest")
    git(git_repo, "config", "merge.chunkgate.driver", driver)
    return git_repo


def chunkgate(*args: str) -> int:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False).exit_code


def updated_commit(repo: Path, message: str) -> None:
    assert chunkgate("update") == 0
    commit_all(repo, message)


def merge(repo: Path, branch: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "commit.gpgsign=false", "merge", "--no-edit", branch],
        capture_output=True,
        text=True,
        env=git_env(),
        check=False,
    )


def unmerged(repo: Path) -> list[str]:
    return git(repo, "diff", "--name-only", "--diff-filter=U").splitlines()


def no_markers(repo: Path) -> None:
    for path in (repo / MANIFEST).rglob("*"):
        if path.is_file():
            assert b"<<<<<<<" not in path.read_bytes(), path


def test_different_sections_of_one_file_merge_cleanly(repo: Path) -> None:
    """git merges the file; the driver writes its shard as `chunkgate update` would."""
    write(repo, "a.md", page("Intro", "Middle", "End"))
    write(repo, "b.md", page("B"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, "a.md", page("Intro", "Theirs", "Middle", "End"))
    updated_commit(repo, "theirs adds a section after the intro")
    git(repo, "switch", "-q", "main")
    write(repo, "a.md", page("Intro", "Middle", "End", "Ours"))
    write(repo, "b.md", page("B", "More"))
    updated_commit(repo, "ours adds a section at the end")

    result = merge(repo, "feature")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    assert unmerged(repo) == []
    assert (repo / "a.md").read_text() == page("Intro", "Theirs", "Middle", "End", "Ours")
    merged = manifest_snapshot(repo)
    assert b'"a.md#theirs"' in merged["a.md.jsonl"]
    assert b'"a.md#ours"' in merged["a.md.jsonl"]

    assert chunkgate("check") == 0
    assert chunkgate("update") == 0
    assert manifest_snapshot(repo) == merged  # nothing left for update to do
    shutil.rmtree(repo / MANIFEST)
    assert chunkgate("update") == 0
    assert manifest_snapshot(repo) == merged  # what a fresh update writes on the merge


def test_a_move_one_side_recorded_is_kept_in_the_merged_shard(repo: Path) -> None:
    write(repo, "a.md", page("Intro", "Middle", "End"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, "a.md", page("Intro", "Centre", "End"))
    assert chunkgate("update", "--accept-moves") == 0
    commit_all(repo, "theirs renames a heading and records the move")
    git(repo, "switch", "-q", "main")
    write(repo, "a.md", page("Intro", "Middle", "End", "Ours"))
    updated_commit(repo, "ours adds a section at the end")

    result = merge(repo, "feature")
    assert result.returncode == 0, result.stdout + result.stderr
    merged = manifest_snapshot(repo)
    assert b'"moved_from":"a.md#middle"' in merged["a.md.jsonl"].replace(b" ", b"")
    assert chunkgate("check") == 0
    assert chunkgate("update") == 0
    assert manifest_snapshot(repo) == merged


def test_one_section_changed_on_both_sides_conflicts_and_names_the_command(repo: Path) -> None:
    write(repo, "a.md", page("Intro", "Middle"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, "a.md", page("Intro", "Middle").replace("without any trouble", "theirs"))
    updated_commit(repo, "theirs rewrites the sections")
    git(repo, "switch", "-q", "main")
    write(repo, "a.md", page("Intro", "Middle").replace("without any trouble", "ours"))
    updated_commit(repo, "ours rewrites them otherwise")
    ours = shard(repo, "a.md").read_bytes()

    result = merge(repo, "feature")
    assert result.returncode == 1
    assert f"chunkgate: {CONFLICT_A}" in result.stderr
    assert sorted(unmerged(repo)) == ["a.md", f"{MANIFEST}/a.md.jsonl"]
    no_markers(repo)
    assert shard(repo, "a.md").read_bytes() == ours

    write(repo, "a.md", page("Intro", "Middle", "Both"))  # the user settles the file
    assert chunkgate("update", "a.md") == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit")
    assert chunkgate("check") == 0
    assert b'"a.md#both"' in shard(repo, "a.md").read_bytes()


def test_a_file_deleted_on_one_side_and_changed_on_the_other(repo: Path) -> None:
    write(repo, "a.md", page("Intro"))
    write(repo, "b.md", page("B"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, "a.md", page("Intro", "Theirs"))
    updated_commit(repo, "theirs changes a.md")
    git(repo, "switch", "-q", "main")
    (repo / "a.md").unlink()
    updated_commit(repo, "ours deletes a.md")

    result = merge(repo, "feature")
    assert result.returncode == 1  # git's modify/delete: no driver runs for it
    assert sorted(unmerged(repo)) == ["a.md", f"{MANIFEST}/a.md.jsonl"]
    git(repo, "add", "a.md")  # keep theirs
    assert chunkgate("update") == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit")
    assert chunkgate("check") == 0
    assert b'"a.md#theirs"' in shard(repo, "a.md").read_bytes()


# The two keys kept apart, so that git merges an edit of each.
CONFIG = "size:\n  max: 2000\n\n\n\n  min: 40\n"


def test_settings_changed_on_one_side_are_taken(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", CONFIG)
    write(repo, "a.md", page("A"))
    write(repo, "b.md", page("B"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, ".chunkgate.yaml", CONFIG.replace("max: 2000", "max: 3000"))
    updated_commit(repo, "theirs raises size.max")
    git(repo, "switch", "-q", "main")
    write(repo, "a.md", page("A", "More"))
    updated_commit(repo, "ours edits a.md")

    result = merge(repo, "feature")
    assert result.returncode == 0, result.stdout + result.stderr
    assert b"size.max=3000" in (repo / MANIFEST / "manifest.json").read_bytes()
    assert chunkgate("check") == 0


def test_settings_changed_on_both_sides_are_reported(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", CONFIG)
    write(repo, "a.md", page("A"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, ".chunkgate.yaml", CONFIG.replace("min: 40", "min: 30"))
    updated_commit(repo, "theirs lowers size.min")
    git(repo, "switch", "-q", "main")
    write(repo, ".chunkgate.yaml", CONFIG.replace("max: 2000", "max: 3000"))
    updated_commit(repo, "ours raises size.max")
    header = (repo / MANIFEST / "manifest.json").read_bytes()

    result = merge(repo, "feature")
    assert result.returncode == 1
    assert (
        "chunkgate: the two sides were made with different settings; "
        "run `chunkgate update` after the merge"
    ) in result.stderr
    assert unmerged(repo) == [f"{MANIFEST}/manifest.json"]
    assert (repo / MANIFEST / "manifest.json").read_bytes() == header  # ours, no markers
    assert chunkgate("check") == 1  # the settings are the merged ones now
    assert chunkgate("update") == 0
    merged = (repo / MANIFEST / "manifest.json").read_bytes()
    assert b"size.max=3000" in merged
    assert b"size.min=30" in merged
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit")
    assert chunkgate("check") == 0


def test_a_file_added_under_settings_the_other_side_replaced(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", CONFIG)
    write(repo, "a.md", page("A"))
    updated_commit(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, ".chunkgate.yaml", CONFIG.replace("max: 2000", "max: 500"))
    updated_commit(repo, "theirs lowers size.max")
    git(repo, "switch", "-q", "main")
    write(repo, "big.md", "## Big\n\n" + "word " * 150 + "\n")  # 750 chars: fine under 2000
    updated_commit(repo, "ours adds big.md")

    result = merge(repo, "feature")
    assert result.returncode == 0, result.stdout + result.stderr  # different files
    # big.md's shard says it was checked and fine; under size.max 500 it is not.
    report = CliRunner().invoke(cli, ["check", "--format", "text"], catch_exceptions=False)
    assert report.exit_code == 1
    assert "big.md" in report.output
