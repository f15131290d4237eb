from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git, git_env, make_repo, pin_git_env, write

from chunkgate import git as cg_git
from chunkgate.core.errors import GitError

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="names and symlinks of POSIX")

ODD_NAMES = [
    "plain.md",
    "with space.md",
    "ünïcödé/文档.md",
    "star*.md",
    "[bracket].md",
    '"quoted.md',
    "back\\slash.md",
]


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def index_of(repo: Path) -> dict[str, str]:
    out = git(repo, "ls-files", "-z", "-s")
    result = {}
    for record in filter(None, out.split("\0")):
        meta, _, path = record.partition("\t")
        result[path] = meta.split()[1]
    return result


def test_process_count_counts_every_process(git_repo: Path) -> None:
    before = cg_git.process_count()
    cg_git.index_blobs(git_repo)
    cg_git.untracked_paths(git_repo)
    assert cg_git.process_count() == before + 2


def test_missing_revision_is_a_clean_error(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    with pytest.raises(GitError, match=r"^git rev-parse: unknown revision 'nope'$"):
        cg_git.resolve(git_repo, "nope")


def test_failed_command_names_command_exit_code_and_stderr(tmp_path: Path) -> None:
    with pytest.raises(cg_git.GitCommandError) as caught:
        cg_git.index_blobs(tmp_path)
    message = str(caught.value)
    assert message.startswith("git ls-files -z -s -t: ")
    assert "not a git repository" in message
    assert "fatal:" not in message
    assert "(exit 128)" in message
    assert caught.value.returncode == 128


def test_git_not_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(GitError, match=r"^git is not installed$"):
        cg_git.index_blobs(tmp_path)
    assert cg_git.find_root(tmp_path) is None


def test_find_root(git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    deep = git_repo / "docs" / "guide"
    deep.mkdir(parents=True)
    write(git_repo, "docs/guide/a.md", "a\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    assert cg_git.find_root(deep) == git_repo.resolve()
    assert cg_git.find_root(deep / "a.md") == git_repo.resolve()
    assert cg_git.find_root(outside) is None
    assert cg_git.find_root(tmp_path / "does-not-exist" / "x") is None
    assert cg_git.find_root(git_repo / ".git") is None


@posix_only
def test_index_blobs_matches_git_for_odd_names(git_repo: Path) -> None:
    for name in [*ODD_NAMES, "new\nline.md", "tab\tname.md"]:
        write(git_repo, name, f"content of {name}\n")
    (git_repo / "link.md").symlink_to("plain.md")
    commit_all(git_repo)
    expected = {path: blob for path, blob in index_of(git_repo).items() if path != "link.md"}
    assert cg_git.index_blobs(git_repo) == expected
    assert "new\nline.md" in expected
    assert "ünïcödé/文档.md" in expected


def test_index_blobs_skips_gitlinks(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    sha = commit_all(git_repo)
    git(git_repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},vendor/sub")
    assert set(cg_git.index_blobs(git_repo)) == {"a.md"}


def test_index_blobs_with_literal_pathspecs(git_repo: Path) -> None:
    for name in ["star*.md", "starry.md", "[ab].md", "a.md", "docs/one.md", "docs/two.md"]:
        write(git_repo, name, name)
    commit_all(git_repo)
    assert set(cg_git.index_blobs(git_repo, ["star*.md"])) == {"star*.md"}
    assert set(cg_git.index_blobs(git_repo, ["[ab].md"])) == {"[ab].md"}
    assert set(cg_git.index_blobs(git_repo, ["docs", "a.md"])) == {
        "docs/one.md",
        "docs/two.md",
        "a.md",
    }
    assert cg_git.index_blobs(git_repo, ["nothing-here.md"]) == {}


def test_index_blobs_batches_long_pathspec_lists(git_repo: Path) -> None:
    names = [f"folder-with-a-long-name/file-number-{i:05}.md" for i in range(1200)]
    for name in names:
        write(git_repo, name, "x\n")
    commit_all(git_repo)
    before = cg_git.process_count()
    assert set(cg_git.index_blobs(git_repo, names)) == set(names)
    assert cg_git.process_count() - before > 1


def test_index_blobs_takes_ours_for_conflicts(git_repo: Path) -> None:
    write(git_repo, "a.md", "base\n")
    write(git_repo, "b.md", "b\n")
    commit_all(git_repo, "base")
    git(git_repo, "checkout", "-q", "-b", "side")
    write(git_repo, "a.md", "theirs\n")
    commit_all(git_repo, "side")
    git(git_repo, "checkout", "-q", "main")
    write(git_repo, "a.md", "ours\n")
    commit_all(git_repo, "main")
    with pytest.raises(AssertionError, match="exited 1"):
        git(git_repo, "merge", "-q", "side")
    ours = git(git_repo, "rev-parse", "HEAD:a.md").strip()
    blobs = cg_git.index_blobs(git_repo)
    assert blobs["a.md"] == ours
    assert "a.md" in cg_git.modified_paths(git_repo)


def test_modified_paths(git_repo: Path) -> None:
    for name in ["same.md", "touched.md", "changed.md", "deleted.md", "with space.md"]:
        write(git_repo, name, f"{name}\n")
    commit_all(git_repo)
    write(git_repo, "changed.md", "new content\n")
    write(git_repo, "with space.md", "new content\n")
    (git_repo / "deleted.md").unlink()
    # Same bytes, newer mtime: diff-files would report it, ls-files -m does not.
    stat = (git_repo / "touched.md").stat()
    os.utime(git_repo / "touched.md", ns=(stat.st_atime_ns, stat.st_mtime_ns + 5 * 10**9))
    assert "touched.md" in git(git_repo, "diff-files", "--name-only")
    assert cg_git.modified_paths(git_repo) == {"changed.md", "deleted.md", "with space.md"}
    assert cg_git.modified_paths(git_repo, ["changed.md"]) == {"changed.md"}


def _ls_files_m(repo: Path, *paths: str) -> set[str]:
    args = ["--literal-pathspecs", "ls-files", "-z", "-m", *(["--", *paths] if paths else [])]
    return set(filter(None, git(repo, *args).split("\0")))


@posix_only
def test_modified_paths_agrees_with_ls_files_m(git_repo: Path) -> None:
    """diff-files plus a content check of stat-only changes gives what ls-files -m does,
    with filters, mode changes and odd names."""
    (git_repo / ".gitattributes").write_text("*.txt text eol=crlf\n")
    names = ["same.md", "touched.md", "changed.md", "gone.md", "mode.md", "crlf.txt", *ODD_NAMES]
    for name in names:
        write(git_repo, name, f"{name}\nline two\n")
    (git_repo / "crlf.txt").write_bytes(b"crlf.txt\r\nline two\r\n")
    commit_all(git_repo)
    assert git(git_repo, "cat-file", "blob", "HEAD:crlf.txt") == "crlf.txt\nline two\n"
    write(git_repo, "changed.md", "new content\n")
    (git_repo / "gone.md").unlink()
    (git_repo / "mode.md").chmod(0o755)
    # Same content after the clean filter: the file is CRLF on disk, LF in the blob.
    for name in ["touched.md", "crlf.txt", ODD_NAMES[2], ODD_NAMES[5]]:
        stat = (git_repo / name).stat()
        os.utime(git_repo / name, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5 * 10**9))
    write(git_repo, ODD_NAMES[1], "changed\n")
    expected = {"changed.md", "gone.md", "mode.md", ODD_NAMES[1]}
    assert _ls_files_m(git_repo) == expected
    assert cg_git.modified_paths(git_repo) == expected
    some = ["touched.md", "gone.md", "crlf.txt", ODD_NAMES[1], ODD_NAMES[2], "same.md"]
    assert cg_git.modified_paths(git_repo, some) == _ls_files_m(git_repo, *some)
    assert cg_git.modified_paths(git_repo, some) == {"gone.md", ODD_NAMES[1]}


def test_untracked_paths(git_repo: Path) -> None:
    write(git_repo, ".gitignore", "build/\n*.log\n")
    write(git_repo, "tracked.md", "t\n")
    commit_all(git_repo)
    write(git_repo, "new.md", "n\n")
    write(git_repo, "docs/ünï.md", "n\n")
    write(git_repo, "build/out.md", "ignored\n")
    write(git_repo, "debug.log", "ignored\n")
    nested = git_repo / "nested"
    nested.mkdir()
    subprocess.run(("git", "init", "-q", str(nested)), check=True, env=git_env())
    write(git_repo, "nested/inner.md", "x\n")
    assert sorted(cg_git.untracked_paths(git_repo)) == ["docs/ünï.md", "new.md"]
    assert cg_git.untracked_paths(git_repo, ["docs"]) == ["docs/ünï.md"]


def _hash_object(repo: Path, name: str) -> str:
    return git(repo, "hash-object", "--", name).strip()


@posix_only
@pytest.mark.parametrize(
    ("setup", "files"),
    [
        pytest.param({}, {"a.md": b"one\ntwo\n"}, id="lf"),
        pytest.param({"core.autocrlf": "true"}, {"a.md": b"one\r\ntwo\r\n"}, id="autocrlf"),
        pytest.param(
            {},
            {".gitattributes": b"*.md text eol=crlf\n", "a.md": b"one\r\ntwo\r\n"},
            id="gitattributes-eol-crlf",
        ),
        pytest.param(
            {},
            {"new\nline.md": b"x\n", '"quoted.md': b"q\n", "cr\r": b"r\n", "star*.md": b"s\n"},
            id="odd-names",
        ),
    ],
)
def test_hash_blobs_matches_git_hash_object(
    git_repo: Path, setup: dict[str, str], files: dict[str, bytes]
) -> None:
    for key, value in setup.items():
        git(git_repo, "config", key, value)
    for name, data in files.items():
        write(git_repo, name, data)
    before = cg_git.process_count()
    hashed = cg_git.hash_blobs(git_repo, list(files))
    assert cg_git.process_count() == before + 1
    assert hashed == {name: _hash_object(git_repo, name) for name in files}
    git(git_repo, "add", "-A")
    assert hashed == {name: blob for name, blob in index_of(git_repo).items() if name in files}


def test_hash_blobs_crlf_differs_from_raw_bytes(git_repo: Path) -> None:
    write(git_repo, ".gitattributes", "*.md text eol=crlf\n")
    write(git_repo, "a.md", b"one\r\ntwo\r\n")
    hashed = cg_git.hash_blobs(git_repo, ["a.md"])["a.md"]
    assert hashed == cg_git.hash_bytes(b"one\ntwo\n")
    assert hashed != cg_git.hash_bytes(b"one\r\ntwo\r\n")


def test_hash_blobs_leaves_out_what_is_not_a_file(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    (git_repo / "folder").mkdir()
    assert set(cg_git.hash_blobs(git_repo, ["a.md", "gone.md", "folder"])) == {"a.md"}
    before = cg_git.process_count()
    assert cg_git.hash_blobs(git_repo, []) == {}
    assert cg_git.process_count() == before


def test_hash_bytes_is_git_blob_id(git_repo: Path) -> None:
    data = "héllo\n".encode()
    assert cg_git.hash_bytes(data) == git(git_repo, "hash-object", "--stdin", input=data).strip()


def test_resolve_and_merge_base(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    base = commit_all(git_repo, "base")
    git(git_repo, "checkout", "-q", "-b", "feature")
    write(git_repo, "b.md", "b\n")
    feature = commit_all(git_repo, "feature")
    git(git_repo, "checkout", "-q", "main")
    write(git_repo, "c.md", "c\n")
    main = commit_all(git_repo, "main")
    assert cg_git.resolve(git_repo, "HEAD") == main
    assert cg_git.resolve(git_repo, "feature") == feature
    assert cg_git.resolve(git_repo, "feature~1") == base
    assert cg_git.resolve(git_repo, base[:10]) == base
    assert cg_git.merge_base(git_repo, "main", "feature") == base
    with pytest.raises(GitError, match="unknown revision '--all'"):
        cg_git.resolve(git_repo, "--all")
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        cg_git.merge_base(git_repo, "main", "nope")


def test_resolve_rejects_non_commits(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    blob = git(git_repo, "rev-parse", "HEAD:a.md").strip()
    with pytest.raises(GitError, match="unknown revision"):
        cg_git.resolve(git_repo, blob)


def test_merge_base_without_common_ancestor(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    git(git_repo, "checkout", "-q", "--orphan", "other")
    write(git_repo, "b.md", "b\n")
    commit_all(git_repo, "other")
    with pytest.raises(GitError, match="no common ancestor"):
        cg_git.merge_base(git_repo, "main", "other")


@posix_only
def test_tree_blobs(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    write(git_repo, "ünï/b d.md", "b\n")
    write(git_repo, "run.sh", "#!/bin/sh\n")
    (git_repo / "run.sh").chmod(0o755)
    (git_repo / "link.md").symlink_to("a.md")
    sha = commit_all(git_repo)
    (git_repo / "a.md").unlink()
    blobs = cg_git.tree_blobs(git_repo, sha)
    assert set(blobs) == {"a.md", "ünï/b d.md", "run.sh"}
    assert blobs["ünï/b d.md"] == git(git_repo, "rev-parse", "HEAD:ünï/b d.md").strip()
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        cg_git.tree_blobs(git_repo, "nope")


def test_shallow_clone_and_fetch(git_repo: Path, tmp_path: Path) -> None:
    write(git_repo, "a.md", "one\n")
    first = commit_all(git_repo, "one")
    write(git_repo, "a.md", "two\n")
    commit_all(git_repo, "two")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", f"file://{git_repo.as_posix()}", str(clone))
    assert not cg_git.is_shallow(git_repo)
    assert cg_git.is_shallow(clone)
    with pytest.raises(GitError, match="unknown revision"):
        cg_git.resolve(clone, first)
    cg_git.fetch(clone, "origin", first, depth=1)
    assert cg_git.resolve(clone, first) == first


def test_blob_reader_streams_many_blobs_through_one_process(git_repo: Path) -> None:
    contents = {f"docs/file-{i:03}.md": f"# File {i}\n\n{'body ' * i}\n" for i in range(200)}
    contents["docs/empty.md"] = ""
    for name, text in contents.items():
        write(git_repo, name, text)
    commit_all(git_repo)
    blobs = cg_git.index_blobs(git_repo)
    before = cg_git.process_count()
    with cg_git.BlobReader(git_repo) as reader:
        by_blob = {name: reader.read(blobs[name]) for name in contents}
        by_rev_path = {name: reader.read(f"HEAD:{name}") for name in list(contents)[:20]}
        assert reader.read("0" * 40) is None
        assert reader.read("HEAD:nope.md") is None
        assert reader.read("HEAD:docs") is None  # a tree, not a blob
        assert reader.read("") is None
        assert reader.read("HEAD:docs/file-001.md") == b"# File 1\n\nbody \n"
    assert cg_git.process_count() == before + 1
    assert by_blob == {name: text.encode() for name, text in contents.items()}
    assert by_rev_path == {name: contents[name].encode() for name in by_rev_path}


def test_binary_and_large_blobs_come_back_exactly(git_repo: Path) -> None:
    binary = bytes(range(256)) * 4 + b"\n missing\r\n"
    large = b"line\n" * 600_000
    write(git_repo, "bin.dat", binary)
    write(git_repo, "large.txt", large)
    commit_all(git_repo)
    with cg_git.BlobReader(git_repo) as reader:
        assert reader.read("HEAD:bin.dat") == binary
        assert reader.read("HEAD:large.txt") == large
        assert reader.read("HEAD:bin.dat") == binary
    # read_blob: one process per blob, through a temporary file.
    before = cg_git.process_count()
    assert cg_git.read_blob(git_repo, "HEAD:bin.dat") == binary
    oid = git(git_repo, "rev-parse", "HEAD:large.txt").strip()
    assert cg_git.read_blob(git_repo, oid) == large
    assert cg_git.read_blob(git_repo, "HEAD:missing.md") is None
    assert cg_git.read_blob(git_repo, "0" * 40) is None
    assert cg_git.process_count() - before == 4


@posix_only
def test_blob_reader_falls_back_for_names_the_protocol_cannot_carry(git_repo: Path) -> None:
    write(git_repo, "new\nline.md", "nl\n")
    write(git_repo, "missing ok.md", "spaces\n")
    commit_all(git_repo)
    with cg_git.BlobReader(git_repo) as reader:
        before = cg_git.process_count()
        assert reader.read("HEAD:new\nline.md") == b"nl\n"
        assert reader.read("HEAD:no\nsuch.md") is None
        assert cg_git.process_count() == before + 2
        assert reader.read("HEAD:missing ok.md") == b"spaces\n"


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True  # already reaped: neither running nor a zombie
    return False


@posix_only
def test_keyboard_interrupt_leaves_no_zombie(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    reader = cg_git.BlobReader(git_repo)
    pids = []

    def interrupted() -> None:
        with reader:
            pids.append(reader.pid)
            assert reader.read("HEAD:a.md") == b"a\n"
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    [pid] = pids
    assert pid is not None
    assert _gone(pid)
    assert reader.pid is None
    with pytest.raises(RuntimeError, match="not open"):
        reader.read("HEAD:a.md")


@posix_only
def test_interrupt_in_the_middle_of_a_reply_still_closes(git_repo: Path) -> None:
    write(git_repo, "large.txt", b"x" * 5_000_000)
    commit_all(git_repo)
    reader = cg_git.BlobReader(git_repo)
    with reader:
        pid = reader.pid
        stdin, _ = reader._streams()
        stdin.write(b"HEAD:large.txt\n")
        stdin.flush()  # a reply git is still writing when we stop reading
    assert pid is not None
    assert _gone(pid)


def test_blob_reader_outside_with_block_is_an_error(git_repo: Path) -> None:
    with pytest.raises(RuntimeError, match="not open"):
        cg_git.BlobReader(git_repo).read("HEAD:a.md")


def test_gitattributes_flags(git_repo: Path) -> None:
    write(
        git_repo,
        ".gitattributes",
        "gen/** linguist-generated\n"
        "gen/keep.md -linguist-generated\n"
        "vendor/** linguist-vendored=true\n"
        "docs/api.md linguist-generated=false\n"
        "docs/both.md linguist-generated linguist-vendored\n",
    )
    paths = ["gen/a.md", "gen/keep.md", "vendor/lib/x.py", "docs/api.md", "docs/both.md", "b c.md"]
    before = cg_git.process_count()
    flags = cg_git.gitattributes_flags(git_repo, paths)
    assert cg_git.process_count() == before + 1
    assert flags == {
        "gen/a.md": {"linguist-generated"},
        "vendor/lib/x.py": {"linguist-vendored"},
        "docs/both.md": {"linguist-generated", "linguist-vendored"},
    }
    assert cg_git.gitattributes_flags(git_repo, []) == {}


def test_gitattributes_flags_for_odd_names(git_repo: Path) -> None:
    write(git_repo, ".gitattributes", "*.md linguist-generated\n")
    names = ["with space.md", "ünï.md", "star*.md", "a.py"]
    flags = cg_git.gitattributes_flags(git_repo, names, attrs=("linguist-generated",))
    assert flags == {name: {"linguist-generated"} for name in names if name.endswith(".md")}


def test_make_repo_pins_identity(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "a\n")
    sha = commit_all(repo)
    assert git(repo, "log", "-1", "--format=%an <%ae> %ad", "--date=iso-strict").strip() == (
        "Chunkgate Tests <tests@chunkgate.invalid> 2024-01-01T00:00:00+00:00"
    )
    assert sha == git(repo, "rev-parse", "HEAD").strip()


@posix_only
def test_names_that_are_not_utf8_round_trip(git_repo: Path) -> None:
    raw_name = b"caf\xe9.md"
    with open(os.path.join(os.fsencode(git_repo), raw_name), "wb") as handle:
        handle.write(b"latin-1 name\n")
    commit_all(git_repo)
    [name] = cg_git.index_blobs(git_repo)
    assert name.encode("utf-8", "surrogateescape") == raw_name
    assert (git_repo / name).read_bytes() == b"latin-1 name\n"
    assert cg_git.hash_blobs(git_repo, [name]) == cg_git.index_blobs(git_repo)
    with cg_git.BlobReader(git_repo) as reader:
        assert reader.read(f"HEAD:{name}") == b"latin-1 name\n"


@posix_only
def test_files_named_in_any_folder_as_glob_pathspecs_find_them(git_repo: Path) -> None:
    write(git_repo, ".gitignore", "build/\n")
    for path in ("mkdocs.yml", "a/b/mkdocs.yml", "site/astro.config.mjs", "x-mkdocs.yml"):
        write(git_repo, path, "x\n")
    write(git_repo, "docs/mkdocs.yml/inside.md", "a folder of that name\n")
    (git_repo / "link").mkdir()
    os.symlink("../mkdocs.yml", git_repo / "link" / "mkdocs.yml")
    commit_all(git_repo)
    write(git_repo, "new/mkdocs.yml", "untracked\n")
    write(git_repo, "build/mkdocs.yml", "ignored\n")
    names = ("mkdocs.yml", "astro.config.*")
    found = cg_git.files_named(git_repo, names)
    assert found.paths == [
        "a/b/mkdocs.yml",
        "link/mkdocs.yml",
        "mkdocs.yml",
        "new/mkdocs.yml",
        "site/astro.config.mjs",
    ]
    assert found.regular == ["a/b/mkdocs.yml", "mkdocs.yml", "site/astro.config.mjs"]
    # A whole-corpus run's untracked listing stands for the untracked part of the walk.
    listing = cg_git.WorkTreeListing(git_repo)
    assert cg_git.files_named(git_repo, names, listing.untracked) == found
    globbed = git(
        git_repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
        ":(glob)**/mkdocs.yml", ":(glob)**/astro.config.*",
    )  # fmt: skip
    named = [p for p in globbed.split("\0") if p and p.rpartition("/")[2] != "inside.md"]
    assert sorted(named) == found.paths
    assert found.regular == sorted(
        p
        for p in cg_git.index_blobs(git_repo)
        if p.rpartition("/")[2] in ("mkdocs.yml",) or p.endswith(".mjs")
    )


def test_commit_id_from_the_running_cat_file_is_rev_parse_s(git_repo: Path) -> None:
    with cg_git.BlobReader(git_repo, lazy=True) as reader:
        assert reader.commit_id("HEAD") is None  # no commit yet
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    blob = cg_git.index_blobs(git_repo)["a.md"]
    git(git_repo, "tag", "-a", "-m", "t", "v1")  # an annotated tag names its commit
    with cg_git.BlobReader(git_repo) as reader:
        for revision in ("HEAD", "main", "v1", "HEAD~1", "nothing", blob, "HEAD:a.md", ""):
            expected = cg_git.object_id(git_repo, f"{revision}^{{commit}}") if revision else None
            assert reader.commit_id(revision) == expected, revision
        assert reader.commit_id("v1") == cg_git.resolve(git_repo, "HEAD")
        assert reader.read(blob) == b"a\n"  # the stream is still in step


def test_staged_deletions_before_and_after_the_first_commit(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    write(git_repo, "b.md", "b\n")
    git(git_repo, "add", "-A")
    assert cg_git.staged_deletions(git_repo) == []
    commit_all(git_repo)
    git(git_repo, "rm", "-q", "--cached", "b.md")
    assert cg_git.staged_deletions(git_repo) == ["b.md"]


def test_the_whole_work_tree_listing_is_the_three_listings(git_repo: Path) -> None:
    for path in ("a.md", "b.md", "c.md", "d/e.md", "touched.md"):
        write(git_repo, path, f"{path}\n")
    commit_all(git_repo)
    write(git_repo, "a.md", "edited\n")
    (git_repo / "b.md").unlink()
    write(git_repo, "new.md", "untracked\n")
    write(git_repo, "d/f.md", "untracked too\n")
    os.utime(git_repo / "touched.md", (1, 1))  # stat data differs, bytes do not
    write(git_repo, "c.md", "staged\n")
    git(git_repo, "add", "c.md")
    listing = cg_git.WorkTreeListing(git_repo)
    assert listing.entries() == cg_git.index_entries(git_repo)
    assert listing.modified() == cg_git.modified_paths(git_repo) == {"a.md", "b.md"}
    assert listing.untracked() == cg_git.untracked_paths(git_repo) == ["d/f.md", "new.md"]
    assert sorted(listing.differing()) == ["a.md", "b.md", "d/f.md", "new.md", "touched.md"]
    index, diff, others = listing.raw()
    assert index == git(git_repo, "ls-files", "-z", "-s", "-t").encode()
    assert others == b"d/f.md\0new.md\0"
    assert b"touched.md" in diff
