"""The real pre-commit running this checkout's hooks in a doc repo: `pre-commit run` with a
snapshot of the checkout, uncommitted changes included, as the hook repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml
from helpers import (
    MANIFEST,
    commit_all,
    git,
    git_env,
    make_repo,
    manifest_snapshot,
    manifest_text,
    update_in,
    write,
)

CHECKOUT = Path(__file__).resolve().parents[2]
SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"
PRE_COMMIT = shutil.which("pre-commit") or os.path.join(
    os.path.dirname(sys.executable), "pre-commit"
)


class Hooks(NamedTuple):
    """The checkout as pre-commit installs it: a commit of its work tree, and one store
    (`pre-commit try-repo` would build the environment again on every call). The tests
    that run the hooks are slow: the environment takes 20 s and more to install."""

    folder: Path
    repo: Path
    rev: str


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    folder = tmp_path_factory.mktemp("pre-commit")
    snapshot = folder / "snapshot"
    git(folder, "clone", "-q", os.fspath(CHECKOUT), os.fspath(snapshot))
    changes = subprocess.run(
        ["git", "diff", "--binary", "HEAD"],
        cwd=CHECKOUT,
        env=git_env(),
        capture_output=True,
        check=True,
    ).stdout
    if changes:  # what is being edited is what is tested
        git(snapshot, "apply", "--whitespace=nowarn", input=changes)
    git(snapshot, "commit", "-q", "--allow-empty", "-am", "the work tree")
    return Hooks(folder, snapshot, git(snapshot, "rev-parse", "HEAD").strip())


def run_hooks(
    repo: Path,
    hooks: Hooks,
    hook: str = "chunkgate",
    *options: str,
    verbose: bool = False,
    args: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``pre-commit run`` of one hook of the checkout (every hook when ``hook`` is empty),
    configured from outside ``repo``; ``args``: the user's own ``args:`` for the hooks."""
    manifest = yaml.safe_load((hooks.repo / ".pre-commit-hooks.yaml").read_text())
    ids = [hook] if hook else [entry["id"] for entry in manifest]
    config = hooks.folder / f"{hook or 'all'}.yaml"
    listed = [{"id": i, **({"args": list(args)} if args else {})} for i in ids]
    repos = [{"repo": hooks.repo.as_posix(), "rev": hooks.rev, "hooks": listed}]
    config.write_text(yaml.safe_dump({"repos": repos}))
    arguments = ["run", "--config", os.fspath(config), *([hook] if hook else [])]
    arguments += ["-v"] if verbose else []
    return pre_commit(repo, hooks.folder / "home", *arguments, *options)


def try_repo(repo: Path, home: Path, hook: str, *options: str) -> subprocess.CompletedProcess[str]:
    """`pre-commit try-repo` of one hook of this checkout, as a user first tries it (the
    environment is built again on every call)."""
    return pre_commit(repo, home, "try-repo", os.fspath(CHECKOUT), hook, *options)


def pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``pre-commit ARGS`` in ``repo``, its store in ``home``, not under GitHub."""
    env = {**git_env(), "PRE_COMMIT_HOME": os.fspath(home), "NO_COLOR": "1"}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [PRE_COMMIT, *args, "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture
def doc_repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    write(repo, "docs/guide.md", f"# Guide\n\n{SECTION}\n## Install\n\n{SECTION}")
    write(repo, "docs/old.md", f"# Old page\n\n{SECTION}")
    update_in(repo)
    commit_all(repo, "docs and manifest")
    return repo


def test_hooks_file_matches_the_spec() -> None:
    hooks = yaml.safe_load((CHECKOUT / ".pre-commit-hooks.yaml").read_text())
    assert [hook["id"] for hook in hooks] == [
        "chunkgate",
        "chunkgate-check",
        "chunkgate-accept-moves",
        "chunkgate-fix-links",
    ]
    for hook in hooks:
        assert hook["language"] == "python"
        assert hook["types"] == ["text"]
        assert hook["require_serial"] is True
        assert hook["always_run"] is True
        assert hook["minimum_pre_commit_version"] == "3.2.0"
    assert hooks[0]["entry"] == "chunkgate check --update --hook"
    assert hooks[1]["entry"] == "chunkgate check --hook"
    assert hooks[2]["entry"] == "chunkgate update --accept-moves"
    assert hooks[2]["stages"] == ["manual"]
    assert hooks[2]["pass_filenames"] is False
    assert hooks[3]["entry"] == "chunkgate fix-links"
    assert hooks[3]["stages"] == ["manual"]
    assert hooks[3]["pass_filenames"] is False
    # Not commit-msg or post-* stages: with those hooks installed it would run twice.
    # The writing hook stays off pre-push (the commit is made by then); the read-only
    # one checks a push against the remote's manifest (PRE_COMMIT_FROM_REF).
    assert hooks[0]["stages"] == ["pre-commit", "pre-merge-commit", "manual"]
    assert hooks[1]["stages"] == ["pre-commit", "pre-merge-commit", "pre-push", "manual"]


@pytest.mark.slow
def test_oversized_section_fails_the_commit(doc_repo: Path, hooks: Hooks) -> None:
    write(doc_repo, "docs/guide.md", f"# Guide\n\n{SECTION}\n## Install\n\n" + "word " * 500 + "\n")
    git(doc_repo, "add", "-A")
    result = run_hooks(doc_repo, hooks)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "CG201 oversized" in result.stdout
    assert "over size.max 2,000" in result.stdout
    assert "docs/guide.md" in result.stdout


@pytest.mark.slow
def test_deleting_a_file_updates_the_manifest_then_passes(doc_repo: Path, hooks: Hooks) -> None:
    git(doc_repo, "rm", "-q", "docs/old.md")
    first = run_hooks(doc_repo, hooks)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "updated chunkgate.manifest/" in first.stdout
    manifest = manifest_text(doc_repo)
    assert "docs/old.md" not in manifest
    assert "docs/guide.md#install" in manifest
    git(doc_repo, "add", "-A", MANIFEST)
    second = run_hooks(doc_repo, hooks, verbose=True)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "CG403 removed-id" in second.stdout  # a warning: the page's IDs are gone
    git(doc_repo, "commit", "-q", "-m", "remove the old page")
    assert run_hooks(doc_repo, hooks).returncode == 0


@pytest.mark.slow
def test_read_only_hook_never_writes(doc_repo: Path, hooks: Hooks) -> None:
    write(doc_repo, "docs/new.md", f"# New\n\n{SECTION}")
    git(doc_repo, "add", "-A")
    before = manifest_snapshot(doc_repo)
    result = run_hooks(doc_repo, hooks, "chunkgate-check")
    assert result.returncode == 1
    assert "CG401" in result.stdout
    assert manifest_snapshot(doc_repo) == before


def test_autoupdate_fills_in_the_rev_the_readme_leaves_open(tmp_path: Path) -> None:
    """The README's hook snippet says `rev: REV`; `pre-commit autoupdate` pins a real one."""
    repo = make_repo(tmp_path)
    config = repo / ".pre-commit-config.yaml"
    config.write_text(
        f"repos:\n  - repo: {CHECKOUT.as_posix()}\n"
        "    rev: REV\n    hooks:\n      - id: chunkgate\n"
    )
    env = {**git_env(), "PRE_COMMIT_HOME": os.fspath(tmp_path / "home")}
    result = subprocess.run(
        [PRE_COMMIT, "autoupdate", "--repo", CHECKOUT.as_posix()],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rev = yaml.safe_load(config.read_text())["repos"][0]["rev"]
    tag = subprocess.run(
        ["git", "describe", "--tags", "--abbrev=0", "HEAD"],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        check=False,
    )
    expected = tag.stdout.strip() if tag.returncode == 0 else git(CHECKOUT, "rev-parse", "HEAD")
    assert rev == expected.strip()


@pytest.mark.slow
def test_the_hook_does_not_run_again_at_the_commit_msg_stage(
    doc_repo: Path, hooks: Hooks, tmp_path: Path
) -> None:
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("a message\n")
    write(doc_repo, "docs/guide.md", f"# Guide\n\n{SECTION}\n## Install\n\n" + "word " * 500)
    git(doc_repo, "add", "-A")
    stage = ("--hook-stage", "commit-msg", "--commit-msg-filename", os.fspath(message))
    result = run_hooks(doc_repo, hooks, "", *stage)  # every hook of the repo
    # Either would fail (an oversized section) if it ran; neither is a commit-msg hook.
    assert result.returncode == 0, result.stdout + result.stderr
    assert "CG201" not in result.stdout
    assert "chunkgate" not in result.stdout


def rename_with_no_verify(repo: Path) -> tuple[str, str]:
    """A commit that renames a heading and rewrites the manifest, hooks skipped."""
    before = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "docs/guide.md", f"# Guide\n\n{SECTION}\n## Installing\n\n{SECTION}")
    update_in(repo, "-q")
    git(repo, "commit", "-q", "--no-verify", "-am", "rename a heading, manifest and all")
    return before, git(repo, "rev-parse", "HEAD").strip()


@pytest.mark.slow
@pytest.mark.parametrize("hook", ["chunkgate", "chunkgate-check"])
def test_from_ref_to_ref_fails_on_a_move_committed_with_no_verify(
    doc_repo: Path, hooks: Hooks, hook: str
) -> None:
    start, end = rename_with_no_verify(doc_repo)
    # Against HEAD's manifest the commit looks clean: that manifest already has the new ID.
    assert run_hooks(doc_repo, hooks, hook, "--all-files").returncode == 0
    result = run_hooks(doc_repo, hooks, hook, "--from-ref", start, "--to-ref", end)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "CG402 unstable-id" in result.stdout
    assert "docs/guide.md#install" in result.stdout
    # An autofix commit of a rewritten manifest changes nothing: only moved_from does.
    update_in(doc_repo, "-q")
    git(doc_repo, "commit", "-q", "--allow-empty", "--no-verify", "-am", "autofix")
    end = git(doc_repo, "rev-parse", "HEAD").strip()
    again = run_hooks(doc_repo, hooks, hook, "--from-ref", start, "--to-ref", end)
    assert again.returncode == 1
    assert "CG402 unstable-id" in again.stdout
    assert f"--accept-moves --baseline {start[:12]}" in again.stdout  # what to run
    update_in(doc_repo, "-q", "--accept-moves", "--baseline", start)
    git(doc_repo, "commit", "-q", "--no-verify", "-am", "record the move")
    end = git(doc_repo, "rev-parse", "HEAD").strip()
    fixed = run_hooks(doc_repo, hooks, hook, "--from-ref", start, "--to-ref", end)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def _fence(lines: int) -> str:
    """A fenced code block of one long line: unsplittable, so over size.max it is an
    oversized chunk."""
    body = "; ".join(
        f"value_{n} = compute_something_longer({n}, factor={n * 3})" for n in range(lines)
    )
    return f"```python\n{body}\n```\n"


@pytest.mark.slow
def test_adopting_on_a_repository_with_problems_takes_one_commit(
    tmp_path: Path, hooks: Hooks
) -> None:
    """init, update, commit passes; known problems pass; a new one fails; a fix shrinks."""
    repo = make_repo(tmp_path)
    write(
        repo, "docs/big.md", f"# Big\n\n{SECTION}\n## Data\n\n{_fence(60)}\n## Other\n\n{SECTION}"
    )
    write(repo, "docs/copy-a.md", f"# Same\n\n{SECTION}")
    write(repo, "docs/copy-b.md", f"# Same\n\n{SECTION}")
    for command in (["init"], ["update"]):
        subprocess.run(
            [sys.executable, "-m", "chunkgate", *command],
            cwd=repo,
            env=git_env(),
            check=False,
            capture_output=True,
        )
    git(repo, "add", "-A")
    adopted = run_hooks(repo, hooks, "chunkgate", "--all-files", verbose=True)
    assert adopted.returncode == 0, adopted.stdout + adopted.stderr
    assert "known" in adopted.stdout  # one line says what the record holds
    git(repo, "commit", "-q", "-m", "adopt chunkgate")

    # A commit touching the file with the recorded oversized fence passes.
    write(
        repo,
        "docs/big.md",
        f"# Big\n\nEdited. {SECTION}\n## Data\n\n{_fence(60)}\n## Other\n\n{SECTION}",
    )
    git(repo, "add", "-A")
    touched = run_hooks(repo, hooks, verbose=True)
    if touched.returncode == 1:  # the shard was rewritten (new hash): stage it, run again
        git(repo, "add", "-A")
        touched = run_hooks(repo, hooks, verbose=True)
    assert touched.returncode == 0, touched.stdout + touched.stderr
    assert "CG201" not in touched.stdout.replace("known", "") or "1 known" in touched.stdout
    git(repo, "commit", "-q", "-m", "edit the big page")

    # A new oversized unsplittable block fails, named.
    write(repo, "docs/new.md", f"# New\n\n{SECTION}\n## Dump\n\n{_fence(70)}")
    git(repo, "add", "-A")
    failed = run_hooks(repo, hooks)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "CG201 oversized" in failed.stdout
    assert "docs/new.md#dump" in failed.stdout
    assert "docs/big.md" not in failed.stdout  # the known problem is not reported again
    git(repo, "rm", "-q", "--cached", "docs/new.md")
    (repo / "docs/new.md").unlink()

    # Fixing the known problem and committing shrinks the record.
    big_shard = repo / MANIFEST / "docs" / "big.md.jsonl"
    assert '"CG201"' in big_shard.read_text()
    write(repo, "docs/big.md", f"# Big\n\n{SECTION}\n## Data\n\n{_fence(5)}\n## Other\n\n{SECTION}")
    git(repo, "add", "-A")
    fixing = run_hooks(repo, hooks)
    assert fixing.returncode == 1  # the hook rewrote the shard
    assert '"CG201"' not in big_shard.read_text()
    git(repo, "add", "-A")
    assert run_hooks(repo, hooks).returncode == 0


@pytest.mark.slow
def test_a_move_is_acknowledged_through_pre_commit_alone(doc_repo: Path, hooks: Hooks) -> None:
    write(doc_repo, "docs/guide.md", f"# Guide\n\n{SECTION}\n## Installing\n\n{SECTION}")
    git(doc_repo, "add", "-A")
    refused = run_hooks(doc_repo, hooks)
    assert refused.returncode == 1
    assert "CG402 unstable-id" in refused.stdout
    advice = "pre-commit run chunkgate-accept-moves --hook-stage manual"
    assert advice in refused.stdout
    accepted = run_hooks(doc_repo, hooks, "chunkgate-accept-moves", "--hook-stage", "manual")
    assert "moved_from" in manifest_text(doc_repo), accepted.stdout + accepted.stderr
    git(doc_repo, "add", "-A")
    passed = run_hooks(doc_repo, hooks)
    assert passed.returncode == 0, passed.stdout + passed.stderr


@pytest.mark.slow
def test_try_repo_runs_this_checkout_as_a_user_tries_it(doc_repo: Path, tmp_path: Path) -> None:
    """`pre-commit try-repo` on this checkout, as a user first tries it: the read-only
    hook passes the committed docs and fails once a cited section's ID changes."""
    home = tmp_path / "home"
    clean = try_repo(doc_repo, home, "chunkgate-check", "--files", "docs/guide.md")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    write(doc_repo, "docs/guide.md", f"# Guide\n\n{SECTION}\n## Installing\n\n{SECTION}")
    renamed = try_repo(doc_repo, home, "chunkgate-check", "--files", "docs/guide.md")
    assert renamed.returncode == 1, renamed.stdout + renamed.stderr
    assert "docs/guide.md#install" in renamed.stdout


@pytest.mark.slow
def test_a_file_named_like_an_option_is_a_file_through_pre_commit(
    doc_repo: Path, hooks: Hooks
) -> None:
    # Issue 44: pre-commit runs `entry args... files...`, with no `--` before the files:
    # `-rf.md` was read as options (exit 2, "No such option") and blocked the commit.
    write(doc_repo, "-rf.md", f"# Dashed\n\n{SECTION}")
    git(doc_repo, "add", "-A")
    first = run_hooks(doc_repo, hooks, verbose=True)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "No such option" not in first.stdout
    assert "updated chunkgate.manifest/ (1 file changed)" in first.stdout
    assert (doc_repo / MANIFEST / "-rf.md.jsonl").is_file()
    git(doc_repo, "add", "-A")
    # The user's own `args:` stay options, before the files pre-commit adds.
    again = run_hooks(doc_repo, hooks, "chunkgate-check", verbose=True, args=["--strict", "-q"])
    assert again.returncode == 0, again.stdout + again.stderr
    write(doc_repo, "-rf.md", f"# Dashed\n\n{'x' * 3000}\n")
    git(doc_repo, "add", "-A")
    failed = run_hooks(doc_repo, hooks, "chunkgate-check", args=["--strict", "-q"])
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "-rf.md:1: error CG401" in failed.stdout
    assert "run `chunkgate update ./-rf.md`" in failed.stdout  # not read as options


@pytest.mark.slow
def test_try_repo_takes_a_file_named_like_an_option(doc_repo: Path, tmp_path: Path) -> None:
    """`pre-commit try-repo` on this checkout with a staged file ``-rf.md``."""
    write(doc_repo, "-rf.md", f"# Dashed\n\n{SECTION}")
    git(doc_repo, "add", "-A")
    tried = try_repo(doc_repo, tmp_path / "home", "chunkgate", "-v")
    assert tried.returncode == 1, tried.stdout + tried.stderr  # the manifest was written
    assert "No such option" not in tried.stdout
    assert (doc_repo / MANIFEST / "-rf.md.jsonl").is_file()
