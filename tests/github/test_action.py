"""The action's driver on an emulated runner: bare origins with pull request refs,
checkouts made as actions/checkout makes them, event payloads and the step's files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml
from helpers import commit_all, git, git_env, make_repo, pin_git_env, update_in, write
from runner import (
    bare,
    checkout,
    outputs,
    pull_refs,
    pull_request_payload,
    push_payload,
    step_env,
    url,
)

from chunkgate.github.action import main

ROOT = Path(__file__).resolve().parents[2]
BODY = (
    "Install the package with pip before anything else, then run the setup command once "
    "so that the configuration file exists where the tool expects to find it later."
)
USAGE = "Run the command in the folder of the project, and read what it prints about each file."
NOTES = "These notes say what changed between the releases, and why it was worth changing."


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


def guide(install: str = "Install") -> str:
    intro = "The guide for this project, and where to start reading it."
    return f"# Guide\n\n{intro}\n\n## {install}\n\n{BODY}\n\n## Usage\n\n{USAGE}\n"


class Project(NamedTuple):
    tmp: Path
    origin: Path  # the bare repository GitHub hosts
    m1: str  # main, where the pull request starts
    f1: str  # the pull request's head: renames a heading, manifest rewritten (no moved_from)
    m2: str  # main since: a new page
    merge: str  # refs/pull/7/merge


@pytest.fixture
def project(tmp_path: Path) -> Project:
    work = make_repo(tmp_path)
    write(work, "docs/a.md", guide())
    write(work, "docs/b.md", f"# Notes\n\n{NOTES}\n")
    update_in(work)
    m1 = commit_all(work, "docs")
    git(work, "checkout", "-q", "-b", "feature")
    write(work, "docs/a.md", guide("Setup"))
    update_in(work)
    f1 = commit_all(work, "rename a heading")
    git(work, "checkout", "-q", "main")
    write(work, "docs/c.md", f"# Changes\n\n{NOTES}\n")
    update_in(work)
    m2 = commit_all(work, "a new page on main")
    origin = bare(tmp_path, work)
    merge = pull_refs(origin, 7, f1)
    return Project(tmp_path, origin, m1, f1, m2, merge)


def run(env: dict[str, str], where: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(where)
    out = StringIO()
    status = main(env, out)
    return status, out.getvalue()


def pr_env(project: Project, workspace: Path, **payload: str) -> dict[str, str]:
    event = pull_request_payload(7, base_sha=project.m2, head_sha=project.f1, **payload)
    return step_env(
        project.tmp,
        "pull_request",
        event,
        sha=project.merge,
        ref="refs/pull/7/merge",
        workspace=workspace,
    )


# -- which base, for each event and checkout --


@pytest.mark.parametrize("depth", [1, 0], ids=["depth-1", "depth-0"])
def test_merge_checkout_compares_with_the_merge_commits_first_parent(
    project: Project, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(
        url(project.origin),
        workspace,
        project.merge,
        remote_ref="refs/remotes/pull/7/merge",
        depth=depth,
    )
    env = {**pr_env(project, workspace), "CHUNKGATE_FAIL_ON": "unstable,removed"}
    status, out = run(env, workspace, monkeypatch)
    assert status == 1, out
    assert f"chunkgate diff: comparing with the test merge's first parent {project.m2[:12]}" in out
    assert outputs(env) == {
        "errors": "0",
        "warnings": "0",
        "added": "0",
        "removed": "0",
        "modified": "0",
        "moved": "1",
        "unstable": "1",
        "exit-code": "1",
    }


@pytest.mark.parametrize("depth", [1, 0], ids=["depth-1", "depth-0"])
def test_head_checkout_compares_with_the_merge_base(
    project: Project, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ref: ${{ github.event.pull_request.head.sha }}``: base.sha would show main's
    new page as removed, and fail ``fail-on: removed``."""
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.f1, remote_ref=None, depth=depth)
    env = {**pr_env(project, workspace), "CHUNKGATE_FAIL_ON": "removed"}
    status, out = run(env, workspace, monkeypatch)
    assert status == 0, out
    assert (
        f"comparing with the merge base {project.m1[:12]} of HEAD and the pull request's base"
        in out
    )
    assert outputs(env)["removed"] == "0"
    assert outputs(env)["unstable"] == "1"
    assert out.startswith("::warning file=docs/a.md,line=5,endLine=7,")


def fork(project: Project) -> Path:
    """The contributor's fork: main as it was when they branched, and their branch."""
    fork = project.tmp / "fork.git"
    git(project.tmp, "init", "-q", "--bare", os.fspath(fork))
    git(project.origin, "push", "-q", url(fork), f"{project.m1}:refs/heads/main")
    git(project.origin, "push", "-q", url(fork), f"{project.f1}:refs/heads/feature")
    return fork


def test_a_forks_merge_checkout_works_like_any_other(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    # actions/checkout's default checks out the base repository's refs/pull/N/merge.
    fork(project)
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = pr_env(project, workspace, head_repo="someone/docs")
    status, out = run(env, workspace, monkeypatch)
    assert status == 1
    assert f"the test merge's first parent {project.m2[:12]}" in out


def test_a_fork_checkout_fetches_the_base_from_the_base_repository(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `repository: ${{ github.event.pull_request.head.repo.full_name }}`: origin is the
    # fork, which has never seen main's new commit.
    workspace = project.tmp / "ws"
    checkout(url(fork(project)), workspace, project.f1, remote_ref=None)
    env = pr_env(project, workspace, head_repo="someone/docs", base_url=url(project.origin))
    status, out = run(env, workspace, monkeypatch)
    assert status == 1, out
    assert f"the merge base {project.m1[:12]} of HEAD and the pull request's base" in out
    assert outputs(env)["removed"] == "0"


def test_an_unreachable_fork_base_says_where_it_is_and_what_git_said(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(url(fork(project)), workspace, project.f1, remote_ref=None)
    gone = url(project.tmp / "gone.git")
    env = pr_env(project, workspace, head_repo="someone/docs", base_url=gone)
    status, out = run(env, workspace, monkeypatch)
    assert status == 2
    (line,) = [line for line in out.splitlines() if line.startswith("::error")]
    assert line.startswith("::error title=chunkgate diff::the pull request's base (the pull ")
    assert "comes from the fork someone/docs; its base commit is in owner/docs, which " in line
    assert f"commit {project.m2} is not in this clone and could not be fetched" in line
    assert "not our ref" in line or "couldn't find remote ref" in line or "upload-pack" in line
    assert "does not appear to be a git repository" in line  # the base repository's answer
    assert "fetch-depth" not in line  # it would not help
    assert outputs(env)["exit-code"] == "2"


def test_push_to_main_compares_with_before(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(
        url(project.origin),
        workspace,
        project.m2,
        remote_ref="refs/remotes/origin/main",
        branch="main",
    )
    event = push_payload(ref="refs/heads/main", before=project.m1, after=project.m2)
    env = step_env(
        project.tmp, "push", event, sha=project.m2, ref="refs/heads/main", workspace=workspace
    )
    status, out = run(env, workspace, monkeypatch)
    assert status == 0, out
    assert f"comparing with the branch's previous tip {project.m1[:12]}" in out
    assert outputs(env)["added"] == "1"


def feature_checkout(project: Project) -> Path:
    workspace = project.tmp / "ws"
    checkout(
        url(project.origin),
        workspace,
        project.f1,
        remote_ref="refs/remotes/origin/feature",
        branch="feature",
    )
    git(project.origin, "update-ref", "refs/heads/feature", project.f1)
    return workspace


def test_push_creating_a_branch_compares_with_the_default_branch(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = feature_checkout(project)
    event = push_payload(ref="refs/heads/feature", before="0" * 40, after=project.f1, created=True)
    env = step_env(
        project.tmp, "push", event, sha=project.f1, ref="refs/heads/feature", workspace=workspace
    )
    status, out = run(env, workspace, monkeypatch)
    assert status == 1, out
    assert f"the merge base {project.m1[:12]} of HEAD and origin/main" in out
    assert outputs(env)["unstable"] == "1"
    assert outputs(env)["removed"] == "0"


def test_push_creating_the_default_branch_has_nothing_to_compare(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(
        url(project.origin),
        workspace,
        project.m2,
        remote_ref="refs/remotes/origin/main",
        branch="main",
    )
    event = push_payload(ref="refs/heads/main", before="0" * 40, after=project.m2, created=True)
    env = step_env(
        project.tmp, "push", event, sha=project.m2, ref="refs/heads/main", workspace=workspace
    )
    status, out = run(env, workspace, monkeypatch)
    assert status == 0, out
    assert (
        "::notice::chunkgate diff skipped: this push created main, the default branch: "
        "nothing to compare"
    ) in out.splitlines()
    assert outputs(env)["added"] == "0"


def test_a_force_push_whose_old_tip_is_gone_names_the_base_input(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = feature_checkout(project)
    lost = "1" * 40  # the tip the force-push replaced: no longer anywhere
    event = push_payload(ref="refs/heads/feature", before=lost, after=project.f1, forced=True)
    env = step_env(
        project.tmp, "push", event, sha=project.f1, ref="refs/heads/feature", workspace=workspace
    )
    status, out = run(env, workspace, monkeypatch)
    assert status == 2
    (line,) = [line for line in out.splitlines() if line.startswith("::error")]
    assert f"the push was forced and its old tip {lost} is gone from origin (" in line
    assert line.endswith(
        "name the base with the action's `base` input, e.g. `base: main...` (the branch's "
        "changes since it left the default branch)"
    )
    # ...and the fix works, in the same depth-1 checkout.
    env = {**env, "CHUNKGATE_BASE": "main..."}
    Path(env["GITHUB_OUTPUT"]).write_text("")
    status, out = run(env, workspace, monkeypatch)
    assert status == 1, out
    assert "comparing with main... (the `base` input)" in out
    assert outputs(env)["unstable"] == "1"


def test_a_shallow_clone_without_the_merge_base_says_fetch_depth_0(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Unrelated histories look, to a shallow clone, like a merge base too far down.
    (project.tmp / "other").mkdir()
    other = make_repo(project.tmp / "other")
    write(other, "x.md", "# X\n\nSomething else entirely, long enough to be a chunk.\n")
    unrelated = commit_all(other)
    git(project.origin, "fetch", "-q", os.fspath(other), f"{unrelated}:refs/heads/unrelated")
    workspace = feature_checkout(project)
    env = pr_env(project, workspace)
    event = pull_request_payload(7, base_sha=unrelated, head_sha=project.f1)
    Path(env["GITHUB_EVENT_PATH"]).write_text(__import__("json").dumps(event))
    status, out = run(env, workspace, monkeypatch)
    assert status == 2
    (line,) = [line for line in out.splitlines() if line.startswith("::error")]
    assert "set `fetch-depth: 0` on actions/checkout, so that the whole history is there" in line


# -- checkouts under path: --


def test_a_checkout_under_path_needs_working_directory(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    workspace.mkdir()
    checkout(
        url(project.origin),
        workspace / "docs-repo",
        project.merge,
        remote_ref="refs/remotes/pull/7/merge",
    )
    env = pr_env(project, workspace)
    status, out = run(env, workspace, monkeypatch)
    assert status == 2
    assert out.splitlines()[0] == (
        f"::error title=chunkgate::not a git repository: {workspace.resolve()}; actions/checkout "
        "put one in docs-repo (its `path:`): set the action's `working-directory: docs-repo`"
    )
    assert outputs(env)["errors"] == "0"  # every output is there, never empty
    Path(env["GITHUB_OUTPUT"]).write_text("")
    env["CHUNKGATE_WORKING_DIRECTORY"] = "docs-repo"
    status, out = run(env, workspace, monkeypatch)
    assert status == 1, out
    assert "CG401" not in out
    assert outputs(env)["errors"] == "0"
    assert outputs(env)["unstable"] == "1"


# -- annotations within the step's caps --


def test_the_caps_are_shared_and_spent_by_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """36 check errors, 42 warnings, 12 unstable IDs: the failure reason and the unstable
    IDs are shown, the oversized sections wait, and a last notice counts the rest."""
    work = make_repo(tmp_path)
    # A 512-token model: each oversized section's embed text is over it, an error.
    write(work, ".chunkgate.yaml", "size: {limit: 512}\n")
    renamed = "".join(f"## Part {n}\n\n{BODY} ({n})\n\n" for n in range(12))
    write(work, "docs/a.md", f"# Guide\n\n{USAGE}\n\n{renamed}")
    update_in(work)
    base = commit_all(work)
    write(work, "docs/a.md", f"# Guide\n\n{USAGE}\n\n" + renamed.replace("## Part", "## Chapter"))
    write(work, "docs/big.md", "".join(f"## Big {n}\n\n{'word ' * 450}\n\n" for n in range(36)))
    write(work, "docs/small.md", "".join(f"## Small {n}\n\nTiny.\n\n" for n in range(42)))
    update_in(work)
    head = commit_all(work)
    origin = bare(tmp_path, work)
    merge = pull_refs(origin, 3, head)
    git(origin, "update-ref", "refs/heads/main", base)
    merge = pull_refs(origin, 3, head)
    workspace = tmp_path / "ws"
    checkout(url(origin), workspace, merge, remote_ref="refs/remotes/pull/3/merge")
    env = step_env(
        tmp_path,
        "pull_request",
        pull_request_payload(3, base_sha=base, head_sha=head),
        sha=merge,
        ref="refs/pull/3/merge",
        workspace=workspace,
    )
    status, out = run(env, workspace, monkeypatch)
    assert status == 1
    lines = out.splitlines()
    errors = [line for line in lines if line.startswith("::error")]
    warnings = [line for line in lines if line.startswith("::warning")]
    notices = [line for line in lines if line.startswith("::notice")]
    assert len(errors) == 9  # the tenth is the runner's "Process completed with exit code 1"
    assert errors[0] == (
        "::error title=chunkgate diff::chunkgate diff: 12 chunk IDs changed without `moved_from`"
    )
    assert all("title=chunkgate%3A unstable chunk ID" in line for line in errors[1:])
    assert len(warnings) == 10
    assert all("title=CG202 undersized" in line for line in warnings)
    assert notices == [
        "::notice title=chunkgate%3A more findings::40 more errors and 32 more warnings not "
        "annotated (GitHub shows 10 of each level per step): all are listed in the job summary"
    ]
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text()
    assert "## chunkgate\n" in summary
    assert "### chunkgate diff" in summary
    assert summary.count("title=") == 0
    assert outputs(env)["errors"] == "36"
    assert outputs(env)["warnings"] == "42"


def test_an_unstable_id_is_annotated_once_without_a_committed_manifest_update(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pull request renamed the heading but never updated the manifest: check finds
    # CG402 against HEAD's manifest, and diff the same move against the base.
    work = project.tmp / "repo"
    git(work, "checkout", "-q", "feature")
    write(work, "docs/a.md", guide("Installing"))
    git(work, "commit", "-q", "-am", "rename again, manifest untouched")
    head = git(work, "rev-parse", "HEAD").strip()
    git(work, "push", "-q", os.fspath(project.origin), "feature")
    merge = pull_refs(project.origin, 8, head)
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, merge, remote_ref="refs/remotes/pull/8/merge")
    event = pull_request_payload(8, base_sha=project.m2, head_sha=head)
    env = step_env(
        project.tmp, "pull_request", event, sha=merge, ref="refs/pull/8/merge", workspace=workspace
    )
    status, out = run(env, workspace, monkeypatch)
    assert status == 1
    about = [line for line in out.splitlines() if "docs/a.md#installing" in line and "::" in line]
    assert len(about) == 1, out
    assert "CG401" in out  # the stale manifest is still reported


def test_report_only_passes_the_step_but_keeps_the_exit_code_output(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = {**pr_env(project, workspace), "CHUNKGATE_FAIL_ON_ERROR": "false"}
    status, out = run(env, workspace, monkeypatch)
    assert status == 0
    assert outputs(env)["exit-code"] == "1"
    # A passing step has no runner error: all ten error slots are chunkgate's.
    assert sum(line.startswith("::error") for line in out.splitlines()) == 2


def test_args_are_checked_as_the_command_checks_them(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = {**pr_env(project, workspace), "CHUNKGATE_DIFF": "false", "CHUNKGATE_ARGS": "docs/b.md"}
    status, out = run(env, workspace, monkeypatch)
    assert status == 0, out
    assert "chunkgate check: 1 file, 1 chunk: no problems" in out
    for args, message in [
        ("--update", "--update, --format and --output are the action's own"),
        ("--jobs nope", "args: Invalid value for '-j' / '--jobs'"),
        ("'unclosed", "CHUNKGATE_ARGS: No closing quotation"),
    ]:
        status, out = run({**env, "CHUNKGATE_ARGS": args}, workspace, monkeypatch)
        assert status == 2
        assert message in out


def test_the_job_summary_shows_the_size_histogram(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = {**pr_env(project, workspace), "CHUNKGATE_DIFF": "false"}
    run(env, workspace, monkeypatch)
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text()
    check, _, sizes = summary.partition("### chunk sizes (chars)\n")
    assert "3 files, 5 chunks" in check  # the same chunks as check's
    assert "\n5 chunks, " in sizes
    rows = [line for line in sizes.splitlines() if line.startswith("| ")][1:]
    assert [row.split("|")[1].strip() for row in rows] == [
        "< 40", "40–499", "500–999", "1,000–1,499", "1,500–2,000", "> 2,000"
    ]  # fmt: skip
    assert sum(int(row.split("|")[3]) for row in rows) == 5
    assert "█" in sizes


def test_the_site_input_checks_links_against_the_built_pages(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    write(workspace, "docs/d.md", "# D\n\nSee [the built part](a.md#built-only).\n")
    built = project.tmp / "built"
    write(built, "docs/a.html", '<h1 id="guide">Guide</h1><h2 id="built-only">B</h2>')
    env = {**pr_env(project, workspace), "CHUNKGATE_DIFF": "false"}
    _, out = run(env, workspace, monkeypatch)
    assert "a.md has no anchor #built-only" in out
    _, out = run({**env, "CHUNKGATE_SITE": str(built)}, workspace, monkeypatch)
    assert "#built-only" not in out
    status, out = run({**env, "CHUNKGATE_SITE": "nowhere"}, workspace, monkeypatch)
    assert status == 2
    assert "site: no built site at nowhere: build the docs first" in out


def test_a_bad_input_is_exit_2_with_every_output(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = {**pr_env(project, workspace), "CHUNKGATE_DIFF": "yes"}
    status, out = run(env, workspace, monkeypatch)
    assert status == 2
    assert "CHUNKGATE_DIFF: expected true or false" in out
    assert outputs(env) == {
        **dict.fromkeys(
            ("errors", "warnings", "added", "removed", "modified", "moved", "unstable"), "0"
        ),
        "exit-code": "2",
    }
    env = {**pr_env(project, workspace), "CHUNKGATE_FAIL_ON": "nope"}
    status, out = run(env, workspace, monkeypatch)
    assert status == 2
    assert "--fail-on: unknown nope" in out


def test_check_writes_sarif_with_its_category(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = {
        **pr_env(project, workspace),
        "CHUNKGATE_SARIF_FILE": "reports/chunkgate.sarif",
        "CHUNKGATE_SARIF_CATEGORY": "docs",
    }
    status, _ = run(env, workspace, monkeypatch)
    assert status == 1
    log = json.loads((workspace / "reports" / "chunkgate.sarif").read_text())
    assert log["version"] == "2.1.0"
    assert log["runs"][0]["automationDetails"] == {"id": "docs/"}


def test_a_token_keeps_one_pull_request_comment_with_the_diff(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fakegithub import serving

    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    with serving() as (fake, api):
        env = {**pr_env(project, workspace), "GITHUB_API_URL": api}
        run(env, workspace, monkeypatch)
        assert fake.requests == []  # off by default
        env["CHUNKGATE_GITHUB_TOKEN"] = "t0ken"
        status, out = run(env, workspace, monkeypatch)
        assert status == 1
        assert "chunkgate: pull request comment created" in out
        status, out = run(env, workspace, monkeypatch)
        assert "chunkgate: pull request comment unchanged" in out
        (comment,) = fake.comments
        assert comment["body"].startswith("### chunkgate diff `")
        assert "`docs/a.md#install` → `docs/a.md#setup`" in comment["body"]
        assert comment["body"].endswith("<!-- chunkgate:diff -->\n")
        fake.refuse = 403  # a fork's read-only token: a warning, the run goes on
        status, out = run(env, workspace, monkeypatch)
        assert status == 1
        assert "::warning::pull request comment not written: GitHub API GET" in out


def test_the_module_runs_as_a_script(project: Project) -> None:
    workspace = project.tmp / "ws"
    checkout(url(project.origin), workspace, project.merge, remote_ref="refs/remotes/pull/7/merge")
    env = pr_env(project, workspace)
    proc = subprocess.run(
        [sys.executable, "-m", "chunkgate.github.action"],
        cwd=workspace,
        env={**git_env(), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("::error title=chunkgate diff::chunkgate diff: 1 chunk ID")


def action() -> dict[str, object]:
    with (ROOT / "action.yml").open(encoding="utf-8") as handle:
        loaded = yaml.safe_load(handle)
    assert isinstance(loaded, dict)
    return loaded


INPUTS = {
    "fail-on",
    "fail-on-error",
    "base",
    "args",
    "working-directory",
    "config",
    "sarif-file",
    "sarif-category",
    "check",
    "diff",
    "github-token",
    "version",
    "extras",
    "cache",
    "python",
    "site",
}
OUTPUTS = {"errors", "warnings", "added", "removed", "modified", "moved", "unstable", "exit-code"}


def test_action_is_composite_and_passes_every_input_through_env() -> None:
    spec = action()
    runs = spec["runs"]
    assert isinstance(runs, dict)
    assert runs["using"] == "composite"
    steps = runs["steps"]
    inputs = spec["inputs"]
    assert isinstance(inputs, dict)
    assert set(inputs) == INPUTS
    assert inputs["fail-on"]["default"] == "unstable"
    assert inputs["github-token"]["default"] == ""  # no comment unless asked for
    used: set[str] = set()
    for step in steps:
        if "run" in step:
            assert "${{" not in step["run"], step["name"]
        # Expressions only where no shell reads them: env values, `if:` and `with:`.
        for value in [
            *step.get("env", {}).values(),
            step.get("if", ""),
            *step.get("with", {}).values(),
        ]:
            used.update(re.findall(r"inputs\.([\w-]+)", str(value)))
    assert used == set(inputs)
    install = next(step for step in steps if step.get("name") == "Install chunkgate")
    assert '"$GITHUB_ACTION_PATH' in install["run"]
    assert "git+https://github.com/chunkgate/chunkgate@" in install["run"]
    assert "-m chunkgate.github.action" in steps[-1]["run"]


def test_every_output_is_declared_and_never_empty() -> None:
    outputs_ = action()["outputs"]
    assert isinstance(outputs_, dict)
    assert set(outputs_) == OUTPUTS
    for name, output in outputs_.items():
        assert re.fullmatch(
            rf"\$\{{\{{ steps\.run\.outputs\.{name} \|\| '\d' \}}\}}", output["value"]
        ), name
    from chunkgate.github.action import COUNTS

    assert {*COUNTS, "exit-code"} == OUTPUTS


def test_action_env_names_are_the_ones_the_driver_reads() -> None:
    source = (ROOT / "chunkgate" / "github" / "inputs.py").read_text()
    steps = action()["runs"]["steps"]  # type: ignore[index]
    for name in steps[-1]["env"]:
        assert f'"{name}"' in source


@pytest.mark.parametrize(
    ("version", "extras", "fails"),
    [
        pytest.param("", "", False, id="defaults"),
        pytest.param("v1.2.0", "tiktoken", False, id="tag-and-extra"),
        pytest.param("0123abc", "tiktoken, test", False, id="sha-and-extras"),
        pytest.param("--index-url=x", "", True, id="option-as-version"),
        pytest.param("v1; rm -rf /", "", True, id="shell-in-version"),
        pytest.param("", "tiktoken]", True, id="bad-extra"),
    ],
)
def test_the_prepare_step_checks_version_and_extras(
    tmp_path: Path, version: str, extras: str, fails: bool
) -> None:
    step = action()["runs"]["steps"][0]  # type: ignore[index]
    output = tmp_path / "output.txt"
    env = {
        **os.environ,
        "GITHUB_OUTPUT": os.fspath(output),
        "CHUNKGATE_PYTHON": sys.executable,
        "CHUNKGATE_VERSION": version,
        "CHUNKGATE_EXTRAS": extras,
    }
    proc = subprocess.run(
        ["bash", "-c", step["run"]], env=env, capture_output=True, text=True, check=False
    )
    if fails:
        assert proc.returncode == 2
        assert proc.stdout.startswith("::error title=chunkgate::")
        return
    assert proc.returncode == 0, proc.stdout + proc.stderr
    written = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert written["extras"] == extras.replace(" ", "")
    assert written["pip-cache"]


def test_documented_workflow_uses_checkout_and_the_action() -> None:
    doc = (ROOT / "docs" / "github-action.md").read_text()
    assert "on: pull_request" in doc
    assert "actions/checkout@v4" in doc
    assert "upload-sarif" in doc
    for name in action()["inputs"]:  # type: ignore[union-attr]
        assert f"| `{name}` |" in doc
    for name in OUTPUTS:
        assert f"`{name}`" in doc


@pytest.mark.parametrize("disabled", [False, True])
def test_chunkgates_cache_folder_is_cached_between_runs(tmp_path: Path, disabled: bool) -> None:
    """The install step names the folder chunkgate itself uses (the user's
    CHUNKGATE_CACHE_DIR kept), and the cache step keeps that folder: a fresh runner
    then reads each unchanged file's links and summary from it, not from the file."""
    steps = action()["runs"]["steps"]  # type: ignore[index]
    install = next(step for step in steps if step.get("id") == "install")
    (line,) = [line for line in install["run"].splitlines() if "results-cache=" in line]
    output = tmp_path / "output.txt"
    env = {**os.environ, "GITHUB_OUTPUT": os.fspath(output), "py": sys.executable}
    env["CHUNKGATE_CACHE_DIR"] = os.fspath(tmp_path / "mine")
    if disabled:
        env["CHUNKGATE_NO_CACHE"] = "1"
    proc = subprocess.run(
        ["bash", "-c", line], env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    expected = "" if disabled else os.fspath(tmp_path / "mine")
    assert output.read_text() == f"results-cache={expected}\n"
    (cache,) = [step for step in steps if step["name"] == "Cache chunkgate's results"]
    assert steps.index(install) < steps.index(cache) < len(steps) - 1  # before the run
    assert cache["uses"] == "actions/cache@v4"
    assert cache["with"]["path"] == "${{ steps.install.outputs.results-cache }}"
    assert "inputs.cache == 'true'" in cache["if"]
    assert "steps.install.outputs.results-cache != ''" in cache["if"]
    assert "github.sha" in cache["with"]["key"]
    assert cache["with"]["restore-keys"].splitlines()[-1] == "chunkgate-results-${{ runner.os }}-"
