"""Which optional extras a corpus needs and this installation lacks (issue 22).

Files of a tree-sitter language without the ``code`` extra, and ``.rst``
files without the ``rst`` extra, are chunked as text windows. That is said
once per run, not once per file, and without importing either extra.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Iterable

from chunkgate.chunking import languages

CODE_EXTRA = "code"


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def extra_of(language: str) -> str | None:
    """The extra that chunks ``language`` (None: the base install does)."""
    return languages.get(language).extra


def notes(paths: Iterable[str]) -> list[str]:
    """One note per missing extra, naming how many files it leaves as text windows."""
    by_extra: dict[str, Counter[str]] = {}
    for path in paths:
        language = languages.language_of(path)
        extra = extra_of(language)
        if extra is not None:
            by_extra.setdefault(extra, Counter())[language] += 1
    notes: list[str] = []
    for extra, counts in sorted(by_extra.items()):
        installed = _has("docutils") if extra == "rst" else _has_grammars(counts)
        if installed:
            continue
        files = sum(counts.values())
        names = ", ".join(languages.get(name).shown for name in sorted(counts))
        them = "them" if files != 1 else "it"
        notes.append(
            f"{files} {names} file{'s' if files != 1 else ''} chunked as text windows: "
            f"install chunkgate with its `{extra}` extra to chunk {them} by "
            f"{'section' if extra == 'rst' else 'definition'} (every machine that checks "
            "this corpus needs it, or their manifests differ)"
        )
    return notes


def _has_grammars(languages: Iterable[str]) -> bool:
    # Imported here: a run on Markdown and Python alone never loads the code package.
    from chunkgate.chunking.code import grammars

    return all(grammars.available(language) for language in languages)
