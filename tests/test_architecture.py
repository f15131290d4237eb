"""The layers STYLE.md promises: a pure core, click only in cli.py, rich only in report/."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import chunkgate

PACKAGE = Path(chunkgate.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_only_the_cli_imports_click_and_only_report_imports_rich(path: Path) -> None:
    relative = path.relative_to(PACKAGE).as_posix()
    imports = _imports(path)
    if relative != "cli.py":
        assert "click" not in imports
    if not relative.startswith("report/"):
        assert "rich" not in imports


def test_public_api() -> None:
    from chunkgate import Chunk, chunk_file, chunk_text, load_config

    assert callable(chunk_file)
    assert callable(chunk_text)
    assert callable(load_config)
    assert Chunk.__name__ == "Chunk"
    assert set(chunkgate.__all__) >= {"Chunk", "chunk_file", "chunk_text", "load_config"}


def test_the_hook_path_does_not_import_heavy_modules() -> None:
    code = (
        "import sys, chunkgate.cli, chunkgate.gate, chunkgate.report.check;"
        "print(' '.join(sorted(m for m in ('rich', 'markdown_it', 'pygments', 'identify.vendor')"
        " if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
