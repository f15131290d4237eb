"""One chunker (or floor) over one corpus, timed inside its own process.

Run by ``bench.py``, one process per tool and run::

    python benchmarks/tools.py TOOL CORPUS_DIR
    python benchmarks/tools.py --warm TOOL    # imports only, to fill the bytecode cache

prints one JSON object: the import time, then the CPU (``process_time``) and
wall time of chunking every file, reading the files included (every tool
reads and decodes the same bytes the same way, except chunkgate, whose
``chunk_bytes`` decodes them itself), and how many chunks came out.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
CHUNK_SIZE = 2000

# chonkie's "markdown" recipe lives on the Hugging Face hub (a download); this
# is the same recipe built in code: headings first (kept with the text after
# them), then chonkie's default levels (paragraphs, sentences, pauses, words,
# tokens).
CHONKIE_HEADINGS = ["\n# ", "\n## ", "\n### ", "\n#### ", "\n##### ", "\n###### "]
CHONKIE_PAUSES = [
    *("{", "}", '"', "[", "]", "<", ">", "(", ")", ":", ";", ",", "—", "|", "~"),
    *("-", "...", "`", "'"),
]

# Each tool: the modules to import (timed), then a function from a file's
# (bytes, relative path) to its number of chunks.
Chunker = Callable[[bytes, str], int]


def _read() -> Chunker:
    return lambda data, path: len(data.decode("utf-8"))


def _chunkgate() -> Chunker:
    from chunkgate.chunking import chunk_bytes

    return lambda data, path: len(chunk_bytes(data, path).chunks)


def _floor() -> Chunker:
    """The least that target 1 asks of any chunker, in Python on cmark: each ATX heading
    line found (one regular expression), the ones with inline syntax rendered (one cmark
    call a file), slugged, and each section's text measured and hashed. Nothing checks
    that a line is a heading (fences, setext, containers), nothing is trimmed, split or
    linked, and a chunk is a plain tuple: a floor, not a chunker."""
    import hashlib
    import re

    from chunkgate.chunking import cmark
    from chunkgate.chunking.slugs import github_slug

    heading = re.compile(r"\n(#{1,6})[ \t]+([^\n]*)")
    inline = re.compile(r"[\\`*_\[\]<&!]")
    sha256 = hashlib.sha256

    def chunk(data: bytes, path: str) -> int:
        text = "\n" + data.decode("utf-8")
        found = [(m.start(), m[1], m[2]) for m in heading.finditer(text)]
        marked = [f"{level} {title}" for _, level, title in found if inline.search(title)]
        rendered = iter(cmark.texts("\n".join(marked)) if marked else ())
        seen: dict[str, int] = {}
        ends = [start for start, _, _ in found[1:]] + [len(text)] * bool(found)
        line = 1
        chunks = []
        for (start, _, title), end in zip(found, ends, strict=True):
            slug = github_slug(next(rendered) if inline.search(title) else title)
            if slug in seen:
                seen[slug] += 1
                slug = f"{slug}-{seen[slug]}"
            seen[slug] = 0
            body = text[start + 1 : end]
            encoded = body.encode()
            lines = body.count("\n")
            chunks.append(
                (f"{path}#{slug}", line, line + lines, len(body), (len(encoded) + 3) // 4,
                 sha256(encoded).hexdigest()[:16])
            )  # fmt: skip
            line += lines
        return len(chunks)

    return chunk


def _langchain() -> Chunker:
    from langchain_text_splitters import (
        MarkdownHeaderTextSplitter,
        RecursiveCharacterTextSplitter,
    )

    headers = MarkdownHeaderTextSplitter(
        [("#" * level, f"h{level}") for level in range(1, 7)], strip_headers=False
    )
    recursive = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=0)
    return lambda data, path: len(
        recursive.split_documents(headers.split_text(data.decode("utf-8")))
    )


def _chonkie() -> Chunker:
    from chonkie import RecursiveChunker, RecursiveLevel, RecursiveRules

    rules = RecursiveRules(
        levels=[
            RecursiveLevel(delimiters=CHONKIE_HEADINGS, include_delim="next"),
            RecursiveLevel(delimiters=["\n\n", "\r\n", "\n", "\r"]),
            RecursiveLevel(delimiters=[". ", "! ", "? "]),
            RecursiveLevel(delimiters=CHONKIE_PAUSES),
            RecursiveLevel(whitespace=True),
            RecursiveLevel(),
        ]
    )
    chunker = RecursiveChunker(tokenizer="character", chunk_size=CHUNK_SIZE, rules=rules)
    return lambda data, path: len(chunker.chunk(data.decode("utf-8")))


def _semchunk() -> Chunker:
    import semchunk

    chunker = semchunk.chunkerify(len, CHUNK_SIZE)
    return lambda data, path: len(chunker(data.decode("utf-8")))


def _cmark() -> Chunker:
    import cmarkgfm
    from cmarkgfm.cmark import Options

    def render(data: bytes, path: str) -> int:
        html = cmarkgfm.markdown_to_html(data.decode("utf-8"), Options.CMARK_OPT_SOURCEPOS)
        return html.count("<h")

    return render


def _markdown_it() -> Chunker:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark")
    return lambda data, path: sum(
        token.type == "heading_open" for token in parser.parse(data.decode("utf-8"))
    )


def _pyromark() -> Chunker:
    import pyromark

    def events(data: bytes, path: str) -> int:
        count = 0
        for _ in pyromark.events_with_range(data.decode("utf-8")):
            count += 1
        return count

    return events


def _ast() -> Chunker:
    import ast

    def parse(data: bytes, path: str) -> int:
        try:
            ast.parse(data)  # bytes: ast honours the coding cookie itself
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return 0
        return 1

    return parse


def _chunkgate_python() -> Chunker:
    from chunkgate.chunking import chunk_bytes
    from chunkgate.core.errors import UnreadableError

    def chunk(data: bytes, path: str) -> int:
        try:
            return len(chunk_bytes(data, path).chunks)
        except UnreadableError:
            return 0

    return chunk


TOOLS: dict[str, Callable[[], Chunker]] = {
    "read": _read,
    "chunkgate": _chunkgate,
    "floor": _floor,
    "langchain": _langchain,
    "chonkie": _chonkie,
    "semchunk": _semchunk,
    "cmark": _cmark,
    "markdown-it": _markdown_it,
    "pyromark": _pyromark,
    "ast": _ast,
    "chunkgate-python": _chunkgate_python,
}


def corpus_files(root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*")
        if path.suffix in suffixes
        and path.is_file()
        and "site-packages" not in path.relative_to(root).parts
    )


def measure(tool: str, root: Path) -> dict[str, object]:
    suffixes = (".py",) if tool in ("ast", "chunkgate-python") else MARKDOWN_SUFFIXES
    files = [(path, path.relative_to(root).as_posix()) for path in corpus_files(root, suffixes)]
    started = time.perf_counter()
    chunker = TOOLS[tool]()
    imported = time.perf_counter() - started
    chunks = 0
    size = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for path, relative in files:
        data = path.read_bytes()
        size += len(data)
        chunks += chunker(data, relative)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {
        "tool": tool,
        "import_s": imported,
        "cpu_s": cpu,
        "wall_s": wall,
        "chunks": chunks,
        "files": len(files),
        "bytes": size,
    }


def main(argv: list[str]) -> int:
    if argv[0] == "--warm":  # import only: fills the bytecode cache
        TOOLS[argv[1]]()
        return 0
    tool, corpus = argv
    # ast.parse warns about invalid escapes in old stdlib modules; nobody reads it here.
    warnings.simplefilter("ignore")
    print(json.dumps(measure(tool, Path(corpus))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
