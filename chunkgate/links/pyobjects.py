"""Python objects as mkdocstrings-python sees them, read from the source with ``ast``.

What an autodoc block renders (``chunkgate.links.autodoc``) depends on each
object's kind, name, docstring and members, and for a name a module imports,
on the object it names. Griffe loads all of that (importing nothing); this
reads the same from the module's source, also without importing it, so that a
check pays one ``ast.parse`` per documented module. What it cannot follow (a
wildcard import, a name imported from outside the search paths) is marked, so
that the page is open rather than wrong.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from chunkgate.core.regex import lazy

Reader = Callable[[str], "str | None"]


@dataclass(slots=True)
class PyObject:
    """A module, class, function or attribute: ``target`` is the dotted name an import
    refers to (an alias until resolved), ``bases`` a class's base names as written."""

    name: str
    kind: str  # module, class, function, attribute, alias
    docstring: bool = False
    members: dict[str, PyObject] = field(default_factory=dict)
    exports: tuple[str, ...] | None = None  # a module's ``__all__``
    target: str = ""
    bases: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()  # a function's, as its signature names them
    documented: tuple[str, ...] = ()  # the names its docstring's Parameters section lists
    wildcard: bool = False  # ``from x import *``: members unknown
    module: str = ""  # a class's module, where its bases' names are looked up


def find_module(dotted: str, roots: tuple[str, ...], read: Reader) -> tuple[str, str] | None:
    """The source file and module name of the longest module prefix of ``dotted``
    found under one of ``roots`` (repository-relative folders, "" the root)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        relative = "/".join(parts[:end])
        for root in roots:
            base = f"{root}/{relative}" if root else relative
            for path in (f"{base}.py", f"{base}/__init__.py"):
                if read(path) is not None:
                    return path, ".".join(parts[:end])
    return None


def parse_module(name: str, source: str, package: bool) -> PyObject:
    """The module ``name`` (``package``: read from an ``__init__.py``) and its members."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return PyObject(name, "module", wildcard=True)  # unreadable: its members are unknown
    module = PyObject(name, "module", docstring=_has_docstring(tree.body))
    package_name = name if package else name.rpartition(".")[0]
    _read_body(module, tree.body, package_name, name)
    return module


def _has_docstring(body: list[ast.stmt]) -> bool:
    return bool(body) and _is_string(body[0])


# A Google-style section, as Griffe's default parser reads it: its title alone on a line.
_SECTION = lazy(r"^([ \t]*)(?:Args|Arguments|Params|Parameters):[ \t]*$", re.M)
_ITEM = lazy(r"(?<![*\w])([*\w]+)(?:[ \t]*\([^()\n]*\))?[ \t]*:")


def _documented_parameters(body: list[ast.stmt]) -> tuple[str, ...]:
    """The parameter names a Google-style docstring's Parameters section lists."""
    if not _has_docstring(body):
        return ()
    docstring = inspect.cleandoc(body[0].value.value)  # type: ignore[attr-defined]
    names: list[str] = []
    for section in _SECTION.finditer(docstring):
        item_indent = None
        for line in docstring[section.end() :].split("\n")[1:]:
            if not line.strip():
                continue
            indent = len(line) - len(line.lstrip())
            if indent <= len(section.group(1)):
                break
            item_indent = indent if item_indent is None else item_indent
            found = _ITEM.match(line.strip())
            if indent == item_indent and found:
                names.append(found.group(1))
    return tuple(names)


def _is_string(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _statements(body: list[ast.stmt]) -> Iterator[tuple[ast.stmt, ast.stmt | None]]:
    """Each statement with the one after it, into ``if``/``try`` blocks as Griffe visits
    them (both branches: ``if TYPE_CHECKING`` imports count)."""
    for index, node in enumerate(body):
        if isinstance(node, ast.If):
            yield from _statements(node.body)
            yield from _statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse):
                yield from _statements(block)
        else:
            yield node, body[index + 1] if index + 1 < len(body) else None


def _read_body(owner: PyObject, body: list[ast.stmt], package: str, module: str) -> None:
    for node, after in _statements(body):
        documented = after is not None and _is_string(after)
        if isinstance(node, ast.ClassDef):
            owner.members[node.name] = _class(node, package, module)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            _function(owner, node)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            _assignment(owner, node, documented)
        elif isinstance(node, ast.Import | ast.ImportFrom) and owner.kind == "module":
            _import(owner, node, package)


def _class(node: ast.ClassDef, package: str, module: str) -> PyObject:
    found = PyObject(
        node.name,
        "class",
        docstring=_has_docstring(node.body),
        bases=tuple(ast.unparse(base) for base in node.bases),
        module=module,
        documented=_documented_parameters(node.body),
    )
    _read_body(found, node.body, package, module)
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and (
            statement.name == "__init__"
        ):
            _instance_attributes(found, statement.body)
    return found


def _function(owner: PyObject, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    decorators = {ast.unparse(d).rpartition(".")[2] for d in node.decorator_list}
    kind = "attribute" if decorators & {"property", "cached_property"} else "function"
    arguments = node.args
    names = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    # Griffe names the variadic ones as written: their ids are ``f(*args)``, ``f(**kwargs)``.
    names += [f"*{arguments.vararg.arg}"] if arguments.vararg else []
    names += [f"**{arguments.kwarg.arg}"] if arguments.kwarg else []
    known = owner.members.get(node.name)
    # Overloads and a property's setter are one object; any of them documents it.
    documented = _has_docstring(node.body) or (known is not None and known.docstring)
    if known is not None and known.kind == "attribute" and decorators & {"setter", "deleter"}:
        kind = "attribute"
    owner.members[node.name] = PyObject(
        node.name,
        kind,
        documented,
        parameters=tuple(names),
        documented=_documented_parameters(node.body),
    )


def _assignment(owner: PyObject, node: ast.Assign | ast.AnnAssign, documented: bool) -> None:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if isinstance(target, ast.Name):
            if target.id == "__all__" and owner.kind == "module":
                owner.exports = _names(node.value)
                continue
            known = owner.members.get(target.id)
            if known is not None and known.kind == "attribute":
                known.docstring = known.docstring or documented
            else:
                owner.members[target.id] = PyObject(target.id, "attribute", documented)


def _instance_attributes(owner: PyObject, body: list[ast.stmt]) -> None:
    for node, after in _statements(body):
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        documented = after is not None and _is_string(after)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                known = owner.members.get(target.attr)
                if known is None:
                    owner.members[target.attr] = PyObject(target.attr, "attribute", documented)
                elif known.kind == "attribute":
                    known.docstring = known.docstring or documented


def _names(value: ast.expr | None) -> tuple[str, ...] | None:
    if isinstance(value, ast.List | ast.Tuple):
        items = [e.value for e in value.elts if isinstance(e, ast.Constant)]
        if len(items) == len(value.elts) and all(isinstance(i, str) for i in items):
            return tuple(str(i) for i in items)
    return None  # computed: ``__all__`` cannot be read without running the module


def _import(owner: PyObject, node: ast.Import | ast.ImportFrom, package: str) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                owner.members[alias.asname] = PyObject(alias.asname, "alias", target=alias.name)
        return
    base = node.module or ""
    if node.level:
        parent = package.split(".")
        parent = parent[: len(parent) - node.level + 1] if node.level > 1 else parent
        base = ".".join([*parent, *([base] if base else [])])
    for alias in node.names:
        if alias.name == "*":
            owner.wildcard = True
            continue
        name = alias.asname or alias.name
        owner.members[name] = PyObject(name, "alias", target=f"{base}.{alias.name}")
