"""Tree-sitter grammars, loaded on first use of their language.

Each grammar is its own wheel (``tree-sitter-go``, ...) in the ``code`` extra:
bundled language packs were measured against per-language wheels and lost
(see ``benchmarks/treesitter_bindings.py``). Nothing here is imported until a
file of a tree-sitter language is chunked, so a hook run on Markdown never
loads ``tree_sitter``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import tree_sitter


class Grammar(NamedTuple):
    module: str  # the grammar wheel's import name
    function: str  # the function in it that returns the language pointer
    package: str  # the distribution to install, for messages
    display: str  # the language's name in messages


GRAMMARS: dict[str, Grammar] = {
    "javascript": Grammar(
        "tree_sitter_javascript", "language", "tree-sitter-javascript", "JavaScript"
    ),
    "typescript": Grammar(
        "tree_sitter_typescript", "language_typescript", "tree-sitter-typescript", "TypeScript"
    ),
    "tsx": Grammar("tree_sitter_typescript", "language_tsx", "tree-sitter-typescript", "TSX"),
    "go": Grammar("tree_sitter_go", "language", "tree-sitter-go", "Go"),
    "rust": Grammar("tree_sitter_rust", "language", "tree-sitter-rust", "Rust"),
    "java": Grammar("tree_sitter_java", "language", "tree-sitter-java", "Java"),
    "c": Grammar("tree_sitter_c", "language", "tree-sitter-c", "C"),
    "cpp": Grammar("tree_sitter_cpp", "language", "tree-sitter-cpp", "C++"),
    "csharp": Grammar("tree_sitter_c_sharp", "language", "tree-sitter-c-sharp", "C#"),
    "ruby": Grammar("tree_sitter_ruby", "language", "tree-sitter-ruby", "Ruby"),
    "php": Grammar("tree_sitter_php", "language_php", "tree-sitter-php", "PHP"),
    "kotlin": Grammar("tree_sitter_kotlin", "language", "tree-sitter-kotlin", "Kotlin"),
    "swift": Grammar("tree_sitter_swift", "language", "tree-sitter-swift", "Swift"),
    "shell": Grammar("tree_sitter_bash", "language", "tree-sitter-bash", "Shell"),
}


def available(language: str) -> bool:
    """Whether the grammar of ``language`` is installed, without importing it."""
    grammar = GRAMMARS[language]
    try:
        return (
            importlib.util.find_spec("tree_sitter") is not None
            and importlib.util.find_spec(grammar.module) is not None
        )
    except (ImportError, ValueError):
        return False


@functools.cache
def parser(language: str) -> tree_sitter.Parser | None:
    """A parser for ``language``, or None when its grammar is not installed."""
    grammar = GRAMMARS[language]
    try:
        import tree_sitter

        module = importlib.import_module(grammar.module)
    except ImportError:
        return None
    return tree_sitter.Parser(tree_sitter.Language(getattr(module, grammar.function)()))
