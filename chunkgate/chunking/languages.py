"""The languages chunkgate chunks, one entry each: everything that differs by language.

A file's language comes from its suffix; a suffix no entry claims is plain
text. Adding a language is a chunker module (a function of a
``ChunkContext`` and the ``Language``, returning ``Chunked``) plus one
``Language`` here; the
default corpus (``include``), the default configuration that ``init``
writes, the rules' wording and ``outline`` all follow from the entry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from chunkgate.chunking.base import ChunkContext, Chunked, ChunkOptions
    from chunkgate.core.model import Chunk, Heading

    Chunker = Callable[[ChunkContext, "Language"], Chunked]
    Outliner = Callable[[ChunkContext], list[Heading]]


class Language(NamedTuple):
    name: str
    suffixes: tuple[str, ...]  # lower case, with the dot
    chunker: str  # "module:function", imported when a file of the language is first chunked
    kinds: Mapping[str, str]  # each chunk kind it makes, and the noun messages use for it
    default: bool = False  # part of the default corpus
    encoding: Literal["utf-8", "python"] = "utf-8"  # python: PEP 263 coding cookies
    code: bool = False  # source code: never a license file, never a link farm
    markup: bool = False  # generated-file markers hide in HTML comments, not code comments
    outline: str | None = None  # "module:function" listing the headings, if it has any
    # How an author keeps a chunk's ID through a rename, as the fix says it: a template of
    # the chunk's identity, for the chunk kinds in `explicit_kinds`; or a "module:function"
    # of (ChunkOptions, Chunk) that says it (where it depends on the file's site).
    explicit_id: str | None = None
    explicit_kinds: tuple[str, ...] = ()
    keeper: str | None = None
    duplicate_fix: str = "rename one of the files' sections, or exclude the file"
    comment: str | None = None  # its line comment (source code): fixes write SPDX lines in it
    extra: str | None = None  # the optional extra that chunks it; without it, text windows
    # The modules that extra installs, found (never imported) to tell whether it is
    # there; a tree-sitter language's last one is its grammar's wheel.
    needs: tuple[str, ...] = ()
    display: str = ""  # its name in messages, when not its registry name

    @property
    def shown(self) -> str:
        return self.display or self.name

    def noun(self, kind: str) -> str:
        return self.kinds.get(kind, kind)

    def keep_id(self, chunk: Chunk, options: ChunkOptions | None = None) -> str | None:
        """What to write so that ``chunk`` keeps its ID (``{#install}``), if anything."""
        if self.keeper is not None:
            found = load(self.keeper)(options, chunk)
            return found if isinstance(found, str) else None
        if self.explicit_id is None or chunk.kind not in self.explicit_kinds:
            return None
        return self.explicit_id.format(identity=chunk.identity)


MARKDOWN = Language(
    "markdown",
    (".md", ".markdown", ".mdx"),
    "chunkgate.chunking.markdown:chunk",
    {"section": "section", "preamble": "preamble"},
    default=True,
    markup=True,
    outline="chunkgate.chunking.markdown:outline",
    keeper="chunkgate.chunking.markdown:keep_id",
    duplicate_fix="give the heading a unique {#id} or rename it",
    display="Markdown",
)
PYTHON = Language(
    "python",
    (".py", ".pyi"),
    "chunkgate.chunking.python:chunk",
    {
        "function": "function",
        "class": "class",
        "method": "method",
        "module": "module code",
        "text": "text window",  # a file that does not parse
    },
    default=True,
    encoding="python",
    code=True,
    duplicate_fix="rename one of the definitions",
    comment="#",
    display="Python",
)
RST = Language(
    "rst",
    (".rst",),
    "chunkgate.chunking.rst:chunk",
    {"section": "section", "preamble": "preamble", "text": "text window"},
    outline="chunkgate.chunking.rst:outline",
    explicit_id="`.. _{identity}:` above the title",
    explicit_kinds=("section",),
    duplicate_fix="give the section a unique `.. _id:` target or rename it",
    extra="rst",
    needs=("docutils",),
    display="reStructuredText",
)
# Code by tree-sitter (chunkgate.chunking.code), in the `code` extra: name, display
# name, suffixes, line comment, and the grammar's wheel (``tree_sitter_<grammar>``).
_CODE = (
    ("javascript", "JavaScript", (".js", ".mjs", ".cjs", ".jsx"), "//", "javascript"),
    ("typescript", "TypeScript", (".ts", ".mts", ".cts"), "//", "typescript"),
    ("tsx", "TSX", (".tsx",), "//", "typescript"),
    ("go", "Go", (".go",), "//", "go"),
    ("rust", "Rust", (".rs",), "//", "rust"),
    ("java", "Java", (".java",), "//", "java"),
    ("c", "C", (".c",), "//", "c"),
    # Headers are read as C++: on 718 real headers (glibc, fmt, JPype, zstd, two
    # React Native packages) the C++ grammar had errors in 378, the C one in 485.
    ("cpp", "C++", (".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx"), "//", "cpp"),
    ("csharp", "C#", (".cs",), "//", "c_sharp"),
    ("ruby", "Ruby", (".rb",), "#", "ruby"),
    ("php", "PHP", (".php",), "//", "php"),
    ("kotlin", "Kotlin", (".kt", ".kts"), "//", "kotlin"),
    ("swift", "Swift", (".swift",), "//", "swift"),
    ("shell", "shell", (".sh", ".bash"), "#", "bash"),
)
CODE = tuple(
    PYTHON._replace(
        name=name,
        suffixes=suffixes,
        chunker="chunkgate.chunking.code:chunk",
        default=False,
        encoding="utf-8",
        comment=comment,
        extra="code",
        needs=("tree_sitter", f"tree_sitter_{grammar}"),
        display=display,
    )
    for name, display, suffixes, comment, grammar in _CODE
)
TEXT = Language(
    "text",
    (".txt",),
    "chunkgate.chunking.plain:chunk",
    {"text": "text window"},
)

LANGUAGES: dict[str, Language] = {}
_BY_SUFFIX: dict[str, Language] = {}
_loaded: dict[str, Callable[..., object]] = {}


def register(language: Language) -> None:
    """Add (or replace) a language; its suffixes win over any earlier entry's."""
    if language.extra is not None and not language.needs:
        raise ValueError(f"language {language.name}: an extra needs the modules it installs")
    LANGUAGES[language.name] = language
    for suffix in language.suffixes:
        _BY_SUFFIX[suffix] = language
    _loaded.clear()


def unregister(name: str) -> None:
    language = LANGUAGES.pop(name)
    for suffix in language.suffixes:
        if _BY_SUFFIX.get(suffix) is language:
            del _BY_SUFFIX[suffix]
    _loaded.clear()


for _language in (MARKDOWN, PYTHON, TEXT, RST, *CODE):
    register(_language)


def suffix_of(path: str) -> str:
    """The lower-cased suffix of a POSIX path's last component ('' if none)."""
    name = path.rstrip("/").rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def language_for(path: str) -> Language:
    return _BY_SUFFIX.get(suffix_of(path), TEXT)


def language_of(path: str) -> str:
    """The name of a path's language: ``markdown``, ``python``, ``text``, ..."""
    return language_for(path).name


def get(name: str) -> Language:
    """The language called ``name`` (an unknown name is plain text)."""
    return LANGUAGES.get(name, TEXT)


def named(name: str) -> Language:
    """The language a caller names (``chunk_text(language=...)``): a ValueError naming the
    known ones if there is none, where a misspelling would silently give text windows."""
    found = LANGUAGES.get(name)
    if found is None:
        raise ValueError(f"unknown language {name!r}; known: {', '.join(sorted(LANGUAGES))}")
    return found


def default_include() -> tuple[str, ...]:
    """The corpus patterns when the configuration names none."""
    return tuple(
        f"**/*{suffix}"
        for language in LANGUAGES.values()
        if language.default
        for suffix in language.suffixes
    )


def load(target: str) -> Callable[..., object]:
    """The function a ``module:function`` target names, imported on first use: a hook
    run on Markdown files never loads the Python chunker."""
    found = _loaded.get(target)
    if found is None:
        module, _, function = target.partition(":")
        found = _loaded[target] = getattr(importlib.import_module(module), function)
    return found


def chunker(language: Language) -> Chunker:
    return load(language.chunker)  # type: ignore[return-value]


def outliner(language: Language) -> Outliner | None:
    return None if language.outline is None else load(language.outline)  # type: ignore[return-value]
