"""The manifest folder in the work tree and in a revision: listing in git and outside it,
atomic shard writes, emptied folders removed, and summaries from the cache, the disk and
git's objects agreeing, with a damaged cache ignored and a corrupt shard reported."""

from __future__ import annotations

import marshal
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import MANIFEST, commit_all, git, pin_git_env, write
from manifest_samples import HEADER, entry, finding, summary_of

from chunkgate.cache.blobs import sealed
from chunkgate.core.errors import ManifestError
from chunkgate.git import listings, objects
from chunkgate.manifest import (
    FileEntry,
    ManifestSyntaxError,
    RevisionManifest,
    Shard,
    SummaryCache,
    WorkTreeManifest,
    render_block,
    shard_name,
)
from chunkgate.manifest import storage as storage_module

LONG = "docs/" + "é" * 130 + ".md"  # a file name whose shard name would be too long
ENTRIES = [
    entry("README.md", "intro"),
    entry("docs/a.md", "one", "two"),
    entry("docs/b.md", "x", findings=(finding(chunk_id="docs/b.md#x"),)),
    entry("docs/deep/er/c.md"),
    entry('docs/odd "name".md', "y"),
    entry("docs/\udcff.md", "z"),
    entry(LONG, "long"),
]
BY_PATH = {e.path: e for e in ENTRIES}


@pytest.fixture
def repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    pin_git_env(monkeypatch)
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(tmp_path / "cache"))
    return git_repo


def worktree(root: Path, *, in_git: bool = True) -> WorkTreeManifest:
    return WorkTreeManifest(root, MANIFEST, in_git=in_git)


def written(root: Path, entries: list[FileEntry] = ENTRIES, *, in_git: bool = True) -> None:
    manifest = worktree(root, in_git=in_git)
    assert sorted(manifest.write({e.path: e for e in entries})) == sorted(e.path for e in entries)
    assert manifest.write_header(HEADER)


def files(root: Path) -> list[str]:
    """Every file and folder under the manifest folder, temp files included."""
    return sorted(p.relative_to(root / MANIFEST).as_posix() for p in (root / MANIFEST).rglob("*"))


def names(manifest: WorkTreeManifest) -> dict[str, str]:
    return {path: shard.name for path, shard in manifest.listing().items()}


def expected_names(paths: list[str]) -> dict[str, str]:
    return {path: shard_name(path) for path in paths}


# -- listing ------------------------------------------------------------------------------------


def test_listing_outside_git(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    manifest = worktree(root, in_git=False)
    assert not manifest.exists()
    assert manifest.header() is None
    assert manifest.listing() == {}
    written(root, in_git=False)
    # Not shards: someone's README, a temp file left by a crash, a symlink.
    write(root, f"{MANIFEST}/README.md", "what this folder is\n")
    write(root, f"{MANIFEST}/docs/.a.md.jsonl.0123456789ab.tmp", "half")
    (root / MANIFEST / "docs" / "link.md.jsonl").symlink_to("a.md.jsonl")
    again = worktree(root, in_git=False)
    assert names(again) == expected_names(list(BY_PATH))
    assert all(shard.blob is None for shard in again.listing().values())
    assert again.header() == HEADER
    assert shard_name(LONG).startswith("docs/~")
    assert again.entry(LONG) == BY_PATH[LONG]
    for path, original in BY_PATH.items():
        assert again.entry(path) == original
    assert again.entry("docs/absent.md") is None


def test_listing_in_git_knows_each_shards_blob(repo: Path) -> None:
    written(repo)
    commit_all(repo)
    manifest = worktree(repo)
    listing = manifest.listing()
    assert {path: shard.name for path, shard in listing.items()} == expected_names(list(BY_PATH))
    for path, shard in listing.items():
        assert shard.blob == objects.hash_bytes(render_block(BY_PATH[path])), path


def test_listing_in_git_sees_untracked_modified_and_deleted_shards(repo: Path) -> None:
    written(repo)
    commit_all(repo)
    changed = entry("docs/a.md", "one", "three")
    added = entry("docs/new.md", "n")
    staged = entry("docs/deep/er/c.md", "staged")
    write(repo, f"{MANIFEST}/{shard_name('docs/a.md')}", render_block(changed))
    write(repo, f"{MANIFEST}/{shard_name('docs/new.md')}", render_block(added))
    write(repo, f"{MANIFEST}/{shard_name(staged.path)}", render_block(staged))
    git(repo, "add", f"{MANIFEST}/{shard_name(staged.path)}")
    (repo / MANIFEST / shard_name("README.md")).unlink()
    git(repo, "rm", "-q", "--cached", f"{MANIFEST}/{shard_name('docs/b.md')}")  # untracked now
    listing = worktree(repo).listing()
    assert sorted(listing) == sorted({*BY_PATH, "docs/new.md"} - {"README.md"})
    assert listing["docs/a.md"] == Shard(shard_name("docs/a.md"), None)  # differs from git's
    assert listing["docs/new.md"] == Shard(shard_name("docs/new.md"), None)
    assert listing["docs/b.md"] == Shard(shard_name("docs/b.md"), None)
    # Staged: the index holds exactly what the work tree does.
    assert listing[staged.path].blob == objects.hash_bytes(render_block(staged))
    assert listing[LONG].blob == objects.hash_bytes(render_block(BY_PATH[LONG]))
    manifest = worktree(repo)
    assert manifest.entry("docs/a.md") == changed
    assert manifest.entry("README.md") is None


def test_header_missing_from_an_existing_folder(tmp_path: Path) -> None:
    write(tmp_path, f"{MANIFEST}/a.md.jsonl", render_block(entry("a.md", "x")))
    with pytest.raises(ManifestError, match=rf"^{MANIFEST}/manifest.json: missing \(run `chunk"):
        worktree(tmp_path, in_git=False).header()


def test_a_shard_that_lists_another_file(tmp_path: Path) -> None:
    write(tmp_path, f"{MANIFEST}/a.md.jsonl", render_block(entry("b.md", "x")))
    with pytest.raises(ManifestSyntaxError) as caught:
        worktree(tmp_path, in_git=False).entry("a.md")
    assert str(caught.value) == f"{MANIFEST}/a.md.jsonl:1: the shard of a.md lists b.md"


# -- writing -----------------------------------------------------------------------------------


def test_write_reports_what_changed_and_removes_emptied_folders(tmp_path: Path) -> None:
    written(tmp_path, in_git=False)
    manifest = worktree(tmp_path, in_git=False)
    same = manifest.write({"docs/a.md": BY_PATH["docs/a.md"]})
    assert same == []
    assert manifest.write({"docs/deep/er/c.md": None, "docs/absent.md": None}) == [
        "docs/deep/er/c.md"
    ]
    assert not (tmp_path / MANIFEST / "docs" / "deep").exists()  # both emptied folders
    assert (tmp_path / MANIFEST / "docs").is_dir()  # still holds shards
    everything = {path: None for path in BY_PATH if path != "docs/deep/er/c.md"}
    assert sorted(manifest.write(everything)) == sorted(everything)
    assert files(tmp_path) == ["manifest.json"]  # the manifest folder itself stays


def test_many_shards_are_flushed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fsyncs: list[int] = []
    syncs: list[int] = []
    monkeypatch.setattr(os, "fsync", fsyncs.append)
    monkeypatch.setattr(os, "sync", lambda: syncs.append(1), raising=False)
    many = {f"d/{n:02d}.md": entry(f"d/{n:02d}.md", "x") for n in range(40)}
    assert len(worktree(tmp_path, in_git=False).write(many)) == 40
    assert (len(fsyncs), len(syncs)) == (0, 1)
    fsyncs.clear()
    assert worktree(tmp_path, in_git=False).write({"d/00.md": entry("d/00.md", "y")})
    assert len(fsyncs) == 2  # the shard and its folder
    assert len(syncs) == 1


def interrupted_at(monkeypatch: pytest.MonkeyPatch, calls: int) -> None:
    """Ctrl-C on the ``calls``-th rename of a shard into place."""
    real = os.replace
    seen: list[int] = []

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt
        real(source, target)

    monkeypatch.setattr(storage_module.os, "replace", replace)


@pytest.mark.parametrize("crash_at", [1, 2, 3])
def test_a_crash_leaves_each_shard_old_or_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crash_at: int
) -> None:
    written(tmp_path, in_git=False)
    before = {path: worktree(tmp_path, in_git=False).raw(path) for path in BY_PATH}
    new = {
        "docs/a.md": entry("docs/a.md", "changed"),
        "docs/b.md": entry("docs/b.md", "changed"),
        "docs/fresh/new.md": entry("docs/fresh/new.md", "added"),
    }
    interrupted_at(monkeypatch, crash_at)
    with pytest.raises(KeyboardInterrupt):
        worktree(tmp_path, in_git=False).write(new)
    monkeypatch.undo()
    after = worktree(tmp_path, in_git=False)
    for path, change in new.items():
        found = after.entry(path)  # every shard reads: no half-written one
        assert found in (change, BY_PATH.get(path)), path
    assert sum(after.entry(p) == change for p, change in new.items()) == crash_at - 1
    assert not [name for name in files(tmp_path) if name.endswith(".tmp")]
    for path in BY_PATH:
        if path not in new:
            assert after.raw(path) == before[path]


def test_put_writes_bytes_as_given(tmp_path: Path) -> None:
    manifest = worktree(tmp_path, in_git=False)
    assert manifest.put("a.md", b"garbage\n")  # what a test of corruption needs
    assert (tmp_path / MANIFEST / "a.md.jsonl").read_bytes() == b"garbage\n"
    assert not manifest.put("a.md", b"garbage\n")
    assert manifest.put("a.md", None)
    assert not manifest.put("a.md", None)
    assert files(tmp_path) == []


# -- summaries ---------------------------------------------------------------------------------


class CountingReader:
    """A ``git.objects.BlobReader`` that counts the objects asked for."""

    def __init__(self, reader: objects.BlobReader) -> None:
        self.reader, self.asked = reader, 0

    def read(self, spec: str) -> bytes | None:
        self.asked += 1
        return self.reader.read(spec)

    def read_many(self, specs: list[str]) -> Iterator[bytes | None]:
        self.asked += len(specs)
        return self.reader.read_many(specs)


def expected_summaries() -> dict[str, object]:
    return {path: summary_of(e) for path, e in BY_PATH.items()}


def cache_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache" / "summaries").glob("*.bin"))


def test_summaries_from_git_from_the_cache_and_from_disk_agree(repo: Path, tmp_path: Path) -> None:
    written(repo)
    commit_all(repo)
    with objects.BlobReader(repo) as blobs:
        reader = CountingReader(blobs)
        cold = SummaryCache(repo, MANIFEST)
        from_git = worktree(repo).summaries(cold, reader)  # type: ignore[arg-type]
        assert reader.asked == len(BY_PATH)
        cold.save()
        assert len(cache_files(tmp_path)) == 1

        warm = SummaryCache(repo, MANIFEST)
        reader.asked = 0
        from_cache = worktree(repo).summaries(warm, reader)  # type: ignore[arg-type]
        assert reader.asked == 0

        committed = RevisionManifest(repo, "HEAD", MANIFEST, blobs)
        from_revision = committed.summaries(SummaryCache(repo, "elsewhere"), blobs)
        assert committed.header() == HEADER
        assert committed.entry("docs/b.md") == BY_PATH["docs/b.md"]

    from_disk = worktree(repo, in_git=False).summaries(SummaryCache(repo, "other"), None)
    assert from_git.broken == from_cache.broken == from_disk.broken == from_revision.broken == {}
    assert from_git.found == expected_summaries()
    assert from_cache.found == from_git.found
    assert from_disk.found == from_git.found
    assert from_revision.found == from_git.found


def test_summaries_of_changed_shards_are_read_from_disk(repo: Path) -> None:
    written(repo)
    commit_all(repo)
    changed = entry("docs/a.md", "one", "three")
    worktree(repo).write({"docs/a.md": changed, "docs/new.md": entry("docs/new.md", "n")})
    with objects.BlobReader(repo) as blobs:
        reader = CountingReader(blobs)
        found = worktree(repo).summaries(SummaryCache(repo, MANIFEST), reader).found  # type: ignore[arg-type]
    assert reader.asked == len(BY_PATH) - 1  # the unchanged ones, from git's objects
    assert found["docs/a.md"] == summary_of(changed)
    assert found["docs/new.md"].hashes == ("0123456789abcdef",)


def test_a_corrupt_shard_is_reported_and_the_others_read(repo: Path) -> None:
    written(repo)
    broken_a = render_block(BY_PATH["docs/a.md"]).replace(b'"lines": [3, 4]', b'"lines": [4, 3]')
    write(repo, f"{MANIFEST}/docs/a.md.jsonl", broken_a)
    write(repo, f"{MANIFEST}/docs/b.md.jsonl", render_block(entry("docs/c.md", "x")))
    commit_all(repo)
    for manifest in (worktree(repo), worktree(repo, in_git=False)):
        with objects.BlobReader(repo) as reader:
            result = manifest.summaries(SummaryCache(repo, MANIFEST), reader)
        assert sorted(result.broken) == ["docs/a.md", "docs/b.md"]
        assert str(result.broken["docs/a.md"]).startswith(
            f'{MANIFEST}/docs/a.md.jsonl:3: "lines" must be [start, end]'
        )
        assert str(result.broken["docs/b.md"]) == (
            f"{MANIFEST}/docs/b.md.jsonl:1: the shard of docs/b.md lists docs/c.md"
        )
        others = {p: s for p, s in expected_summaries().items() if p not in result.broken}
        assert result.found == others


def _resealed(good: bytes, *, ordered: Callable[[str], object]) -> bytes:
    """The cache file ``good`` with its hash index's string changed, sealed again."""
    *columns, text, repeats = marshal.loads(good[4:])
    return sealed((*columns, ordered(text), repeats))


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(None, id="deleted"),
        pytest.param(lambda good: b"", id="empty"),
        pytest.param(lambda good: b"\x00garbage{", id="garbage"),
        pytest.param(lambda good: good[:-1], id="truncated"),
        pytest.param(
            lambda good: good[:40] + bytes([good[40] ^ 1]) + good[41:], id="a-bit-flipped"
        ),
        pytest.param(lambda good: good[:4] + b"\x00" + good[4:], id="a-byte-added"),
        pytest.param(lambda good: sealed([]), id="a-list"),
        pytest.param(lambda good: sealed(7), id="a-number"),
        pytest.param(lambda good: sealed(([],) * 3), id="too-few-columns"),
        pytest.param(lambda good: sealed((["x"], *([] for _ in range(8)), "", {})), id="uneven"),
        pytest.param(lambda good: _resealed(good, ordered=lambda o: o[16:]), id="index-short"),
        pytest.param(lambda good: _resealed(good, ordered=lambda o: 5), id="index-not-text"),
    ],
)
def test_a_damaged_cache_is_ignored(
    repo: Path, tmp_path: Path, damage: Callable[[bytes], bytes] | None
) -> None:
    written(repo)
    commit_all(repo)
    with objects.BlobReader(repo) as reader:
        first = SummaryCache(repo, MANIFEST)
        worktree(repo).summaries(first, reader)
        first.save()
        [cache] = cache_files(tmp_path)
        if damage is None:
            cache.unlink()
        else:
            cache.write_bytes(damage(cache.read_bytes()))
        again = SummaryCache(repo, MANIFEST)
        result = worktree(repo).summaries(again, reader)
        again.save()
    assert result.found == expected_summaries()
    assert result.broken == {}
    warm = SummaryCache(repo, MANIFEST)
    with objects.BlobReader(repo) as blobs:
        reader2 = CountingReader(blobs)
        assert worktree(repo).summaries(warm, reader2).found == expected_summaries()  # type: ignore[arg-type]
    assert reader2.asked == 0  # the damaged cache was replaced by a good one


def test_no_cache_folder_means_no_cache(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHUNKGATE_NO_CACHE", "1")
    written(repo)
    commit_all(repo)
    cache = SummaryCache(repo, MANIFEST)
    with objects.BlobReader(repo) as reader:
        assert worktree(repo).summaries(cache, reader).found == expected_summaries()
    cache.save()  # nowhere to save: nothing happens


def test_the_listing_taken_from_the_whole_work_tree_is_the_folder_own(repo: Path) -> None:
    from chunkgate.config.model import Config
    from chunkgate.corpus.select import select_with_tree

    written(repo)
    write(repo, "docs/a.md", "# A\n")
    commit_all(repo)
    worktree(repo).write({"docs/a.md": entry("docs/a.md", "changed")})  # modified
    worktree(repo).write({"docs/new.md": entry("docs/new.md", "n")})  # untracked
    (repo / MANIFEST / shard_name("README.md")).unlink()  # deleted
    os.utime(repo / MANIFEST / shard_name("docs/b.md"))  # touched, not changed
    _, tree = select_with_tree(Config(root=repo))
    assert tree is not None
    taken = worktree(repo)
    taken.list_from(tree)
    listed = worktree(repo).listing()
    assert taken.listing() == listed
    assert listed["docs/a.md"].blob is None
    assert listed["docs/new.md"].blob is None
    assert "README.md" not in listed
    assert listed["docs/b.md"].blob is not None


@pytest.mark.parametrize("staged", [False, True], ids=["as-committed", "changes-staged"])
def test_the_baseline_listing_taken_from_the_index_is_the_commit_own(
    repo: Path, staged: bool
) -> None:
    from chunkgate.config.model import Config
    from chunkgate.corpus.select import select_with_tree

    written(repo)
    write(repo, f"{MANIFEST}/README.md", "what this folder is\n")  # not a shard
    corrupt = "docs/~" + "0" * 32 + ".jsonl"  # a shortened name whose first line is unreadable
    write(repo, f"{MANIFEST}/{corrupt}", "<<<<<<< ours\n")
    commit_all(repo)
    manifest = worktree(repo)
    manifest.write({"docs/a.md": entry("docs/a.md", "changed")})  # modified
    manifest.write({"docs/new.md": entry("docs/new.md", "n")})  # untracked
    (repo / MANIFEST / shard_name("README.md")).unlink()  # deleted
    (repo / MANIFEST / shard_name(LONG)).unlink()  # deleted, a shortened name
    os.utime(repo / MANIFEST / shard_name("docs/b.md"))  # touched, not changed
    if staged:
        git(repo, "add", "-A", MANIFEST)
    assert listings.index_matches(repo, "HEAD", MANIFEST) is not staged
    _, tree = select_with_tree(Config(root=repo))
    assert tree is not None
    current = worktree(repo)
    current.list_from(tree)
    with objects.BlobReader(repo) as reader:
        listed = RevisionManifest(repo, "HEAD", MANIFEST, reader)
        taken = RevisionManifest(repo, "HEAD", MANIFEST, reader)
        taken.list_from_index(current, tree)
        assert sorted(listed.listing()) == sorted([*BY_PATH, corrupt])  # no README
        if not staged:
            assert taken.listing() == listed.listing()
            assert taken.shard_of(corrupt) == listed.shard_of(corrupt) == corrupt
            assert taken.entry(LONG) == BY_PATH[LONG]
        else:  # the index is not HEAD's: what it lists is not the commit's
            assert taken.listing() != listed.listing()


def test_a_conflicted_or_unknown_baseline_is_not_the_index(repo: Path) -> None:
    written(repo)
    commit_all(repo)
    assert listings.index_matches(repo, "HEAD", MANIFEST)
    assert not listings.index_matches(repo, "no-such-revision", MANIFEST)
    git(repo, "checkout", "-q", "-b", "side")
    worktree(repo).write({"docs/a.md": entry("docs/a.md", "side")})
    commit_all(repo)
    git(repo, "checkout", "-q", "-")
    worktree(repo).write({"docs/a.md": entry("docs/a.md", "main")})
    commit_all(repo)
    merged = subprocess.run(
        ["git", "merge", "-q", "side"], cwd=repo, capture_output=True, check=False
    )
    assert merged.returncode == 1
    assert not listings.index_matches(repo, "HEAD", MANIFEST)  # its shard is unmerged


# -- the committed manifest ---------------------------------------------------------------------


def test_revision_manifest_reads_a_commit_not_the_work_tree(repo: Path) -> None:
    written(repo)
    first = commit_all(repo)
    worktree(repo).write({"docs/a.md": None, "docs/new.md": entry("docs/new.md", "n")})
    commit_all(repo)
    with objects.BlobReader(repo) as reader:
        old = RevisionManifest(repo, first, MANIFEST, reader)
        assert sorted(old.listing()) == sorted(BY_PATH)
        assert old.blob("docs/a.md") == objects.hash_bytes(render_block(BY_PATH["docs/a.md"]))
        assert old.blob("docs/new.md") is None
        old.prefetch(["docs/a.md", "docs/b.md", "docs/new.md"])
        assert old.entry("docs/a.md") == BY_PATH["docs/a.md"]
        assert old.entry("docs/new.md") is None
        assert old.entry(LONG) == BY_PATH[LONG]  # found by its digest name
        assert old.label("docs/a.md.jsonl") == f"{first}:{MANIFEST}/docs/a.md.jsonl"
        head = RevisionManifest(repo, "HEAD", MANIFEST, reader)
        assert "docs/new.md" in head.listing()
        assert "docs/a.md" not in head.listing()
        assert head.header() == HEADER


def test_revision_without_a_manifest(repo: Path) -> None:
    write(repo, "a.md", "# A\n")
    commit_all(repo)
    with objects.BlobReader(repo) as reader:
        committed = RevisionManifest(repo, "HEAD", MANIFEST, reader)
        assert committed.header() is None
        assert committed.listing() == {}
        assert committed.entry("a.md") is None
