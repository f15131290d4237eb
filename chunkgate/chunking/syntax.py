"""Template and directive syntax in Markdown: markup for the generator, not prose.

Hugo shortcodes (``{{< name >}}``, ``{{% name %}}``), Liquid and Jinja tags
(``{% include x.html %}``) and, where the site runs Liquid or Jinja over its
pages, outputs (``{{ site.title }}``), MDX ``import``/``export`` statements and
JSX component tags (``.mdx`` only), directives and admonition fences
(``::: pkg.module``, ``:::note`` ... ``:::``, ``!!! note``, ``??? tip``, ``=== "Tab"``) and
attribute lists (``{: .class}``, ``{: #id}``, ``{.class}``) are syntax. A line
that holds nothing else is a syntax line; code blocks never hold any. The
content between an opening and a closing tag (an aside's text, a
``{{< note >}}`` body) is prose.

Only whole lines are matched, so prose that mentions ``{{`` keeps it; in a
heading the same constructs are removed wherever they stand outside code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from chunkgate.chunking import blocks
from chunkgate.chunking.base import BLANK_CHARS
from chunkgate.chunking.spans import blank_code_spans, template_spans
from chunkgate.core.regex import lazy
from chunkgate.sites.model import site_of

if TYPE_CHECKING:
    from chunkgate.chunking.base import ChunkOptions


class Dialect(NamedTuple):
    liquid: bool = False  # `{{ ... }}` lines are template output (Jekyll, MkDocs macros)
    mdx: bool = False  # import/export statements and JSX tags (.mdx)
    blocks: frozenset[str] = frozenset()  # the indented blocks the site has (``blocks``)


PLAIN = Dialect()

_SHORTCODE = r"\{\{[<%].*?[>%]\}\}"
_TAG = r"\{%.*?%\}"
_OUTPUT = r"\{\{(?![<%]).*?\}\}"
_ATTRIBUTE_ITEM = r"""(?:[#.][^\s{}#.]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s{}]+))"""
_LINE_PATTERNS = {
    "template": rf"(?:(?:{_SHORTCODE}|{_TAG})[ \t]*)+",
    "ial": r"\{:[^{}]*\}|\{::[^{}]*/?\}",
    "attributes": rf"\{{[ \t]*{_ATTRIBUTE_ITEM}(?:[ \t]+{_ATTRIBUTE_ITEM})*[ \t]*\}}",
    "fence": r":{3,}.*",
    "admonition": r"""(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+"[^"\n]*")?""",
    "tab": r'===[+!]{0,2}[ \t]+"[^"\n]*"',
}
_SYNTAX_LINE = lazy("|".join(f"(?:{p})" for p in _LINE_PATTERNS.values()))
_OUTPUT_LINE = lazy(rf"(?:(?:{_SHORTCODE}|{_TAG}|{_OUTPUT})[ \t]*)+")
_DIRECTIVE = lazy(r":::[ \t]+[\w.:-]+[ \t]*")  # mkdocstrings / mkautodoc: options follow
_CODE_FENCE = lazy(r"[ \t]{0,3}(`{3,}|~{3,})")
_OPEN_SHORTCODE = lazy(r"\{\{[<%](?!.*[>%]\}\})")
_CLOSE_SHORTCODE = lazy(r"[>%]\}\}[ \t]*$")
_IMPORT = lazy(r"(?:import|export)[ \t{*]")
_JSX = lazy(r"</?[A-Z][\w.]*(?:[ \t][^<>]*)?/?>|<>|</>|\{/\*.*\*/\}")
_OPEN_JSX = lazy(r"<[A-Z][\w.]*(?:[ \t][^<>]*)?")
# A syntax line starts with one of these; most lines start otherwise.
# A line that includes another file: MkDocs snippets, Jekyll, Hugo, reST and MyST.
_INCLUDE_LINE = lazy(
    r"""^[ \t]*(?:--8<--|\{%-?\s*include(?:_relative)?|\{\{[<%]\s*include|"""
    r"""\.\.\s+(?:literal)?include::|[`:]{3}\s*\{(?:literal)?include\})"""
    r"""\s*["']?([^"'\s%}>]+)""",
    re.M,
)
_STARTS = frozenset("{:!?=")
_MDX_STARTS = frozenset("{:!?=<ie")


def may_hold_syntax(text: str, dialect: Dialect = PLAIN) -> bool:
    if "{" in text or ":::" in text or "!!!" in text or "???" in text or '=== "' in text:
        return True
    return dialect.mdx and ("<" in text or "import" in text or "export" in text)


def may_be_syntax(line: str, dialect: Dialect = PLAIN) -> bool:
    """Whether a line could start a syntax construct (a quick test before ``syntax_lines``)."""
    first = line.lstrip(" \t")[:1]
    return first in (_MDX_STARTS if dialect.mdx else _STARTS)


def syntax_lines(lines: Sequence[str], dialect: Dialect = PLAIN) -> list[bool]:
    """Whether each line is template or directive syntax (see the module docstring)."""
    out = [False] * len(lines)
    fence: str | None = None
    index = 0
    count = len(lines)
    output = _OUTPUT_LINE if dialect.liquid else _SYNTAX_LINE
    while index < count:
        line = lines[index]
        stripped = line.strip()
        found = _CODE_FENCE.match(line)
        if fence is not None:
            closes = found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence)
            if closes and not line[found.end() :].strip():  # type: ignore[union-attr]
                fence = None
            index += 1
            continue
        if found:
            fence = found.group(1)
            index += 1
            continue
        if not stripped:
            index += 1
            continue
        end = _construct_end(lines, index, stripped, dialect, output)
        if end is None:
            index += 1
            continue
        for covered in range(index, end + 1):
            out[covered] = True
        index = end + 1
    return out


def _construct_end(
    lines: Sequence[str], index: int, stripped: str, dialect: Dialect, output: re.Pattern[str]
) -> int | None:
    """The last line of the syntax construct starting at line ``index``, or None."""
    if _SYNTAX_LINE.fullmatch(stripped) or (dialect.liquid and output.fullmatch(stripped)):
        if _DIRECTIVE.fullmatch(stripped):
            return _indented_end(lines, index)
        return index
    if _OPEN_SHORTCODE.match(stripped):
        return _until(lines, index, _CLOSE_SHORTCODE)
    if not dialect.mdx:
        return None
    if _JSX.fullmatch(stripped):
        return index
    if _OPEN_JSX.fullmatch(stripped):
        return _until(lines, index, re.compile(r">[ \t]*$"))
    if _IMPORT.match(stripped):
        # MDX reads every paragraph that starts with `import ` or `export ` as ESM.
        return _statement_end(lines, index)
    return None


def without_esm(lines: Sequence[str], first: int, last: int) -> tuple[int, int] | None:
    """The 0-based lines ``first..last`` of an MDX file without the import/export
    statements (and blank lines) at either end, or None when nothing else is there.

    ESM is code for the page's build, not content; only the ends are cut, so the
    rest stays one run of the file's lines. A statement starts at column 0 (MDX)
    and never inside a code block.
    """
    block = lines[first : last + 1]
    if not any(_IMPORT.match(line) for line in block):
        return first, last
    esm = [False] * len(block)
    flags = syntax_lines(block, Dialect(mdx=True))
    index = 0
    while index < len(block):
        if flags[index] and _IMPORT.match(block[index]):
            end = min(_statement_end(block, index), len(block) - 1)
            esm[index : end + 1] = [True] * (end + 1 - index)
            index = end
        index += 1
    kept = [i for i, line in enumerate(block) if not esm[i] and line.strip(BLANK_CHARS)]
    return (first + kept[0], first + kept[-1]) if kept else None


def _indented_end(lines: Sequence[str], index: int) -> int:
    """A directive's option lines: indented, up to the first blank or unindented line."""
    end = index
    while end + 1 < len(lines) and lines[end + 1][:1] in (" ", "\t") and lines[end + 1].strip():
        end += 1
    return end


def _until(lines: Sequence[str], index: int, closing: re.Pattern[str]) -> int | None:
    for end in range(index + 1, min(index + 50, len(lines))):
        if not lines[end].strip():
            return None
        if closing.search(lines[end]):
            return end
    return None


def _statement_end(lines: Sequence[str], index: int) -> int:
    """An import/export statement ends where its brackets balance, at a blank line at most."""
    depth = 0
    end = index
    while True:
        line = lines[end]
        depth += sum(line.count(c) for c in "({[") - sum(line.count(c) for c in ")}]")
        if depth <= 0 or end + 1 >= len(lines) or not lines[end + 1].strip():
            return end
        end += 1


def strip_inline(raw: str, text: str) -> tuple[str, str]:
    """A heading's source and rendered text without template syntax outside code spans."""
    if "{{" not in raw and "{%" not in raw:  # every inline construct opens with one
        return raw, text
    outside = blank_code_spans(raw)
    spans = [raw[start:end] for start, end in template_spans(outside, output=True)]
    for span in spans:
        raw = raw.replace(span, "", 1)
        text = text.replace(span, "", 1)
    if spans:
        raw, text = _squeeze(raw), _squeeze(text)
    return raw, text


def _squeeze(text: str) -> str:
    return re.sub(r"[ \t]{2,}", " ", text).strip(" \t")


def prose(text: str, dialect: Dialect = PLAIN) -> str:
    """``text`` without its syntax lines and inline template syntax (for the rules)."""
    if not may_hold_syntax(text, dialect):
        return text
    lines = text.split("\n")
    flags = syntax_lines(lines, dialect)
    kept = [line for line, syntax in zip(lines, flags, strict=True) if not syntax]
    joined = "\n".join(kept)
    if "{" not in joined:
        return joined
    out: list[str] = []
    done = 0
    for start, end in template_spans(joined, output=dialect.liquid):
        out.append(joined[done:start])
        done = end
    return "".join([*out, joined[done:]])


def dialect_of(path: str, options: ChunkOptions) -> Dialect:
    """The template dialect of the Markdown file at ``path``: Liquid where its site runs
    Liquid or Jinja over pages, MDX by the file's suffix, the indented blocks its site's
    Markdown extensions make."""
    site = site_of(path, options.sites) if options.sites else None
    if site is None:
        return Dialect(mdx=path.endswith(".mdx"))
    return Dialect(site.liquid, path.endswith(".mdx"), site.markdown & blocks.KINDS)


def included_files(text: str) -> list[str]:
    """The files ``text`` includes, as its include lines name them (MkDocs' ``--8<--``,
    Jekyll's and Hugo's ``include``, reST's and MyST's include directives): on the site,
    its text there is theirs."""
    if "include" not in text and "--8<--" not in text:
        return []
    return _INCLUDE_LINE.findall(text)
