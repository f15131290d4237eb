"""A cloned repository must not reach outside itself (issue 44): a journal committed in
the manifest folder, and symlinks there, leave every file outside as it was, whichever
command runs in the clone.

The attacker's repository is real (committed with git, symlinks included) and the
victim's is a fresh ``git clone`` of it; the commands run as processes, the action
through its driver on an emulated runner.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from helpers import (
    MANIFEST,
    cli_process,
    commit_all,
    git,
    git_env,
    make_repo,
    page,
    pin_git_env,
    update_in,
    write,
)
from runner import push_payload, step_env

from chunkgate.github.action import main as action

SECRET = b"-----BEGIN OPENSSH PRIVATE KEY-----\nnot really\n"
VICTIM = b"keep me\n"
# The journal of the report: delete a file outside, move another one in.
STEAL = [["evil/victim.txt", None], ["stolen.jsonl", "evil/id_rsa"]]


def _outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_bytes(VICTIM)
    (folder / "id_rsa").write_bytes(SECRET)
    (folder / ".a.md.jsonl.000000000000.tmp").write_bytes(b"a temporary-looking file")
    return folder


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _hostile(tmp_path: Path, outside: Path, *, journal: bool, link: str) -> Path:
    """The attacker's repository, adopted, then given a committed journal and a
    symlink ``chunkgate.manifest/<link>`` to ``outside``; returns a fresh clone."""
    (tmp_path / "attacker").mkdir()
    source = make_repo(tmp_path / "attacker")
    write(source, "a.md", page("Alpha"))
    write(source, "docs/b.md", page("Beta"))
    update_in(source)
    commit_all(source, "adopted")
    folder = source / MANIFEST
    if link == "docs":
        for shard in (folder / "docs").iterdir():
            shard.unlink()
        (folder / "docs").rmdir()
    os.symlink(outside, folder / link)
    if journal:
        (folder / ".journal").write_text(json.dumps(STEAL) + "\n", encoding="ascii")
    write(source, "a.md", page("Alpha") + "\nA paragraph added.\n")
    write(source, "docs/b.md", page("Beta") + "\nA paragraph added.\n")
    commit_all(source, "hostile")
    clone = tmp_path / "victim"
    git(tmp_path, "clone", "-q", os.fspath(source), os.fspath(clone))
    assert (clone / MANIFEST / link).is_symlink()
    return clone


COMMANDS = {
    "hook": ("check", "--update", "--hook", "a.md", "docs/b.md"),
    "update": ("update",),
    "check": ("check",),
    "check-hook": ("check", "--hook", "docs/b.md"),
    "diff": ("diff", "HEAD~1"),
    "export": ("export", "--rev", "HEAD"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_committed_journal_through_a_symlink_touches_nothing_outside(
    tmp_path: Path, command: str
) -> None:
    outside = _outside(tmp_path)
    before = _snapshot(outside)
    clone = _hostile(tmp_path, outside, journal=True, link="evil")
    done = cli_process(clone, *COMMANDS[command])
    assert _snapshot(outside) == before
    assert not (clone / MANIFEST / "stolen.jsonl").exists()
    refused = f"{MANIFEST}/.journal: a journal inside the manifest folder is never replayed"
    if command in ("hook", "update"):
        # Refused with one line that names the journal and the fix, never replayed.
        assert done.returncode == 2, done.stdout + done.stderr
        message = done.stderr.decode().strip()
        assert message.count("\n") == 0
        assert refused in message
    elif command in ("check", "check-hook"):  # a reader reports it as a stale manifest
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"CG401 stale-manifest: {refused}" in done.stdout.decode()
    else:  # read from git's objects: the work tree's folder is not read at all
        assert done.returncode in (0, 1), done.stderr


@pytest.mark.parametrize("command", ["hook", "update"])
def test_a_symlinked_folder_of_shards_is_replaced_never_written_through(
    tmp_path: Path, command: str
) -> None:
    outside = _outside(tmp_path)
    before = _snapshot(outside)
    clone = _hostile(tmp_path, outside, journal=False, link="docs")
    done = cli_process(clone, *COMMANDS[command])
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert _snapshot(outside) == before
    folder = clone / MANIFEST / "docs"
    assert folder.is_dir()
    assert not folder.is_symlink()
    assert (folder / "b.md.jsonl").is_file()


@pytest.mark.parametrize("command", ["check", "check-hook", "diff"])
def test_readers_report_a_symlinked_folder_and_leave_it(tmp_path: Path, command: str) -> None:
    outside = _outside(tmp_path)
    (outside / "b.md.jsonl").write_bytes(b'{"file": "docs/b.md"}\n')
    before = _snapshot(outside)
    clone = _hostile(tmp_path, outside, journal=False, link="docs")
    done = cli_process(clone, *COMMANDS[command])
    assert _snapshot(outside) == before
    assert (clone / MANIFEST / "docs").is_symlink()
    if command != "diff":
        assert done.returncode in (1, 2)
        output = (done.stdout + done.stderr).decode()
        assert f"{MANIFEST}/docs:1: error CG401 stale-manifest" in output
        assert "a symlink in the manifest folder; chunkgate never follows one" in output


def test_a_symlinked_shard_is_replaced_by_a_file(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    before = _snapshot(outside)
    clone = _hostile(tmp_path, outside, journal=False, link="a.md.jsonl.x")
    shard = clone / MANIFEST / "a.md.jsonl"
    shard.unlink()
    os.symlink(outside / "id_rsa", shard)
    reported = cli_process(clone, "check")
    assert reported.returncode == 1
    assert f"{MANIFEST}/a.md.jsonl:1: error CG401" in reported.stdout.decode()
    hook = cli_process(clone, *COMMANDS["hook"])
    assert hook.returncode == 1  # the manifest changed: staged by the user, as always
    assert b"updated chunkgate.manifest/" in hook.stdout
    assert _snapshot(outside) == before
    assert not shard.is_symlink()
    assert b"a.md#alpha" in shard.read_bytes()


def test_the_action_touches_nothing_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = _outside(tmp_path)
    before = _snapshot(outside)
    clone = _hostile(tmp_path, outside, journal=True, link="evil")
    pin_git_env(monkeypatch)
    head = git(clone, "rev-parse", "HEAD").strip()
    base = git(clone, "rev-parse", "HEAD~1").strip()
    event = push_payload(ref="refs/heads/main", before=base, after=head)
    env = step_env(tmp_path, "push", event, sha=head, ref="refs/heads/main", workspace=clone)
    monkeypatch.chdir(clone)
    out = StringIO()
    assert action(env, out) == 1  # the check part reports the journal
    assert "a journal inside the manifest folder is never replayed" in out.getvalue()
    assert _snapshot(outside) == before
    assert not (clone / MANIFEST / "stolen.jsonl").exists()


def test_the_pre_commit_hook_touches_nothing_outside(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    before = _snapshot(outside)
    clone = _hostile(tmp_path, outside, journal=True, link="evil")
    root = Path(__file__).resolve().parents[2]
    write(clone, "a.md", page("Alpha, edited again"))
    git(clone, "add", "a.md")
    hook = [sys.executable, "-m", "pre_commit", "try-repo", os.fspath(root), "chunkgate"]
    done = subprocess.run(
        [*hook, "--files", "a.md"], cwd=clone, env=git_env(), capture_output=True, check=False
    )
    assert done.returncode == 1, done.stdout
    assert b"a journal inside the manifest folder is never replayed" in done.stdout
    assert _snapshot(outside) == before
