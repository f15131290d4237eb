"""git.process: the one door every git process goes through, its errors and its count."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import commit_all, git, make_repo, pin_git_env, write

import chunkgate
from chunkgate.core.errors import GitError
from chunkgate.git import listings, process


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def test_process_count_counts_every_process(git_repo: Path) -> None:
    before = process.process_count()
    listings.index_blobs(git_repo)
    listings.untracked_paths(git_repo)
    assert process.process_count() == before + 2


def test_failed_command_names_command_exit_code_and_stderr(tmp_path: Path) -> None:
    with pytest.raises(process.GitCommandError) as caught:
        listings.index_blobs(tmp_path)
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
        listings.index_blobs(tmp_path)
    assert process.find_root(tmp_path) is None


def test_find_root(git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    deep = git_repo / "docs" / "guide"
    deep.mkdir(parents=True)
    write(git_repo, "docs/guide/a.md", "a\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    assert process.find_root(deep) == git_repo.resolve()
    assert process.find_root(deep / "a.md") == git_repo.resolve()
    assert process.find_root(outside) is None
    assert process.find_root(tmp_path / "does-not-exist" / "x") is None
    assert process.find_root(git_repo / ".git") is None


def test_make_repo_pins_identity(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "a\n")
    sha = commit_all(repo)
    assert git(repo, "log", "-1", "--format=%an <%ae> %ad", "--date=iso-strict").strip() == (
        "Chunkgate Tests <tests@chunkgate.invalid> 2024-01-01T00:00:00+00:00"
    )
    assert sha == git(repo, "rev-parse", "HEAD").strip()


PACKAGE = Path(chunkgate.__file__).parent
_STARTS = {"Popen", "run", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}


def _process_starts(path: Path) -> list[str]:
    """Where a module starts a process itself: ``subprocess.X(...)`` or ``os.system`` and
    kin, by name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else ""
            if (name == "subprocess" and node.func.attr in _STARTS) or (
                name == "os" and node.func.attr in {"system", "popen", "execvp", "spawnvp"}
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_every_process_starts_at_the_one_door() -> None:
    starts = [where for path in sorted(PACKAGE.rglob("*.py")) for where in _process_starts(path)]
    assert [where.rpartition(":")[0] for where in starts] == ["git/process.py"]


def test_split_z_decodes_records_and_keeps_names_that_are_not_utf8() -> None:
    assert list(process.split_z(b"a.md\0dir/b c.md\0caf\xe9.md\0")) == [
        "a.md",
        "dir/b c.md",
        "caf\udce9.md",
    ]
    assert list(process.split_z(b"")) == []
    assert process.encode("caf\udce9.md") == b"caf\xe9.md"


def test_clean_stderr_is_one_line_without_git_s_prefixes() -> None:
    raw = b"fatal: not a git repository\nerror: and more\n\n  hint  \n"
    assert process.clean_stderr(raw) == "not a git repository; and more; hint"
