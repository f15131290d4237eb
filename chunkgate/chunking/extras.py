"""Which optional extras a corpus needs and this installation lacks (issue 22).

Files of a tree-sitter language without the ``code`` extra, and ``.rst``
files without the ``rst`` extra, are chunked as text windows. That is said
once per run, not once per file, and without importing either extra.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Iterable

from chunkgate.chunking import CODE_LANGUAGES, language_of

CODE_EXTRA = "code"


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def extra_of(language: str) -> str | None:
    """The extra that chunks ``language`` (None: the base install does)."""
    if language in CODE_LANGUAGES:
        return CODE_EXTRA
    if language == "rst":
        return "rst"
    return None


def notes(paths: Iterable[str]) -> list[str]:
    """One note per missing extra, naming how many files it leaves as text windows."""
    by_extra: dict[str, Counter[str]] = {}
    for path in paths:
        language = language_of(path)
        extra = extra_of(language)
        if extra is not None:
            by_extra.setdefault(extra, Counter())[language] += 1
    notes: list[str] = []
    for extra, languages in sorted(by_extra.items()):
        installed = _has("docutils") if extra == "rst" else _has_grammars(languages)
        if installed:
            continue
        files = sum(languages.values())
        names = ", ".join(_display(language) for language in sorted(languages))
        notes.append(
            f"{files} {names} file{'s' if files != 1 else ''} chunked as text windows: "
            f"install chunkgate[{extra}] to chunk {'them' if files != 1 else 'it'} by "
            f"{'section' if extra == 'rst' else 'definition'} (every machine that checks "
            "this corpus needs it, or their manifests differ)"
        )
    return notes


def _has_grammars(languages: Iterable[str]) -> bool:
    # Imported here: a run on Markdown and Python alone never loads the code package.
    from chunkgate.chunking.code import grammars

    return all(grammars.available(language) for language in languages)


def _display(language: str) -> str:
    if language == "rst":
        return "reStructuredText"
    from chunkgate.chunking.code import grammars

    return grammars.GRAMMARS[language].display
