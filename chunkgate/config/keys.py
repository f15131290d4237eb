"""The configuration's own keys: each one's path, what it takes, its default and what it does.

One place for the words: ``chunkgate init``'s template (``config/template.py``) and the
configuration reference (``docs/configuration.md``, written by ``scripts/gen_docs.py``)
both read them, and the validator takes the key names of its tables from here. The rules'
options (``denylist.paths``, ...) are declared by their rules (``rules.base.Option``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chunkgate.chunking import languages
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.embedtext import SIZES_OF, EmbedSettings
from chunkgate.chunking.models import DEFAULT_LIMIT, MODELS
from chunkgate.chunking.sizes import TOKENIZERS
from chunkgate.config.model import DEFAULT_MANIFEST
from chunkgate.rules.base import OptionKind
from chunkgate.sites.model import SETTINGS as ANCHOR_SETTINGS

UNITS = ("chars", "tokens")
_BOOLEAN = ("true", "false")
_CHUNKING = ChunkOptions()
_EMBED = EmbedSettings()


@dataclass(frozen=True, slots=True)
class Key:
    """One key: ``path`` is ``table.name`` or a top-level name; ``takes`` says what
    values it accepts (a tuple: the values themselves); ``default`` is its value when no
    model is named, and ``model`` its default when ``embed.model`` names one ("" where
    that changes nothing)."""

    path: str
    takes: str | tuple[str, ...]
    default: object
    doc: str
    model: str = ""


KEYS: tuple[Key, ...] = (
    Key(
        "include",
        "a list of gitignore-style patterns",
        languages.default_include(),
        "Files that form the corpus (tracked or untracked, never .gitignored ones). "
        "Changelogs (CHANGELOG*, CHANGES*, HISTORY, NEWS, RELEASE*NOTES*) are left out; "
        'a pattern that names them brings them back, e.g. add "CHANGELOG.md". So is test '
        "data (below test/, tests/, __tests__/, fixtures/, __fixtures__/, testdata/, "
        'test-data/, test_data/, __snapshots__/, snapshots/, expected/), e.g. add "tests/**".',
    ),
    Key(
        "exclude",
        "a list of gitignore-style patterns",
        (),
        'Files to leave out of the corpus, e.g. ["docs/generated/**"].',
    ),
    Key(
        "manifest",
        "a relative POSIX path inside the repository (a folder)",
        DEFAULT_MANIFEST,
        "The committed manifest of chunk IDs and sizes, relative to the repository root.",
    ),
    Key(
        "size.unit",
        UNITS,
        _CHUNKING.unit,
        "What max, min and overlap count.",
        model="tokens",
    ),
    Key(
        "size.max",
        "an integer >= 1",
        _CHUNKING.max,
        "The target the splitter packs to; CG201 warns over it.",
        model="500, or 3/4 of a smaller model's limit",
    ),
    Key(
        "size.limit",
        "an integer >= 1",
        DEFAULT_LIMIT,
        "The hard limit: CG201 is an error when a chunk's embed text is over this many "
        "tokens (the model truncates it). A 512-token model: `limit: 512`, or name it in "
        "embed.model.",
        model="the model's input limit",
    ),
    Key(
        "size.min",
        "an integer >= 0, at most size.max",
        _CHUNKING.min,
        "CG202: a chunk smaller than this is undersized.",
        model="10",
    ),
    Key(
        "size.overlap",
        "an integer >= 0, less than size.max",
        _CHUNKING.overlap,
        "Text windows share this much with the one before; a part's embed text starts "
        "with this much of the part before.",
    ),
    Key(
        "size.split",
        _BOOLEAN,
        _CHUNKING.split,
        "A section or definition over max is chunked in parts, as an ingest splits it "
        "(#id, #id~2, ...); false: one chunk per section, whatever its size.",
    ),
    Key(
        "tokenizer",
        tuple(re.findall(r"'([^']+)'", TOKENIZERS)),
        _CHUNKING.tokenizer,
        "How tokens are counted: estimate (bytes / 4), tiktoken:<encoding> (e.g. "
        "tiktoken:cl100k_base), or huggingface:<repository or path>, a tokenizer.json "
        "(from the Hugging Face cache, never downloaded).",
        model="the model's tokenizer",
    ),
    Key(
        "markdown.split_level",
        "an integer from 1 to 6",
        _CHUNKING.split_level,
        "Headings at levels 1..split_level start a new chunk; deeper ones stay inside "
        "their section.",
    ),
    Key(
        "markdown.anchors",
        ("auto", *ANCHOR_SETTINGS),
        _CHUNKING.anchors,
        "Heading IDs as the site generator found in the tree makes them, else GitHub's; "
        "or one flavour for every file.",
    ),
    Key(
        "markdown.merge_small",
        _BOOLEAN,
        _CHUNKING.merge_small,
        "true: a section under size.min joins a neighbour (its subsection, else the section "
        "before); the chunk keeps the first ID and lists the others in `merged`, so "
        "citations of them still resolve.",
    ),
    Key(
        "python.split_classes",
        _BOOLEAN,
        _CHUNKING.split_classes,
        "Split a class larger than size.max into its head and methods.",
    ),
    Key(
        "embed.breadcrumb",
        _BOOLEAN,
        _EMBED.breadcrumb,
        "The embed text's first line says where the chunk is: Guide > Setup (Markdown), "
        "pkg.module > Class.method (Python); false: the chunk's text alone.",
    ),
    Key(
        "embed.separator",
        "a non-empty string on one line",
        _EMBED.separator,
        "Between the breadcrumb's parts.",
    ),
    Key(
        "embed.sizes",
        SIZES_OF,
        _EMBED.sizes,
        "What size limits and token counts measure: text (the chunk's) | embed (the "
        "embed text, breadcrumb included: what the model sees).",
    ),
    Key(
        "embed.headings",
        _BOOLEAN,
        _EMBED.headings,
        "false: a section's heading lines are left out of the embed text where the "
        "breadcrumb holds them.",
    ),
    Key(
        "embed.module_summary",
        _BOOLEAN,
        _EMBED.module_summary,
        "true: a Python function's, class's or method's embed text carries its module "
        "docstring's first line, after the breadcrumb.",
    ),
    Key(
        "embed.model",
        ("null", *MODELS),
        _CHUNKING.model,
        "The model that embeds the chunks: its input limit is the hard limit "
        "(size.limit) and its tokenizer counts tokens.",
    ),
    Key(
        "rules",
        "a mapping of rule code to error | warning | off",
        {},
        "Severity per rule code; a rule not named keeps its default.",
    ),
    Key(
        "strict",
        _BOOLEAN,
        False,
        "The problems the committed manifest already records (what the repository had "
        "when chunkgate was adopted) fail nothing; true fails on every problem.",
    ),
)

# What each kind of rule option takes, as the reference says it.
OPTION_TAKES: dict[OptionKind, str] = {
    "globs": "a list of gitignore-style patterns",
    "regexes": "a list of Python regular expressions",
    "positive_int": "an integer >= 1",
    "fraction": "a number from 0.1 to 1",
    "anchor_patterns": "a list of {pattern: REGEX, anchor: TEMPLATE} mappings",
}


def top_level() -> tuple[str, ...]:
    """The top-level names of the configuration's own keys, in order, each once."""
    return tuple(dict.fromkeys(key.path.partition(".")[0] for key in KEYS))


def table(name: str) -> tuple[str, ...]:
    """The keys of one table (``size``: ``unit``, ``max``, ...)."""
    return tuple(key.path[len(name) + 1 :] for key in KEYS if key.path.startswith(f"{name}."))


def key(path: str) -> Key:
    return next(found for found in KEYS if found.path == path)
