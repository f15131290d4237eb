"""Python chunks: one per top-level definition, module code in between (SPEC §1, §2).

The file is parsed with ``ast`` and never imported. Only the module body (and
the body of a class that is split) is looked at; comment blocks and the
comments trailing a definition are found by reading the lines around each
node, because ``ast`` keeps no comments.

As a good ingest embeds code: a license header at the top, and a ``#!`` line
and coding cookie, belong to no chunk (``headers.py``); code between
definitions under ``size.min`` joins a neighbouring chunk; a chunk over
``size.max`` is split into parts between statements (``pyparts.py``).
"""

from __future__ import annotations

import ast
import gc
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chunkgate.chunking import plain
from chunkgate.chunking.base import ChunkContext, Chunked, is_blank, suppressions
from chunkgate.chunking.headers import header_lines
from chunkgate.chunking.identities import Namer
from chunkgate.chunking.pymerge import merge_small_code
from chunkgate.core.model import Chunk, Problem

if TYPE_CHECKING:
    from chunkgate.chunking.languages import Language

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_WHITESPACE = " \t\f\v"
_DEFINED = frozenset({"function", "class", "method"})  # the kinds of a definition's chunk


@dataclass(slots=True)
class _Unit:
    """A definition, or a run of consecutive same-name definitions, and its lines."""

    name: str
    is_class: bool
    nodes: list[_Definition]
    start: int
    end: int
    body_line: int
    suppressed: frozenset[str]


def chunk(ctx: ChunkContext, language: Language) -> Chunked:
    return Chunked(*chunk_python(ctx))


def chunk_python(ctx: ChunkContext) -> tuple[list[Chunk], list[Problem]]:
    # The tree holds no reference cycles, yet its hundreds of thousands of nodes set
    # off the cyclic collector again and again while it is built and walked: 15-20 %
    # of ast.parse's own time on the standard library. It is paused for the file.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _chunk_python(ctx)
    finally:
        if enabled:
            gc.enable()


def _chunk_python(ctx: ChunkContext) -> tuple[list[Chunk], list[Problem]]:
    try:
        tree = _parse(ctx.text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        # Too-deep nesting raises RecursionError or MemoryError instead of a
        # SyntaxError; either way the file is still chunked, as text.
        chunks = plain.chunk_plain(ctx, language="python")
        return chunks, [Problem(ctx.path, _error_line(ctx, exc), _error_message(exc))]
    # A license header (and a #! line) belongs to no chunk, like front matter.
    header = header_lines(ctx.lines)
    units = _units(ctx.lines, tree.body, floor=header, limit=len(ctx.lines))
    chunks = _module_chunks(ctx, units, Namer(), covered=header)
    if ctx.options.min:
        chunks = merge_small_code(ctx, chunks)
    if ctx.options.split:
        chunks = _split_oversized(ctx, chunks, tree)
    if ctx.options.embed.module_summary:
        chunks = _with_summary(chunks, tree)
    return chunks, []


def _with_summary(chunks: list[Chunk], tree: ast.Module) -> list[Chunk]:
    """The definitions' chunks with the first line of the module's docstring in their
    embed text (``embed.module_summary``, ``Chunk.embed_before``), none in their lines."""
    docstring = ast.get_docstring(tree) or ""
    summary = next((line.strip() for line in docstring.splitlines() if line.strip()), "")
    if not summary:
        return chunks
    return [
        chunk._replace(embed_before=summary) if chunk.kind in _DEFINED else chunk
        for chunk in chunks
    ]


def _parse(text: str) -> ast.Module:
    # Invalid escape sequences and the like warn while parsing; a linter must
    # not print those for every corpus file (nor fail where warnings are errors).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)


def _error_line(ctx: ChunkContext, exc: Exception) -> int:
    line = exc.lineno if isinstance(exc, SyntaxError) else None
    if line:
        return min(max(line, 1), len(ctx.lines))
    # A NUL character is reported without a line.
    nul = ctx.text.find("\0")
    return ctx.text.count("\n", 0, nul) + 1 if nul >= 0 else 1


def _error_message(exc: Exception) -> str:
    detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return f"Python syntax error: {detail or type(exc).__name__}"


def _units(lines: Sequence[str], body: list[ast.stmt], *, floor: int, limit: int) -> list[_Unit]:
    """The definitions among ``body``; ``floor`` is the last line above them not theirs."""
    units: list[_Unit] = []
    previous_was_definition = False
    for node in body:
        if not isinstance(node, _DEFINITIONS):
            previous_was_definition = False
            floor = node.end_lineno or node.lineno
            continue
        start = _head_start(lines, node, floor)
        end = _tail_end(lines, node, limit)
        body_line = _first_line(lines, node.body[0], node.lineno)
        suppressed = _head_suppressions(lines, start, max(node.lineno, body_line - 1))
        is_class = isinstance(node, ast.ClassDef)
        last = units[-1] if units else None
        if (
            previous_was_definition
            and last is not None
            and last.name == node.name
            and last.is_class == is_class
        ):
            # An @overload series, or a property and its setter: one unit.
            last.nodes.append(node)
            last.end = end
            last.suppressed |= suppressed
        else:
            units.append(_Unit(node.name, is_class, [node], start, end, body_line, suppressed))
        previous_was_definition = True
        floor = end
    return units


def _first_line(lines: Sequence[str], node: ast.stmt, floor: int) -> int:
    """The line a statement starts on, counting its decorators."""
    if not isinstance(node, _DEFINITIONS) or not node.decorator_list:
        return node.lineno
    line = node.decorator_list[0].lineno
    # A parenthesised decorator's expression starts below its "@".
    at = line
    while at > floor + 1 and not lines[at - 1].lstrip(_WHITESPACE).startswith("@"):
        at -= 1
    return at if lines[at - 1].lstrip(_WHITESPACE).startswith("@") else line


def _head_start(lines: Sequence[str], node: _Definition, floor: int) -> int:
    """The first line of the comment block directly above the definition, if any.

    A comment indented deeper than the definition ends the block above it (an
    ``if`` body, say), so it stays with that code.
    """
    start = _first_line(lines, node, floor)
    while start - 1 > floor and _is_comment(lines[start - 2], node.col_offset):
        start -= 1
    return start


def _tail_end(lines: Sequence[str], node: _Definition, limit: int) -> int:
    """``end_lineno`` extended over the comments indented into the definition below it."""
    end = node.end_lineno or node.lineno
    index = end  # 0-based index of the line after the node
    while index < limit:
        line = lines[index]
        text = line.lstrip(_WHITESPACE)
        index += 1
        if not text:
            continue
        if text[0] != "#" or len(line) - len(text) <= node.col_offset:
            break
        end = index
    return end


def _head_suppressions(lines: Sequence[str], start: int, end: int) -> frozenset[str]:
    """Suppressions in a head: comment block, decorators, the (maybe multi-line) header."""
    found: frozenset[str] = frozenset()
    for line in lines[start - 1 : end]:
        if "chunkgate:" in line:
            found |= suppressions(line)
    return found


def _is_comment(line: str, indent: int) -> bool:
    text = line.lstrip(_WHITESPACE)
    return text.startswith("#") and len(line) - len(text) <= indent


def _module_chunks(
    ctx: ChunkContext, units: list[_Unit], namer: Namer, *, covered: int = 0
) -> list[Chunk]:
    """The file's chunks below its first ``covered`` lines."""
    chunks: list[Chunk] = []
    previous: str | None = None
    for unit in units:
        identity = "module" if previous is None else f"module-after-{previous}"
        chunks.extend(_gap_chunks(ctx, covered + 1, unit.start - 1, identity, namer))
        parts = _unit_chunks(ctx, unit, namer)
        chunks.extend(parts)
        covered, previous = unit.end, _label(parts[0])
    identity = "module" if previous is None else f"module-after-{previous}"
    chunks.extend(_gap_chunks(ctx, covered + 1, len(ctx.lines), identity, namer))
    return chunks


def _label(chunk: Chunk) -> str:
    """``f-1`` for ``function-f-1``: the definition's name with its repeat suffix.

    Code after a redefined name is named after that definition's own identity,
    so that adding or removing code after an earlier definition of the same
    name renumbers nothing.
    """
    return chunk.identity.partition("-")[2]


def _gap_chunks(
    ctx: ChunkContext,
    first: int,
    last: int,
    identity: str,
    namer: Namer,
    *,
    kind: str = "module",
    symbol: str | None = None,
    suppressed: frozenset[str] = frozenset(),
) -> list[Chunk]:
    """The code between definitions, trimmed of blank lines: one chunk or none."""
    lines = ctx.lines
    while first <= last and is_blank(lines[first - 1]):
        first += 1
    while last >= first and is_blank(lines[last - 1]):
        last -= 1
    if first > last:
        return []
    return [
        ctx.make(namer(identity), kind, "python", first, last, symbol=symbol, suppressed=suppressed)
    ]


def _unit_chunks(ctx: ChunkContext, unit: _Unit, namer: Namer) -> list[Chunk]:
    if not unit.is_class:
        return [_make(ctx, unit, namer(f"function-{unit.name}"), "function", unit.name)]
    whole = _make(ctx, unit, namer(f"class-{unit.name}"), "class", unit.name)
    # A run of same-name classes is left whole: splitting it would put the
    # second class line into the first one's trailing code.
    if (
        not ctx.options.split_classes
        or len(unit.nodes) > 1
        or ctx.size_of(whole) <= ctx.options.max
    ):
        return [whole]
    return _split_class(ctx, unit, whole, namer) or [whole]


def _make(ctx: ChunkContext, unit: _Unit, identity: str, kind: str, symbol: str) -> Chunk:
    return ctx.make(
        identity,
        kind,
        "python",
        unit.start,
        unit.end,
        body_line=unit.body_line,
        symbol=symbol,
        suppressed=unit.suppressed,
    )


def _split_class(ctx: ChunkContext, unit: _Unit, whole: Chunk, namer: Namer) -> list[Chunk]:
    """A head chunk, then one chunk per member and per run of class-level code after it."""
    node = unit.nodes[0]
    members = _units(ctx.lines, node.body, floor=node.lineno, limit=unit.end)
    if not members:
        return []
    name = unit.name
    head_end = members[0].start - 1
    while is_blank(ctx.lines[head_end - 1]):
        head_end -= 1
    head = ctx.make(
        whole.identity,
        "class",
        "python",
        unit.start,
        head_end,
        # A head without statements of its own keeps its last line as body,
        # so that body_line stays inside the chunk.
        body_line=min(unit.body_line, head_end),
        symbol=name,
        suppressed=unit.suppressed,
    )
    chunks = [head]
    for index, member in enumerate(members):
        member.suppressed |= unit.suppressed
        symbol = f"{name}.{member.name}"
        if member.is_class:
            part = _make(ctx, member, namer(f"class-{symbol}"), "class", symbol)
        else:
            part = _make(ctx, member, namer(f"method-{symbol}"), "method", symbol)
        chunks.append(part)
        last = members[index + 1].start - 1 if index + 1 < len(members) else unit.end
        chunks.extend(
            _gap_chunks(
                ctx,
                member.end + 1,
                last,
                f"class-{name}.after-{_label(part).partition('.')[2]}",
                namer,
                kind="class",
                symbol=name,
                suppressed=unit.suppressed,
            )
        )
    return chunks


def _split_oversized(ctx: ChunkContext, chunks: list[Chunk], tree: ast.Module) -> list[Chunk]:
    limit = ctx.options.max
    if all(ctx.size_of(chunk) <= limit for chunk in chunks):
        return chunks
    from chunkgate.chunking.pyparts import python_parts  # only for long definitions

    out: list[Chunk] = []
    for chunk in chunks:
        if ctx.size_of(chunk) > limit:
            out.extend(python_parts(ctx, chunk, tree))
        else:
            out.append(chunk)
    return out
