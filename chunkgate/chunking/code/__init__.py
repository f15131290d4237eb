"""Code chunks by tree-sitter: one per top-level definition, module code in between.

The Python chunker's scheme, for the languages of ``tables.TABLES``:
``function-NAME``, ``class-NAME`` (or the language's own noun: ``struct-``,
``impl-``, ``interface-``), ``method-TYPE.NAME``, ``module`` and
``module-after-NAME``, repeats ``-1``, ``-2``. A type over ``size.max``
splits into a head and one chunk per member (``python.split_classes``), and
whatever is still over the limit splits between statements into parts
``ID``, ``ID~2``, ... (``split.py``). A file the grammar cannot parse is a
CG001 problem and is chunked as text windows (see ``errors.py``), and so
is every file of a language whose grammar is not installed (the ``code``
extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking import languages, plain
from chunkgate.chunking.base import ChunkContext, Chunked, is_blank
from chunkgate.chunking.code import grammars
from chunkgate.chunking.code.errors import (
    MAX_ERROR_SHARE,
    MIN_ERROR_LINES,
    error_rows,
    first_error,
)
from chunkgate.chunking.code.split import Breaks
from chunkgate.chunking.code.tables import TABLES, Table
from chunkgate.chunking.code.units import Unit, body_of, items, units
from chunkgate.chunking.identities import Namer
from chunkgate.chunking.linecuts import parts, row_sizer
from chunkgate.core.model import Chunk, Problem
from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    from tree_sitter import Node

    from chunkgate.chunking.languages import Language

# Lines that only close what the chunk above opened: they join that chunk
# instead of making a chunk of "}" (a brace, `end`, `#endif`, a PHP `?>`).
_CLOSING = lazy(
    r"[ \t]*(?:[})\]][;,(){}\[\]]*|end|#[ \t]*endif\b.*|\?>|fi|done|esac)[ \t]*"
    r"(?://.*|/\*.*|#.*)?"
)


def chunk(ctx: ChunkContext, language: Language) -> Chunked:
    return Chunked(*chunk_code(ctx, language.name))


def chunk_code(ctx: ChunkContext, language: str) -> tuple[list[Chunk], list[Problem]]:
    parser = grammars.parser(language)
    if parser is None:
        return plain.chunk_plain(ctx, language=language), []
    root = parser.parse(ctx.text.encode("utf-8")).root_node
    table = TABLES[language]
    if root.has_error and not table.preprocessed:
        rows, share = error_rows(root, ctx.lines)
        if share > MAX_ERROR_SHARE and rows >= MIN_ERROR_LINES:
            line, detail = first_error(root)
            message = (
                f"{languages.get(language).shown} syntax error: {detail} "
                f"({share:.0%} of the lines do not parse)"
            )
            return plain.chunk_plain(ctx, language=language), [Problem(ctx.path, line, message)]
    found = units(ctx.lines, list(items(root, table)), table)
    return _Assembler(ctx, language, table, root).module(found), []


class _Assembler:
    def __init__(self, ctx: ChunkContext, language: str, table: Table, root: Node) -> None:
        self.ctx = ctx
        self.language = language
        self.table = table
        self.root = root
        self.namer = Namer()
        self._breaks: Breaks | None = None
        self._size: Callable[[int, int], int] | None = None

    def module(self, found: list[Unit]) -> list[Chunk]:
        chunks: list[Chunk] = []
        covered = -1
        previous: str | None = None
        for unit in found:
            identity = "module" if previous is None else f"module-after-{previous}"
            self.gap(chunks, covered + 1, unit.start - 1, identity, kind="module", symbol=None)
            made = self.unit(unit, None)
            chunks.extend(made)
            covered, previous = unit.end, made[0].identity.partition("-")[2]
        identity = "module" if previous is None else f"module-after-{previous}"
        self.gap(chunks, covered + 1, len(self.ctx.lines) - 1, identity, kind="module", symbol=None)
        return chunks

    def unit(self, unit: Unit, owner: str | None) -> list[Chunk]:
        noun, name, kind = unit.named
        symbol = f"{owner}.{name}" if owner else name
        identity = self.namer(f"{noun}-{symbol}")
        ctx = self.ctx
        whole = self.make(
            identity,
            kind,
            unit.start,
            unit.end,
            body=unit.body,
            symbol=symbol,
            suppressed=unit.suppressed,
        )
        if ctx.size_of(whole) <= ctx.options.max:
            return [whole]
        if unit.spec.members and ctx.options.split_classes:
            members = self.members(unit, whole, owner)
            if members:
                return members
        return self.parts(whole, unit.start, unit.end)

    def members(self, unit: Unit, whole: Chunk, outer: str | None) -> list[Chunk]:
        """A head chunk, then one chunk per member and per run of code after it; a
        member that is a type over the limit splits in turn (Ruby's nested modules)."""
        body = body_of(unit.node, self.table)
        if body is None:
            return []
        lines = self.ctx.lines
        inner = units(lines, list(items(body, self.table)), self.table, member=True)
        inner = [m for m in inner if unit.start < m.start and m.end <= unit.end]
        if not inner:
            return []
        head_end = inner[0].start - 1
        while head_end >= unit.start and is_blank(lines[head_end]):
            head_end -= 1
        if head_end < unit.start:
            return []
        # Rust's `impl Display for Tree` holds methods of Tree.
        owner = unit.named.name.rpartition("-for-")[2]
        if outer is not None:
            owner = f"{outer}.{owner}"
        head = self.make(
            whole.identity,
            whole.kind,
            unit.start,
            head_end,
            body=min(unit.body, head_end),
            symbol=whole.symbol,
            suppressed=unit.suppressed,
        )
        chunks = self.parts(head, unit.start, head_end)
        for index, member in enumerate(inner):
            member.suppressed |= unit.suppressed
            made = self.unit(member, owner)
            chunks.extend(made)
            last = inner[index + 1].start - 1 if index + 1 < len(inner) else unit.end
            label = made[0].identity.partition("-")[2].partition(".")[2]
            identity = f"{unit.named.noun}-{owner}.after-{label}"
            self.gap(chunks, member.end + 1, last, identity, kind=whole.kind, symbol=whole.symbol)
        return chunks

    def gap(
        self,
        chunks: list[Chunk],
        first: int,
        last: int,
        identity: str,
        *,
        kind: str,
        symbol: str | None,
    ) -> None:
        """Code between definitions, trimmed of blank lines; a closing brace joins the
        chunk above."""
        lines = self.ctx.lines
        while first <= last and is_blank(lines[first]):
            first += 1
        while last >= first and is_blank(lines[last]):
            last -= 1
        if first > last:
            return
        if chunks and all(
            is_blank(line) or _CLOSING.fullmatch(line) for line in lines[first : last + 1]
        ):
            above = chunks[-1]
            chunks[-1] = self.make(
                above.identity,
                above.kind,
                above.start_line - 1,
                last,
                body=above.body_line - 1,
                symbol=above.symbol,
                suppressed=above.suppressed,
            )
            return
        chunk = self.make(
            self.namer(identity),
            kind,
            first,
            last,
            body=first,
            symbol=symbol,
            suppressed=frozenset(),
        )
        chunks.extend(self.parts(chunk, first, last))

    def parts(self, chunk: Chunk, first: int, last: int) -> list[Chunk]:
        ctx = self.ctx
        if ctx.size_of(chunk) <= ctx.options.max or first == last:
            return [chunk]
        if self._breaks is None:
            self._breaks = Breaks(self.root, ctx.lines)
            self._size = row_sizer(ctx)
        assert self._size is not None
        out: list[Chunk] = []
        for span in parts(first, last, self._breaks.depth, self._size, ctx.limit_for(chunk)):
            trimmed = _trim(ctx.lines, *span)
            if trimmed is None:
                continue
            start, end = trimmed
            identity = chunk.identity if not out else f"{chunk.identity}~{len(out) + 1}"
            body = chunk.body_line - 1 if not out else start
            out.append(
                self.make(
                    identity,
                    chunk.kind,
                    start,
                    end,
                    body=min(max(body, start), end),
                    symbol=chunk.symbol,
                    suppressed=chunk.suppressed,
                )
            )
        return out

    def make(
        self,
        identity: str,
        kind: str,
        first: int,
        last: int,
        *,
        body: int,
        symbol: str | None,
        suppressed: frozenset[str],
    ) -> Chunk:
        return self.ctx.make(
            identity,
            kind,
            self.language,
            first + 1,
            last + 1,
            body_line=body + 1,
            symbol=symbol,
            suppressed=suppressed,
        )


def _trim(lines: Sequence[str], first: int, last: int) -> tuple[int, int] | None:
    while first <= last and is_blank(lines[first]):
        first += 1
    while last >= first and is_blank(lines[last]):
        last -= 1
    return (first, last) if first <= last else None
