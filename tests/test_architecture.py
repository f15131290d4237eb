"""The layers STYLE.md promises: a pure core, click only in cli/, rich only in report/."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
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
    if not relative.startswith("cli/"):
        assert "click" not in imports
    if not relative.startswith("report/"):
        assert "rich" not in imports


def test_the_hook_path_does_not_import_heavy_modules() -> None:
    code = (
        "import sys, chunkgate.cli.check, chunkgate.gate, chunkgate.report.check;"
        "print(' '.join(sorted(m for m in ('rich', 'markdown_it', 'pygments', 'identify.vendor')"
        " if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# The import graph, as the source declares it: every `import` and `from ... import` of a
# chunkgate module, at module level or inside a function; `if TYPE_CHECKING:` blocks aside,
# since they never run. `from package import name` is an edge to the submodule when `name`
# is one, otherwise to the package's `__init__`.
MODULE_NAMES = {
    ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
    for p in MODULES
}
GENERATED = {"chunking/_slug_table.py"}  # written by scripts/gen_slug_table.py
MAX_LINES = 450
MAX_ROOT_MODULES = 12


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (n for child in node.orelse for n in _runtime_imports_of(child))
            continue
        yield from _runtime_imports_of(node)


def _runtime_imports_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    elif isinstance(node, ast.If) and _is_type_checking(node):
        return
    else:
        yield from _runtime_imports(node)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        if MODULE_NAMES[module].name != "__init__.py":
            parts = parts[:-1]
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULE_NAMES else base


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULE_NAMES.items():
        edges = graph.setdefault(module, set())
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(module, node):
                if target in MODULE_NAMES and target != module:
                    edges.add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from chunkgate.gate import run\n"
        "def f():\n    from chunkgate.core import model\n"
    )
    assert [ast.unparse(n) for n in _runtime_imports(tree)] == [
        "from typing import TYPE_CHECKING",
        "from chunkgate.core import model",
    ]


def test_no_import_cycle() -> None:
    assert _cycles(import_graph()) == []


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_no_hand_written_module_over_450_lines(path: Path) -> None:
    relative = path.relative_to(PACKAGE).as_posix()
    if relative in GENERATED:
        return
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{relative} has {lines} lines: look for the second idea inside"


def test_the_package_root_is_a_table_of_contents() -> None:
    root_modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root_modules) <= MAX_ROOT_MODULES, root_modules
    for folder in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").exists()):
        docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8")))
        assert docstring, f"{folder.name}/__init__.py says in one line what lives there"
        assert "\n" not in docstring.split("\n\n")[0].strip(), folder.name


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_an_import_inside_a_function_says_why(path: Path) -> None:
    """A function-level import defers a heavy dependency; the comment beside it says which."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    unexplained = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                here = lines[node.lineno - 1]
                above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                if "#" not in here and not above.startswith("#"):
                    unexplained.append(f"{node.lineno}: {here.strip()}")
    assert unexplained == []
