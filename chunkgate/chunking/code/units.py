"""From a syntax tree to definitions and their line spans.

Rows are 0-based here, as tree-sitter counts them; a span takes whole lines.
A definition's span opens with the comments, doc comments, attributes and
decorators directly above it (no blank line between), as in Python; a
definition that starts on a line the previous one ends on joins it, so that
every line is in one chunk; consecutive definitions of one name (overload
signatures and their implementation) form one unit, as Python's ``@overload``
series does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chunkgate.chunking.base import suppressions
from chunkgate.chunking.code.names import Named, name_of
from chunkgate.chunking.code.tables import Def, Table

if TYPE_CHECKING:
    from tree_sitter import Node

_METHOD = Def("method", "method")


@dataclass(slots=True)
class Unit:
    named: Named
    node: Node  # the definition itself, inside any wrapper
    spec: Def
    start: int  # first row, with what is attached above
    end: int  # last row
    body: int  # the first row after the definition's own name line
    suppressed: frozenset[str]


def end_row(node: Node) -> int:
    """The last row with text of ``node`` (some nodes end at column 0 of the next row)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point.row else row


def items(node: Node, table: Table) -> Iterator[Node]:
    """The items of a file or body, scopes (namespaces, ``#if``) and the regions
    tree-sitter could not parse opened."""
    for child in node.named_children:
        if child.type in table.scopes or child.is_error:
            body = child.child_by_field_name("body")
            yield from items(body if body is not None else child, table)
        else:
            yield child


def body_of(node: Node, table: Table) -> Node | None:
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    for child in node.named_children:
        if child.type in table.bodies:
            return child
    return None


def _definition(
    node: Node, table: Table, *, member: bool, lines: int
) -> tuple[Node, Def, Named] | None:
    """The definition ``node`` is or wraps, and its name; ``lines`` is the span's height."""
    spec = table.members.get(node.type) if member else None
    spec = spec or table.definitions.get(node.type)
    if spec is not None and (lines > 1 or not spec.multiline):
        if member and spec.kind == "function":
            spec = _METHOD._replace(namer=spec.namer)
        named = name_of(node, spec)
        if named is not None:
            return node, spec, named
    if node.type in table.wrappers:
        for child in node.named_children:
            found = _definition(child, table, member=member, lines=lines)
            if found is not None:
                return found
    return None


def units(
    lines: Sequence[str], nodes: Sequence[Node], table: Table, *, member: bool = False
) -> list[Unit]:
    found: list[Unit] = []
    run: int | None = None  # first row of the attached nodes right above
    run_end = -2
    last = -1  # last row of the previous item
    after_definition = False
    for node in nodes:
        start, end = node.start_point.row, end_row(node)
        if node.type in table.attached:
            if start > last:
                run = run if run is not None and start == run_end + 1 else start
                run_end = end
            last = max(last, end)
            continue
        definition = _definition(node, table, member=member, lines=end - start + 1)
        if definition is None:
            run, last, after_definition = None, max(last, end), False
            continue
        inner, spec, named = definition
        head = start
        if run is not None and run_end == start - 1:
            head = run
            if head == 0 and lines[0].startswith("#!"):
                head = 1  # a shebang line belongs to the module
        name_node = inner.child_by_field_name("name")
        name_row = name_node.start_point.row if name_node is not None else start
        unit = Unit(
            named,
            inner,
            spec,
            head,
            end,
            min(name_row + 1, end),
            _suppressions(lines, head, name_row),
        )
        previous = found[-1] if found else None
        if previous is not None and (
            head <= previous.end or (after_definition and previous.named == named)
        ):
            previous.end = max(previous.end, end)
            previous.suppressed |= unit.suppressed
        else:
            found.append(unit)
        run, last, after_definition = None, max(last, end), True
    return found


def _suppressions(lines: Sequence[str], start: int, end: int) -> frozenset[str]:
    codes: frozenset[str] = frozenset()
    for line in lines[start : end + 1]:
        if "chunkgate:" in line:
            codes |= suppressions(line)
    return codes
