"""The anchors mkdocstrings' ``::: identifier`` blocks give a page (MkDocs, Zensical).

A block renders the object it names and, below it, the members the Python
handler's options keep: each has the id of its dotted path
(``#package.config.ConfigDict``, ``#package.config.ConfigDict.load``). The
root has its id too, as a heading or a hidden anchor, unless both
``show_root_heading`` and ``show_root_toc_entry`` are off. The objects come
from the Python source in the repository, found through the handler's
``paths`` (``chunkgate.sites.mkdocstrings``) and read with ``ast``
(``chunkgate.links.pyobjects``); which members are shown follows the
handler's own filters: ``members``, ``filters`` (``"public"`` or patterns,
private names hidden by default), docstrings (objects without one, nor a
member with one, are hidden unless ``show_if_no_docstring``), ``__all__``
for imported names, ``merge_init_into_class``, ``parameter_headings`` and
``show_category_heading``, ``show_submodules`` (the package's folder).

An identifier whose object is not in the repository (an installed
dependency, another handler), or an option this does not model
(Griffe ``extensions``, ``preload_modules``) leaves the page open: its ``unresolved`` names say
why, and a link into it whose anchor is not found is not an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from chunkgate.core.regex import lazy
from chunkgate.links.pyobjects import PyObject, find_module, parse_module
from chunkgate.sites.mkdocstrings import Autodoc, Sources
from chunkgate.sites.settings import load_yaml

Reader = Callable[[str], "str | None"]


# mkdocstrings' own block syntax: an optional heading mark, then the identifier, then its
# options indented below it; indented as a whole inside an admonition or a tab.
_BLOCK = lazy(
    r"^(?P<indent>[ \t]*)(?:#{1,6} *|)::: ?(?P<name>\S.*?) *\n"
    r"(?P<options>(?:(?P=indent)[ \t]+\S.*\n?)*)",
    re.M,
)
_FENCE = lazy(r"^[ \t]*(`{3,}|~{3,})")
_DEFAULT_FILTERS = ("!^_[^_]",)
_CATEGORIES = {
    "attribute": "attributes",
    "class": "classes",
    "function": "functions",
    "module": "modules",
}
_UNMODELLED = ("extensions", "preload_modules")
_MAX_DEPTH = 8  # aliases of aliases; deeper (or circular) ones are left open


@dataclass(frozen=True, slots=True)
class AutodocAnchors:
    """The ids a page's autodoc blocks make, and the identifiers whose ids could not all be
    known (the page is then open)."""

    anchors: frozenset[str]
    unresolved: tuple[str, ...]


def has_autodoc(text: str) -> bool:
    """Whether ``text`` has a ``:::`` block (its anchors then depend on Python files)."""
    return ":::" in text and _BLOCK.search(_outside_fences(text)) is not None


def _outside_fences(text: str) -> str:
    """``text`` with its fenced code blanked: mkdocstrings reads the page after fenced
    blocks are set aside, so a ``:::`` line shown in an example renders nothing."""
    lines = text.split("\n")
    fence = ""
    for index, line in enumerate(lines):
        match = _FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = ""
            lines[index] = ""
        elif match:
            fence = match.group(1)
            lines[index] = ""
    return "\n".join(lines)


def autodoc_anchors(text: str, sources: Sources, handler: Autodoc) -> AutodocAnchors:
    """The anchors of the ``:::`` blocks of the page ``text``, documenting the Python
    modules of ``sources`` as ``handler`` (the Python handler's configuration) says."""
    anchors: set[str] = set()
    unresolved: list[str] = []
    modules = _Modules(handler.paths, sources)
    for match in _BLOCK.finditer(_outside_fences(text)):
        identifier = match.group("name").strip()
        block = load_yaml(_dedent(match.group("options")).encode()) or {}
        options = {**handler.options_dict(), **_options(block)}
        if (block.get("handler") if isinstance(block, dict) else None) not in (None, "python"):
            unresolved.append(identifier)
            continue
        found = modules.find(identifier)
        render = _Render(modules, options, anchors)
        if found is not None:
            render.root(found, identifier)
        if found is None or render.open or any(options.get(key) for key in _UNMODELLED):
            unresolved.append(identifier)
    return AutodocAnchors(frozenset(anchors), tuple(dict.fromkeys(unresolved)))


def _options(block: Any) -> dict[str, Any]:
    options = block.get("options") if isinstance(block, dict) else None
    return dict(options) if isinstance(options, dict) else {}


def _dedent(lines: str) -> str:
    rows = [row for row in lines.split("\n") if row.strip()]
    indent = min((len(row) - len(row.lstrip()) for row in rows), default=0)
    return "\n".join(row[indent:] for row in rows)


class _Modules:
    """The modules of the handler's search paths, each parsed once."""

    def __init__(self, roots: tuple[str, ...], sources: Sources) -> None:
        self._roots = roots
        self._sources = sources
        self._parsed: dict[str, PyObject] = {}
        self._folders: dict[str, str] = {}  # a package's name -> its folder
        self._located: dict[str, tuple[str, str] | None] = {}

    def find(self, dotted: str, depth: int = 0) -> PyObject | None:
        """The object at ``dotted``, through the imports that name it; None when it is
        not in the repository."""
        if dotted not in self._located:  # each look reads the file: look once
            self._located[dotted] = find_module(dotted, self._roots, self._sources.read)
        located = self._located[dotted]
        if located is None or depth > _MAX_DEPTH:
            return None
        path, name = located
        if name not in self._parsed:
            package = path.endswith("/__init__.py")
            if package:
                self._folders[name] = path.removesuffix("/__init__.py")
            self._parsed[name] = parse_module(name, self._sources.read(path) or "", package)
        found: PyObject | None = self._parsed[name]
        rest = dotted[len(name) :].lstrip(".")
        for part in rest.split(".") if rest else ():
            found = self.resolve(found, depth) if found is not None else None
            found = found.members.get(part) if found is not None else None
        return self.resolve(found, depth) if found is not None else None

    def submodules(self, package: PyObject) -> dict[str, PyObject]:
        """The modules and packages in a package's folder, as Griffe finds them."""
        folder = self._folders.get(package.name)
        found: dict[str, PyObject] = {}
        for name in sorted(self._sources.listing(folder)) if folder is not None else ():
            stem = name.removesuffix(".py")
            if stem != "__init__" and stem.isidentifier():
                module = self.find(f"{package.name}.{stem}")
                if module is not None and module.kind == "module":
                    found[stem] = module
        return found

    def resolve(self, found: PyObject, depth: int = 0) -> PyObject | None:
        if found.kind != "alias":
            return found
        return self.find(found.target, depth + 1)


class _Render:
    """Walks what one block renders, as mkdocstrings-python's templates do."""

    def __init__(self, modules: _Modules, options: Mapping[str, Any], out: set[str]) -> None:
        self.modules = modules
        self.options = options
        self.out = out
        self.open = False
        filters = options.get("filters", _DEFAULT_FILTERS)
        self.public = filters == "public"
        patterns = filters if isinstance(filters, list | tuple) else ()
        self.filters = []
        for pattern in patterns:
            try:
                compiled = re.compile(str(pattern).removeprefix("!"))
            except re.error:  # mkdocstrings fails the build on it: what it shows is unknown
                self.open = True
                continue
            self.filters.append((compiled, str(pattern).startswith("!")))

    def root(self, found: PyObject, identifier: str) -> None:
        shown = self.options.get("show_root_heading", False)
        if shown or self.options.get("show_root_toc_entry", True):
            self.out.add(identifier)
        self.object(found, identifier, root=True)

    def object(self, found: PyObject, path: str, *, root: bool = False) -> None:
        if found.kind in ("function", "class"):
            self._parameters(found, path)
        if found.kind not in ("module", "class"):
            return
        if found.wildcard:
            self.open = True
        members = dict(found.members)
        if found.kind == "module" and self.options.get("show_submodules"):
            members.update(self.modules.submodules(found))
        if found.kind == "class" and self.options.get("inherited_members"):
            self._inherited(found, members)
        members_list = self.options.get("members") if root else None
        for name, member in members.items():
            if self._shown(found, name, member, members_list):
                resolved = self.modules.resolve(member)
                if resolved is None:
                    self.open = True
                    continue
                if resolved.kind == "module" and not self.options.get("show_submodules"):
                    continue
                self.out.add(f"{path}.{name}")
                if self.options.get("show_category_heading"):
                    self.out.add(f"{path}-{_CATEGORIES[resolved.kind]}")
                self.object(resolved, f"{path}.{name}")

    @property
    def _merged_init(self) -> bool:
        return bool(self.options.get("merge_init_into_class"))

    def _parameters(self, found: PyObject, path: str) -> None:
        """``f(x)`` for each parameter the docstring documents (the template gives those
        a heading); with another docstring style, every parameter of the signature."""
        if not self.options.get("parameter_headings"):
            return
        init = found.members.get("__init__", PyObject("", ""))
        if self.options.get("docstring_style", "google") == "google":
            names = found.documented + (init.documented if self._merged_init else ())
        else:
            names = found.parameters or init.parameters
        self.out.update(f"{path}({name})" for name in names if name not in ("self", "cls"))

    def _inherited(self, found: PyObject, members: dict[str, PyObject], depth: int = 0) -> None:
        """The members ``found`` inherits, nearest base first (as its MRO mostly is)."""
        for base in found.bases:
            resolved = self.modules.find(f"{found.module}.{base}") or self.modules.find(base)
            if resolved is None or depth > _MAX_DEPTH:
                # A base from elsewhere (``logging.LoggerAdapter``): Griffe loads only the
                # documented package, so the base brings no member (the built site agrees).
                continue
            if resolved.kind != "class":
                self.open = True
                continue
            for name, member in resolved.members.items():
                members.setdefault(name, member)
            self._inherited(resolved, members, depth + 1)

    def _shown(self, owner: PyObject, name: str, member: PyObject, members_list: Any) -> bool:
        if owner.kind == "class" and name == "__init__" and self._merged_init:
            return False
        imported = member.kind == "alias"
        if members_list is True:
            return True
        if members_list is False or members_list == []:
            return False
        if isinstance(members_list, list):
            return name in members_list
        public = _is_public(owner, name, member)
        if (self.public or imported) and not public:
            return False  # the filter, or the templates' rule for imported names
        if not self.public and self.filters and not _keep(name, self.filters):
            return False
        return bool(self.options.get("show_if_no_docstring")) or self._documented(member)

    def _documented(self, member: PyObject, depth: int = 0) -> bool:
        resolved = self.modules.resolve(member)
        if resolved is None:
            self.open = member.kind == "alias" or self.open
            return False
        if resolved.docstring:
            return True
        if depth > _MAX_DEPTH:
            return False
        return any(
            self._documented(child, depth + 1)
            for name, child in resolved.members.items()
            if child.kind != "alias" or _is_public(resolved, name, child)
        )


def _is_public(owner: PyObject, name: str, member: PyObject) -> bool:
    """Griffe's ``is_public``: ``__all__`` first, then the name, then whether imported."""
    if member.kind == "module":
        return not name.startswith("_")  # a submodule: ``__all__`` is not for modules
    if owner.kind == "module" and owner.exports:
        return name in owner.exports
    if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
        return False
    return member.kind != "alias"


def _keep(name: str, filters: list[tuple[re.Pattern[str], bool]]) -> bool:
    keep = None
    rules = set()
    for pattern, exclude in filters:
        rules.add(exclude)
        if pattern.search(name):
            keep = not exclude
    return rules != {False} if keep is None else keep
