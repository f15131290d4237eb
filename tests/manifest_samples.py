"""Records, bytes and hypothesis strategies shared by the manifest tests."""

from __future__ import annotations

from hypothesis import strategies as st

from chunkgate.manifest import (
    FORMAT_VERSION,
    ChunkEntry,
    FileEntry,
    Header,
    Manifest,
    StoredFinding,
)

HEADER = Header(FORMAT_VERSION, 3, "0123456789abcdef", "fedcba9876543210")
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


def manifest(*entries: FileEntry, header: Header = HEADER) -> Manifest:
    return Manifest(header, {e.path: e for e in entries})


GOLDEN = (
    '{"chunkgate_manifest": 1, "chunking": 3, "config": "0123456789abcdef", '
    '"rules": "fedcba9876543210"}\n'
    '{"file": "docs/a.md", "blob": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "chunks": 2, '
    '"findings": [{"rule": "CG302", "line": 1, "chunk": null, '
    '"message": "the file is data: a \\"CSV\\" table", "fix": "exclude it"}, '
    '{"rule": "CG201", "line": 5, "chunk": "docs/a.md#setup", '
    '"message": "section is 2,345 chars, over size.max 2,000", '
    '"fix": "add a subheading to split it"}]}\n'
    '{"id": "docs/a.md#~preamble", "lines": [1, 3], "chars": 120, "tokens": 30, '
    '"hash": "0123456789abcdef"}\n'
    '{"id": "docs/a.md#setup", "lines": [5, 9], "chars": 812, "tokens": 203, '
    '"hash": "fedcba9876543210", "moved_from": "docs/a.md#install", '
    '"suppressed": ["CG402", "CG501"]}\n'
    '{"file": "docs/é \\"q\\".md", "blob": null, "chunks": 0}\n'
).encode()


def golden_manifest() -> Manifest:
    size = finding("CG201", 5, "docs/a.md#setup")
    data = finding("CG302", 1, None, 'the file is data: a "CSV" table', "exclude it")
    a = FileEntry(
        "docs/a.md",
        BLOB,
        (
            ChunkEntry("docs/a.md#~preamble", (1, 3), 120, 30, HASH),
            ChunkEntry(
                "docs/a.md#setup", (5, 9), 812, 203, "fedcba9876543210", "docs/a.md#install",
                ("CG501", "CG402", "CG501"),
            ),
        ),
        (size, data, size),
    )  # fmt: skip
    return manifest(FileEntry('docs/é "q".md', None, ()), a)


# -- hypothesis ----------------------------------------------------------------------------------

names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=8)  # no lone surrogates
# Messages may quote paths, whose undecodable bytes are lone low surrogates.
texts = st.text(st.characters(codec="utf-8") | st.sampled_from(["\udc80", "\udcff"]), max_size=12)
codes = st.lists(st.sampled_from(["CG201", "CG202", "CG302", "CG402", "CG501"]), max_size=3)
counts = st.integers(min_value=0, max_value=10**9)
hex16 = st.text("0123456789abcdef", min_size=16, max_size=16)


@st.composite
def file_entries(draw: st.DrawFn, path: str) -> FileEntry:
    identities = draw(st.lists(names, max_size=4))
    chunks = []
    for identity in identities:
        start = draw(st.integers(min_value=1, max_value=10**6))
        chunks.append(
            ChunkEntry(
                f"{path}#{identity}",
                (start, start + draw(st.integers(min_value=0, max_value=500))),
                draw(counts),
                draw(counts),
                draw(hex16),
                draw(st.none() | names.map(lambda n: f"{path}#{n}")),
                tuple(draw(codes)),
            )
        )
    blob = draw(st.none() | st.text("0123456789abcdef", min_size=40, max_size=40))
    findings = draw(st.lists(stored_findings(path, identities), max_size=3))
    return FileEntry(path, blob, tuple(chunks), tuple(findings))


@st.composite
def stored_findings(draw: st.DrawFn, path: str, identities: list[str]) -> StoredFinding:
    chunk_id = draw(st.none() | st.sampled_from(identities or ["x"]).map(lambda n: f"{path}#{n}"))
    return StoredFinding(
        draw(codes.filter(bool).map(lambda found: found[0])),
        draw(st.integers(min_value=1, max_value=10**6)),
        chunk_id,
        draw(texts),
        draw(texts),
    )


@st.composite
def manifests(draw: st.DrawFn) -> Manifest:
    paths = draw(st.lists(names, unique=True, max_size=6))
    header = Header(
        FORMAT_VERSION, draw(st.integers(min_value=0, max_value=1000)), draw(hex16), draw(hex16)
    )
    return Manifest(header, {path: draw(file_entries(path)) for path in paths})


# -- a large manifest ----------------------------------------------------------------------------


def synthetic_path(number: int) -> str:
    return f"docs/section-{number % 97:02d}/page-{number:05d}.md"


def synthetic(files: int, chunks_each: int) -> Manifest:
    """Every 11th file has a finding, every 13th suppressions on its chunks."""
    entries = []
    for number in range(files):
        path = synthetic_path(number)
        suppressed = ("CG201",) if number % 13 == 0 else ()
        chunks = [
            chunk(path, f"heading-number-{c}", 2 * c + 1, 2 * c + 2, suppressed=suppressed)
            for c in range(chunks_each)
        ]
        findings = (finding(line=12, chunk_id=chunks[0].id),) if number % 11 == 0 else ()
        entries.append(FileEntry(path, BLOB, tuple(chunks), findings))
    return manifest(*entries)
