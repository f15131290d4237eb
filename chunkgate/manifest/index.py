"""Partial access for the pre-commit path: what one commit needs is read without
decoding the rest of the manifest."""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from itertools import accumulate, compress
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple, TypeVar

from chunkgate.errors import ManifestError
from chunkgate.manifest.codec import (
    block_text,
    header_text,
    line_endings,
    order_error,
    parse,
    parse_block,
    read_bytes,
    text_lines,
    to_bytes,
)
from chunkgate.manifest.lines import (
    FileLine,
    ManifestSyntaxError,
    chunk_line,
    file_line,
    header_line,
)
from chunkgate.manifest.records import ChunkEntry, FileEntry, Header, StoredFinding, path_key
from chunkgate.manifest.scan import CHUNK_START, HASH, HEAD, Row, hash_positions, read_rows

_T = TypeVar("_T")

# The key, quotes included: inside a JSON string its quotes would be escaped.
_MOVED_FROM = re.compile(rb'"moved_from"')
# A file line's path, as a JSON string's inside (unrolled: each character matches one way).
_FILE_PATH = re.compile(rb'\n\{"file": "([^"\\]*(?:\\.[^"\\]*)*)", "blob": ')
_FILE_LINE = b'\n{"file": '


class _Block(NamedTuple):
    line: int  # the file line's number; 0 when not counted (a block found by seeking)
    start: int  # where the file line starts
    eol: int  # where it ends (its "\n")
    end: int  # past the block's last "\n"
    chunks: int
    blob: str | None
    has_findings: bool


class ManifestIndex:
    """A manifest's files found by their file lines, without decoding chunk lines.

    Scanning it checks the header, each file line's path, blob and chunk count,
    the order of the paths, and that each block holds as many lines as it
    declares, all beginning like chunk lines. The rest is checked where it is
    read: a file's findings by ``findings`` and ``entry``; a chunk line fully by
    ``entry``, and by ``ids``, ``chunk_rows`` and ``rows_with`` as far as what
    they return. Errors are the ones ``parse`` gives, with line numbers.

    A ``lazy`` index (for a run on a few files: a pre-commit hook) checks the
    header and looks for merge-conflict markers, then scans nothing until asked
    for every file. It finds the files it is asked about by bisecting the file
    lines, which are in path order, and checks those blocks only; a corrupt
    block elsewhere is left for a whole-corpus check to report.
    """

    __slots__ = (
        "_blocks",
        "_body",
        "_chunks",
        "_data",
        "_findings",
        "_header",
        "_ids",
        "_keys",
        "_located",
        "_name",
        "_paths",
    )

    def __init__(self, data: bytes, *, name: str, lazy: bool = False) -> None:
        data = line_endings(data, name)
        self._data, self._name = data, name
        self._body = body = data.index(b"\n") + 1
        try:
            self._header = header_line(text_lines(data[:body], name, 1)[0], name)
        except ManifestError:
            raise self._diagnose(1) from None
        self._findings: dict[str, tuple[StoredFinding, ...]] = {}
        self._ids: dict[str, frozenset[str]] = {}  # asked for twice per file checked
        self._blocks: dict[str, _Block] | None = None
        self._located: dict[str, _Block | None] = {}  # what a lazy index has sought
        self._keys: list[bytes] = []
        self._paths: tuple[str, ...] = ()
        self._chunks = 0
        # The scan needs no search for conflict markers: a marker line breaks the
        # block structure it checks, and _diagnose then has parse name it. A lazy
        # index searches for them, and scans (to name the line) when there are some.
        if not lazy or _conflicted(data):
            self._scan()

    def _scan(self) -> dict[str, _Block]:
        """Every file's block, found in one pass; a block ends where the next file line starts."""
        data, name, body = self._data, self._name, self._body
        blocks: dict[str, _Block] = {}
        keys: list[bytes] = []
        heads = list(HEAD.finditer(data, body - 1))
        if (heads[0].start() + 1 if heads else len(data)) != body:
            raise self._diagnose(2)
        ends = [head.start() + 1 for head in heads[1:]]
        if heads:
            ends.append(len(data))
        count = data.count
        make_block = tuple.__new__  # _Block(...) without its Python-level __new__
        line = 2
        for head, end in zip(heads, ends, strict=True):
            raw, blob, chunks, findings = head.groups()
            if raw is not None:
                # A file line as render writes it (most of a manifest's reading): its
                # path bytes are its UTF-8, and its sort key as they are.
                try:
                    path = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise self._diagnose(line) from None
                key, eol, chunk_count = raw, head.end(), int(chunks)
                block = make_block(
                    _Block,
                    (
                        line,
                        head.start() + 1,
                        eol,
                        end,
                        chunk_count,
                        blob and blob.decode(),
                        bool(findings),
                    ),
                )
            else:
                path, key, block = self._head(head, line, end)
                eol, chunk_count = block.eol, block.chunks
            if keys and key <= keys[-1]:
                where = {listed: seen.line for listed, seen in blocks.items()}
                raise order_error(path, next(reversed(blocks)), where, name, line)
            # Chunk lines are only counted here, at C speed.
            if count(b"\n", eol + 1, end) != chunk_count:
                raise self._diagnose(line)
            blocks[path] = block
            keys.append(key)
            line += 1 + chunk_count
        self._chunks = line - 2 - len(blocks)
        if count(CHUNK_START, body - 1) != self._chunks:
            raise self._diagnose(2)  # a line in some block is not a chunk line
        self._keys, self._paths, self._blocks = keys, tuple(blocks), blocks
        return blocks

    def _all(self) -> dict[str, _Block]:
        return self._scan() if self._blocks is None else self._blocks

    def _head(self, head: re.Match[bytes], line: int, end: int) -> tuple[str, bytes, _Block]:
        """A file line's path, sort key and block, for a line ``HEAD`` could not take apart
        (an escaped path, findings, another spacing): decoded as JSON."""
        start = head.start() + 1
        eol = self._data.index(b"\n", start)
        parsed = self._file_line(start, eol, line)
        found = bool(parsed.findings)
        block = _Block(line, start, eol, end, parsed.chunks, parsed.blob, found)
        return parsed.path, path_key(parsed.path), block

    def _file_line(self, start: int, eol: int, line: int) -> FileLine:
        """The file line from ``start`` to ``eol``, decoded as JSON (its number: ``line``)."""

        def read(number: int) -> FileLine:
            text = text_lines(self._data[start : eol + 1], self._name, number)[0]
            return file_line(text, self._name, number)

        return self._numbered(start, line, read)

    def _numbered(self, start: int, line: int, read: Callable[[int], _T]) -> _T:
        """``read(first line's number)`` for the lines from ``start``; when their number
        is not known (0), it is counted only if they are corrupt, for the error."""
        if line:
            return read(line)
        try:
            return read(1)
        except ManifestSyntaxError as exc:
            number = exc.line + self._data.count(b"\n", 0, start)
            raise ManifestSyntaxError(exc.name, number, exc.what) from None

    # -- seeking (a lazy index) --

    def _block(self, path: str) -> _Block | None:
        if self._blocks is not None:
            return self._blocks.get(path)
        if path not in self._located:
            try:
                key = path_key(path)
            except UnicodeEncodeError:  # no manifest lists such a path
                self._located[path] = None
            else:
                self._located[path] = self._seek(key)[1]
        return self._located[path]

    def _seek(self, key: bytes) -> tuple[int, _Block | None]:
        """Where the first file line whose path sorts at or after ``key`` starts
        (the end of the manifest when none does), and its block when it is ``key``'s.

        Bisects the file lines: any chunk line between them is skipped over by
        searching for the next file line from the middle.
        """
        data = self._data
        low, high = self._body - 1, len(data)  # where the "\n" before a file line can be
        while low < high:
            middle = (low + high) // 2
            head = HEAD.search(data, middle)
            if head is None or head.start() >= high:
                high = middle
            elif self._key(head) < key:
                low = head.start() + 1
            else:
                high = head.start()
        head = HEAD.search(data, low)
        if head is None:
            return len(data), None
        path, found, block = self._read(head)
        if found != key:
            return head.start() + 1, None
        if (
            data.count(b"\n", block.eol + 1, block.end) != block.chunks
            or data.count(CHUNK_START, block.eol, block.end) != block.chunks
        ):
            raise self._diagnose(self._line_at(block.start))
        self._located[path] = block
        return block.start, block

    def _key(self, head: re.Match[bytes]) -> bytes:
        raw = head.group(1)
        return raw if raw is not None else self._head(head, 0, 0)[1]

    def _read(self, head: re.Match[bytes]) -> tuple[str, bytes, _Block]:
        """The path, sort key and block of the file line ``head`` found, its line not counted."""
        following = HEAD.search(self._data, head.end())
        end = following.start() + 1 if following is not None else len(self._data)
        raw, blob, chunks, findings = head.groups()
        if raw is None:
            return self._head(head, 0, end)
        try:
            path = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self._diagnose(self._line_at(head.start() + 1)) from None
        start, blob_id = head.start() + 1, blob.decode() if blob else None
        block = _Block(0, start, head.end(), end, int(chunks), blob_id, bool(findings))
        return path, raw, block

    def _line_at(self, start: int) -> int:
        return self._data.count(b"\n", 0, start) + 1

    def listed(self) -> list[str]:
        """Every file's path, read from the file lines alone (neither their order nor
        their blocks are checked): what a run on a few files needs to notice the
        deleted ones. A path that does not decode has the whole manifest scanned,
        which names its line; a file line of another shape is not listed."""
        if self._blocks is not None:
            return list(self._paths)
        raws = _FILE_PATH.findall(self._data, self._body - 1)
        try:
            return [
                json.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode("utf-8")
                for raw in raws
            ]
        except ValueError:  # UnicodeDecodeError and JSONDecodeError both are
            return list(self._all())

    @classmethod
    def from_bytes(cls, data: bytes, *, name: str, lazy: bool = False) -> ManifestIndex:
        return cls(data, name=name, lazy=lazy)

    @classmethod
    def load(cls, path: Path) -> ManifestIndex | None:
        """The index of the manifest at ``path``, or None when there is none."""
        data = read_bytes(path)
        return None if data is None else cls(data, name=str(path))

    def _diagnose(self, line: int) -> ManifestError:
        try:
            parse(self._data, name=self._name)
        except ManifestError as exc:
            return exc
        return ManifestSyntaxError(self._name, line, "malformed file block")  # parse is stricter

    @property
    def header(self) -> Header:
        return self._header

    @property
    def paths(self) -> tuple[str, ...]:
        """Every file's path, in manifest (byte) order."""
        self._all()
        return self._paths

    @property
    def data(self) -> bytes:
        """The manifest's bytes (with ``\\n`` line endings) the index was built from."""
        return self._data

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self._block(path) is not None

    def __len__(self) -> int:
        return len(self._all())

    def blob(self, path: str) -> str | None:
        """The recorded blob id; None when the file is not listed or has none."""
        # Asked for every file by a whole-corpus check: the scanned case inline.
        blocks = self._blocks
        block = blocks.get(path) if blocks is not None else self._block(path)
        return None if block is None else block.blob

    def findings(self, path: str) -> tuple[StoredFinding, ...]:
        """The file's recorded findings, decoding only its file line."""
        block = self._block(path)
        if block is None or not block.has_findings:
            return ()
        found = self._findings.get(path)
        if found is None:
            parsed = self._file_line(block.start, block.eol, block.line)
            found = self._findings[path] = parsed.findings
        return found

    def paths_with_findings(self) -> set[str]:
        """The files whose file line records findings (none of them decoded)."""
        return {path for path, block in self._all().items() if block.has_findings}

    def chunk_total(self, paths: Iterable[str]) -> int:
        """The chunks of these files, together."""
        get = self._all().get
        return sum(block.chunks for block in map(get, paths) if block is not None)

    def ids(self, path: str) -> frozenset[str]:
        """One file's chunk IDs, read without decoding its lines as JSON."""
        found = self._ids.get(path)
        if found is None:
            block = self._block(path)
            rows = self._rows(path, block) if block is not None else []
            found = self._ids[path] = frozenset(row[1] for row in rows)
        return found

    def entry(self, path: str) -> FileEntry | None:
        """One file's entry, parsing only its lines."""
        block = self._block(path)
        return None if block is None else self._entry(block)

    def block(self, path: str) -> bytes | None:
        """One file's lines as they stand in the manifest: what ``render_block`` of its
        entry gives, for a manifest as ``render`` writes it."""
        block = self._block(path)
        return None if block is None else self._data[block.start : block.end]

    def paths_with_moves(self) -> set[str]:
        """The files with a chunk that records ``moved_from``, found without decoding."""
        starts = [block.start for block in self._all().values()]
        return {
            self._paths[bisect_right(starts, found.start()) - 1]
            for found in _MOVED_FROM.finditer(self._data, self._body)
        }

    def _entry(self, block: _Block) -> FileEntry:
        data = self._data[block.start : block.end]
        return self._numbered(block.start, block.line, lambda n: parse_block(data, self._name, n))

    def hashes(self) -> Iterator[tuple[str, str]]:
        """``(hash, id)`` of every chunk, in manifest order."""
        for digest, chunk_id, _, _, _ in self.chunk_rows():
            yield digest, chunk_id

    def chunk_rows(self) -> Iterator[Row]:
        """``(hash, id, path, start line, suppressed rule codes)`` of every chunk, in
        manifest order, read with one regular expression per file rather than as JSON."""
        for path, block in self._all().items():
            yield from self._rows(path, block)

    def _rows(self, path: str, block: _Block) -> list[Row]:
        rows = read_rows(self._data, block.eol, block.end, path)
        if len(rows) != block.chunks:  # a line not as render writes it: parse the block
            rows = [_chunk_row(chunk, path) for chunk in self._entry(block).chunks]
        return rows

    def repeated_rows(self, also: Collection[str] = ()) -> list[Row]:
        """``rows_with`` the hashes two or more chunks share, and ``also``: what CG501
        needs of a whole corpus, found with one regular expression over the bytes.

        The n-th hash found is the n-th chunk line's, so each row's line is found
        by counting chunk lines, not by searching the manifest again.
        """
        found = self._hash_list()
        wanted = self._repeated(found) | {digest.encode("ascii") for digest in also}
        if not wanted:
            return []
        blocks = list(self._all().items())
        firsts = list(accumulate(map(attrgetter("chunks"), self._all().values()), initial=0))
        rows: list[Row] = []
        for number in compress(range(len(found)), map(wanted.__contains__, found)):
            at = bisect_right(firsts, number) - 1
            path, block = blocks[at]
            line_start = block.eol + 1
            for _ in range(number - firsts[at]):
                line_start = self._data.index(b"\n", line_start) + 1
            rows.append(self._row_at(line_start, path))
        return rows

    def _hash_list(self) -> list[bytes]:
        """Every chunk line's hash, in manifest order. Each chunk line must hold one
        hash as ``render`` writes it; their other fields are not checked."""
        self._all()
        found = HASH.findall(self._data)
        if len(found) != self._chunks:
            raise self._diagnose(2)
        return found

    @staticmethod
    def _repeated(found: list[bytes]) -> set[bytes]:
        return {digest for digest, times in Counter(found).items() if times > 1}

    def rows_with(self, hashes: Collection[str]) -> Iterator[Row]:
        """``(hash, id, path, start line, suppressed rule codes)`` of the chunks whose
        hash is one of ``hashes``, in manifest order.

        Only the lines holding those hashes are decoded, so a pre-commit run that
        asks about a few chunks does not read the whole manifest's chunk lines.
        """
        data = self._data
        if self._blocks is None:  # lazy: each line's file is the file line above it
            owner, block = "", _Block(0, 0, 0, 0, 0, None, False)
            for at in hash_positions(data, hashes):
                line_start = data.rfind(b"\n", 0, at) + 1
                if not block.eol < line_start < block.end:
                    owner, block = self._owner(line_start)
                yield self._row_at(line_start, owner)
            return
        starts = [block.start for block in self._blocks.values()]
        for at in hash_positions(data, hashes):
            line_start = data.rfind(b"\n", 0, at) + 1
            yield self._row_at(line_start, self._paths[bisect_right(starts, line_start) - 1])

    def _owner(self, line_start: int) -> tuple[str, _Block]:
        """The path and block of the file holding the chunk line at ``line_start``."""
        head = HEAD.match(self._data, self._data.rfind(_FILE_LINE, 0, line_start))
        if head is None:  # a hash above the first file line
            raise self._diagnose(self._line_at(line_start))
        path, _, block = self._read(head)
        if self._block(path) != block:
            raise self._diagnose(self._line_at(line_start))  # out of order: not found by seeking
        return path, block

    def _row_at(self, line_start: int, path: str) -> Row:
        """The row of the chunk line at ``line_start``, in the block of ``path``."""
        end = self._data.index(b"\n", line_start) + 1
        rows = read_rows(self._data, line_start - 1, end, path)
        if rows:
            return rows[0]
        number = self._data.count(b"\n", 0, line_start) + 1
        text = text_lines(self._data[line_start:end], self._name, number)[0]
        return _chunk_row(chunk_line(text, path, self._name, number), path)

    def replace(self, entries: Mapping[str, FileEntry | None], header: Header) -> bytes:
        """New manifest bytes: ``entries`` rendered (None removes a file), every other
        file's block copied as it is. Equal to ``render`` of the same content."""
        for path, entry in entries.items():
            if entry is not None and entry.path != path:
                raise ValueError(f"entries[{path!r}] holds the entry of {entry.path!r}")
        data = memoryview(self._data)  # slices of a view copy nothing: only the join does
        parts: list[bytes | memoryview] = [to_bytes(header_text(header))]
        pos = self._body
        for path in sorted(entries, key=path_key):
            start, end = self._span(path)
            if start < pos:  # a lazy index's files out of order
                raise self._diagnose(self._line_at(start))
            parts.append(data[pos:start])
            entry = entries[path]
            if entry is not None:
                parts.append(to_bytes(block_text(entry)))
            pos = end
        parts.append(data[pos:])
        return b"".join(parts)

    def _span(self, path: str) -> tuple[int, int]:
        """Where the block of ``path`` starts and ends, or where it would go (twice)."""
        block = self._block(path)
        if block is not None:
            return block.start, block.end
        if self._blocks is None:
            at = self._seek(path_key(path))[0]
            return at, at
        index = bisect_left(self._keys, path_key(path))
        if index == len(self._paths):
            return len(self._data), len(self._data)
        at = self._blocks[self._paths[index]].start
        return at, at


def _conflicted(data: bytes) -> bool:
    """Whether a line starts with git's conflict marker ``<<<<<<<``. Searched for as one
    byte, which is rare in a manifest: a longer needle is searched for several times slower."""
    at = data.find(b"<")
    while at >= 0:
        if data.startswith(b"<<<<<<<", at) and data[at - 1 : at] in (b"\n", b""):
            return True
        at = data.find(b"<", at + 1)
    return False


def _chunk_row(chunk: ChunkEntry, path: str) -> Row:
    return chunk.hash, chunk.id, path, chunk.lines[0], chunk.suppressed
