"""The README is a contract too: its commands, its length, the rules index of the docs site,
and this repository's own docs."""

from __future__ import annotations

import re
from pathlib import Path

from docspages import page, readme

from chunkgate.rules import RULES, rule_docs

ROOT = Path(__file__).resolve().parents[1]
README = readme()


def test_rule_table_lists_every_rule_with_its_name_and_default() -> None:
    pattern = r"^\| \[(CG\d{3})\]\((CG\d{3})\.md\) \| ([a-z-]+) \| (error|warning|off) \|"
    rows = re.findall(pattern, page("rules/index.md"), re.M)
    assert rows == [(r.code, r.code, r.name, r.severity) for r in RULES.values()]


def test_the_readme_fits_250_lines() -> None:
    """What it is, install, the set-up commands, the hook, the action, the library and
    links: the reference is the docs site's (issue 42)."""
    assert len(README.splitlines()) <= 250


def test_every_rule_is_documented() -> None:
    docs = rule_docs()
    assert set(docs) == set(RULES)
    assert all("Passes" in text and "Fires" in text for text in docs.values())


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n((?:sh \S+ && )?python3 -m venv .*)\n```", README)
    assert len(commands) == 2
    install_and_run, test_suite = commands
    assert "pip install ." in install_and_run
    assert "chunkgate check" in install_and_run
    # The generators tests/sites builds with, before the suite (issue 39).
    assert test_suite.startswith("sh tests/sites/install-generators && ")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_suite in ci.splitlines()


def test_hook_ids_are_in_the_readme() -> None:
    for hook in ("id: chunkgate ", "id: chunkgate-check"):
        assert hook in README


def test_this_repository_passes_its_own_check() -> None:
    """The docs of this repository are a chunkgate corpus with a committed manifest.

    After editing Markdown here, run `chunkgate update` (the pre-commit hook does).
    """
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "chunkgate", "check", "--format", "text"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
