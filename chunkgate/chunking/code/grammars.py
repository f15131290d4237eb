"""Tree-sitter grammars, loaded on first use of their language.

Each grammar is its own wheel (``tree-sitter-go``, ...) in the ``code`` extra,
named by its language's ``needs`` in ``languages``: bundled language packs
were measured against per-language wheels and lost (see
``benchmarks/treesitter_bindings.py``). Nothing here is imported until a file
of a tree-sitter language is chunked, so a hook run on Markdown never loads
``tree_sitter``.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

from chunkgate.chunking import languages

if TYPE_CHECKING:
    import tree_sitter

# The function of a grammar's wheel that returns its language pointer, where it is not
# ``language``: the wheels that hold several grammars.
_FUNCTIONS = {"typescript": "language_typescript", "tsx": "language_tsx", "php": "language_php"}


@functools.cache
def parser(language: str) -> tree_sitter.Parser | None:
    """A parser for ``language``, or None when its grammar is not installed."""
    wheel = languages.get(language).needs[-1]
    try:
        # tree_sitter and a grammar load a native library: only when code is chunked.
        import tree_sitter

        module = importlib.import_module(wheel)
    except ImportError:
        return None
    function = getattr(module, _FUNCTIONS.get(language, "language"))
    return tree_sitter.Parser(tree_sitter.Language(function()))
