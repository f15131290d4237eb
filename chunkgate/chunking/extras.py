"""Which optional extras a corpus needs and this installation lacks (issue 22).

A file whose language needs an extra that is not installed (tree-sitter
languages without ``code``, ``.rst`` without ``rst``, or any language
registered with its own) is chunked as text windows. That is said once per
extra and run, not once per file, and without importing the extra: its
modules (the language's ``needs``) are only looked up.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Iterable

from chunkgate.chunking import languages


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def installed(language: languages.Language) -> bool:
    """Whether what chunks ``language`` is installed (always, without an extra)."""
    return all(_has(module) for module in language.needs)


def missing_extras(paths: Iterable[str]) -> list[str]:
    """One note per missing extra these files need, naming how many it leaves as text
    windows."""
    by_extra: dict[str, Counter[str]] = {}
    for path in paths:
        language = languages.language_for(path)
        if language.extra is not None and not installed(language):
            by_extra.setdefault(language.extra, Counter())[language.name] += 1
    found: list[str] = []
    for extra, counts in sorted(by_extra.items()):
        files = sum(counts.values())
        kinds = [languages.get(name) for name in sorted(counts)]
        names = ", ".join(language.shown for language in kinds)
        unit = (
            "definition"
            if all(lang.code for lang in kinds)
            else next(iter(kinds[0].kinds.values()))
        )
        them = "them" if files != 1 else "it"
        found.append(
            f"{files} {names} file{'s' if files != 1 else ''} chunked as text windows: "
            f"install chunkgate with its `{extra}` extra to chunk {them} by {unit} "
            "(every machine that checks this corpus needs it, or their manifests differ)"
        )
    return found
