"""The configuration file ``chunkgate init`` writes: every key with its default, commented."""

from __future__ import annotations

import textwrap

from chunkgate import rules
from chunkgate.chunking import languages
from chunkgate.chunking.models import MODELS
from chunkgate.config.model import DEFAULT_MANIFEST
from chunkgate.rules import RULES


def default_config_yaml() -> str:
    """What `chunkgate init` writes: every key with its default, commented."""
    rule_lines = "".join(
        f"#   {code}: {rule.severity:<8} # {rule.name}: {rule.summary}\n"
        for code, rule in RULES.items()
    )
    include = ", ".join(f'"{pattern}"' for pattern in languages.default_include())
    return f"""\
# chunkgate configuration. Every key is optional; these are the defaults.
# Patterns are gitignore-style, matched against POSIX paths from the repository root.

# Files that form the corpus (tracked or untracked, never .gitignored ones).
# Changelogs (CHANGELOG*, CHANGES*, HISTORY, NEWS, RELEASE*NOTES*) are left out;
# a pattern that names them brings them back, e.g. add "CHANGELOG.md".
include: [{include}]
# Files to leave out of the corpus, e.g. ["docs/generated/**"].
exclude: []
# The committed manifest of chunk IDs and sizes, relative to the repository root.
manifest: {DEFAULT_MANIFEST}

# The keys commented out below take their defaults from embed.model when it is set
# (its tokens, its input limit); uncomment one to set it either way.
size:
  # unit: chars     # what max/min/overlap count: chars | tokens (with embed.model: tokens)
  # max: 2000       # the target the splitter packs to; CG201 warns over it
                    # (with embed.model: 500, or 3/4 of a smaller model's limit)
  # limit: 8192     # the hard limit: CG201 is an error when a chunk's embed text is over
                    # this many tokens (the model truncates it). 8,192 without embed.model;
                    # a 512-token model: `limit: 512`, or name it in embed.model
  # min: 40         # CG202: a chunk smaller than this is undersized (with embed.model: 10)
  overlap: 0        # text windows share this much with the one before; a part's embed text
                    # starts with this much of the part before (< max)
  split: true       # a section or definition over max is chunked in parts, as an ingest
                    # splits it (#id, #id~2, ...); false: one chunk per section, whatever its size

# How tokens are counted: estimate (bytes / 4) | tiktoken:<encoding>, e.g. tiktoken:cl100k_base |
# huggingface:<repository or path>, a tokenizer.json (from the Hugging Face cache, never
# downloaded). With embed.model: the model's tokenizer.
# tokenizer: estimate

markdown:
  split_level: 6    # headings at levels 1..split_level start a new chunk
  anchors: auto     # heading IDs as the site generator found in the tree makes them,
                    # else GitHub's; or github, mkdocs, kramdown, hugo, docusaurus,
                    # starlight, vitepress
  merge_small: false  # true: a section under size.min joins a neighbour (its subsection,
                    # else the section before); the chunk keeps the first ID and lists
                    # the others in `merged`, so citations of them still resolve

python:
  split_classes: true   # split a class larger than size.max into its head and methods

# The text an ingest embeds (`chunkgate export`): a breadcrumb line, then the chunk's text.
embed:
  breadcrumb: true      # the first line says where the chunk is: Guide > Setup (Markdown),
                        # pkg.module > Class.method (Python); false: the chunk's text alone
  separator: " > "      # between the breadcrumb's parts
  sizes: text           # what size limits and token counts measure: text (the chunk's) |
                        # embed (the embed text, breadcrumb included: what the model sees)
  headings: true        # false: a section's heading lines are left out of the embed text
                        # where the breadcrumb holds them
  module_summary: false # true: a Python function's, class's or method's embed text
                        # carries its module docstring's first line, after the breadcrumb
  # model: bge-small-en-v1.5  # the model that embeds the chunks: its input limit is the
                        # hard limit (size.limit) and its tokenizer counts tokens. Known:
{_models_comment()}

# Severity per rule code: error | warning | off. Defaults:
{rule_lines}rules: {{}}

# The problems the committed manifest already records (what the repository had when
# chunkgate was adopted) fail nothing; true fails on every problem.
strict: false
{_options_yaml()}"""


def _models_comment() -> str:
    """The known models' names, a comment wrapped under ``embed.model``."""
    lines = textwrap.wrap(", ".join(MODELS), width=66, break_on_hyphens=False)
    return "\n".join(f"{'#':<24}{line}" for line in lines)


def _options_yaml() -> str:
    """The rules' options with their defaults, a comment above each, grouped by table."""
    lines: list[str] = []
    table_open = ""
    for option in rules.options():
        table, _, name = option.key.rpartition(".")
        if table != table_open or not table:
            lines.append("")
            if table:
                lines.append(f"{table}:")
            table_open = table
        indent = "  " if table else ""
        lines.append(f"{indent}# {option.comment}")
        lines.append(f"{indent}{name}: {_yaml_value(option.default)}")
    return "\n".join(lines) + "\n"


def _yaml_value(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{item}"' for item in value) + "]"
    return str(value)
