"""The GitHub Action (``action.yml``): ``check`` and ``diff --base auto`` in one step.

Run as ``python -m chunkgate.ci_action``. Its inputs come only from the
environment, which ``action.yml`` fills from the action's inputs (never by
pasting them into a script):

| variable | input | meaning |
|---|---|---|
| ``CHUNKGATE_FAIL_ON`` | ``fail-on`` | ``diff --fail-on`` list (default ``unstable``) |
| ``CHUNKGATE_CONFIG`` | ``config`` | a config file, else the repository's own |
| ``CHUNKGATE_SARIF_FILE`` | ``sarif-file`` | also write ``check``'s SARIF report here |
| ``CHUNKGATE_CHECK`` | ``check`` | run ``check`` (``true``/``false``) |
| ``CHUNKGATE_DIFF`` | ``diff`` | run ``diff --base auto`` (``true``/``false``) |

Both write GitHub annotations to stdout and a Markdown job summary to
``$GITHUB_STEP_SUMMARY``. The outputs (``$GITHUB_OUTPUT``) are ``errors``,
``warnings``, ``added``, ``removed``, ``modified``, ``moved``, ``unstable``
and ``exit-code``: 0 when both pass, 1 when either finds a failure, 2 when
either cannot run (a config, git or usage error).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from chunkgate.errors import ChunkgateError


@dataclass(frozen=True, slots=True)
class Inputs:
    fail_on: str = "unstable"
    config: Path | None = None
    sarif_file: Path | None = None
    check: bool = True
    diff: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Inputs:
        def flag(name: str) -> bool:
            value = env.get(name, "true").strip().lower()
            if value not in ("true", "false", ""):
                raise ChunkgateError(f"{name}: expected true or false, got {value!r}")
            return value != "false"

        def path(name: str) -> Path | None:
            value = env.get(name, "").strip()
            return Path(value) if value else None

        return cls(
            fail_on=env.get("CHUNKGATE_FAIL_ON", "unstable"),
            config=path("CHUNKGATE_CONFIG"),
            sarif_file=path("CHUNKGATE_SARIF_FILE"),
            check=flag("CHUNKGATE_CHECK"),
            diff=flag("CHUNKGATE_DIFF"),
        )


@dataclass
class Outcome:
    status: int = 0
    outputs: dict[str, int] = field(default_factory=dict)

    def fail(self, status: int) -> None:
        self.status = max(self.status, status)


def run_check_step(inputs: Inputs, env: Mapping[str, str], out: IO[str], outcome: Outcome) -> None:
    from chunkgate.config import load_config
    from chunkgate.gate import run_check
    from chunkgate.parallel import default_jobs
    from chunkgate.report.check import write_check

    config = load_config(Path.cwd(), config_path=inputs.config)
    result = run_check(config, jobs=default_jobs())
    write_check(result, "github", out, env=env)
    if inputs.sarif_file is not None:
        buffer = io.StringIO()
        write_check(result, "sarif", buffer)
        inputs.sarif_file.parent.mkdir(parents=True, exist_ok=True)
        inputs.sarif_file.write_text(buffer.getvalue(), encoding="utf-8")
    outcome.outputs["errors"] = result.summary.errors
    outcome.outputs["warnings"] = result.summary.warnings
    outcome.fail(1 if result.errors else 0)


def run_diff_step(inputs: Inputs, env: Mapping[str, str], out: IO[str], outcome: Outcome) -> None:
    from chunkgate.diff import diff_revisions, fail_reasons, parse_fail_on
    from chunkgate.report.diff import annotation, write_diff
    from chunkgate.revisions import resolve_auto_base

    categories = parse_fail_on(inputs.fail_on)
    root = Path.cwd()
    diff = diff_revisions(root, resolve_auto_base(root, env), None, config_path=inputs.config)
    write_diff(diff, "github", out, fail_on=categories, env=env)
    outcome.outputs.update(
        added=len(diff.added),
        removed=len(diff.removed),
        modified=len(diff.modified),
        moved=len(diff.moved),
        unstable=len(diff.unstable),
    )
    reasons = fail_reasons(diff, categories)
    for reason in reasons:
        out.write(annotation("error", f"chunkgate diff: {reason}", title="chunkgate diff") + "\n")
    outcome.fail(1 if reasons else 0)


def write_outputs(env: Mapping[str, str], outputs: Mapping[str, int]) -> None:
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:
        for name, value in outputs.items():
            handle.write(f"{name}={value}\n")


def main(env: Mapping[str, str] | None = None, out: IO[str] | None = None) -> int:
    env = os.environ if env is None else env
    out = sys.stdout if out is None else out
    from chunkgate.report.diff import annotation

    outcome = Outcome()
    try:
        inputs = Inputs.from_env(env)
    except ChunkgateError as exc:
        out.write(annotation("error", str(exc), title="chunkgate") + "\n")
        return 2
    steps = [("check", inputs.check, run_check_step), ("diff", inputs.diff, run_diff_step)]
    for name, wanted, step in steps:
        if not wanted:
            continue
        # One failing part must not hide the other's findings.
        try:
            step(inputs, env, out, outcome)
        except ChunkgateError as exc:
            out.write(annotation("error", str(exc), title=f"chunkgate {name}") + "\n")
            outcome.fail(2)
        out.flush()
    outcome.outputs["exit-code"] = outcome.status
    write_outputs(env, outcome.outputs)
    return outcome.status


if __name__ == "__main__":
    sys.exit(main())
