"""CONTRIBUTING.md is true: its tree of folders is the package's, and every path it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import chunkgate

PACKAGE = Path(chunkgate.__file__).parent
ROOT = PACKAGE.parent
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def _tree() -> dict[str, str]:
    block = TEXT.split("```text\nchunkgate/\n", 1)[1].split("```", 1)[0]
    entries = {}
    for line in block.splitlines():
        name, _, summary = line.strip().partition(" ")
        entries[name] = summary.strip()
    return entries


def _first_line(path: Path) -> str:
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert docstring, path
    return docstring.splitlines()[0]


def test_the_tree_lists_every_folder_and_root_module_with_its_docstring() -> None:
    actual = {
        f"{p.name}/": _first_line(p / "__init__.py")
        for p in PACKAGE.iterdir()
        if (p / "__init__.py").is_file()
    }
    actual.update({p.name: _first_line(p) for p in PACKAGE.glob("*.py")})
    assert _tree() == actual


def test_every_path_named_in_contributing_exists() -> None:
    named = set(re.findall(r"`((?:chunkgate|tests|benchmarks)/[\w./-]+)`", TEXT))
    short = re.findall(r"`((?:[a-z]+/)+[a-z_]+\.py)`", TEXT)
    named |= {f"chunkgate/{p}" for p in short if not p.startswith(("chunkgate/", "tests/"))}
    assert len(named) > 20
    missing = sorted(p for p in named if "<" not in p and not (ROOT / p).exists())
    assert missing == []


def test_every_module_function_named_in_contributing_resolves() -> None:
    import importlib

    found = re.findall(r'"(chunkgate(?:\.\w+)+):(\w+)"', TEXT)
    for module, function in found:
        assert hasattr(importlib.import_module(module), function), (module, function)
