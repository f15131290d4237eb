"""Which tree-sitter nodes are chunks, per language: one small table each.

A *definition* is a node that becomes a chunk of its own (with the comments,
attributes and decorators right above it). A *wrapper* is a node whose chunk
is the wrapper (``export``, ``template <...>``, ``declare``) but whose name
and noun come from the definition inside. A *scope* is transparent: its items
are chunked as if they stood at the top level (C++ and C# namespaces, header
guards, ``extern "C"``). Node types are the grammar's; a test checks that
every name here exists in the pinned grammar, so a grammar that renames a
node fails the tests, not a user's corpus.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class Def(NamedTuple):
    noun: str  # the identity's prefix: function-NAME, struct-NAME, impl-NAME
    kind: str = "function"
    namer: str = "field"  # how the name is found: see names.NAMERS
    multiline: bool = False  # a chunk only when it spans more than one line
    members: bool = False  # a body of methods: split per member when oversized


class Table(NamedTuple):
    definitions: Mapping[str, Def]
    members: Mapping[str, Def] = {}  # inside a split body, besides the definitions
    wrappers: frozenset[str] = frozenset()
    scopes: frozenset[str] = frozenset()
    attached: frozenset[str] = frozenset()  # comments and attributes above a definition
    bodies: frozenset[str] = frozenset()  # body node types where there is no "body" field
    # Macros hide the syntax from a parser that does not preprocess: on glibc's
    # headers 191 of 470 had errors on over a quarter of their lines, although
    # they are valid C. Such a file is never CG001; its recovered tree is chunked.
    preprocessed: bool = False


_FN = Def("function")


def _type(noun: str) -> Def:
    return Def(noun, "class", multiline=True, members=True)


_METHOD = Def("method", "method")

_JS_DEFINITIONS = {
    "function_declaration": _FN,
    "generator_function_declaration": _FN,
    "class_declaration": _type("class"),
    "class": _type("class"),
    # A function or class bound to a name is one; another value only on many lines.
    "lexical_declaration": Def("const", "module", "variable"),
    "variable_declaration": Def("var", "module", "variable"),
    # CommonJS: `proto.handle = function handle(req) {...}`, `exports.parse = ...`.
    "expression_statement": Def("function", "function", "assignment"),
}
_JS = Table(
    definitions=_JS_DEFINITIONS,
    members={"method_definition": _METHOD},
    wrappers=frozenset({"export_statement"}),
    attached=frozenset({"comment", "decorator"}),
)
_TS = Table(
    definitions={
        **_JS_DEFINITIONS,
        "function_signature": _FN,
        "abstract_class_declaration": _type("class"),
        "interface_declaration": _type("interface"),
        "enum_declaration": _type("enum"),
        "type_alias_declaration": Def("type", "class", multiline=True),
        "internal_module": _type("namespace"),
        "module": _type("module"),
    },
    members={
        "method_definition": _METHOD,
        "method_signature": _METHOD,
        "abstract_method_signature": _METHOD,
    },
    wrappers=frozenset({"export_statement", "ambient_declaration", "expression_statement"}),
    attached=frozenset({"comment", "decorator"}),
    bodies=frozenset({"statement_block"}),
)
_GO = Table(
    definitions={
        "function_declaration": _FN,
        "method_declaration": Def("method", "method", "receiver"),
        "type_declaration": Def("type", "class", "type_spec", multiline=True),
        "const_declaration": Def("const", "module", "type_spec", multiline=True),
        "var_declaration": Def("var", "module", "type_spec", multiline=True),
    },
    attached=frozenset({"comment"}),
)
_RUST = Table(
    definitions={
        "function_item": _FN,
        "function_signature_item": _FN,
        "struct_item": _type("struct"),
        "enum_item": _type("enum"),
        "union_item": _type("union"),
        "trait_item": _type("trait"),
        "impl_item": Def("impl", "class", "impl", members=True),
        "mod_item": _type("mod"),
        "macro_definition": Def("macro", "function"),
        "const_item": Def("const", "module", multiline=True),
        "static_item": Def("static", "module", multiline=True),
    },
    attached=frozenset({"line_comment", "block_comment", "attribute_item"}),
)
_JAVA = Table(
    definitions={
        "class_declaration": _type("class"),
        "interface_declaration": _type("interface"),
        "enum_declaration": _type("enum"),
        "record_declaration": _type("record"),
        "annotation_type_declaration": _type("annotation"),
    },
    members={"method_declaration": _METHOD, "constructor_declaration": _METHOD},
    attached=frozenset({"line_comment", "block_comment"}),
)
_C_DEFINITIONS = {
    "function_definition": Def("function", "function", "declarator"),
    "struct_specifier": _type("struct"),
    "union_specifier": _type("union"),
    "enum_specifier": _type("enum"),
    "type_definition": Def("typedef", "class", "declarator", multiline=True),
    "preproc_function_def": Def("macro", "function", multiline=True),
}
_C_SCOPES = frozenset(
    {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}
)
_C = Table(
    definitions=_C_DEFINITIONS,
    scopes=_C_SCOPES,
    attached=frozenset({"comment"}),
    preprocessed=True,
)
_CPP = Table(
    definitions={
        **_C_DEFINITIONS,
        "class_specifier": _type("class"),
        "concept_definition": Def("concept", "class", multiline=True),
    },
    members={"function_definition": Def("method", "method", "declarator")},
    wrappers=frozenset({"template_declaration"}),
    scopes=_C_SCOPES | {"namespace_definition", "linkage_specification"},
    attached=frozenset({"comment"}),
    preprocessed=True,
)
_CSHARP = Table(
    definitions={
        "class_declaration": _type("class"),
        "struct_declaration": _type("struct"),
        "interface_declaration": _type("interface"),
        "enum_declaration": _type("enum"),
        "record_declaration": _type("record"),
        "delegate_declaration": Def("delegate", "class", multiline=True),
    },
    members={
        "method_declaration": _METHOD,
        "constructor_declaration": _METHOD,
        "destructor_declaration": _METHOD,
        "operator_declaration": _METHOD,
        "property_declaration": Def("method", "method", multiline=True),
    },
    scopes=frozenset({"namespace_declaration"}),
    attached=frozenset({"comment"}),
)
_RUBY = Table(
    definitions={
        "method": _FN,
        "singleton_method": Def("function", "function", "singleton"),
        "class": _type("class"),
        "module": _type("module"),
    },
    members={"method": _METHOD, "singleton_method": Def("method", "method", "singleton")},
    attached=frozenset({"comment"}),
)
_PHP = Table(
    definitions={
        "function_definition": _FN,
        "class_declaration": _type("class"),
        "interface_declaration": _type("interface"),
        "trait_declaration": _type("trait"),
        "enum_declaration": _type("enum"),
    },
    members={"method_declaration": _METHOD},
    scopes=frozenset({"namespace_definition"}),
    attached=frozenset({"comment"}),
    bodies=frozenset({"compound_statement"}),
)
_KOTLIN = Table(
    definitions={
        "function_declaration": _FN,
        "class_declaration": Def("class", "class", "kotlin", multiline=True, members=True),
        "object_declaration": _type("object"),
    },
    members={"function_declaration": _METHOD, "secondary_constructor": _METHOD},
    attached=frozenset({"line_comment", "block_comment"}),
    bodies=frozenset({"class_body", "enum_class_body"}),
)
_SWIFT = Table(
    definitions={
        "function_declaration": _FN,
        "class_declaration": Def("class", "class", "swift", multiline=True, members=True),
        "protocol_declaration": _type("protocol"),
    },
    members={
        "function_declaration": _METHOD,
        "init_declaration": _METHOD,
        "deinit_declaration": _METHOD,
        "protocol_function_declaration": _METHOD,
        "subscript_declaration": _METHOD,
    },
    attached=frozenset({"comment", "multiline_comment"}),
)
_SHELL = Table(
    definitions={"function_definition": _FN},
    attached=frozenset({"comment"}),
)

TABLES: dict[str, Table] = {
    "javascript": _JS,
    "typescript": _TS,
    "tsx": _TS,
    "go": _GO,
    "rust": _RUST,
    "java": _JAVA,
    "c": _C,
    "cpp": _CPP,
    "csharp": _CSHARP,
    "ruby": _RUBY,
    "php": _PHP,
    "kotlin": _KOTLIN,
    "swift": _SWIFT,
    "shell": _SHELL,
}
