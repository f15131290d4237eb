from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
import yaml
from helpers import commit_all, git, pin_git_env, write

from chunkgate.ci_action import main

ROOT = Path(__file__).resolve().parent.parent
BODY = (
    "Install the package with pip before anything else, then run the setup command once "
    "so that the configuration file exists where the tool expects to find it later."
)


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_git_env(monkeypatch)


@pytest.fixture
def pull_request(git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A shallow checkout of a pull request that renames a heading, and its Actions env."""
    write(
        git_repo, "docs/a.md", f"# Guide\n\nThe guide for this project.\n\n## Install\n\n{BODY}\n"
    )
    base = commit_all(git_repo, "base")
    write(git_repo, "docs/a.md", f"# Guide\n\nThe guide for this project.\n\n## Setup\n\n{BODY}\n")
    commit_all(git_repo, "rename a heading")
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{git_repo}", os.fspath(checkout))
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "opened", "pull_request": {"base": {"sha": base}}}))
    monkeypatch.chdir(checkout)
    return {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_PATH": os.fspath(event),
        "GITHUB_STEP_SUMMARY": os.fspath(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": os.fspath(tmp_path / "output.txt"),
        "CHUNKGATE_CHECK": "false",
    }


def outputs(env: dict[str, str]) -> dict[str, str]:
    text = Path(env["GITHUB_OUTPUT"]).read_text()
    return dict(line.split("=", 1) for line in text.splitlines())


def test_unstable_id_fails_with_an_annotation_summary_and_outputs(
    pull_request: dict[str, str],
) -> None:
    out = StringIO()
    assert main(pull_request, out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "::error file=docs/a.md,line=5,title=chunkgate%3A unstable chunk ID::"
        "ID changed from docs/a.md#install to docs/a.md#setup: citations to docs/a.md#install "
        "break; keep the old ID with {#install} or run `chunkgate update --accept-moves`"
    )
    assert lines[-1] == (
        "::error title=chunkgate diff::chunkgate diff: 1 chunk ID changed without `moved_from`"
    )
    summary = Path(pull_request["GITHUB_STEP_SUMMARY"]).read_text()
    assert summary.startswith("### chunkgate diff `")
    assert "- ↪️ `docs/a.md#install` → `docs/a.md#setup` (body, 100%; **unstable**)" in summary
    assert outputs(pull_request) == {
        "added": "0",
        "removed": "0",
        "modified": "0",
        "moved": "1",
        "unstable": "1",
        "exit-code": "1",
    }


def test_fail_on_decides_the_level_and_the_exit_code(pull_request: dict[str, str]) -> None:
    out = StringIO()
    assert main({**pull_request, "CHUNKGATE_FAIL_ON": "removed"}, out) == 0
    assert out.getvalue().startswith("::warning file=docs/a.md,line=5,")
    assert outputs(pull_request)["exit-code"] == "0"


def test_missing_base_without_a_remote_is_exit_2_with_the_fix(
    pull_request: dict[str, str],
) -> None:
    git(Path.cwd(), "remote", "remove", "origin")
    out = StringIO()
    assert main(pull_request, out) == 2
    (line,) = out.getvalue().splitlines()
    assert line.startswith("::error title=chunkgate diff::this is a shallow clone without ")
    assert line.endswith(
        "set `fetch-depth: 0` on actions/checkout (or `fetch-depth: 2` to diff HEAD~1)"
    )
    assert outputs(pull_request) == {"exit-code": "2"}


def test_a_bad_input_is_exit_2(pull_request: dict[str, str]) -> None:
    out = StringIO()
    assert main({**pull_request, "CHUNKGATE_DIFF": "yes"}, out) == 2
    assert "CHUNKGATE_DIFF: expected true or false" in out.getvalue()
    out = StringIO()
    assert main({**pull_request, "CHUNKGATE_FAIL_ON": "nope"}, out) == 2
    assert "--fail-on: unknown nope" in out.getvalue()


def test_check_runs_too_and_writes_sarif(pull_request: dict[str, str], tmp_path: Path) -> None:
    sarif = tmp_path / "reports" / "chunkgate.sarif"
    env = {**pull_request, "CHUNKGATE_CHECK": "true", "CHUNKGATE_SARIF_FILE": os.fspath(sarif)}
    out = StringIO()
    assert main(env, out) == 1
    written = outputs(env)
    assert {"errors", "warnings", "unstable", "exit-code"} <= set(written)
    assert written["unstable"] == "1"
    assert json.loads(sarif.read_text())["version"] == "2.1.0"


def test_the_module_runs_as_a_script(pull_request: dict[str, str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "chunkgate.ci_action"],
        env={**os.environ, **pull_request},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("::error file=docs/a.md,line=5,")


def action() -> dict[str, object]:
    with (ROOT / "action.yml").open(encoding="utf-8") as handle:
        loaded = yaml.safe_load(handle)
    assert isinstance(loaded, dict)
    return loaded


def test_action_is_composite_and_passes_every_input_through_env() -> None:
    spec = action()
    runs = spec["runs"]
    assert isinstance(runs, dict)
    assert runs["using"] == "composite"
    steps = runs["steps"]
    inputs = spec["inputs"]
    assert isinstance(inputs, dict)
    assert set(inputs) == {"fail-on", "config", "sarif-file", "check", "diff", "python"}
    assert inputs["fail-on"]["default"] == "unstable"
    passed: set[str] = set()
    for step in steps:
        assert "${{ inputs" not in step["run"], step["name"]
        assert "${{" not in step["run"], step["name"]
        for value in step.get("env", {}).values():
            passed.update(re.findall(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", value))
    assert passed == set(inputs)
    assert '"$GITHUB_ACTION_PATH"' in steps[0]["run"]
    assert "-m chunkgate.ci_action" in steps[-1]["run"]


def test_action_env_names_are_the_ones_ci_action_reads() -> None:
    source = (ROOT / "chunkgate" / "ci_action.py").read_text()
    for step in action()["runs"]["steps"]:  # type: ignore[index]
        for name in step.get("env", {}):
            if name != "CHUNKGATE_PYTHON":
                assert f'"{name}"' in source


def test_documented_workflow_uses_checkout_and_the_action() -> None:
    doc = (ROOT / "docs" / "github-action.md").read_text()
    assert "on: pull_request" in doc
    assert "actions/checkout@v4" in doc
    assert "fetch-depth: 0" in doc
    assert "upload-sarif" in doc
    for name in action()["inputs"]:  # type: ignore[union-attr]
        assert f"| `{name}` |" in doc
