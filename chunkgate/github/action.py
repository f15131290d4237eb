"""The GitHub Action (``action.yml``): ``check`` and ``diff --base auto`` in one step.

Run as ``python -m chunkgate.github.action``. Its inputs come only from the
environment, which ``action.yml`` fills from the action's inputs (never by
pasting them into a script); ``github.inputs`` reads them.

Both parts run before anything is printed, because they share one step's
annotation caps and one job summary: the annotations are shown worst first
across both (why the step fails, never-embed content, unstable IDs, then
sizes; a finding of both parts, an unstable ID, once), and the summary gives
each part its share of the 1 MiB. The outputs (``$GITHUB_OUTPUT``) are
``errors``, ``warnings``, ``added``, ``removed``, ``modified``, ``moved``,
``unstable`` (0 when a part did not run) and ``exit-code``: 0 when both
pass, 1 when either finds a failure, 2 when either cannot run.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import IO

from chunkgate.cli.check import parse_check_args
from chunkgate.config.load import load_config
from chunkgate.core.errors import ChunkgateError
from chunkgate.core.model import CheckResult
from chunkgate.core.parallel import default_jobs
from chunkgate.diff.compare import diff_revisions, fail_reasons, parse_fail_on
from chunkgate.diff.model import ChunkDiff
from chunkgate.gate import run_check
from chunkgate.git.autobase import Base, auto_base
from chunkgate.git.events import read_event
from chunkgate.git.process import find_root
from chunkgate.github.comment import COMMENT_LIMIT, Target, upsert_comment
from chunkgate.github.inputs import Inputs, not_a_repository
from chunkgate.listing import size_stats
from chunkgate.manifest import write_atomic
from chunkgate.report.annotations import Annotation, write_annotations
from chunkgate.report.check import totals as check_totals
from chunkgate.report.check import unverified_line
from chunkgate.report.diff import annotations_of as diff_annotations
from chunkgate.report.diff import totals
from chunkgate.report.diffmarkdown import fit_markdown, title
from chunkgate.report.github import check_summary, violation_annotations, where_listed
from chunkgate.report.sarif import sarif_log
from chunkgate.report.stats import sizes_summary
from chunkgate.report.summary import Fitted, append_summary
from chunkgate.stats import Stats

COUNTS = ("errors", "warnings", "added", "removed", "modified", "moved", "unstable")


class Run:
    """What the two parts found, collected before anything is printed."""

    def __init__(self, inputs: Inputs, env: Mapping[str, str]) -> None:
        self.inputs = inputs
        self.env = env
        self.status = 0
        self.outputs = dict.fromkeys(COUNTS, 0)
        self.annotations: list[Annotation] = []
        self.lines: list[str] = []  # plain log lines, after the annotations
        self.check: CheckResult | None = None
        self.diff: ChunkDiff | None = None
        self.sizes: Stats | None = None
        self._base: Base | ChunkgateError | None = None

    def base(self, root: Path) -> Base:
        """The revision both parts compare with: the ``base`` input, else found from the
        event (the pull request's base, the push's before). Found once: finding it may
        fetch, and a second try would fail another way."""
        if self._base is None:
            given = self.inputs.base
            try:
                self._base = (
                    Base(given, f"{given} (the `base` input)")
                    if given
                    else auto_base(root, self.env)
                )
            except ChunkgateError as exc:
                self._base = exc
        if isinstance(self._base, ChunkgateError):
            raise self._base
        return self._base

    def fail(self, status: int) -> None:
        self.status = max(self.status, status)

    def error(self, part: str, message: str) -> None:
        title = f"chunkgate {part}".strip()
        self.annotations.append(Annotation("error", message, title=title, rank=(0, 0)))
        self.fail(2)


def run_check_part(run: Run, root: Path) -> None:
    params = parse_check_args(list(run.inputs.args))
    if params.get("update") or params.get("output") is not None or params.get("fmt") != "auto":
        raise ChunkgateError(
            "args: --update, --format and --output are the action's own; leave them out"
        )
    config_path = params.get("config_path") or run.inputs.config
    config = load_config(root, config_path=config_path)
    site = params.get("site") or run.inputs.site
    if site is not None:
        if not site.is_dir():
            raise ChunkgateError(f"site: no built site at {site}: build the docs first")
        config = dataclasses.replace(config, site=site.resolve())
    paths = params.get("paths") or ()
    # The problems the base's manifest records are known (they fail nothing); the IDs are
    # the diff part's to compare with the base. With no base found, HEAD's record.
    known_from = params.get("baseline")
    if known_from is None:
        try:
            known_from = run.base(root).sha
        except ChunkgateError:
            known_from = None  # the diff part reports why
    result = run_check(
        config,
        None if params.get("whole") or not paths else list(paths),
        jobs=params.get("jobs") or default_jobs(),
        baseline=params.get("baseline") or "HEAD",
        known_from=known_from,
    )
    run.check = result
    run.sizes = size_stats(config, list(paths) or None, largest=0)
    run.outputs.update(errors=result.summary.errors, warnings=result.summary.warnings)
    run.fail(1 if result.errors else 0)
    if run.inputs.sarif_file is not None:
        log = sarif_log(result, category=run.inputs.sarif_category)
        target = (root / run.inputs.sarif_file).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(
            target,
            (json.dumps(log, ensure_ascii=False, indent=2) + "\n").encode(
                "utf-8", "backslashreplace"
            ),
        )


def run_diff_part(run: Run, root: Path) -> None:
    categories = parse_fail_on(run.inputs.fail_on)
    found = run.base(root)
    if found.sha is None:
        run.annotations.append(Annotation("notice", f"chunkgate diff skipped: {found.how}"))
        return
    base, how = found.sha, found.how
    run.lines.append(f"chunkgate diff: comparing with {how}")
    diff = diff_revisions(root, base, None, config_path=run.inputs.config)
    run.diff = diff
    run.outputs.update(
        added=len(diff.added),
        removed=len(diff.removed),
        modified=len(diff.modified),
        moved=len(diff.moved),
        unstable=len(diff.unstable),
    )
    run.fail(1 if fail_reasons(diff, categories) else 0)


def _annotations(run: Run) -> list[Annotation]:
    out = list(run.annotations)
    moved_to: set[str] = set()
    if run.diff is not None:
        out += diff_annotations(run.diff, parse_fail_on(run.inputs.fail_on))
        moved_to = {change.chunk.id for change in run.diff.unstable}
    if run.check is not None:
        for annotation, violation in violation_annotations(run.check):
            # The diff's annotation says the same and names the old ID: one is enough.
            if violation.rule == "CG402" and violation.chunk_id in moved_to:
                continue
            out.append(annotation)
    return out


def _summary(run: Run) -> dict[str, int]:
    path = run.env.get("GITHUB_STEP_SUMMARY")
    renders = []
    if run.check is not None:
        renders.append(partial(check_summary, run.check))
    if run.sizes is not None:
        renders.append(partial(sizes_summary, run.sizes))
    if run.diff is not None:
        renders.append(partial(fit_markdown, run.diff))
    if not path or not renders:
        return {}
    fitted: list[Fitted]
    fitted, problem = append_summary(path, renders)
    if problem:
        run.annotations.append(Annotation("warning", problem, title="chunkgate", rank=(0, 0)))
    listed: dict[str, int] = {}
    for section in fitted:
        listed.update(section.listed)
    return listed


def _comment(run: Run) -> None:
    event = read_event(run.env)
    if run.diff is None or event is None or event.pr_number is None:
        run.lines.append("chunkgate: no pull request diff here, so no comment")
        return
    repository = run.env.get("GITHUB_REPOSITORY") or event.base_repo or event.repository
    body = fit_markdown(
        run.diff, COMMENT_LIMIT - 200, why="a comment holds at most 65,536 characters"
    ).text
    target = Target(
        run.env.get("GITHUB_API_URL", "https://api.github.com"),
        repository,
        event.pr_number,
        run.inputs.github_token,
    )
    try:
        done = upsert_comment(target, body, key=run.inputs.comment_key)
    except ChunkgateError as exc:
        run.annotations.append(
            Annotation("warning", f"pull request comment not written: {exc}", rank=(0, 1))
        )
        return
    run.lines.append(f"chunkgate: pull request comment {done}")


def _totals(run: Run) -> None:
    if run.check is not None:
        run.lines.append(f"chunkgate check: {check_totals(run.check.summary)}")
        unverified = unverified_line(run.check)
        run.lines += [unverified] if unverified else []
        run.lines += run.check.notes
    if run.diff is not None:
        run.lines.append(f"chunkgate diff {title(run.diff)}: {totals(run.diff)}")


def write_outputs(env: Mapping[str, str], outputs: Mapping[str, int]) -> None:
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:
        for name, value in outputs.items():
            handle.write(f"{name}={value}\n")


def execute(inputs: Inputs, env: Mapping[str, str], out: IO[str]) -> int:
    run = Run(inputs, env)
    root = inputs.root()
    if find_root(root) is None:
        run.error("", not_a_repository(root))
    else:
        parts = [("check", inputs.check, run_check_part), ("diff", inputs.diff, run_diff_part)]
        for name, wanted, part in parts:
            if wanted:
                # One part that cannot run must not hide the other's findings.
                try:
                    part(run, root)
                except ChunkgateError as exc:
                    run.error(name, str(exc))
    if inputs.github_token and run.diff is not None:
        _comment(run)
    listed = _summary(run)
    _totals(run)
    status = run.status if inputs.fail_on_error or run.status == 2 else 0
    base = run.diff.base[:12] if run.diff is not None else "BASE"
    everything = f"`chunkgate check --format text` and `chunkgate diff {base}`"
    write_annotations(
        _annotations(run),
        out,
        failing=status != 0,
        where=lambda hidden: where_listed(hidden, listed, everything),
    )
    for line in run.lines:
        out.write(line + "\n")
    write_outputs(env, {**run.outputs, "exit-code": run.status})
    return status


def main(env: Mapping[str, str] | None = None, out: IO[str] | None = None) -> int:
    env = os.environ if env is None else env
    out = sys.stdout if out is None else out
    try:
        inputs = Inputs.from_env(env)
    except ChunkgateError as exc:
        out.write(Annotation("error", str(exc), title="chunkgate").command() + "\n")
        write_outputs(env, {**dict.fromkeys(COUNTS, 0), "exit-code": 2})
        return 2
    status = execute(inputs, env, out)
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
