"""End to end with the real pre-commit on a copy of a real corpus (httpx's docs, in
tests/data/corpora): a linked heading renamed, the move accepted and the links fixed
through the manual hooks, and a page with a known problem moved; each commit passes
without --no-verify, and no link is broken that was not before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import cli_process, commit_all, git, make_repo, update_in
from test_precommit import Hooks, hooks, run_hooks

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "corpora" / "httpx-docs"
__all__ = ["hooks"]  # the module's fixture: one hook environment for these tests too


def _broken(repo: Path) -> list[str]:
    report = cli_process(repo, "check", "--strict", "--select", "CG404,CG405", "--format", "json")
    return sorted(v["message"] for v in json.loads(report.stdout)["violations"])


def _commits(repo: Path, hooks: Hooks) -> None:
    """``git add -A`` and the hook, as a user commits: again once when the hook rewrote
    the manifest (as a formatter does); then the commit, hooks passing."""
    for _ in range(2):
        git(repo, "add", "-A")
        result = run_hooks(repo, hooks)
        if result.returncode == 0:
            git(repo, "commit", "-q", "-m", "change")
            return
    raise AssertionError(result.stdout + result.stderr)


def _manual(repo: Path, hooks: Hooks, hook: str) -> None:
    run_hooks(repo, hooks, hook, "--hook-stage", "manual")


@pytest.fixture
def httpx(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    shutil.copytree(SAMPLE, repo, dirs_exist_ok=True)
    commit_all(repo, "docs")
    update_in(repo)
    commit_all(repo, "adopt chunkgate")
    return repo


@pytest.mark.slow
def test_rename_accept_fix_commit_on_a_real_corpus(httpx: Path, hooks: Hooks) -> None:
    before = _broken(httpx)
    page = httpx / "docs/advanced/transports.md"
    page.write_text(page.read_text().replace("## WSGI Transport", "## WSGI apps"))
    git(httpx, "add", "-A")
    refused = run_hooks(httpx, hooks)
    assert refused.returncode == 1
    assert "renamed to #wsgi-apps: 1 ID changed (CG402); 1 link (docs/index.md:71)" in (
        refused.stdout
    )
    _manual(httpx, hooks, "chunkgate-accept-moves")
    _manual(httpx, hooks, "chunkgate-fix-links")
    assert "(advanced/transports.md#wsgi-apps)" in (httpx / "docs/index.md").read_text()
    _commits(httpx, hooks)
    assert _broken(httpx) == before


@pytest.mark.slow
def test_a_page_with_a_known_problem_moves_without_no_verify(httpx: Path, hooks: Hooks) -> None:
    before = _broken(httpx)
    known = json.loads(cli_process(httpx, "check", "--format", "json").stdout)["known"]
    moving = next(
        v["path"] for v in known if v["path"].startswith("docs/") and "/" in v["path"][5:]
    )
    target = f"docs/moved/{moving.rpartition('/')[2]}"
    (httpx / "docs/moved").mkdir()
    git(httpx, "mv", moving, target)
    _manual(httpx, hooks, "chunkgate-accept-moves")
    _manual(httpx, hooks, "chunkgate-fix-links")
    _commits(httpx, hooks)
    report = json.loads(cli_process(httpx, "check", "--format", "json").stdout)
    assert report["violations"] == []
    assert target in {v["path"] for v in report["known"]}
    assert _broken(httpx) == before
