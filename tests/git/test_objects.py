"""git.objects: blob IDs and blobs' bytes, many through one ``cat-file --batch``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git, index_of, pin_git_env, write

from chunkgate.git import commits, listings, objects, process

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="names and symlinks of POSIX")


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


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
    before = process.process_count()
    hashed = objects.hash_blobs(git_repo, list(files))
    assert process.process_count() == before + 1
    assert hashed == {name: _hash_object(git_repo, name) for name in files}
    git(git_repo, "add", "-A")
    assert hashed == {name: blob for name, blob in index_of(git_repo).items() if name in files}


def test_hash_blobs_crlf_differs_from_raw_bytes(git_repo: Path) -> None:
    write(git_repo, ".gitattributes", "*.md text eol=crlf\n")
    write(git_repo, "a.md", b"one\r\ntwo\r\n")
    hashed = objects.hash_blobs(git_repo, ["a.md"])["a.md"]
    assert hashed == objects.hash_bytes(b"one\ntwo\n")
    assert hashed != objects.hash_bytes(b"one\r\ntwo\r\n")


def test_hash_blobs_leaves_out_what_is_not_a_file(git_repo: Path) -> None:
    write(git_repo, "a.md", "a\n")
    (git_repo / "folder").mkdir()
    assert set(objects.hash_blobs(git_repo, ["a.md", "gone.md", "folder"])) == {"a.md"}
    before = process.process_count()
    assert objects.hash_blobs(git_repo, []) == {}
    assert process.process_count() == before


def test_hash_bytes_is_git_blob_id(git_repo: Path) -> None:
    data = "héllo\n".encode()
    assert objects.hash_bytes(data) == git(git_repo, "hash-object", "--stdin", input=data).strip()


def test_blob_reader_streams_many_blobs_through_one_process(git_repo: Path) -> None:
    contents = {f"docs/file-{i:03}.md": f"# File {i}\n\n{'body ' * i}\n" for i in range(200)}
    contents["docs/empty.md"] = ""
    for name, text in contents.items():
        write(git_repo, name, text)
    commit_all(git_repo)
    blobs = listings.index_blobs(git_repo)
    before = process.process_count()
    with objects.BlobReader(git_repo) as reader:
        by_blob = {name: reader.read(blobs[name]) for name in contents}
        by_rev_path = {name: reader.read(f"HEAD:{name}") for name in list(contents)[:20]}
        assert reader.read("0" * 40) is None
        assert reader.read("HEAD:nope.md") is None
        assert reader.read("HEAD:docs") is None  # a tree, not a blob
        assert reader.read("") is None
        assert reader.read("HEAD:docs/file-001.md") == b"# File 1\n\nbody \n"
    assert process.process_count() == before + 1
    assert by_blob == {name: text.encode() for name, text in contents.items()}
    assert by_rev_path == {name: contents[name].encode() for name in by_rev_path}


def test_binary_and_large_blobs_come_back_exactly(git_repo: Path) -> None:
    binary = bytes(range(256)) * 4 + b"\n missing\r\n"
    large = b"line\n" * 600_000
    write(git_repo, "bin.dat", binary)
    write(git_repo, "large.txt", large)
    commit_all(git_repo)
    with objects.BlobReader(git_repo) as reader:
        assert reader.read("HEAD:bin.dat") == binary
        assert reader.read("HEAD:large.txt") == large
        assert reader.read("HEAD:bin.dat") == binary
    # read_blob: one process per blob, through a temporary file.
    before = process.process_count()
    assert objects.read_blob(git_repo, "HEAD:bin.dat") == binary
    oid = git(git_repo, "rev-parse", "HEAD:large.txt").strip()
    assert objects.read_blob(git_repo, oid) == large
    assert objects.read_blob(git_repo, "HEAD:missing.md") is None
    assert objects.read_blob(git_repo, "0" * 40) is None
    assert process.process_count() - before == 4


@posix_only
def test_blob_reader_falls_back_for_names_the_protocol_cannot_carry(git_repo: Path) -> None:
    write(git_repo, "new\nline.md", "nl\n")
    write(git_repo, "missing ok.md", "spaces\n")
    commit_all(git_repo)
    with objects.BlobReader(git_repo) as reader:
        before = process.process_count()
        assert reader.read("HEAD:new\nline.md") == b"nl\n"
        assert reader.read("HEAD:no\nsuch.md") is None
        assert process.process_count() == before + 2
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
    reader = objects.BlobReader(git_repo)
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
    reader = objects.BlobReader(git_repo)
    with reader:
        pid = reader.pid
        stdin, _ = reader._streams()
        stdin.write(b"HEAD:large.txt\n")
        stdin.flush()  # a reply git is still writing when we stop reading
    assert pid is not None
    assert _gone(pid)


def test_blob_reader_outside_with_block_is_an_error(git_repo: Path) -> None:
    with pytest.raises(RuntimeError, match="not open"):
        objects.BlobReader(git_repo).read("HEAD:a.md")


def test_commit_id_from_the_running_cat_file_is_rev_parse_s(git_repo: Path) -> None:
    with objects.BlobReader(git_repo, lazy=True) as reader:
        assert reader.commit_id("HEAD") is None  # no commit yet
    write(git_repo, "a.md", "a\n")
    commit_all(git_repo)
    blob = listings.index_blobs(git_repo)["a.md"]
    git(git_repo, "tag", "-a", "-m", "t", "v1")  # an annotated tag names its commit
    with objects.BlobReader(git_repo) as reader:
        for revision in ("HEAD", "main", "v1", "HEAD~1", "nothing", blob, "HEAD:a.md", ""):
            expected = objects.object_id(git_repo, f"{revision}^{{commit}}") if revision else None
            assert reader.commit_id(revision) == expected, revision
        assert reader.commit_id("v1") == commits.resolve(git_repo, "HEAD")
        assert reader.read(blob) == b"a\n"  # the stream is still in step


@posix_only
def test_names_that_are_not_utf8_round_trip(git_repo: Path) -> None:
    raw_name = b"caf\xe9.md"
    with open(os.path.join(os.fsencode(git_repo), raw_name), "wb") as handle:
        handle.write(b"latin-1 name\n")
    commit_all(git_repo)
    [name] = listings.index_blobs(git_repo)
    assert name.encode("utf-8", "surrogateescape") == raw_name
    assert (git_repo / name).read_bytes() == b"latin-1 name\n"
    assert objects.hash_blobs(git_repo, [name]) == listings.index_blobs(git_repo)
    with objects.BlobReader(git_repo) as reader:
        assert reader.read(f"HEAD:{name}") == b"latin-1 name\n"


def test_describe_objects_asks_one_batch_check_for_all(git_repo: Path) -> None:
    write(git_repo, "a.md", "hello\n")
    commit_all(git_repo)
    blob = index_of(git_repo)["a.md"]
    before = process.process_count()
    lines = objects.describe_objects(git_repo, ["HEAD:a.md", "HEAD:nope.md"]).splitlines()
    assert process.process_count() == before + 1
    assert lines == [f"{blob} blob 6".encode(), b"HEAD:nope.md missing"]
