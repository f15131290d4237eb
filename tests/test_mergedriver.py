"""The manifest merge driver: three-way by file path, in memory and through real git merges."""

from __future__ import annotations

import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git, git_env, write
from manifest_samples import BLOB, HEADER

from chunkgate.manifest import (
    FORMAT_VERSION,
    ChunkEntry,
    FileEntry,
    Header,
    Manifest,
    StoredFinding,
    parse,
    render,
)
from chunkgate.mergedriver import MergeOutcome, merge_manifests, run_merge_driver

MANIFEST = "chunkgate.manifest.jsonl"


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


def data(*entries: FileEntry, header: Header = HEADER) -> bytes:
    return render(Manifest(header, {e.path: e for e in entries}))


A = entry("a.md", "one")
A_OURS = entry("a.md", "one", "ours", blob="1" * 40)
A_THEIRS = entry("a.md", "one", "theirs", blob="2" * 40)
B = entry("b.md", "x")
B_THEIRS = entry("b.md", "x", "y", blob="3" * 40)
C = entry("c.md", "new")
C_OTHER = entry("c.md", "other", blob="4" * 40)
# Same chunks as A, with what the rules found and what is suppressed recorded.
A_FOUND = entry("a.md", "one", blob="5" * 40, found="one")
A_SUPPRESSED = entry("a.md", "one", blob="6" * 40, suppressed=("CG201", "CG501"))
CONFLICT_A = "a.md: both sides changed its chunks; run `chunkgate update a.md` after the merge"


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected"),
    [
        pytest.param([A, B], [A, B], [A, B], [A, B], id="nothing-changed"),
        pytest.param([A, B], [A_OURS, B], [A, B_THEIRS], [A_OURS, B_THEIRS], id="different-files"),
        pytest.param([A, B], [A, B, C], [A, B_THEIRS], [A, B_THEIRS, C], id="ours-adds-a-file"),
        pytest.param([A, B], [B], [A, B_THEIRS], [B_THEIRS], id="ours-deletes-a-file"),
        pytest.param([A, B], [A_OURS, B], [A_OURS, B], [A_OURS, B], id="identical-changes"),
        pytest.param([A, B], [B], [B], [B], id="both-delete"),
        pytest.param([A, B], [A, B, C], [A, B, C], [A, B, C], id="both-add-the-same"),
        pytest.param([], [A], [B], [A, B], id="empty-base-manifest"),
        pytest.param([A, B], [A_FOUND, B], [A, B_THEIRS], [A_FOUND, B_THEIRS], id="ours-findings"),
        pytest.param(
            [A, B], [A, B], [A_SUPPRESSED, B], [A_SUPPRESSED, B], id="theirs-suppressions"
        ),
        pytest.param([A_FOUND], [A_FOUND, C], [A], [A, C], id="theirs-drops-the-findings"),
        pytest.param([A], [A_FOUND], [A_FOUND], [A_FOUND], id="identical-findings"),
    ],
)
def test_clean_merges(
    base: list[FileEntry], ours: list[FileEntry], theirs: list[FileEntry], expected: list[FileEntry]
) -> None:
    merged, messages = merge_manifests(data(*base), data(*ours), data(*theirs))
    assert messages == []
    assert merged == data(*expected)
    assert list(parse(merged, name="m").files.values()) == expected


def test_base_missing_entirely() -> None:
    # Both branches added the manifest: git passes an empty file for the base.
    merged, messages = merge_manifests(b"", data(A), data(B))
    assert (merged, messages) == (data(A, B), [])
    merged, messages = merge_manifests(b"", data(A_OURS), data(A_THEIRS))
    assert (merged, messages) == (data(A_OURS), [CONFLICT_A])


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected", "messages"),
    [
        pytest.param(
            [A, B], [A_OURS, B], [A_THEIRS, B_THEIRS], [A_OURS, B_THEIRS], [CONFLICT_A],
            id="both-changed-one-file",
        ),
        pytest.param(
            [A, B], [B], [A_THEIRS, B], [B], [CONFLICT_A], id="ours-deleted-theirs-changed"
        ),
        pytest.param(
            [A, B], [A_OURS, B], [B], [A_OURS, B], [CONFLICT_A], id="ours-changed-theirs-deleted"
        ),
        pytest.param(
            [A], [A, C], [A, C_OTHER], [A, C],
            ["c.md: both sides changed its chunks; run `chunkgate update c.md` after the merge"],
            id="both-added-one-file-differently",
        ),
        pytest.param(
            [A], [A_FOUND], [A_SUPPRESSED], [A_FOUND], [CONFLICT_A],
            id="only-findings-and-suppressions-differ",
        ),
    ],
)  # fmt: skip
def test_conflicts_keep_ours_and_say_what_to_run(
    base: list[FileEntry],
    ours: list[FileEntry],
    theirs: list[FileEntry],
    expected: list[FileEntry],
    messages: list[str],
) -> None:
    assert merge_manifests(data(*base), data(*ours), data(*theirs)) == (data(*expected), messages)


def test_conflict_message_quotes_an_odd_path() -> None:
    odd = entry("my docs/a b.md", "x")
    ours, theirs = entry(odd.path, "x", "o"), entry(odd.path, "x", "t")
    _, messages = merge_manifests(data(odd), data(ours), data(theirs))
    assert messages == [
        "my docs/a b.md: both sides changed its chunks; "
        "run `chunkgate update 'my docs/a b.md'` after the merge"
    ]


NEW_CHUNKING = Header(FORMAT_VERSION, 4, HEADER.config, HEADER.rules)
NEW_CONFIG = Header(FORMAT_VERSION, 3, "1111111111111111", HEADER.rules)
OTHER_CONFIG = Header(FORMAT_VERSION, 3, "2222222222222222", "3333333333333333")


def test_header_change_on_one_side_is_taken() -> None:
    # Theirs upgraded chunkgate and rebuilt; ours changed nothing that theirs did not.
    merged, messages = merge_manifests(
        data(A, B), data(A, B), data(A, B_THEIRS, header=NEW_CHUNKING)
    )
    assert (merged, messages) == (data(A, B_THEIRS, header=NEW_CHUNKING), [])


def test_entries_made_under_replaced_settings_need_an_update() -> None:
    # Ours chunked c.md with the old config, theirs switched config: c.md is stale.
    merged, messages = merge_manifests(
        data(A, B), data(A, B, C), data(A, B_THEIRS, header=NEW_CONFIG)
    )
    assert merged == data(A, B_THEIRS, C, header=NEW_CONFIG)
    assert messages == [
        "1 file(s) were chunked with other settings than the merged manifest's (c.md); "
        "run `chunkgate update` after the merge"
    ]


def test_both_sides_changed_the_settings() -> None:
    ours = data(A_OURS, B, header=NEW_CHUNKING)
    theirs = data(A, B_THEIRS, header=OTHER_CONFIG)
    merged, messages = merge_manifests(data(A, B), ours, theirs)
    # The newer chunking version, our fingerprints.
    assert parse(merged, name="m").header == Header(FORMAT_VERSION, 4, HEADER.config, HEADER.rules)
    assert messages == [
        "the two sides were made with different chunking version and config and rules; "
        "run `chunkgate update` after the merge"
    ]


def test_same_settings_changed_on_both_sides_is_clean() -> None:
    merged, messages = merge_manifests(
        data(A, B), data(A_OURS, B, header=NEW_CONFIG), data(A, B_THEIRS, header=NEW_CONFIG)
    )
    assert (merged, messages) == (data(A_OURS, B_THEIRS, header=NEW_CONFIG), [])


@pytest.mark.parametrize(
    ("side", "garbage", "reason"),
    [
        pytest.param("ours", b"not json\n", "ours:1: invalid JSON", id="ours-garbage"),
        pytest.param("theirs", b"", "theirs: empty manifest", id="theirs-empty"),
        pytest.param(
            "theirs",
            data(A) + b"<<<<<<< HEAD\n",
            "theirs:4: merge conflict markers at line 4",
            id="theirs-conflicted",
        ),
        pytest.param("base", b"\x00\x01", "base:1: invalid JSON", id="base-binary"),
        pytest.param(
            "theirs",
            data(A).replace(b'"chunkgate_manifest": 1', b'"chunkgate_manifest": 9'),
            "theirs:1: manifest format 9 is newer than this chunkgate supports (1); "
            "upgrade chunkgate",
            id="theirs-from-the-future",
        ),
    ],
)
def test_unparseable_input_keeps_ours(side: str, garbage: bytes, reason: str) -> None:
    sides = {"base": data(A), "ours": data(A_OURS), "theirs": data(A_THEIRS)}
    sides[side] = garbage
    merged, messages = merge_manifests(sides["base"], sides["ours"], sides["theirs"])
    assert merged == sides["ours"]
    assert len(messages) == 1
    assert messages[0].startswith(f"cannot merge the manifest ({reason}")
    assert messages[0].endswith("; kept ours; run `chunkgate update` after the merge")


# -- run_merge_driver on files ---------------------------------------------------------------


def three_files(tmp_path: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[Path, ...]:
    paths = tuple(tmp_path / name for name in ("base", "ours", "theirs"))
    for path, content in zip(paths, (base, ours, theirs), strict=True):
        path.write_bytes(content)
    return paths


def test_driver_writes_the_merge_to_ours(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A, B), data(A_OURS, B), data(A, B_THEIRS))
    assert run_merge_driver(base, ours, theirs) == MergeOutcome(0, [])
    assert ours.read_bytes() == data(A_OURS, B_THEIRS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base", "ours", "theirs"]


def test_driver_reports_a_conflict_with_status_1(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), data(A_OURS), data(A_THEIRS))
    status, messages = run_merge_driver(str(base), str(ours), str(theirs))
    assert (status, messages) == (1, [CONFLICT_A])
    assert ours.read_bytes() == data(A_OURS)


def test_driver_leaves_ours_untouched_on_garbage(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A), b"garbage", data(A_THEIRS))
    before = ours.stat()
    status, _ = run_merge_driver(base, ours, theirs)
    assert status == 1
    assert ours.read_bytes() == b"garbage"
    assert ours.stat().st_ino == before.st_ino


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_driver_keeps_the_permission_bits_of_ours(tmp_path: Path) -> None:
    base, ours, theirs = three_files(tmp_path, data(A, B), data(A_OURS, B), data(A, B_THEIRS))
    ours.chmod(0o600)
    run_merge_driver(base, ours, theirs)
    assert stat.S_IMODE(ours.stat().st_mode) == 0o600


# -- through git -----------------------------------------------------------------------------

DRIVER = (
    "import sys; from chunkgate.mergedriver import run_merge_driver; "
    "status, messages = run_merge_driver(*sys.argv[1:4]); "
    "[print('chunkgate:', m, file=sys.stderr) for m in messages]; sys.exit(status)"
)


def configure_driver(repo: Path) -> None:
    write(repo, ".gitattributes", f"{MANIFEST} merge=chunkgate eol=lf\n")
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(DRIVER)} %O %A %B"
    git(repo, "config", "merge.chunkgate.name", "chunkgate manifest")
    git(repo, "config", "merge.chunkgate.driver", command)


def merge(repo: Path, branch: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "commit.gpgsign=false", "merge", "--no-edit", branch],
        capture_output=True,
        text=True,
        env=git_env(),
        check=False,
    )


def branches(repo: Path, base: bytes, main: bytes, feature: bytes) -> None:
    write(repo, MANIFEST, base)
    commit_all(repo, "base")
    git(repo, "switch", "-q", "-c", "feature")
    write(repo, MANIFEST, feature)
    commit_all(repo, "feature")
    git(repo, "switch", "-q", "main")
    write(repo, MANIFEST, main)
    commit_all(repo, "main")


def test_git_merges_adjacent_additions_that_a_text_merge_cannot(git_repo: Path) -> None:
    # b1.md and b2.md both land between a.md and c.md: the same spot for a line merge.
    b1 = entry("b1.md", "intro", "usage", found="usage")
    b2 = entry("b2.md", "setup", suppressed=("CG501",))
    base, main, feature = data(A, C), data(A, b1, C), data(A, b2, C)

    plain = git_repo.parent / "plain"
    git(git_repo.parent, "init", "-q", "-b", "main", str(plain))
    branches(plain, base, main, feature)
    assert merge(plain, "feature").returncode != 0  # git's own text merge conflicts

    configure_driver(git_repo)
    branches(git_repo, base, main, feature)
    result = merge(git_repo, "feature")
    assert result.returncode == 0, result.stderr + result.stdout
    assert (git_repo / MANIFEST).read_bytes() == data(A, b1, b2, C)
    assert git(git_repo, "status", "--porcelain") == ""


def test_git_merge_conflict_is_reported_and_left_for_update(git_repo: Path) -> None:
    configure_driver(git_repo)
    branches(git_repo, data(A, B), data(A_OURS, B), data(A_THEIRS, B_THEIRS))
    result = merge(git_repo, "feature")
    assert result.returncode == 1
    assert f"chunkgate: {CONFLICT_A}" in result.stderr
    assert f"CONFLICT (content): Merge conflict in {MANIFEST}" in result.stdout
    # Our entry for the conflicted file, theirs for the other; no conflict markers.
    assert (git_repo / MANIFEST).read_bytes() == data(A_OURS, B_THEIRS)
    assert git(git_repo, "diff", "--name-only", "--diff-filter=U") == f"{MANIFEST}\n"
