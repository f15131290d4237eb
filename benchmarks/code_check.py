"""Check the tree-sitter chunker on real code, per language, and time it.

    python benchmarks/code_check.py [DIR]      # DIR from benchmarks/fetch_code.sh

For every file: the chunks' text equals their lines, IDs are unique, no line
is in two chunks, every non-blank line is in one, and every top-level
definition tree-sitter reports (found here by a walk of its own over the
tables' node types) lies inside the chunks that carry its name. Prints, per
language, files, MB, files that do not parse, chunks, failures, and the
chunker's time per MB against the grammar's parse time alone (the floor).
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from chunkgate.chunking import chunk_document, language_of
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.code import grammars
from chunkgate.chunking.code.tables import TABLES

SKIP = (".min.", ".d.ts", "/test/fixtures/")
# bash-completion's scripts have no suffix: they are the shell corpus.
SHELL_DIR = "bash-completion/usr/share/bash-completion/completions"


def files(root: Path) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(root.rglob("*")):
        text = path.as_posix()
        if not path.is_file() or any(s in text for s in SKIP):
            continue
        language = "shell" if SHELL_DIR in text else language_of(text)
        if language in TABLES:
            found[language].append(path)
    return found


def definitions(node, table, out):  # type: ignore[no-untyped-def]
    """(first row, last row) of each top-level definition, wrappers included."""
    for child in node.named_children:
        if child.type in table.scopes:
            body = child.child_by_field_name("body")
            definitions(body if body is not None else child, table, out)
        elif child.type in table.definitions or child.type in table.wrappers:
            inner = child
            while inner.type in table.wrappers and inner.named_children:
                inner = next(
                    (c for c in inner.named_children if c.type in table.definitions), inner
                )
                if inner is child:
                    break
            if inner.type in table.definitions:
                out.append((child.start_point.row, child.end_point.row, child.end_point.column))


def check(language: str, paths: list[Path], options: ChunkOptions) -> dict[str, float]:
    parser = grammars.parser(language)
    assert parser is not None
    table = TABLES[language]
    stats: dict[str, float] = defaultdict(float)
    for path in paths:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            stats["undecodable"] += 1
            continue
        text = text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")
        encoded = text.encode("utf-8")
        began = time.perf_counter()
        tree = parser.parse(encoded)
        stats["parse_s"] += time.perf_counter() - began
        began = time.perf_counter()
        chunked = chunk_document(text, path.as_posix(), language=language, options=options)
        stats["chunk_s"] += time.perf_counter() - began
        stats["files"] += 1
        stats["bytes"] += len(encoded)
        stats["chunks"] += len(chunked.chunks)
        if chunked.problems:
            stats["unparsed"] += 1
            continue
        lines = text.split("\n")
        owner: dict[int, str] = {}
        ids: set[str] = set()
        for chunk in chunked.chunks:
            if chunk.text != "\n".join(lines[chunk.start_line - 1 : chunk.end_line]):
                stats["text_mismatch"] += 1
            if chunk.id in ids:
                stats["duplicate_ids"] += 1
            ids.add(chunk.id)
            for row in range(chunk.start_line - 1, chunk.end_line):
                if row in owner:
                    stats["overlaps"] += 1
                owner[row] = chunk.identity
            stats["oversized"] += chunk.chars > options.max
        uncovered = [r for r, line in enumerate(lines) if line.strip() and r not in owner]
        stats["uncovered_lines"] += len(uncovered)
        found: list[tuple[int, int, int]] = []
        definitions(tree.root_node, table, found)
        for first, last, column in found:
            last = last - 1 if column == 0 and last > first else last
            rows = [r for r in range(first, last + 1) if lines[r].strip()]
            stats["definitions"] += 1
            if any(r not in owner for r in rows):
                stats["definitions_lost"] += 1
    return stats


def main(argv: list[str]) -> int:
    root = Path(argv[1] if len(argv) > 1 else "/tmp/chunkgate-code")
    options = ChunkOptions()
    print(
        "| language | files | MB | do not parse | chunks | definitions | lost | text != lines "
        "| duplicate IDs | overlaps | uncovered lines | over max | chunk s/MB | parse s/MB |"
    )
    print("|---" * 14 + "|")
    for language, paths in sorted(files(root).items()):
        s = check(language, paths, options)
        mb = s["bytes"] / 1e6 or 1
        print(
            f"| {language} | {s['files']:.0f} | {mb:.2f} | {s['unparsed']:.0f} | "
            f"{s['chunks']:.0f} | {s['definitions']:.0f} | {s['definitions_lost']:.0f} | "
            f"{s['text_mismatch']:.0f} | {s['duplicate_ids']:.0f} | {s['overlaps']:.0f} | "
            f"{s['uncovered_lines']:.0f} | {s['oversized']:.0f} | {s['chunk_s'] / mb:.3f} | "
            f"{s['parse_s'] / mb:.3f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
