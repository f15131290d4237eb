from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tree_sitter
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import chunk_document
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.code import grammars
from chunkgate.chunking.code.tables import TABLES
from chunkgate.core.model import Chunk

FIXTURES = Path(__file__).parents[1] / "data" / "code"
LOOSE = ChunkOptions(min=0)


def chunk(text: str, path: str, options: ChunkOptions = LOOSE, language: str | None = None):  # type: ignore[no-untyped-def]
    return chunk_document(textwrap.dedent(text), path, options=options, language=language)  # type: ignore[arg-type]


def identities(chunks: tuple[Chunk, ...]) -> list[str]:
    return [c.identity for c in chunks]


def assert_spans(text: str, chunks: tuple[Chunk, ...]) -> None:
    """Text equals lines, IDs unique, no line in two chunks, every non-blank line in one."""
    lines = text.replace("\r\n", "\n").split("\n")
    owner: dict[int, str] = {}
    for c in chunks:
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
        for row in range(c.start_line, c.end_line + 1):
            assert row not in owner, (c.id, owner[row])
            owner[row] = c.id
    assert len({c.id for c in chunks}) == len(chunks)
    assert [r for r, line in enumerate(lines, 1) if line.strip() and r not in owner] == []
    starts = [c.start_line for c in chunks]
    assert starts == sorted(starts)


# -- every fixture: real code from a package registry (tests/data/code/README.md) --

FIXTURE_CASES = [
    pytest.param(
        "parseUtil.js",
        "javascript",
        ["function-makeIssue", "method-ParseStatus.mergeArray"],
        id="javascript",
    ),
    pytest.param(
        "EventEmitter.ts",
        "typescript",
        ["type-EventSubscription", "method-EventEmitter.emit"],
        id="typescript",
    ),
    pytest.param("SearchBar.tsx", "tsx", ["const-NativeSearchBar", "function-SearchBar"], id="tsx"),
    pytest.param(
        "shell_completions.go",
        "go",
        ["method-Command.MarkFlagRequired", "function-MarkFlagFilename"],
        id="go",
    ),
    pytest.param(
        "fmt.rs",
        "rust",
        ["impl-Error-for-Error", "macro-fmt_primitives", "method-Formatter.serialize_seq"],
        id="rust",
    ),
    pytest.param(
        "RNSScreenManagerInterface.java",
        "java",
        [
            "interface-RNSScreenManagerInterface",
            "method-RNSScreenManagerInterface.setSheetElevation",
        ],
        id="java",
    ),
    pytest.param(
        "frameparams.c",
        "c",
        ["function-get_frame_parameters", "function-frameparams_module_init"],
        id="c",
    ),
    pytest.param(
        "jp_platform.cpp",
        "cpp",
        ["class-LinuxPlatformAdapter", "method-JPPlatformAdapter.getAdapter"],
        id="cpp",
    ),
    pytest.param("LibDL.cs", "csharp", ["interface-ILibDL", "method-MacLibDL.dlsym"], id="csharp"),
    pytest.param(
        "webrick.rb",
        "ruby",
        ["class-WEBrick.HTTPResponse", "method-Rack.Handler.WEBrick.run"],
        id="ruby",
    ),
    pytest.param(
        "InputInterface.php",
        "php",
        ["interface-InputInterface", "method-InputInterface.bind"],
        id="php",
    ),
    pytest.param(
        "JavaScriptTypedArray.kt",
        "kotlin",
        ["function-nextValue", "method-JavaScriptTypedArray.readByte"],
        id="kotlin",
    ),
    pytest.param(
        "AnyDynamicType.swift",
        "swift",
        ["protocol-AnyDynamicType", "extension-AnyDynamicType"],
        id="swift",
    ),
    pytest.param(
        "smartctl.bash",
        "shell",
        ["function-_smartctl_device", "function-_smartctl_drivedb"],
        id="shell",
    ),
]


@pytest.mark.parametrize(("name", "language", "expected"), FIXTURE_CASES)
def test_real_code(name: str, language: str, expected: list[str]) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    result = chunk_document(text, f"src/{name}", options=ChunkOptions(max=800, min=0))
    assert result.language == language
    assert result.problems == ()
    assert_spans(text, result.chunks)
    assert set(expected) <= set(identities(result.chunks))
    assert all(c.language == language for c in result.chunks)


@pytest.mark.parametrize(("name", "language", "expected"), FIXTURE_CASES)
def test_real_code_under_the_default_limit_has_no_parts_but_long_units(
    name: str, language: str, expected: list[str]
) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    result = chunk_document(text, f"src/{name}")
    assert_spans(text, result.chunks)
    # Parts only where a unit alone is over size.max.
    for c in result.chunks:
        if "~" in c.identity.rpartition(".")[2].lstrip("~"):
            assert c.chars <= 2000 or c.start_line == c.end_line


# -- the grammars: every node type and field the tables name exists --


@pytest.mark.parametrize("language", sorted(TABLES))
def test_tables_name_real_node_types(language: str) -> None:
    parser = grammars.parser(language)
    assert parser is not None
    grammar = parser.language
    assert isinstance(grammar, tree_sitter.Language)
    table = TABLES[language]
    names = (
        set(table.definitions)
        | set(table.members)
        | table.wrappers
        | table.scopes
        | table.attached
        | table.bodies
    )
    missing = sorted(n for n in names if grammar.id_for_node_kind(n, True) is None)
    assert missing == []


@pytest.mark.parametrize("language", sorted(TABLES))
def test_grammar_abi_is_supported(language: str) -> None:
    parser = grammars.parser(language)
    assert parser is not None
    assert parser.language is not None
    assert parser.language.abi_version >= tree_sitter.MIN_COMPATIBLE_LANGUAGE_VERSION
    assert parser.language.abi_version <= tree_sitter.LANGUAGE_VERSION


# -- how definitions become chunks --

SHAPES = [
    pytest.param(
        "a.js",
        """\
        import x from "y";

        /** Parse it. */
        export function parse(text) {
          return text;
        }

        const render = (tree) => tree;
        """,
        ["module", "function-parse", "function-render"],
        id="js-jsdoc-and-arrow-const",
    ),
    pytest.param(
        "a.ts",
        """\
        export function f(a: string): string;
        export function f(a: number): number;
        export function f(a: any) { return a; }

        @Component({})
        export class Widget {
          render() {}
        }
        """,
        ["function-f", "class-Widget"],
        id="ts-overloads-are-one-chunk-decorator-attached",
    ),
    pytest.param(
        "a.go",
        """\
        package main

        // Serve serves.
        func (s *Server[T]) Serve() {}

        type Server struct {
        \ta int
        }

        type ID string
        """,
        ["module", "method-Server.Serve", "type-Server", "module-after-Server"],
        id="go-receiver-and-one-line-type-as-module-code",
    ),
    pytest.param(
        "a.rs",
        """\
        /// A tree.
        #[derive(Debug)]
        pub struct Tree {
            root: u32,
        }

        impl<T> fmt::Display for Wrapper<T> {
            fn fmt(&self) {}
        }
        """,
        ["struct-Tree", "impl-Display-for-Wrapper"],
        id="rust-doc-comment-attribute-impl",
    ),
    pytest.param(
        "a.cpp",
        """\
        #include <x>
        namespace ns {
        void Tree::insert(int v) {
          go(v);
        }
        }  // namespace ns
        """,
        ["module", "method-Tree.insert"],
        id="cpp-namespace-is-transparent-closing-brace-joins",
    ),
    pytest.param(
        "a.sh",
        """\
        #!/bin/sh
        # Greets.
        greet() { echo hi; }
        greet() { echo again; }
        x=1
        greet() { echo third; }
        """,
        ["module", "function-greet", "module-after-greet", "function-greet-1"],
        id="shell-shebang-stays-in-module-repeats-numbered",
    ),
]


@pytest.mark.parametrize(("path", "text", "expected"), SHAPES)
def test_shapes(path: str, text: str, expected: list[str]) -> None:
    result = chunk(text, path)
    assert result.problems == ()
    assert identities(result.chunks) == expected
    assert_spans(textwrap.dedent(text), result.chunks)


def test_leading_comment_and_decorator_open_the_chunk() -> None:
    result = chunk(SHAPES[1].values[1], "a.ts")
    widget = next(c for c in result.chunks if c.identity == "class-Widget")
    assert widget.text.startswith("@Component({})")
    go = chunk(SHAPES[2].values[1], "a.go")
    assert go.chunks[1].text.startswith("// Serve serves.")
    assert go.chunks[1].symbol == "Server.Serve"
    assert go.chunks[1].kind == "method"


def test_closing_brace_joins_the_chunk_above() -> None:
    result = chunk(SHAPES[4].values[1], "a.cpp")
    assert result.chunks[-1].text.endswith("}  // namespace ns")


def test_big_class_splits_into_head_and_methods() -> None:
    methods = "\n".join(f"  m{i}() {{\n    return {i} + {'x' * 30};\n  }}\n" for i in range(8))
    text = f"/** A widget. */\nclass Widget {{\n  static count = 0;\n\n{methods}}}\n"
    result = chunk(text, "w.js", ChunkOptions(max=200, min=0))
    assert identities(result.chunks)[:3] == ["class-Widget", "method-Widget.m0", "method-Widget.m1"]
    assert result.chunks[0].text == "/** A widget. */\nclass Widget {\n  static count = 0;"
    assert result.chunks[-1].text.endswith("}\n}")  # the class's brace joins the last method
    assert_spans(text, result.chunks)


def test_oversized_function_splits_between_statements() -> None:
    body = "\n".join(f"  const v{i} = compute({i}, '{'y' * 40}');" for i in range(20))
    text = f"function big() {{\n{body}\n  return v1;\n}}\n"
    result = chunk(text, "big.js", ChunkOptions(max=400, min=0))
    ids = identities(result.chunks)
    assert ids[0] == "function-big"
    assert ids[1:] == [f"function-big~{n}" for n in range(2, len(ids) + 1)]
    assert all(c.chars <= 400 for c in result.chunks)
    assert result.chunks[-1].text.endswith("return v1;\n}")
    assert_spans(text, result.chunks)


def test_a_part_never_cuts_a_multiline_string() -> None:
    template = "\n".join(f"line {i} of a long template literal {'z' * 30}" for i in range(12))
    text = (
        f"function page() {{\n  const a = 1;\n  const html = `\n{template}\n`;\n"
        "  return html;\n}\n"
    )
    result = chunk(text, "page.js", ChunkOptions(max=300, min=0))
    for c in result.chunks:
        assert c.text.count("`") in (0, 2)


def test_suppression_comment_on_a_definition() -> None:
    text = "// chunkgate: disable=CG201\nfunction huge() {\n  return 1;\n}\n"
    assert chunk(text, "h.js").chunks[0].suppressed == frozenset({"CG201"})


def test_prose_is_not_code_cg001_and_text_windows() -> None:
    text = "# Install\n\nRun the installer, then open the settings and pick a theme.\n" * 3
    result = chunk(text, "notes.rs")
    assert len(result.problems) == 1
    problem = result.problems[0]
    assert problem.message.startswith("Rust syntax error:")
    assert "of the lines do not parse" in problem.message
    assert {c.kind for c in result.chunks} == {"text"}
    assert {c.language for c in result.chunks} == {"rust"}


def test_grammar_lag_is_not_an_error() -> None:
    # tree-sitter-kotlin 1.1 reports a missing separator in a one-line class body.
    text = "object Single { fun f() = 1 }\n\nfun top(x: Int): Int {\n    return x\n}\n"
    result = chunk(text, "a.kt")
    assert result.problems == ()
    assert "function-top" in identities(result.chunks)


def test_ids_survive_an_edit_elsewhere() -> None:
    text = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n"
    before = identities(chunk(text, "x.js").chunks)
    edited = text.replace("return 1;", "const z = 3;\n  return 1 + z;")
    after = identities(chunk("// header\n" + edited, "x.js").chunks)
    assert [i for i in before if i != "module"] == [i for i in after if i != "module"]


def test_without_the_extra_code_is_text_windows_and_nothing_is_imported(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["tree_sitter"] = None  # as if the code extra were not installed
        from chunkgate.chunking import chunk_text
        from chunkgate.chunking.extras import missing_extras
        chunks = chunk_text("package main\\n\\nfunc main() {}\\n", "main.go")
        print(sorted({c.kind for c in chunks}), chunks[0].language)
        print(missing_extras(["main.go", "util.go", "README.md"]))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.splitlines()
    assert out[0] == "['text'] go"
    assert "2 Go files chunked as text windows: install chunkgate with its `code` extra" in out[1]


def test_markdown_and_python_never_import_grammars(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import sys
        from chunkgate.chunking import chunk_text
        chunk_text("# T\\n\\ntext\\n", "a.md")
        chunk_text("def f():\\n    pass\\n", "a.py")
        loaded = [m for m in sys.modules if m.startswith(("tree_sitter", "docutils"))]
        loaded += [m for m in sys.modules if m.startswith("chunkgate.chunking.code")]
        print(loaded)
        chunk_text("fn main() {}\\n", "a.rs")
        print(sorted(m for m in sys.modules if m.startswith("tree_sitter") and "." not in m))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.splitlines()
    assert out[0] == "[]"
    assert out[1] == "['tree_sitter', 'tree_sitter_rust']"


# -- property: any mix of definitions, code and garbage keeps the span invariants --

_PIECES = [
    "function f{n}(a) {{\n  return a + {n};\n}}",
    "/** doc {n} */\nclass C{n} {{\n  m() {{ return {n}; }}\n}}",
    "const k{n} = {{\n  a: {n},\n}};",
    "// comment {n}",
    "x{n}();",
    "",
    "}}",
    "function broken{n}( {{",
    "`template\n{n}\n`;",
    "export default {n};",
]


_OTHER_PIECES = {
    "a.go": [
        "// F{n} does.\nfunc F{n}() int {{\n\treturn {n}\n}}",
        "func (s *S) M{n}() {{\n\tgo s.run({n})\n}}",
        "type T{n} struct {{\n\ta int\n}}",
        "var x{n} = `raw\n{n}\n`",
    ],
    "a.rs": [
        "/// Doc {n}\n#[inline]\nfn f{n}() -> u32 {{\n    {n}\n}}",
        "impl T{n} {{\n    fn m(&self) {{}}\n}}",
        "struct S{n} {{\n    a: u32,\n}}",
        'const C{n}: &str = "a\n{n}";',
    ],
    "a.rb": [
        "# doc {n}\ndef f{n}\n  {n}\nend",
        "class C{n}\n  def m\n    {n}\n  end\nend",
        "module M{n}\nend",
    ],
    "a.cpp": [
        "#if X{n}\nint f{n}() {{ return {n}; }}\n#endif",
        "namespace n{n} {{\nvoid T::m{n}() {{}}\n}}",
        "class K{n} {{\n public:\n  void m() {{}}\n}};",
    ],
}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_PIECES), st.integers(0, 3)), max_size=25),
    st.sampled_from(["a.js", "a.ts", "a.tsx"]),
    st.integers(60, 400),
)
def test_property_spans(pieces: list[tuple[str, int]], path: str, limit: int) -> None:
    text = "\n".join(piece.format(n=n) for piece, n in pieces)
    result = chunk_document(text, path, options=ChunkOptions(max=limit, min=0))
    assert_spans(text, result.chunks)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(sorted(_OTHER_PIECES)), st.integers(40, 300))
def test_property_spans_other_languages(data: st.DataObject, path: str, limit: int) -> None:
    pieces = _OTHER_PIECES[path] + ["", "}}", "garbage {n} (", "// note {n}", "# note {n}"]
    chosen = data.draw(st.lists(st.tuples(st.sampled_from(pieces), st.integers(0, 2)), max_size=20))
    text = "\n".join(piece.format(n=n) for piece, n in chosen)
    result = chunk_document(text, path, options=ChunkOptions(max=limit, min=0))
    assert_spans(text, result.chunks)
