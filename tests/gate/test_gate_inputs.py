"""Bad input gets a clear message and loses nothing."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import MANIFEST, commit_all, committed, manifest_snapshot, shard, write
from helpers import invoke as run

from chunkgate.cli import cli
from chunkgate.manifest import parse_block, storage

SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "docs/a.md", f"# A\n\n{SECTION}\n## B\n\n{SECTION}")
    write(cli_repo, "docs/b.md", f"# C\n\n{SECTION}")
    committed(cli_repo)
    return cli_repo


def violations(result: Result) -> list[tuple[str, str, int, str]]:
    return [
        (v["rule"], v["path"], v["line"], v["message"])
        for v in json.loads(result.output)["violations"]
    ]


def _corrupt(repo: Path, path: str, index: int, line: str) -> list[str]:
    """Replace line ``index`` (0-based) of the shard of ``path``; its lines before."""
    target = shard(repo, path)
    lines = target.read_text().splitlines(keepends=True)
    target.write_text("".join([*lines[:index], line, *lines[index + 1 :]]))
    return lines


def test_corrupt_shard_line_is_reported_and_update_rewrites_it(repo: Path) -> None:
    _corrupt(repo, "docs/a.md", 2, '{"id": "docs/a.md#b", "lines": [5,\n')
    result = run("check", "--format", "json")
    assert result.exit_code == 1
    ((rule, path, line, message),) = violations(result)
    assert (rule, path, line) == ("CG401", f"{MANIFEST}/docs/a.md.jsonl", 3)
    assert message.startswith("the shard of docs/a.md is corrupt: invalid JSON")
    fixed = run("update")
    assert fixed.exit_code == 0
    assert "(1 file changed)" in fixed.output
    assert run("check").exit_code == 0


def test_merge_conflict_markers_are_reported_with_their_line(repo: Path) -> None:
    target = shard(repo, "docs/a.md")
    text = target.read_text().splitlines(keepends=True)
    target.write_text("".join([text[0], "<<<<<<< ours\n", *text[1:], "=======\n", ">>>>>>> x\n"]))
    result = run("check", "--format", "json")
    ((rule, path, line, message),) = violations(result)
    assert (rule, path, line) == ("CG401", f"{MANIFEST}/docs/a.md.jsonl", 2)
    assert "merge conflict markers at line 2" in message
    assert run("check", "--update").exit_code == 1  # rewritten: the manifest changed
    assert run("check").exit_code == 0


def test_a_hook_run_reads_only_its_files_shards(repo: Path) -> None:
    """A run on named files (the pre-commit hook) leaves a corrupt shard of another file
    as it is, for the whole-corpus check to report; its own files' shards are updated."""
    other = _corrupt(repo, "docs/b.md", 1, '{"note": "not a chunk line"}\n')
    write(repo, "docs/a.md", f"# A\n\n{SECTION}\n## B\n\n{SECTION}\nMore text.\n")
    before = shard(repo, "docs/a.md").read_text()
    assert run("check", "--update", "docs/a.md").exit_code == 1  # the manifest changed
    assert shard(repo, "docs/a.md").read_text() != before  # docs/a.md#b grew
    assert shard(repo, "docs/b.md").read_text() != "".join(other)  # left as it was
    result = run("check", "--format", "json")
    assert [(v[0], v[1], v[2]) for v in violations(result)] == [
        ("CG401", f"{MANIFEST}/docs/b.md.jsonl", 2)
    ]
    assert run("update").exit_code == 0
    assert run("check").exit_code == 0


def test_a_hook_run_rewrites_a_corrupt_shard_of_its_own_file(repo: Path) -> None:
    _corrupt(repo, "docs/a.md", 2, '{"note": "not a chunk line"}\n')
    result = run("check", "--format", "json", "docs/a.md")
    assert [(v[0], v[2]) for v in violations(result)] == [("CG401", 3)]
    fixed = run("check", "--update", "docs/a.md")
    assert fixed.exit_code == 1
    assert "(1 file changed)" in fixed.output
    assert run("check").exit_code == 0


def test_a_corrupt_committed_shard_leaves_its_ids_uncompared(repo: Path) -> None:
    """HEAD's shard of a file turns out corrupt: the run goes on without comparing that
    file's IDs, as if nothing were committed for it."""
    _corrupt(repo, "docs/a.md", 2, '{"note": "not a chunk line"}\n')
    commit_all(repo)
    assert run("update").exit_code == 0  # the work tree's manifest is whole again
    write(repo, "docs/a.md", f"# A\n\n{SECTION}\n## Renamed\n\n{SECTION}")
    result = run("check", "--update", "--format", "json", "docs/a.md")
    assert result.exit_code == 1  # the manifest changed; no CG402 without committed IDs
    assert violations(result) == []
    assert run("check").exit_code == 0


def test_a_format_1_manifest_is_migrated_once(repo: Path) -> None:
    """The one-file manifest of format 1: reported with its fix, and `update` migrates it,
    keeping its acknowledged moves."""
    import shutil

    legacy = "\n".join(
        [
            '{"chunkgate_manifest": 1, "chunking": 2, "config": "0000000000000000", '
            '"rules": "0000000000000000"}',
            '{"file": "docs/a.md", "blob": null, "chunks": 1}',
            '{"id": "docs/a.md#b", "lines": [5, 7], "chars": 80, "tokens": 20, '
            '"hash": "0123456789abcdef", "moved_from": "docs/a.md#old-b"}',
            "",
        ]
    )
    shutil.rmtree(repo / MANIFEST)
    write(repo, "chunkgate.manifest.jsonl", legacy)
    result = run("check", "--format", "json")
    ((rule, path, _, message),) = violations(result)
    assert (rule, path) == ("CG401", "chunkgate.manifest.jsonl")
    assert "old one-file format; `chunkgate update` migrates it" in message
    migrated = run("update")
    assert migrated.exit_code == 0
    assert "migrating chunkgate.manifest.jsonl (format 1)" in migrated.output
    assert not (repo / "chunkgate.manifest.jsonl").exists()
    assert '"moved_from": "docs/a.md#old-b"' in shard(repo, "docs/a.md").read_text()
    assert run("check").exit_code == 0


def _as_format_2(repo: Path) -> None:
    """The manifest as chunkgate wrote format 2: no shard records its settings."""
    header = repo / MANIFEST / "manifest.json"
    header.write_text(
        header.read_text().replace('"chunkgate_manifest": 3', '"chunkgate_manifest": 2')
    )
    for path in ("docs/a.md", "docs/b.md"):
        target = shard(repo, path)
        first, rest = target.read_text().split("\n", 1)
        assert ', "settings": "' in first
        target.write_text(first.split(', "settings": "')[0] + "}\n" + rest)
        assert parse_block(target.read_bytes(), path).settings is None


def test_a_format_2_manifest_is_read_and_migrated_by_one_update(repo: Path) -> None:
    """Format 2's shards hold no settings: they count as made under the header, so the
    check passes; one whole-corpus `update` stamps every shard."""
    _as_format_2(repo)
    commit_all(repo)
    before = manifest_snapshot(repo)
    checked = run("check", "--format", "json")
    assert checked.exit_code == 0, checked.output
    assert violations(checked) == []
    assert manifest_snapshot(repo) == before  # check writes nothing
    migrated = run("update")
    assert migrated.exit_code == 0, migrated.output
    assert '"chunkgate_manifest": 3' in (repo / MANIFEST / "manifest.json").read_text()
    stamps = {
        parse_block(shard(repo, p).read_bytes(), p).settings for p in ("docs/a.md", "docs/b.md")
    }
    (stamp,) = stamps
    assert stamp is not None
    commit_all(repo)
    assert run("check").exit_code == 0
    after = manifest_snapshot(repo)
    assert "is up to date" in run("update").output  # nothing left to migrate
    assert manifest_snapshot(repo) == after


def test_config_typo_exits_2_naming_file_and_key(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "szie:\n  max: 100\n")
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 2
    assert ".chunkgate.yaml" in result.output
    assert "unknown key 'szie' (did you mean 'size'?)" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file", id="binary-named-md"),
        pytest.param(b"# Title\n\nabc \xff\xfe def\n", "not valid UTF-8", id="invalid-utf8"),
    ],
)
def test_unreadable_markdown_is_cg001(repo: Path, content: bytes, expected: str) -> None:
    write(repo, "docs/bad.md", content)
    result = run("check", "--format", "json", "docs/bad.md")
    assert result.exit_code == 1
    ((rule, path, line, message),) = [v for v in violations(result) if v[0] != "CG401"]
    assert (rule, path, line) == ("CG001", "docs/bad.md", 1)
    assert expected in message


def test_invalid_utf8_names_the_position(repo: Path) -> None:
    write(repo, "docs/bad.md", b"# Title\n\nabc \xff def\n")
    (found,) = [
        v for v in violations(run("check", "--format", "json", "docs/bad.md")) if v[0] == "CG001"
    ]
    assert "line 3, column 5" in found[3]


def test_python_syntax_error_is_cg001_and_still_chunked(repo: Path) -> None:
    write(repo, "pkg/broken.py", "def ok():\n    return 1\n\ndef broken(:\n    pass\n")
    result = run("check", "--format", "json", "pkg/broken.py")
    found = [v for v in violations(result) if v[0] == "CG001"]
    assert [(v[1], v[2]) for v in found] == [("pkg/broken.py", 4)]
    chunks = run("chunks", "--format", "json", "pkg/broken.py")
    assert [c["kind"] for c in json.loads(chunks.output)] == ["text"]


def test_a_50_mb_file_is_not_read(repo: Path) -> None:
    big = repo / "docs" / "dump.md"
    with big.open("wb") as handle:
        handle.write(b"# Dump\n\n")
        handle.write(b"0123456789abcdef" * (50 * 1024 * 1024 // 16))
    started = time.perf_counter()
    result = run("check", "--format", "json", "docs/dump.md")
    elapsed = time.perf_counter() - started
    found = [v for v in violations(result) if v[0] == "CG305"]
    assert [(v[1], v[2]) for v in found] == [("docs/dump.md", 1)]
    assert "52,428,8" in found[0][3]
    assert elapsed < 10  # it is stat-ed, not read and chunked


def test_ctrl_c_during_update_keeps_the_old_manifest(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = manifest_snapshot(repo)
    write(repo, "docs/b.md", f"# C\n\n{SECTION}\n## New\n\n{SECTION}")

    def interrupted(source: object, target: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(storage.os, "replace", interrupted)
    result = CliRunner().invoke(cli, ["update"])
    assert result.exit_code == 130
    assert manifest_snapshot(repo) == before
    assert sorted(p.name for p in repo.iterdir()) == [".git", MANIFEST, "docs"]


def test_sigint_to_a_running_update_leaves_no_half_written_file(repo: Path) -> None:
    for index in range(400):
        write(repo, f"many/{index}.md", f"# T{index}\n\n{SECTION}")
    before = manifest_snapshot(repo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunkgate", "update", "--jobs", "1"],
        cwd=repo,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.8)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    after = manifest_snapshot(repo)
    # Every shard is whole (old, or new for a file checked before the signal), and the
    # next run finishes what this one began.
    for name, data in after.items():
        if name != "manifest.json":
            parse_block(data, name)
    assert {n: d for n, d in after.items() if not n.startswith("many/")} == before
    leftovers = [p for p in (repo / MANIFEST).rglob("*") if p.name.endswith((".tmp", ".lock"))]
    leftovers += [p for p in repo.iterdir() if p.name.endswith((".tmp", ".lock"))]
    assert leftovers == []
    assert run("update").exit_code == 0
    assert len(manifest_snapshot(repo)) == 403


def _children(pid: int) -> list[int]:
    try:
        listed = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in listed.split()]


def _two_workers(proc: subprocess.Popen[Any]) -> list[int]:
    """The pids of ``proc``'s two worker processes, once both have started."""
    workers: list[int] = []
    deadline = time.monotonic() + 30
    while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
        workers = [pid for pid in _children(proc.pid) if "git" not in _command(pid)]
        time.sleep(0.005)
    assert len(workers) == 2, "the worker processes never started"
    return workers


@pytest.mark.slow
@pytest.mark.skipif(
    not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
    reason="finds the worker processes through /proc (Linux)",
)
def test_ctrl_c_is_the_parents_to_handle_with_several_jobs(repo: Path) -> None:
    """A terminal's Ctrl-C signals the whole process group, and a worker may get it
    before the parent. Workers ignore SIGINT: one dying of it broke the pool, which
    could hang the parent's exit. The parent stops handing out files and exits 130."""
    shutil.rmtree(repo / MANIFEST)
    for index in range(3000):
        write(repo, f"many/{index}.md", f"# T{index}\n\n{SECTION * 40}\n## More\n\n{SECTION * 40}")

    def start_and_signal_workers() -> tuple[subprocess.Popen[str], list[int]]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "chunkgate", "update", "--jobs", "2"],
            cwd=repo,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        workers = _two_workers(proc)
        time.sleep(0.15)  # into the work: the update itself takes seconds
        assert proc.poll() is None
        for pid in workers:
            os.kill(pid, signal.SIGINT)
        return proc, workers

    def finish(proc: subprocess.Popen[str]) -> str:
        try:
            return proc.communicate(timeout=60)[1]
        except subprocess.TimeoutExpired:
            for pid in _children(proc.pid):
                os.kill(pid, signal.SIGKILL)
            proc.kill()
            raise AssertionError("chunkgate hung after Ctrl-C") from None

    # The workers alone: they carry on, and the update completes.
    proc, _ = start_and_signal_workers()
    finish(proc)
    assert proc.returncode == 0
    assert shard(repo, "many/999.md").exists()
    # Then the parent too: it stops, and leaves nothing behind but whole shards.
    shutil.rmtree(repo / MANIFEST)
    proc, workers = start_and_signal_workers()
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stderr = finish(proc)
    assert (proc.returncode, stderr) == (130, "chunkgate: interrupted\n")
    assert sorted(p.name for p in repo.iterdir() if p.name != MANIFEST) == [".git", "docs", "many"]
    assert not (repo / MANIFEST / "manifest.json").exists()  # no header: not complete
    assert not list(repo.rglob("*.tmp"))
    assert all(_command(pid) == "" for pid in workers)


@pytest.mark.skipif(
    not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
    reason="finds the worker processes through /proc (Linux)",
)
def test_ctrl_c_to_chunks_with_several_jobs(repo: Path) -> None:
    """A terminal's Ctrl-C to ``chunks --jobs 2``: the whole process group gets it. The
    command stops with 130, the lines written so far are whole files' lines, and no
    worker is left."""
    for index in range(3000):
        write(repo, f"many/{index}.md", f"# T{index}\n\n{SECTION * 40}\n## More\n\n{SECTION * 40}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunkgate", "chunks", "--format", "jsonl", "--jobs", "2", "many"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    workers = _two_workers(proc)
    assert proc.stdout is not None
    # Interrupt once output has begun (a fixed delay is too short on a loaded machine).
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    assert ready, "chunkgate wrote nothing in 60 s"
    first = os.read(proc.stdout.fileno(), 1 << 16)  # unbuffered: communicate() reads the fd
    os.killpg(proc.pid, signal.SIGINT)
    try:
        rest, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("chunkgate hung after Ctrl-C") from None
    assert (proc.returncode, stderr) == (130, b"chunkgate: interrupted\n")
    lines = (first + rest).decode().split("\n")
    rows = [json.loads(line) for line in lines[:-2]]  # the last may be cut short
    # Each section is long enough to be chunked in parts: compare the first parts.
    ids = [row["id"] for row in rows if row["part"] == 1]
    assert 0 < len(ids) < 6000
    assert (
        ids
        == [
            f"many/{n}.md#{part}"
            for n in sorted(range(3000), key=str)
            for part in (f"t{n}", "more")
        ][: len(ids)]
    )
    assert all(_command(pid) == "" for pid in workers)


_PROBE = "import signal; print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))"
# In a process of its own: a signal sent to a process goes to any thread that does not
# block it, and a test run's process has threads other libraries started (a tokenizer's
# pool), which would take the Ctrl-C the main thread holds back.
_HELD = f"""
import os, signal, subprocess, sys, time
from chunkgate.core.parallel import _sigint_held
def probe():
    return subprocess.run([sys.executable, "-c", {_PROBE!r}], capture_output=True,
                          text=True, check=True).stdout.strip()
inside, interrupted = [], False
try:
    with _sigint_held():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # it would have been delivered by now, were it not held
        inside.append(probe())
except KeyboardInterrupt:
    interrupted = True
print(inside, interrupted, probe())
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks on Windows")
def test_workers_are_started_with_ctrl_c_held_back() -> None:
    """While the pool starts its workers SIGINT is blocked: a worker cannot die of a
    Ctrl-C before it ignores it, and the parent still gets the Ctrl-C afterwards."""
    command = [sys.executable, "-c", _HELD]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert done.stdout == "['True'] True False\n"


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def test_path_outside_the_repository_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# X\n")
    result = CliRunner().invoke(cli, ["check", os.fspath(outside)])
    assert result.exit_code == 2
    assert "outside the repository" in result.output


def test_missing_revision_for_diff_is_a_clear_error(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", "no-such-rev"])
    assert result.exit_code == 2
    assert "unknown revision 'no-such-rev'" in result.output


def test_bad_byte_after_a_bom_is_named_right() -> None:
    from chunkgate.core.errors import UnreadableError
    from chunkgate.corpus.source import decode

    with pytest.raises(UnreadableError, match=r"byte 0xff at line 2, column 3"):
        decode(b"\xef\xbb\xbf# T\nab\xff\n", "a.md")
