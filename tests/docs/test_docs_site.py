"""The docs site builds with the real MkDocs and Material, strictly, and chunkgate's own
check passes on it: the docs' chunks, and their links against the built pages' ids."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from docspages import DOCS, ROOT


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_site_builds_strictly_and_passes_chunkgates_check_against_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    built = _run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)])
    assert built.returncode == 0, built.stdout + built.stderr
    for page in DOCS.rglob("*.md"):  # every page is built, the rule pages too
        relative = page.relative_to(DOCS).with_suffix("")
        folder = relative.parent if relative.name == "index" else relative
        assert (site / folder / "index.html").is_file(), page
    command = [sys.executable, "-m", "chunkgate", "check", "--format", "text", "--site", str(site)]
    checked = _run(command)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "CG404" not in checked.stdout


def test_the_nav_names_every_page_but_the_rules_its_index_lists() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def named(entries: object) -> list[str]:
        if isinstance(entries, str):
            return [entries]
        if isinstance(entries, dict):
            return [page for value in entries.values() for page in named(value)]
        assert isinstance(entries, list)
        return [page for entry in entries for page in named(entry)]

    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    rule_pages = {p for p in pages if p.startswith("rules/CG")}
    assert sorted(named(config["nav"])) == sorted(pages - rule_pages)
    assert config["theme"]["name"] == "material"
