"""chunkgate gates its own docs in CI: .github/workflows/docs.yml builds the site strictly
and runs this repository's own action (``uses: ./``) on it."""

from __future__ import annotations

import shlex
from typing import Any

import yaml
from docspages import ROOT


def _steps() -> list[dict[str, Any]]:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "docs.yml").read_text("utf-8"))
    # YAML 1.1 reads the key `on` as True.
    triggers = workflow.get("on", workflow.get(True))
    assert "pull_request" in triggers
    (job,) = workflow["jobs"].values()
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def test_the_docs_workflow_builds_strictly_then_runs_the_action_on_the_site() -> None:
    steps = _steps()
    uses = [step.get("uses", "") for step in steps]
    assert uses[0].startswith("actions/checkout@")
    runs = [shlex.split(step["run"]) for step in steps if "run" in step]
    (build,) = [run for run in runs if run[:2] == ["mkdocs", "build"]]
    assert "--strict" in build
    site = build[build.index("--site-dir") + 1]
    assert ["python", "scripts/gen_docs.py", "--check"] in runs
    assert any("pip" in run and "install" in run and "-e" in run for run in runs)
    action = steps[uses.index("./")]
    assert action["with"]["site"] == site
    built = next(index for index, step in enumerate(steps) if "mkdocs build" in step.get("run", ""))
    assert uses.index("./") > built
