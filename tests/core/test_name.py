"""The project is chunkgate: the old name (taken on PyPI by another project) never comes back."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from docspages import pages

ROOT = Path(__file__).resolve().parents[2]
OLD_NAME = re.compile("chunk" + "guard", re.IGNORECASE)
# What users type, import or commit; every other tracked file is checked as well.
MUST_EXIST = ("chunkgate", "README.md", ".pre-commit-hooks.yaml", "action.yml", "pyproject.toml")


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode("utf-8")
    return [ROOT / name for name in listed.split("\0") if name]


def test_the_old_name_appears_in_no_tracked_file_or_path() -> None:
    files = tracked_files()
    assert all((ROOT / name).exists() for name in MUST_EXIST)
    assert {
        ROOT / "README.md",
        ROOT / "action.yml",
        ROOT / "chunkgate" / "cli" / "__init__.py",
    } <= set(files)
    offenders = [
        str(path.relative_to(ROOT))
        for path in files
        if OLD_NAME.search(str(path.relative_to(ROOT)))
        or (path.is_file() and OLD_NAME.search(path.read_bytes().decode("utf-8", "replace")))
    ]
    assert offenders == []


def test_the_package_directory_holds_no_file_of_the_old_name() -> None:
    """Untracked leftovers count too: a stale module would still be importable."""
    package = ROOT / "chunkgate"
    for path in package.rglob("*"):
        if path.suffix in {".py", ".typed", ".txt", ".json", ".yaml"}:
            assert not OLD_NAME.search(path.name)
            assert not OLD_NAME.search(path.read_text(encoding="utf-8", errors="replace")), path


def test_readme_never_installs_from_the_index() -> None:
    """Until a release is on PyPI, every install line of the README and the docs site
    names the repository or a clone."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # The rule pages' examples are other projects' docs ("pip install example").
    guides = [text for name, text in pages().items() if not name.startswith("rules/")]
    installs = re.findall(r"pip install ([^\n`|]+)", "\n".join([readme, *guides]))
    assert installs
    for target in installs:
        assert "git+https://" in target or target.startswith((".", "-e")), target


def test_hook_snippets_pin_a_revision_not_a_made_up_tag() -> None:
    from chunkgate.cli.init import INIT_SNIPPETS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in (readme, INIT_SNIPPETS, *pages().values()):
        assert not re.search(r"rev: v\d|chunkgate@v\d", text)
    assert "rev: REV" in readme
    assert "rev: REV" in INIT_SNIPPETS
    assert "pre-commit autoupdate --repo https://github.com/chunkgate/chunkgate" in INIT_SNIPPETS
