"""Which paths chunkgate reads and writes (issue 18, defects 1, 13 and 14): nothing
outside the corpus's own files is touched, and refusals are one clear line."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest
from helpers import commit_all, git, run, write

from chunkgate.corpus import paths

DOC = "# E\n\nlong enough text for a chunk here, and then some more.\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "a.md", DOC)
    commit_all(cli_repo)
    return cli_repo


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        pytest.param("", "is empty", id="empty"),
        pytest.param("a\0b", "holds a NUL byte", id="nul"),
        pytest.param("/etc/passwd", "is absolute", id="absolute"),
        pytest.param("C:/x", "is absolute", id="drive"),
        pytest.param("../../etc/passwd", "plain relative", id="dotdot"),
        pytest.param("a/./b", "plain relative", id="dot"),
        pytest.param("a//b", "plain relative", id="empty-part"),
        pytest.param(".git/config", "inside .git", id="git"),
        pytest.param("sub/.GIT/hooks", "inside .git", id="git-case"),
    ],
)
def test_problem_refuses(path: str, reason: str) -> None:
    found = paths.problem(path)
    assert found is not None
    assert reason in found


@pytest.mark.parametrize("path", ["a.md", "docs/a b.md", ".github/x.md", "a..b/c.md", "x.git"])
def test_problem_allows(path: str) -> None:
    assert paths.problem(path) is None


@pytest.mark.parametrize(
    "manifest",
    [
        ".git/hooks/pre-commit",
        ".git/hooks",
        ".git",
        "sub/.git/x",
        "a\0b",
    ],
)
def test_manifest_under_git_or_with_nul_is_a_config_error(repo: Path, manifest: str) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\n")
    hook.chmod(0o755)
    write(repo, ".chunkgate.yaml", f"manifest: {json.dumps(manifest)}\n")
    write(repo, "$(touch PWNED).md", DOC)
    commit_all(repo)
    before = sorted(p.relative_to(repo / ".git").as_posix() for p in (repo / ".git").rglob("*"))
    code, output = run("update")
    assert code == 2
    assert "manifest" in output
    assert "Traceback" not in output
    assert len(output.strip().splitlines()) == 1
    assert hook.read_text() == "#!/bin/sh\n"
    after = sorted(p.relative_to(repo / ".git").as_posix() for p in (repo / ".git").rglob("*"))
    assert after == before
    assert not (repo / "PWNED").exists()


def test_manifest_through_a_symlink_out_of_the_repository(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, repo / "ext")
    write(repo, ".chunkgate.yaml", "manifest: ext/m\n")
    code, output = run("update")
    assert code == 2
    assert "leads outside the repository" in output
    assert list(outside.iterdir()) == []


def test_manifest_through_a_symlink_into_git(repo: Path) -> None:
    os.symlink(".git", repo / "g")
    write(repo, ".chunkgate.yaml", "manifest: g/hooks\n")
    code, output = run("update")
    assert code == 2
    assert "into .git" in output


def test_manifest_that_is_a_document(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "manifest: a.md\n")
    code, output = run("update")
    assert code == 2
    assert "'a.md' is a file, not a folder" in output
    assert (repo / "a.md").read_text() == DOC


def test_manifest_in_a_folder_of_documents(repo: Path) -> None:
    write(repo, "docs/guide.md", DOC)
    write(repo, ".chunkgate.yaml", "manifest: docs\n")
    code, output = run("update")
    assert code == 2
    assert "holds other files (guide.md)" in output
    assert sorted(p.name for p in (repo / "docs").iterdir()) == ["guide.md"]


def test_manifest_that_is_a_symlink_is_not_read_through(repo: Path, tmp_path: Path) -> None:
    assert run("update")[0] == 0
    real = tmp_path / "elsewhere"
    (repo / "chunkgate.manifest").rename(real)
    os.symlink(real, repo / "chunkgate.manifest")
    code, output = run("check")
    assert code == 2
    assert "is a symlink" in output


def test_manifest_symlink_loop(repo: Path) -> None:
    os.symlink("chunkgate.manifest", repo / "chunkgate.manifest")
    code, output = run("check")
    assert code == 2
    assert "Traceback" not in output
    assert "chunkgate.manifest" in output


def test_a_new_manifest_folder_is_fine(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "manifest: meta/chunks\n")
    assert run("update")[0] == 0
    assert (repo / "meta" / "chunks" / "a.md.jsonl").is_file()


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        pytest.param("a.md", "is a corpus file", id="document"),
        pytest.param(".git/report.txt", "inside .git", id="git"),
        pytest.param("chunkgate.manifest/x.jsonl", "is a corpus file", id="manifest"),
        pytest.param(".chunkgate.yaml", "is a corpus file", id="config"),
    ],
)
def test_output_refuses(repo: Path, target: str, reason: str) -> None:
    assert run("update")[0] == 0
    before = (repo / "a.md").read_bytes()
    code, output = run("check", "-o", target)
    assert code == 2
    assert reason in output
    assert "-o" in output
    assert (repo / "a.md").read_bytes() == before
    assert not (repo / ".git" / "report.txt").exists()


def test_output_outside_the_repository(repo: Path, tmp_path: Path) -> None:
    code, output = run("check", "-o", str(tmp_path / "out.txt"))
    assert code == 2
    assert "outside the repository" in output
    assert "> FILE" in output


def test_output_inside_is_written(repo: Path) -> None:
    assert run("update")[0] == 0
    code, _ = run("check", "--format", "sarif", "-o", "reports/out.sarif")
    assert code == 2  # the folder does not exist: a clear error, not a traceback
    (repo / "reports").mkdir()
    code, _ = run("check", "--format", "sarif", "-o", "reports/out.sarif")
    assert code == 0
    assert (repo / "reports" / "out.sarif").stat().st_size > 0


def test_init_refuses_a_symlinked_config(repo: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    os.symlink(victim, repo / ".chunkgate.yaml")
    code, output = run("init", "--force")
    assert code == 2
    assert "is a symlink" in output
    assert victim.read_text() == "keep\n"


# -- errors the environment causes: one line, exit 2 (defect 13) --


def _failing_write(code: int) -> object:
    real = os.write

    def write(fd: int, data: bytes | memoryview) -> int:
        if os.fstat(fd).st_mode & stat.S_IFREG:
            raise OSError(code, os.strerror(code))
        return real(fd, data)

    return write


@pytest.mark.parametrize(
    ("code", "fix"),
    [
        pytest.param(errno.ENOSPC, "free some disk space", id="disk-full"),
        pytest.param(errno.EROFS, "read-only", id="read-only"),
        pytest.param(errno.EACCES, "permission", id="permission"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [["update"], ["init", "--force"], ["check", "-o", "out.txt"]],
    ids=["update", "init", "output"],
)
def test_write_errors_are_one_line(
    repo: Path, monkeypatch: pytest.MonkeyPatch, code: int, fix: str, command: list[str]
) -> None:
    before = {p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts}
    monkeypatch.setattr(os, "write", _failing_write(code))
    exit_code, output = run(*command)
    monkeypatch.undo()
    assert exit_code == 2, output
    errors = [line for line in output.splitlines() if line.startswith("chunkgate: error:")]
    assert len(errors) == 1, output
    assert fix in errors[0], output
    assert "Traceback" not in output
    after = {p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts}
    assert not [name for name in after - before if name.endswith(".tmp")]


def test_header_that_is_a_folder(repo: Path) -> None:
    assert run("update")[0] == 0
    header = repo / "chunkgate.manifest" / "manifest.json"
    header.unlink()
    header.mkdir()
    code, output = run("update")
    assert code == 2
    assert "manifest.json: Is a directory" in output


def test_shard_that_is_a_folder(repo: Path) -> None:
    assert run("update")[0] == 0
    shard = repo / "chunkgate.manifest" / "a.md.jsonl"
    shard.unlink()
    shard.mkdir()
    code, output = run("check", "a.md")
    assert code == 2
    assert "a.md.jsonl: cannot read" in output
    assert "chunkgate update" in output


def test_check_a_symlink_loop(repo: Path) -> None:
    os.symlink("loop.md", repo / "loop.md")
    code, output = run("check", "loop.md")
    assert code == 2
    assert output.strip() == "chunkgate: error: loop.md: a symlink loop; fix or remove it"


def test_git_is_untouched_by_a_whole_run(repo: Path) -> None:
    config = git(repo, "config", "--list", "--local")
    assert run("update")[0] == 0
    assert git(repo, "config", "--list", "--local") == config


def test_caches_are_not_written_through_a_symlink_out(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("config", "summaries", "links"):
        os.symlink(outside, cache / name)
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(cache))
    write(repo, ".chunkgate.yaml", "size: {max: 1500}\n")
    assert run("update")[0] == 0
    assert run("check")[0] == 0
    assert list(outside.iterdir()) == []


def test_caches_are_written_where_allowed(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(cache))
    write(repo, ".chunkgate.yaml", "size: {max: 1500}\n")
    assert run("update")[0] == 0
    commit_all(repo)
    assert run("check")[0] == 0
    assert sorted(p.name for p in cache.iterdir()) == ["config", "links", "summaries"]


def test_a_symlink_named_on_the_command_line_stands_for_its_target(repo: Path) -> None:
    """``chunks`` and ``check`` read the same file for ``docs/link.md``: its target."""
    write(repo, "docs/real.md", DOC)
    os.symlink("real.md", repo / "docs" / "link.md")
    commit_all(repo)
    assert run("update")[0] == 0
    code, output = run("chunks", "--format", "json", "docs/link.md")
    assert code == 0, output
    assert {chunk["path"] for chunk in json.loads(output)} == {"docs/real.md"}
    code, output = run("check", "--format", "json", "docs/link.md")
    assert code == 0, output
    assert json.loads(output)["summary"]["files"] == 1
    write(repo, "docs/real.md", "# E\n\nshort\n")  # CG202 now, through the link too
    code, output = run("check", "--format", "json", "docs/link.md")
    assert code == 1, output
    assert {v["path"] for v in json.loads(output)["violations"]} == {"docs/real.md"}


def test_a_symlink_to_a_file_outside_the_repository_is_refused_by_every_command(
    repo: Path, tmp_path: Path
) -> None:
    write(tmp_path, "outside/key.md", DOC)
    os.symlink(tmp_path / "outside" / "key.md", repo / "leak.md")
    for command in ("chunks", "check"):
        code, output = run(command, "leak.md")
        assert code == 2, (command, output)
        assert output.strip() == "chunkgate: error: path outside the repository: leak.md"
