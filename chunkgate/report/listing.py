"""Output of ``chunks`` and ``outline``: a table or tree, JSON, or JSON lines."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import IO

from chunkgate.chunking import ChunkedFile, languages
from chunkgate.core.jsonfields import metadata
from chunkgate.core.jsonfields import string as _string
from chunkgate.core.jsonfields import value as _value
from chunkgate.core.model import Chunk, Heading
from chunkgate.report.console import make_console
from chunkgate.report.fit import middle, room, whole_headers, widest
from chunkgate.report.formats import CHUNKS, OUTLINE, ChunksWriter, OutlineWriter
from chunkgate.report.printable import printable


def dump_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def write_chunks(
    files: Iterable[ChunkedFile | str],
    fmt: str,
    stream: IO[str],
    *,
    text: bool,
    anchors: Callable[[str], str] | None = None,
) -> None:
    """Write the chunks in one of ``formats.CHUNKS``'s formats (not ``auto``). For
    ``jsonl``, ``files`` may hold each file's lines already rendered (``json_lines``, made
    where the file was chunked); the other formats need every chunk first.
    ``anchors(path)`` says which anchor flavour a Markdown file's IDs follow, and why."""
    writer: ChunksWriter = CHUNKS.writer(fmt)
    writer(files, stream, text=text, anchors=anchors)


def write_jsonl_chunks(
    files: Iterable[ChunkedFile | str],
    stream: IO[str],
    *,
    text: bool,
    anchors: Callable[[str], str] | None,
) -> None:
    for file in files:
        stream.write(file if isinstance(file, str) else json_lines(file, text=text))


def write_json_chunks(
    files: Iterable[ChunkedFile],
    stream: IO[str],
    *,
    text: bool,
    anchors: Callable[[str], str] | None,
) -> None:
    chunks = [chunk.to_dict(text=text) for file in files for chunk in file.chunks]
    stream.write(dump_json(chunks) + "\n")


def write_rich_chunks(
    files: Iterable[ChunkedFile],
    stream: IO[str],
    *,
    text: bool,
    anchors: Callable[[str], str] | None,
) -> None:
    _rich_chunks(list(files), stream, text=text, anchors=anchors)


def write_text_chunks(
    files: Iterable[ChunkedFile],
    stream: IO[str],
    *,
    text: bool,
    anchors: Callable[[str], str] | None,
) -> None:
    files = list(files)
    _plain_chunks([chunk for file in files for chunk in file.chunks], stream, text=text)
    _plain_anchors(files, stream, anchors)


def _plain_anchors(
    files: Sequence[ChunkedFile], stream: IO[str], anchors: Callable[[str], str] | None
) -> None:
    # After the table, so that its columns stay the first lines a script reads.
    if anchors is None:
        return
    shown = {file.path: anchors(file.path) for file in files if languages.get(file.language).markup}
    for flavour in dict.fromkeys(shown.values()):
        paths = [path for path, value in shown.items() if value == flavour]
        where = paths[0] if len(paths) == 1 else f"{len(paths)} Markdown files"
        stream.write(printable(f"anchors: {flavour} for {where}") + "\n")


def json_lines(file: ChunkedFile, *, text: bool) -> str:
    """A file's chunks as JSON lines, each ending in a newline (one write a file: a
    text stream encodes each write call on its own)."""
    return "".join([f"{json_line(chunk, text=text)}\n" for chunk in file.chunks])


def json_line(chunk: Chunk, *, text: bool) -> str:
    """``json.dumps(chunk.to_dict(text=text), ensure_ascii=False)``, written field by
    field: building the dict and encoding it took twice as long, a fifth of a whole
    ``chunks --format jsonl`` run. ``tests/test_cli.py`` holds it to ``json.dumps``."""
    rest = ""
    if chunk.merged:
        rest += f', "merged": [{", ".join(map(_string, chunk.merged))}]'
    if chunk.start_column:
        rest += f', "start_column": {chunk.start_column}'
    if chunk.end_column:
        rest += f', "end_column": {chunk.end_column}'
    found = metadata(chunk)
    if found is not None:
        rest += f', "metadata": {found}'
    if text:
        rest += f', "text": {_string(chunk.text)}'
    return (
        f'{{"id": {_string(chunk.id)}, "path": {_string(chunk.path)}, '
        f'"kind": {_string(chunk.kind)}, "language": {_string(chunk.language)}, '
        f'"symbol": {_value(chunk.symbol)}, '
        f'"heading_path": [{", ".join(map(_string, chunk.heading_path))}], '
        f'"level": {chunk.level}, "start_line": {chunk.start_line}, '
        f'"end_line": {chunk.end_line}, "chars": {chunk.chars}, "tokens": {chunk.tokens}, '
        f'"hash": {_string(chunk.hash)}, "part": {chunk.part}, "parts": {chunk.parts}, '
        f'"parent": {_value(chunk.parent)}, "prev": {_value(chunk.prev)}, '
        f'"next": {_value(chunk.next)}{rest}}}'
    )


def _label(chunk: Chunk) -> str:
    label = chunk.symbol or " › ".join(chunk.heading_path)
    return f"{label} (part {chunk.part}/{chunk.parts})" if chunk.parts > 1 else label


def _lines(chunk: Chunk) -> str:
    """``12-20``, with ``:column`` where a part starts or ends inside a line."""
    start = (
        f"{chunk.start_line}:{chunk.start_column}" if chunk.start_column else f"{chunk.start_line}"
    )
    end = f"{chunk.end_line}:{chunk.end_column}" if chunk.end_column else f"{chunk.end_line}"
    return f"{start}-{end}"


def _plain_chunks(chunks: Sequence[Chunk], stream: IO[str], *, text: bool) -> None:
    rows = [
        (
            chunk.id,
            chunk.kind,
            _lines(chunk),
            str(chunk.chars),
            str(chunk.tokens),
            _label(chunk),
        )
        for chunk in chunks
    ]
    header = ("ID", "KIND", "LINES", "CHARS", "TOKENS", "HEADING/SYMBOL")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(5)]
    for row, chunk in zip([header, *rows], [None, *chunks], strict=True):
        cells = [
            row[i].rjust(widths[i]) if i in (3, 4) else row[i].ljust(widths[i]) for i in range(5)
        ]
        stream.write(printable("  ".join([*cells, row[5]]).rstrip()) + "\n")
        if text and chunk is not None:
            stream.write("".join(f"    {printable(line)}\n" for line in chunk.text.split("\n")))


_FIXED = ("kind", "lines", "chars", "tokens")
_HEADING = "heading / symbol"
# The heading column keeps this much beside a long ID at the least.
_LEAST_HEADING = 12


def _rich_chunks(
    files: Sequence[ChunkedFile],
    stream: IO[str],
    *,
    text: bool,
    anchors: Callable[[str], str] | None = None,
) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.table import Table
    from rich.text import Text  # rich: terminal output only

    console = make_console(stream)
    for file in files:
        caption = None
        if anchors is not None and languages.get(file.language).markup:
            caption = f"anchors: {anchors(file.path)}"
        table = Table(
            title=Text(printable(middle(file.path, console.width))),
            title_justify="left",
            caption=caption,
            caption_justify="left",
            show_edge=False,
            expand=False,
        )
        rows = [
            (chunk.kind, _lines(chunk), str(chunk.chars), str(chunk.tokens))
            for chunk in file.chunks
        ]
        fixed = [widest(head, [row[i] for row in rows]) for i, head in enumerate(_FIXED)]
        labels = [_label(chunk) for chunk in file.chunks]
        # The heading column takes up to two fifths of what the others leave (wrapped by
        # word); the ID, which tells the chunk, the rest.
        share = max(_LEAST_HEADING, room(console.width, fixed) * 2 // 5)
        label_room = min(widest(_HEADING, labels), share)
        identity_room = room(console.width, [*fixed, label_room])
        table.add_column("identity", style="cyan", no_wrap=True)
        for head in _FIXED:
            table.add_column(head, no_wrap=True, justify="left" if head == "kind" else "right")
        table.add_column(_HEADING, overflow="fold")
        for chunk, row, label in zip(file.chunks, rows, labels, strict=True):
            # Text, not str: a heading's "[bold]" or "[/b]" is text, never rich markup.
            table.add_row(
                Text(printable(middle(chunk.identity, identity_room))),
                *row,
                Text(printable(label)),
            )
            if text:
                table.add_row("", "", "", "", "", Text(printable(chunk.text)), style="dim")
        console.print(whole_headers(table))
        if not file.chunks:
            console.print("  [dim](no chunks)[/dim]")


def write_outline(outlines: Sequence[Sequence[Heading]], fmt: str, stream: IO[str]) -> None:
    """Write the outlines in one of ``formats.OUTLINE``'s formats (not ``auto``)."""
    writer: OutlineWriter = OUTLINE.writer(fmt)
    writer(outlines, stream)


def write_json_outline(outlines: Sequence[Sequence[Heading]], stream: IO[str]) -> None:
    headings = [heading.to_dict() for outline in outlines for heading in outline]
    stream.write(dump_json(headings) + "\n")


def write_jsonl_outline(outlines: Sequence[Sequence[Heading]], stream: IO[str]) -> None:
    for outline in outlines:
        for heading in outline:
            stream.write(json.dumps(heading.to_dict(), ensure_ascii=False) + "\n")


def write_rich_outline(outlines: Sequence[Sequence[Heading]], stream: IO[str]) -> None:
    # rich takes tens of ms to import: only terminal output needs it
    from rich.markup import escape

    console = make_console(stream)
    for outline in outlines:
        if outline:
            console.print(
                f"[bold]{escape(outline[0].path)}[/bold]  "
                f"[dim]anchors: {escape(outline[0].anchors)}[/dim]"
            )
        for heading in outline:
            indent = "  " * heading.level
            console.print(
                f"{indent}{escape(heading.text)}  [cyan]#{escape(heading.id.partition('#')[2])}"
                f"[/cyan] [dim]:{heading.line}[/dim]"
            )


def write_text_outline(outlines: Sequence[Sequence[Heading]], stream: IO[str]) -> None:
    for outline in outlines:
        if outline:
            stream.write(printable(f"{outline[0].path}  anchors: {outline[0].anchors}") + "\n")
        for heading in outline:
            anchor = heading.id.partition("#")[2]
            line = f"{'  ' * heading.level}{heading.text}  #{anchor}  :{heading.line}"
            stream.write(printable(line) + "\n")
