"""Every regular expression in chunkgate, and inputs built to make each one backtrack.

The patterns are found two ways, so that a new one cannot escape the test: the
compiled patterns each module holds (module attributes, ``lazy`` ones
compiled here, and those inside module-level tuples, lists and dicts), and
every ``re.<function>("literal")`` and ``lazy("literal")`` call in the
package's source. For each pattern the inputs are long runs of
every character its literals and classes touch, each literal fragment repeated,
and each fragment (an opener) followed by a long run of each character and
never closed.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

try:
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

import chunkgate
from chunkgate.core.regex import Lazy

PACKAGE = Path(chunkgate.__file__).parent
_RE_FUNCTIONS = {
    *("compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split")
}
# Characters every pattern is tried with, whatever it names (\s, \w, \d and . touch them).
_ALWAYS = " \t\na0"


_REPEATS = tuple(
    getattr(sre_constants, name)
    for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
    if hasattr(sre_constants, name)
)


class Found(NamedTuple):
    name: str
    pattern: re.Pattern[str]


def patterns() -> list[Found]:
    found: dict[tuple[str, int], Found] = {}
    for module in _modules():
        for name, value in vars(module).items():
            for pattern in _compiled(value):
                key = (pattern.pattern, pattern.flags)
                found.setdefault(key, Found(f"{module.__name__}.{name}", pattern))
    for name, source, flags in _literal_calls():
        try:
            pattern = re.compile(source, flags)
        except (re.error, TypeError):
            continue
        found.setdefault((pattern.pattern, pattern.flags), Found(name, pattern))
    return sorted(found.values(), key=lambda item: item.name)


def _modules() -> Iterator[Any]:
    yield chunkgate
    for info in pkgutil.walk_packages(chunkgate.__path__, "chunkgate."):
        yield importlib.import_module(info.name)


def _compiled(value: object, depth: int = 0) -> Iterator[re.Pattern[str]]:
    if isinstance(value, Lazy):
        value = value.compiled
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            yield value
    elif depth < 2 and isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from _compiled(item, depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item in value.values():
            yield from _compiled(item, depth + 1)


def _literal_calls() -> Iterator[tuple[str, str, int]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            lazy = isinstance(node.func, ast.Name) and node.func.id == "lazy"
            if not lazy and not (
                isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in _RE_FUNCTIONS
            ):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                yield where, first.value, _flags(node)


def _flags(call: ast.Call) -> int:
    flags = 0
    keywords = [keyword.value for keyword in call.keywords if keyword.arg == "flags"]
    candidates = [*call.args[1:], *keywords]
    for node in candidates:
        for part in ast.walk(node):
            if not isinstance(part, ast.Attribute) or not isinstance(part.value, ast.Name):
                continue
            if part.value.id == "re":
                value = getattr(re, part.attr, None)
                if isinstance(value, re.RegexFlag):
                    flags |= value
    return flags


def pieces(pattern: re.Pattern[str]) -> tuple[list[str], list[str]]:
    """The characters and the literal fragments (runs of literals) ``pattern`` names."""
    chars: set[str] = set(_ALWAYS)
    fragments: set[str] = set()
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    _walk(list(parsed), chars, fragments)
    return sorted(chars), sorted(fragment for fragment in fragments if len(fragment) > 1)


def _walk(items: list[Any], chars: set[str], fragments: set[str]) -> None:
    run: list[str] = []
    for op, arg in items:
        if op is sre_constants.LITERAL:
            run.append(chr(arg))
            chars.add(chr(arg))
            continue
        if run:
            fragments.add("".join(run))
            run = []
        if op is sre_constants.IN:
            for kind, value in arg:
                if kind is sre_constants.LITERAL:
                    chars.add(chr(value))
                elif kind is sre_constants.RANGE:
                    chars.update({chr(value[0]), chr(value[1])})
        elif op is sre_constants.SUBPATTERN:
            _walk(list(arg[-1]), chars, fragments)
        elif op in _REPEATS:
            _walk(list(arg[2]), chars, fragments)
        elif op is sre_constants.BRANCH:
            for branch in arg[1]:
                _walk(list(branch), chars, fragments)
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            _walk(list(arg[1]), chars, fragments)
        elif op is sre_constants.ATOMIC_GROUP:
            _walk(list(arg), chars, fragments)
        elif op is sre_constants.GROUPREF_EXISTS:
            for branch in arg[1:]:
                if branch is not None:
                    _walk(list(branch), chars, fragments)
    if run:
        fragments.add("".join(run))


def inputs(pattern: re.Pattern[str], size: int) -> Iterator[tuple[str, str]]:
    """(description, text) pairs of about ``size`` characters each."""
    chars, fragments = pieces(pattern)
    runs = [char for char in chars if not char.isalnum()] + ["a", "0"]
    openers = [*fragments, *runs]
    for char in chars:
        yield f"{char!r} * n", char * size
    for fragment in fragments:
        yield f"{fragment!r} * n", fragment * (size // len(fragment) + 1)
    for opener in openers:
        for char in runs:
            if char != opener:
                yield f"{opener!r} + {char!r} * n", opener + char * size
                times = size // (len(opener) + 1) + 1
                yield f"({opener!r} + {char!r}) * n", (opener + char) * times


def elapsed(action: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def scan(pattern: re.Pattern[str], text: str) -> int:
    # finditer tries a match at every position, as search and sub do: the worst use.
    return sum(1 for _ in pattern.finditer(text))
