"""The text of each kind of document ``fuzz.py`` chunks: Markdown with the dialects'
blocks, Python, reStructuredText, plain text and the tree-sitter languages.

Names come from small pools on purpose: repeated headings, definitions and IDs are where
numbering goes wrong. Each generator is a function of a seeded ``random.Random``.
"""

from __future__ import annotations

import random

WORDS = (  # noqa: SIM905 - a vocabulary reads better as text
    "the of and to in is data model request api user file list value type server query "
    "lock queue über naïve 日本語 → x_y a-b C++ `code` *em* **strong** _u_ <b> &amp; \\* 1."
).split()
# Few names, so that they repeat: setup / Setup / setup-1 / "Setup 1" collide as slugs.
NAMES = ("a", "b", "g", "x", "setup", "Setup", "setup-1", "Setup 1", "install", "A b", "a_b",
         "über", "日本", "-", "1", "__init__", "main", "run", "a~2", "module", "module-after-g")  # fmt: skip
IDS = ("a", "b", "x", "setup", "install", "setup-1", "a_b", "ü", "\\_fn_1", "9.7.0", "a:b")
LANGS = ("python", "py", "js", "", "text", "{.python}", "mermaid", "console", "{code-cell}")


def words(rng: random.Random, low: int = 1, high: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def name(rng: random.Random) -> str:
    return rng.choice(NAMES)


def ident(rng: random.Random) -> str:
    """A Python/C-like identifier from the small pool."""
    return rng.choice(("a", "b", "g", "f", "run", "main", "Setup", "setup", "x1", "_p", "__init__"))


def size(rng: random.Random) -> int:
    """How many blocks a document has: mostly few, sometimes many."""
    return (
        rng.choice((1, 2, 3, 4, 6, 8, 12, 20, 40)) if rng.random() < 0.97 else rng.randint(60, 200)
    )


# ---------------------------------------------------------------- Markdown


def _heading_text(rng: random.Random) -> str:
    text = name(rng) if rng.random() < 0.6 else words(rng, 1, 5)
    roll = rng.random()
    if roll < 0.15:
        text += f" {{#{rng.choice(IDS)}}}"
    elif roll < 0.2:
        text += rng.choice((f" {{ #{rng.choice(IDS)} .cls }}", f" {{ id=\"{rng.choice(IDS)}\" }}",
                            " { .cls }", f" {{: #{rng.choice(IDS)}}}", " {#}", " {#a #b}"))  # fmt: skip
    elif roll < 0.25:
        text += rng.choice((" #", " ###", " `x`", " [l](#a)", ' <a id="z"></a>', " \\#"))
    return text


def _md_block(rng: random.Random, depth: int = 0) -> str:
    roll = rng.randrange(30)
    if roll < 6:
        gap = rng.choice(" \t")
        return f"{'#' * rng.randint(1, 7)}{gap}{_heading_text(rng)}\n"
    if roll == 6:
        return f"{_heading_text(rng)}\n{rng.choice('=-') * rng.randint(1, 8)}\n"
    if roll < 10:
        return "\n".join(_md_inline(rng) for _ in range(rng.randint(1, 4))) + "\n"
    if roll == 10:
        fence = rng.choice(("```", "~~~", "````", "```"))
        body = "\n".join(
            rng.choice(("# not a heading", words(rng), "```", "  x = 1", ""))
            for _ in range(rng.randint(0, 8))
        )
        close = fence if rng.random() < 0.9 else ""
        return f"{' ' * rng.randint(0, 3)}{fence}{rng.choice(LANGS)}\n{body}\n{close}\n"
    if roll == 11:
        return "".join(f"    {words(rng)}\n" for _ in range(rng.randint(1, 5)))
    if roll == 12:
        cols = rng.randint(1, 4)
        rows = [" | ".join(words(rng, 1, 3) for _ in range(cols)) for _ in range(rng.randint(0, 5))]
        sep = "|".join(rng.choice(("---", ":--", "--:", ":-:")) for _ in range(cols))
        last = f"| x | y {{#{rng.choice(IDS)}}} |" if rng.random() < 0.2 else ""
        return (
            f"| {' | '.join(name(rng) for _ in range(cols))} |\n|{sep}|\n"
            + "".join(f"| {r} |\n" for r in rows)
            + last
            + "\n"
        )
    if roll == 13:
        return rng.choice(("<div>\n\n# inside {#a}\n\n</div>\n", "<details>\n<summary>x</summary>\n\n## d\n\n</details>\n",
                           "<!-- comment\n# hidden\n-->\n", "<!--\n", "<pre>\n# x\n</pre>\n",
                           f"<h2 id=\"{rng.choice(IDS)}\">H</h2>\n", "<a name=\"x\"></a>\n", "<script>\nlet a = '#';\n"))  # fmt: skip
    if roll == 14:
        title = rng.choice(("", ' "t"', " 'title'"))
        return f"[{name(rng)}]: {rng.choice(('https://x.org', '#a', '<#b>', './p.md#x'))}{title}\n"
    if roll == 15:
        return f"[^{rng.randint(1, 3)}]: {words(rng)}\n    {words(rng)}\n"
    if roll == 16:
        kind = rng.choice(("!!!", "???", "???+", "!!!"))
        body = (
            "".join(
                "    " + line + "\n"
                for b in range(rng.randint(1, 3))
                for line in _md_block(rng, depth + 1).splitlines()
            )
            if depth < 2
            else "    x\n"
        )
        title = rng.choice(("", ' "Title"', ' ""'))
        return f"{kind} {rng.choice(('note', 'warning', 'tip inline'))}{title}\n\n{body}"
    if roll == 17:
        colons = ":" * rng.randint(3, 5)
        inner = _md_block(rng, depth + 1) if depth < 2 else "x\n"
        return f"{colons}{rng.choice((' warning', '{note}', ' details Title', '{code-block} python', ''))}\n{inner}{colons if rng.random() < 0.9 else ''}\n"
    if roll == 18:
        tab = f'=== "{name(rng)}"\n\n'
        return tab + "".join(
            "    " + line + "\n"
            for line in (_md_block(rng, depth + 1) if depth < 2 else "x\n").splitlines()
        )
    if roll == 19:
        return "".join(
            f"{'  ' * rng.randint(0, 3)}{rng.choice('-*+')} {rng.choice((words(rng), '# in list', '[ ] task'))}\n"
            for _ in range(rng.randint(1, 5))
        )
    if roll == 20:
        return (
            "".join(f"> {line}\n" for line in _md_block(rng, depth + 1).splitlines())
            if depth < 2
            else "> q\n"
        )
    if roll == 21:
        return rng.choice(("---\n", "***\n", "___\n", "- - -\n", "---\n---\n"))
    if roll == 22:
        return rng.choice((f"({name(rng)})=\n", f"({rng.choice(IDS)})=\n", "import X from './x'\n",
                           "export const meta = {}\n", "{{% tab %}}\n", "{{< /tab >}}\n", "{% raw %}\n",
                           "{{ page.title }}\n", "$$\n# math\n$$\n", f"{{: #{rng.choice(IDS)}}}\n",
                           f"## ::: pkg.{name(rng)}\n"))  # fmt: skip
    if roll == 23:
        return (
            rng.choice(
                (
                    "x" * rng.randint(200, 6000),
                    " ".join(["word"] * rng.randint(100, 1500)),
                    "[x](#y) " * rng.randint(10, 400),
                )
            )
            + "\n"
        )
    if roll == 24:
        return "\n" * rng.randint(1, 4) + rng.choice(("", " ", "\t", "  \t  ")) + "\n"
    return _md_inline(rng) + "\n"


def _md_inline(rng: random.Random) -> str:
    pieces = [words(rng, 1, 6)]
    for _ in range(rng.randint(0, 3)):
        pieces.append(rng.choice((f"[{name(rng)}](#{rng.choice(IDS)})", f"[{name(rng)}][{name(rng)}]", f"[^{rng.randint(1, 3)}]",
                                  "<span>x</span>", "<https://x.org>", "`code`", "**b**", "\\", "&#35;", "{#c}", words(rng))))  # fmt: skip
    return " ".join(pieces)


def _front_matter(rng: random.Random) -> str:
    return rng.choice(("---\ntitle: T\ntags: [a, b]\n---\n", "---\n# only a comment\n---\n", "+++\ntitle = \"T\"\n+++\n",
                       "---\ntitle: [unclosed\n---\n", "---\n", "---\ntitle: x\n", "---\n---\n", "---\n: bad: yaml: {\n---\n"))  # fmt: skip


def markdown(rng: random.Random) -> str:
    head = _front_matter(rng) if rng.random() < 0.25 else ""
    return head + "\n".join(_md_block(rng) for _ in range(size(rng)))


# ---------------------------------------------------------------- Python


def _py_body(rng: random.Random, indent: str, depth: int) -> list[str]:
    lines: list[str] = []
    if rng.random() < 0.5:
        doc = " ".join(["o"] * rng.randint(1, 400)) if rng.random() < 0.3 else words(rng)
        lines.append(
            f'{indent}"""{doc}"""'
            if rng.random() < 0.6
            else f'{indent}"""{words(rng)}\n\n{indent}{doc}\n{indent}"""'
        )
    for _ in range(rng.randint(0, 6)):
        roll = rng.randrange(10)
        if roll < 4:
            lines.append(
                f"{indent}{ident(rng)} = {rng.choice(('1', repr(words(rng)), 'x' * rng.randint(1, 300), '[' + ', '.join('1' * rng.randint(0, 30)) + ']'))}"
            )
        elif roll < 6 and depth < 3:
            lines.extend(_py_def(rng, indent, depth + 1))
        elif roll == 6:
            lines.append(
                f"{indent}# {words(rng)}{' chunkgate: disable=CG201' if rng.random() < 0.1 else ''}"
            )
        elif roll == 7:
            lines.append(
                f"{indent}if x:\n{indent}    return {ident(rng)}\n{indent}else:\n{indent}    pass"
            )
        elif roll == 8:
            lines.append(f"{indent}s = '''\n{words(rng)}\ndef fake():\n'''")
        else:
            lines.append(
                f"{indent}{ident(rng)}({', '.join(ident(rng) for _ in range(rng.randint(0, 5)))})"
            )
    return lines or [f"{indent}pass"]


def _py_def(rng: random.Random, indent: str, depth: int) -> list[str]:
    lines = [
        f"{indent}@{rng.choice(('property', 'staticmethod', 'functools.cache', 'dec(1)', 'a.b'))}"
        for _ in range(rng.choice((0, 0, 1, 2)))
    ]
    if rng.random() < 0.3 and depth < 3:
        bases = rng.choice(("", "(Base)", "(A, metaclass=M)"))
        head = f"{indent}class {ident(rng)}{bases}:"
    else:
        head = f"{indent}{rng.choice(('def', 'def', 'async def'))} {ident(rng)}({rng.choice(('', 'self', 'self, x=1', 'a, *b, **c'))}){rng.choice(('', ' -> int'))}:"
    if rng.random() < 0.2:
        return [
            *lines,
            f"{head} {rng.choice(('pass', 'return 1', '...', 's' * rng.randint(1, 2000)))}",
        ]
    return [*lines, head, *_py_body(rng, indent + "    ", depth)]


def python(rng: random.Random) -> str:
    lines: list[str] = []
    if rng.random() < 0.3:
        lines.append(f'"""{words(rng)}"""')
    for _ in range(size(rng)):
        roll = rng.randrange(10)
        if roll < 5:
            lines.extend(_py_def(rng, "", 0))
        elif roll < 7:
            lines.append(f"{ident(rng).upper()} = {rng.choice(('1', '{}', repr(words(rng))))}")
        elif roll == 7:
            lines.append(
                rng.choice(
                    (
                        "import os",
                        "from a import (b,\n    c)",
                        "if __name__ == '__main__':\n    main()",
                        "try:\n    import x\nexcept ImportError:\n    x = None",
                    )
                )
            )
        elif roll == 8:
            lines.append(rng.choice(("", "", "# " + words(rng), "x" * rng.randint(100, 5000))))
        else:
            lines.append(
                rng.choice(
                    ("def broken(:", "class", "    stray_indent = 1", "'''unclosed", "x = (")
                )
                if rng.random() < 0.1
                else ""
            )
    return "\n".join(lines) + rng.choice(("\n", "", "\n\n"))


# ---------------------------------------------------------------- reStructuredText, text


def rst(rng: random.Random) -> str:
    out: list[str] = []
    for _ in range(size(rng)):
        roll = rng.randrange(12)
        if roll < 4:
            title = name(rng) if rng.random() < 0.6 else words(rng, 1, 4)
            char = rng.choice("=-~^*#\"'")
            under = char * max(1, len(title) + rng.choice((0, 0, 2, -1)))
            out.append(
                f"{under}\n{title}\n{under}\n" if rng.random() < 0.2 else f"{title}\n{under}\n"
            )
        elif roll == 4:
            out.append(f".. _{rng.choice(IDS)}:\n")
        elif roll == 5:
            out.append(
                f".. {rng.choice(('code-block:: python', 'note::', 'toctree::', 'image:: x.png', 'include:: other.rst'))}\n\n   {words(rng)}\n   # x\n"
            )
        elif roll == 6:
            out.append(f":{rng.choice(('author', 'tags', 'orphan'))}: {words(rng, 0, 3)}\n")
        elif roll == 7:
            out.append(f"{words(rng)}::\n\n    {words(rng)}\n    ====\n")
        elif roll == 8:
            out.append(
                rng.choice(
                    (
                        "----\n",
                        "..\n   comment\n",
                        "* a\n* b\n",
                        "+---+---+\n| a | b |\n+---+---+\n",
                        "=== ===\na   b\n=== ===\n",
                        "x" * rng.randint(100, 4000) + "\n",
                    )
                )
            )
        else:
            out.append(words(rng, 3, 30) + "\n")
    return "\n".join(out)


def text(rng: random.Random) -> str:
    return "\n".join(
        rng.choice((words(rng, 1, 40), "", "", "\f", "x" * rng.randint(50, 3000)))
        for _ in range(size(rng) * 2)
    )


# ---------------------------------------------------------------- tree-sitter code

# One template of a definition per language; {n} is a name, {b} a body line.
CODE: dict[str, tuple[str, tuple[str, ...], str]] = {
    # language: (suffix, definition templates, body line)
    "javascript": (
        ".js",
        (
            "function {n}() {{\n{b}\n}}",
            "class {n} {{\n  {n}() {{\n{b}\n  }}\n}}",
            "const {n} = () => {{\n{b}\n}};",
            "export default function () {{}}",
        ),
        "  return 1; // x",
    ),
    "typescript": (
        ".ts",
        (
            "function {n}(a: number): void {{\n{b}\n}}",
            "interface {n} {{ a: string }}",
            "class {n}<T> {{\n  {n}(): T {{\n{b}\n  }}\n}}",
            "namespace {n} {{\n{b}\n}}",
        ),
        "  let x: number = 1;",
    ),
    "tsx": (
        ".tsx",
        ("function {n}() {{\n  return <div>{b}</div>;\n}}", "const {n} = () => <a/>;"),
        "x",
    ),
    "go": (
        ".go",
        (
            "func {n}() {{\n{b}\n}}",
            "func (s *{n}) {n}() {{\n{b}\n}}",
            "type {n} struct {{\n\tA int\n}}",
            "var {n} = 1",
        ),
        "\treturn",
    ),
    "rust": (
        ".rs",
        (
            "fn {n}() {{\n{b}\n}}",
            "impl {n} {{\n    fn {n}(&self) {{\n{b}\n    }}\n}}",
            "struct {n} {{ a: u8 }}",
            "mod {n} {{\n{b}\n}}",
            "impl Display for {n} {{}}",
        ),
        "    let x = 1;",
    ),
    "java": (
        ".java",
        (
            "class {n} {{\n  void {n}() {{\n{b}\n  }}\n  void {n}(int a) {{}}\n}}",
            "interface {n} {{}}",
            "enum {n} {{ A, B }}",
        ),
        "    x++;",
    ),
    "c": (
        ".c",
        (
            "int {n}(void) {{\n{b}\n}}",
            "struct {n} {{ int a; }};",
            "#define {n} 1",
            "typedef int {n};",
        ),
        "  x++;",
    ),
    "cpp": (
        ".hpp",
        (
            "namespace {n} {{\nint {n}() {{\n{b}\n}}\n}}",
            "class {n} {{\n public:\n  void {n}();\n}};",
            "template <class T> T {n}(T a) {{\n{b}\n}}",
            "void {n}::{n}() {{}}",
        ),
        "  x++;",
    ),
    "csharp": (
        ".cs",
        ("class {n} {{\n  void {n}() {{\n{b}\n  }}\n}}", "namespace {n} {{ }}"),
        "    x++;",
    ),
    "ruby": (
        ".rb",
        ("def {n}\n{b}\nend", "class {n}\n  def {n}\n{b}\n  end\nend", "module {n}\nend"),
        "  x = 1",
    ),
    "php": (
        ".php",
        ("<?php\nfunction {n}() {{\n{b}\n}}", "<?php\nclass {n} {{\n  function {n}() {{}}\n}}"),
        "  $x = 1;",
    ),
    "kotlin": (
        ".kt",
        ("fun {n}() {{\n{b}\n}}", "class {n} {{\n  fun {n}() {{}}\n}}"),
        "  val x = 1",
    ),
    "swift": (
        ".swift",
        ("func {n}() {{\n{b}\n}}", "class {n} {{\n  func {n}() {{}}\n}}"),
        "  let x = 1",
    ),
    "shell": (".sh", ("{n}() {{\n{b}\n}}", "function {n} {{\n{b}\n}}"), "  echo x"),
}


def code(rng: random.Random, language: str) -> str:
    _, templates, body = CODE[language]
    out = []
    for _ in range(size(rng)):
        if rng.random() < 0.15:
            garbage = ("// " + words(rng), "x" * rng.randint(100, 3000), "")
            if language != "kotlin":  # see KOTLIN_SLOW
                garbage += ("# " + words(rng), "}", "{", "/*")
            out.append(rng.choice(garbage))
            continue
        lines = "\n".join([body] * rng.choice((0, 1, 1, 2, 5, 30)))
        out.append(rng.choice(templates).format(n=ident(rng), b=lines))
    return "\n\n".join(out) + "\n"
