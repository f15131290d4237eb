"""Records, bytes and hypothesis strategies shared by the manifest tests (format 3)."""

from __future__ import annotations

from hypothesis import strategies as st

from chunkgate.corpus.paths import problem
from chunkgate.diff.moves import unit_id
from chunkgate.manifest import (
    FORMAT_VERSION,
    ChunkEntry,
    FileEntry,
    Header,
    ShardSummary,
    StoredFinding,
)

CONFIG = "size.unit=chars;size.max=2000;size.min=40;anchors=auto[]"
RULES = "rules=CG201.1,CG302.1;max_file_bytes=1000000"
HEADER = Header(FORMAT_VERSION, 3, CONFIG, RULES, "github")
BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
HASH = "0123456789abcdef"


def chunk(
    path: str,
    identity: str,
    start: int = 1,
    end: int = 2,
    *,
    moved_from: str | None = None,
    suppressed: tuple[str, ...] = (),
) -> ChunkEntry:
    return ChunkEntry(
        f"{path}#{identity}", (start, end), 10 * end, 3 * end, HASH, moved_from, suppressed
    )


def entry(
    path: str,
    *identities: str,
    blob: str | None = BLOB,
    findings: tuple[StoredFinding, ...] = (),
) -> FileEntry:
    chunks = tuple(chunk(path, name, 2 * i + 1, 2 * i + 2) for i, name in enumerate(identities))
    return FileEntry(path, blob, chunks, findings)


def finding(
    rule: str = "CG201",
    line: int = 1,
    chunk_id: str | None = None,
    message: str = "section is 2,345 chars, over size.max 2,000",
    fix: str = "add a subheading to split it",
) -> StoredFinding:
    return StoredFinding(rule, line, chunk_id, message, fix)


def summary_of(entry: FileEntry) -> ShardSummary:
    """The summary of ``entry`` as the strict reader's record gives it."""
    return ShardSummary(
        entry.path,
        entry.blob,
        len(entry.chunks),
        bool(entry.findings),
        tuple(c.hash for c in entry.chunks),
        len({unit_id(c.id) for c in entry.chunks}),
        any(c.moved_from is not None for c in entry.chunks),
        entry.settings,
    )


# -- golden bytes ------------------------------------------------------------------------------

GOLDEN_SHARD = (
    b'{"file": "docs/a.md", "blob": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "chunks": 2, '
    b'"settings": "5e771465e771465e", '
    b'"findings": [{"rule": "CG302", "line": 1, "chunk": null, '
    b'"message": "the file is data: a \\"CSV\\" table", "fix": "exclude it"}, '
    b'{"rule": "CG201", "line": 5, "chunk": "docs/a.md#setup", '
    b'"message": "section is 2,345 chars, over size.max 2,000", '
    b'"fix": "add a subheading to split it"}]}\n'
    b'{"id": "docs/a.md#~preamble", "lines": [1, 3], "chars": 120, "tokens": 30, '
    b'"hash": "0123456789abcdef"}\n'
    b'{"id": "docs/a.md#setup", "lines": [5, 9], "chars": 812, "tokens": 203, '
    b'"hash": "fedcba9876543210", "moved_from": "docs/a.md#install", '
    b'"suppressed": ["CG402", "CG501"]}\n'
)
GOLDEN_EMPTY_SHARD = '{"file": "docs/é \\"q\\".md", "blob": null, "chunks": 0}\n'.encode()
GOLDEN_HEADER = (
    b"{\n"
    b'  "chunkgate_manifest": 3,\n'
    b'  "chunking": 3,\n'
    b'  "config": "size.unit=chars;size.max=2000;size.min=40;anchors=auto[]",\n'
    b'  "anchors": "github",\n'
    b'  "rules": "rules=CG201.1,CG302.1;max_file_bytes=1000000"\n'
    b"}\n"
)


def golden_entry() -> FileEntry:
    """GOLDEN_SHARD's record, its findings given out of order (the record sorts them)."""
    size = finding("CG201", 5, "docs/a.md#setup")
    data = finding("CG302", 1, None, 'the file is data: a "CSV" table', "exclude it")
    return FileEntry(
        "docs/a.md",
        BLOB,
        (
            ChunkEntry("docs/a.md#~preamble", (1, 3), 120, 30, HASH),
            ChunkEntry(
                "docs/a.md#setup", (5, 9), 812, 203, "fedcba9876543210", "docs/a.md#install",
                ("CG501", "CG402", "CG501"),
            ),
        ),
        (size, data),
        "5e771465e771465e",
    )  # fmt: skip


def golden_empty_entry() -> FileEntry:
    return FileEntry('docs/é "q".md', None, ())


# -- hypothesis ----------------------------------------------------------------------------------

# Undecodable path bytes are read as lone low surrogates (surrogateescape).
UNDECODABLE = st.sampled_from(["\udc80", "\udcff", "\udcc3"])
# Characters the writer writes as themselves: no JSON escape (quote, backslash,
# control characters) and no lone surrogate (written as a \udcXX escape).
plain_chars = st.characters(codec="utf-8", min_codepoint=0x20, exclude_characters='"\\')
odd_chars = (
    st.characters(codec="utf-8")
    | st.sampled_from([" ", '"', "\\", "#", "/", "\n", "\r", "\t", "\x00", "\u2028", "é"])
    | UNDECODABLE
)
names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=8)  # no lone surrogates
# Messages may quote paths, whose undecodable bytes are lone low surrogates.
texts = st.text(st.characters(codec="utf-8") | UNDECODABLE, max_size=12)
codes = st.lists(st.sampled_from(["CG201", "CG202", "CG302", "CG402", "CG501"]), max_size=3)
# The fast patterns read numbers of up to 12 digits; no real chunk needs more.
counts = st.integers(min_value=0, max_value=10**12 - 1)
starts = st.integers(min_value=1, max_value=10**6)
hex16 = st.text("0123456789abcdef", min_size=16, max_size=16)
blobs = (
    st.none() | st.text("0123456789abcdef", min_size=40, max_size=40) | hex16.map(lambda h: h * 4)
)


def paths(chars: st.SearchStrategy[str] = odd_chars) -> st.SearchStrategy[str]:
    """Corpus paths: one to three non-empty folder or file names."""
    # Never a NUL, ".", ".." or ".git" part: no corpus path has one (chunkgate.corpus.paths).
    part = st.text(chars.filter(lambda c: c not in "/\x00"), min_size=1, max_size=8).filter(
        lambda name: name not in (".", "..") and name.lower() != ".git"
    )
    # Nor a drive-like first part ("A:"): chunkgate.corpus.paths refuses it as absolute.
    return st.lists(part, min_size=1, max_size=3).map("/".join).filter(lambda p: not problem(p))


@st.composite
def file_entries(
    draw: st.DrawFn,
    path: str | None = None,
    *,
    chars: st.SearchStrategy[str] = odd_chars,
    with_findings: bool = True,
    min_findings: int = 0,
) -> FileEntry:
    """A file's record with chunks, moves, suppressions and (``with_findings``) findings;
    ``chars`` make up its path and identities."""
    path = draw(paths(chars)) if path is None else path
    identity = st.text(chars, min_size=1, max_size=8)
    identities = draw(st.lists(identity, max_size=4))
    chunks = []
    for name in identities:
        start = draw(starts)
        chunks.append(
            ChunkEntry(
                f"{path}#{name}",
                (start, start + draw(st.integers(min_value=0, max_value=500))),
                draw(counts),
                draw(counts),
                draw(hex16),
                draw(st.none() | identity.map(lambda n: f"{path}#{n}")),
                tuple(draw(codes)),
            )
        )
    findings = (
        draw(st.lists(stored_findings(path, identities), min_size=min_findings, max_size=3))
        if with_findings
        else []
    )
    return FileEntry(path, draw(blobs), tuple(chunks), tuple(findings), draw(st.none() | hex16))


@st.composite
def stored_findings(draw: st.DrawFn, path: str, identities: list[str]) -> StoredFinding:
    chunk_id = draw(st.none() | st.sampled_from(identities or ["x"]).map(lambda n: f"{path}#{n}"))
    return StoredFinding(
        draw(codes.filter(bool).map(lambda found: found[0])),
        draw(starts),
        chunk_id,
        draw(texts),
        draw(texts),
    )


headers = st.builds(
    Header,
    st.just(FORMAT_VERSION),
    st.integers(min_value=0, max_value=1000),
    st.text(st.characters(codec="utf-8") | UNDECODABLE, min_size=1, max_size=40),
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=40),
    st.text(st.characters(codec="utf-8"), max_size=20),
)
