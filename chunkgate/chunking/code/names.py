"""The noun and name of a definition node: ``function-parse``, ``impl-Display-for-Tree``.

Most grammars give a definition a ``name`` field; the others are read here,
one small function per shape, registered by the key a table's ``Def.namer``
names. A namer returns None when the node is no definition after all (a
``const`` that holds two variables, a ``typedef`` of one line's worth).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.chunking.code.tables import Def
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from tree_sitter import Node


class Named(NamedTuple):
    noun: str
    name: str
    kind: str


# Generic arguments, quotes, pointer marks and whitespace are not part of a
# name that a reader would cite: Wrapper<T> is Wrapper, "m" is m.
_NOISE = lazy(r"<[^<>]*>|[\s\"'`*&^]")
_PATH = lazy(r"::|\\|/")
# A part's ID is its unit's and "~" and a number: a shell function ``g~2`` would
# read as the second part of ``g``. (A destructor's "~" is followed by a letter.)
_PART_MARK = lazy(r"~(?=[0-9])")


def clean(text: str) -> str:
    previous = None
    while previous != text:  # nested generics: Map<K, List<V>>
        previous, text = text, _NOISE.sub("", text)
    text = _PATH.sub(".", text).strip(".")
    text = _PART_MARK.sub("-", text)
    return text.split("(", 1)[0].split("[", 1)[0]


def _text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return clean(node.text.decode("utf-8", "replace"))


def _named(spec: Def, name: str, noun: str | None = None, kind: str | None = None) -> Named | None:
    return Named(noun or spec.noun, name, kind or spec.kind) if name else None


def _field(node: Node, spec: Def) -> Named | None:
    return _named(spec, _text(node.child_by_field_name("name")))


def _receiver(node: Node, spec: Def) -> Named | None:
    """Go: ``func (s *Server) Serve()`` is method-Server.Serve."""
    name = _text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("receiver")
    owner = ""
    if receiver is not None:
        for parameter in receiver.named_children:
            owner = _text(parameter.child_by_field_name("type"))
            break
    return _named(spec, f"{owner}.{name}" if owner else name)


def _type_spec(node: Node, spec: Def) -> Named | None:
    """Go: ``type Server struct {...}`` alone, not a ``type (...)`` group."""
    specs = [child for child in node.named_children if child.type != "comment"]
    if len(specs) != 1:
        return None
    return _named(spec, _text(specs[0].child_by_field_name("name")))


def _impl(node: Node, spec: Def) -> Named | None:
    """Rust: ``impl Tree`` is impl-Tree, ``impl fmt::Display for Tree`` impl-Display-for-Tree."""
    owner = _text(node.child_by_field_name("type")).rsplit(".", 1)[-1]
    trait = _text(node.child_by_field_name("trait")).rsplit(".", 1)[-1]
    return _named(spec, f"{trait}-for-{owner}" if trait else owner)


_DECLARATOR_NAMES = frozenset(
    {
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "operator_name",
        "destructor_name",
        "type_identifier",
        "primitive_type",
    }
)


def _declarator(node: Node, spec: Def) -> Named | None:
    """C and C++: the name inside the declarator; ``Tree::insert`` is a method."""
    found: Node | None = node.child_by_field_name("declarator")
    while found is not None and found.type not in _DECLARATOR_NAMES:
        found = found.child_by_field_name("declarator")
    name = _text(found)
    if found is not None and found.type == "qualified_identifier" and "." in name:
        return _named(spec, name, "method", "method")
    return _named(spec, name)


def _variable(node: Node, spec: Def) -> Named | None:
    """JS/TS: ``const parse = (text) => ...`` is function-parse; one variable only."""
    declarators = [c for c in node.named_children if c.type == "variable_declarator"]
    if len(declarators) != 1:
        return None
    name = _text(declarators[0].child_by_field_name("name"))
    value = declarators[0].child_by_field_name("value")
    kind = value.type if value is not None else ""
    if kind in _FUNCTIONS:
        return _named(spec, name, "function", "function")
    if kind == "class":
        return _named(spec, name, "class", "class")
    if node.start_point.row == node.end_point.row:
        return None  # `const x = 1` is module code
    return _named(spec, name)


_FUNCTIONS = ("arrow_function", "function_expression", "function", "generator_function")


def _assignment(node: Node, spec: Def) -> Named | None:
    """JS: ``proto.handle = function (req) {...}`` is function-proto.handle."""
    inner = node.named_children[0] if node.named_children else None
    if inner is None or inner.type != "assignment_expression":
        return None
    value = inner.child_by_field_name("right")
    if value is None or value.type not in (*_FUNCTIONS, "class"):
        return None
    name = _text(inner.child_by_field_name("left")).removeprefix("module.")
    if value.type == "class":
        return _named(spec, name, "class", "class")
    return _named(spec, name)


def _singleton(node: Node, spec: Def) -> Named | None:
    """Ruby: ``def self.build`` is named ``build``."""
    return _named(spec, _text(node.child_by_field_name("name")))


def _kotlin(node: Node, spec: Def) -> Named | None:
    """Kotlin writes interfaces and classes with one node type; the keyword tells."""
    noun = "interface" if any(child.type == "interface" for child in node.children) else "class"
    return _named(spec, _text(node.child_by_field_name("name")), noun)


def _swift(node: Node, spec: Def) -> Named | None:
    """Swift: one node type for class, struct, enum, actor and extension."""
    keyword = node.child_by_field_name("declaration_kind")
    noun = keyword.type if keyword is not None else spec.noun
    return _named(spec, _text(node.child_by_field_name("name")), noun)


NAMERS: dict[str, Callable[[Node, Def], Named | None]] = {
    "field": _field,
    "receiver": _receiver,
    "type_spec": _type_spec,
    "impl": _impl,
    "declarator": _declarator,
    "variable": _variable,
    "assignment": _assignment,
    "singleton": _singleton,
    "kotlin": _kotlin,
    "swift": _swift,
}


def name_of(node: Node, spec: Def) -> Named | None:
    return NAMERS[spec.namer](node, spec)
