"""The manifest folder is old or new as a whole (issue 16): a writer that dies between
two renames leaves a journal; a reader reports it, the next writer finishes it.

The death is real: a subprocess runs ``update`` with the journal's renames cut
short by ``os._exit`` after K of them (no cleanup runs, as with SIGKILL).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import MANIFEST, adopted_repo, git_env, manifest_snapshot, run_cli, write

from chunkgate.cli import cli
from chunkgate.manifest import journal
from chunkgate.manifest.confined import Confined

PAGE = "# {title}\n\n## Part\n\n{title}: text long enough to pass the minimum chunk size.\n"
FILES = [f"docs/p{n}.md" for n in range(6)]
# Run update with the renames stopped after K (argv[1]): the process dies mid-commit.
_DIE_AFTER = """
import os, sys
from chunkgate.manifest import journal
apply, limit = journal._apply, int(sys.argv[1])
def cut(folder, changes):
    apply(folder, changes[:limit])
    os._exit(137)
journal._apply = cut
from chunkgate.cli import main
sys.argv = ["chunkgate", "update"]
main()
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {path: PAGE.format(title=f"Old {path}") for path in FILES}
    return adopted_repo(tmp_path, monkeypatch, files)


run = run_cli


def _edit(repo: Path) -> None:
    for path in FILES[:4]:
        write(repo, path, PAGE.format(title=f"New {path}"))
    (repo / FILES[5]).unlink()


def _new_state(repo: Path, tmp_path: Path) -> dict[str, bytes]:
    probe = tmp_path / "probe"
    subprocess.run(["cp", "-a", str(repo), str(probe)], check=True)
    done = subprocess.run(
        [sys.executable, "-m", "chunkgate", "update"], check=False, cwd=probe, env=_env()
    )
    assert done.returncode == 0
    return manifest_snapshot(probe)


def _env() -> dict[str, str]:
    return {**os.environ, **git_env()}


@pytest.mark.parametrize("renamed", [0, 1, 3, 5])
def test_a_writer_killed_between_renames_is_reported_then_finished(
    repo: Path, tmp_path: Path, renamed: int
) -> None:
    old = manifest_snapshot(repo)
    _edit(repo)
    new = _new_state(repo, tmp_path)
    command = [sys.executable, "-c", _DIE_AFTER, str(renamed)]
    died = subprocess.run(command, check=False, cwd=repo, env=_env(), capture_output=True)
    assert died.returncode == 137, died.stderr
    folder = repo / MANIFEST
    assert journal.pending(folder)
    state = manifest_snapshot(repo)
    shards = {name: data for name, data in state.items() if name.endswith(".jsonl")}
    mixed = [name for name in old if shards.get(name) != new.get(name)]
    assert mixed  # some shards are still old: the journal is what makes the set whole
    # A reader names it and the fix, and changes nothing.
    result = CliRunner().invoke(cli, ["check"], catch_exceptions=False)
    assert result.exit_code == 1
    assert "an update was interrupted while it replaced shards" in result.output
    assert "run `chunkgate update` to finish it" in result.output
    assert manifest_snapshot(repo) == state
    # The next writer finishes it, as soon as it holds the lock: new as a whole.
    assert run("update") == 0
    assert manifest_snapshot(repo) == new
    assert not journal.pending(folder)


def test_the_hook_finishes_an_interrupted_write_first(repo: Path, tmp_path: Path) -> None:
    _edit(repo)
    new = _new_state(repo, tmp_path)
    command = [sys.executable, "-c", _DIE_AFTER, "2"]
    subprocess.run(command, check=False, cwd=repo, env=_env(), capture_output=True)
    assert journal.pending(repo / MANIFEST)
    assert run("check", "--update", "--hook", FILES[0]) in (0, 1)
    assert manifest_snapshot(repo) == new


def test_ctrl_c_between_renames_finishes_them(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _edit(repo)
    new = _new_state(repo, tmp_path)
    apply = journal._apply
    signals: list[int] = []

    def interrupted(files: Confined, changes: list[journal.Change]) -> None:
        if journal.pending(files.top) and not signals:  # once, between the 2nd and 3rd rename
            signals.append(2)
            apply(files, changes[:2])
            raise KeyboardInterrupt
        apply(files, changes)

    monkeypatch.setattr(journal, "_apply", interrupted)
    assert run("update") == 130
    assert signals == [2]
    assert manifest_snapshot(repo) == new
    assert not journal.pending(repo / MANIFEST)


def test_one_changed_file_needs_no_journal(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    monkeypatch.setattr(journal, "write_atomic", lambda path, data: written.append(path))
    before = manifest_snapshot(repo)
    write(repo, FILES[0], PAGE.format(title="Edited"))
    assert run("check", "--update", "--hook", FILES[0]) in (0, 1)
    assert written == []
    after = manifest_snapshot(repo)
    assert [name for name in after if after[name] != before.get(name)] == [f"{FILES[0]}.jsonl"]


@pytest.mark.parametrize(
    "record",
    [
        '[["../../x", null]]',
        '[["/etc/passwd", null]]',
        '[["a.md.jsonl", "../../id_rsa"]]',
        '[["a.md.jsonl", "b.md.jsonl"]]',  # not a temporary file of chunkgate's
        '[["notes.txt", null]]',  # not a shard
    ],
)
def test_a_journal_that_names_anything_but_the_folders_own_files_is_refused(
    repo: Path, record: str
) -> None:
    before = manifest_snapshot(repo)
    (journal.location(repo / MANIFEST)).parent.mkdir(exist_ok=True)
    journal.location(repo / MANIFEST).write_text(record + "\n")
    result = CliRunner().invoke(cli, ["update"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "not a shard of chunkgate.manifest and its temporary file" in result.output
    assert result.output.count("\n") == 1
    assert manifest_snapshot(repo) == before


def test_the_journal_lives_in_the_git_directory(repo: Path) -> None:
    assert journal.location(repo / MANIFEST) == repo / ".git" / "chunkgate" / f"{MANIFEST}.journal"
    nested = repo / "docs" / "m"
    assert journal.location(nested) == repo / ".git" / "chunkgate" / "docs%2Fm.journal"


@pytest.mark.parametrize("count", [1, 3])
def test_ctrl_c_before_the_journal_leaves_the_folder_old_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    # os.sync() of many new shards can take long enough that Ctrl-C lands right after it
    # (the signal is raised when the call returns), before any journal exists.
    folder = tmp_path / "m"
    folder.mkdir()
    changes: list[journal.Change] = []
    for index in range(count):
        (folder / f"{index}.jsonl").write_bytes(b"old")
        (folder / f".{index}.jsonl.{index:012x}.tmp").write_bytes(b"new")
        changes.append((f"{index}.jsonl", f".{index}.jsonl.{index:012x}.tmp"))

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(journal, "sync_all", interrupted)
    monkeypatch.setattr(journal, "_flush", interrupted)
    with pytest.raises(KeyboardInterrupt):
        journal.commit(Confined(folder, "m"), changes)
    assert sorted(p.name for p in folder.iterdir()) == [f"{i}.jsonl" for i in range(count)]
    assert {(folder / f"{i}.jsonl").read_bytes() for i in range(count)} == {b"old"}
