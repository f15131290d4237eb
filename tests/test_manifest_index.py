"""The partial index: answers equal to a full parse, reading only what is asked."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manifest_samples import (
    BLOB,
    GOLDEN,
    HASH,
    HEADER,
    chunk,
    entry,
    file_entries,
    finding,
    golden_manifest,
    manifest,
    manifests,
    names,
    synthetic,
    synthetic_path,
)

from chunkgate.manifest import (
    ChunkEntry,
    FileEntry,
    Header,
    Manifest,
    ManifestIndex,
    ManifestSyntaxError,
    parse,
    render,
)

Row = tuple[str, str, str, int, tuple[str, ...]]


def rows_of(parsed: Manifest) -> list[Row]:
    return [
        (c.hash, c.id, path, c.lines[0], c.suppressed)
        for path, file in parsed.files.items()
        for c in file.chunks
    ]


@pytest.mark.parametrize("lazy", [False, True])
def test_index_accessors(lazy: bool) -> None:
    golden = golden_manifest()
    index = ManifestIndex.from_bytes(GOLDEN, name="m", lazy=lazy)
    assert index.header == HEADER
    assert "docs/a.md" in index
    assert 'docs/é "q".md' in index
    assert sorted(index.listed()) == ["docs/a.md", 'docs/é "q".md']
    assert index.paths == ("docs/a.md", 'docs/é "q".md')
    assert len(index) == 2
    assert "docs/b.md" not in index
    assert index.blob("docs/a.md") == BLOB
    assert index.blob('docs/é "q".md') is None
    assert index.blob("docs/b.md") is None
    assert index.findings("docs/a.md") == golden.files["docs/a.md"].findings
    assert [f.rule for f in index.findings("docs/a.md")] == ["CG302", "CG201"]
    assert index.findings('docs/é "q".md') == ()
    assert index.findings("docs/b.md") == ()
    assert index.paths_with_findings() == {"docs/a.md"}
    assert index.chunk_total(["docs/a.md", "docs/b.md", 'docs/é "q".md']) == 2 + 0 + 0
    assert index.entry("docs/a.md") == golden.files["docs/a.md"]
    assert index.entry('docs/é "q".md') == golden.files['docs/é "q".md']
    assert index.entry("docs/b.md") is None
    assert index.ids("docs/a.md") == {"docs/a.md#~preamble", "docs/a.md#setup"}
    assert index.ids("docs/b.md") == frozenset()
    assert list(index.hashes()) == [
        (HASH, "docs/a.md#~preamble"),
        ("fedcba9876543210", "docs/a.md#setup"),
    ]
    assert list(index.chunk_rows()) == [
        (HASH, "docs/a.md#~preamble", "docs/a.md", 1, ()),
        ("fedcba9876543210", "docs/a.md#setup", "docs/a.md", 5, ("CG402", "CG501")),
    ]
    assert list(index.rows_with({"fedcba9876543210"})) == [
        ("fedcba9876543210", "docs/a.md#setup", "docs/a.md", 5, ("CG402", "CG501")),
    ]
    assert list(index.rows_with(set())) == []
    assert index.data == GOLDEN
    assert index.repeated_rows() == []
    assert index.repeated_rows({"fedcba9876543210"}) == [
        ("fedcba9876543210", "docs/a.md#setup", "docs/a.md", 5, ("CG402", "CG501")),
    ]
    repeated = ManifestIndex(GOLDEN.replace(b"fedcba9876543210", HASH.encode()), name="m")
    assert [row[1] for row in repeated.repeated_rows()] == [
        "docs/a.md#~preamble",
        "docs/a.md#setup",
    ]


def test_index_of_a_manifest_without_files() -> None:
    data = render(manifest())
    index = ManifestIndex(data, name="m")
    assert index.paths == ()
    assert list(index.hashes()) == []
    assert index.replace({}, HEADER) == data
    added = entry("a.md", "x")
    assert index.replace({"a.md": added}, HEADER) == render(manifest(added))


@settings(deadline=None, max_examples=200)
@given(manifests(), st.data(), st.booleans())
def test_index_answers_what_parse_answers(
    original: Manifest, draw: st.DataObject, lazy: bool
) -> None:
    data = render(original)
    parsed = parse(data, name="m")  # files in manifest order
    index = ManifestIndex(data, name="m", lazy=lazy)
    assert sorted(index.listed()) == sorted(parsed.files)
    for path, file in parsed.files.items():
        assert path in index
        assert index.entry(path) == file
        assert index.findings(path) == file.findings
        assert index.blob(path) == file.blob
        assert index.ids(path) == {c.id for c in file.chunks}
    absent = draw.draw(names)
    if absent not in parsed.files:
        assert absent not in index
        assert index.entry(absent) is None
    rows = rows_of(parsed)
    wanted = draw.draw(st.sets(st.sampled_from([r[0] for r in rows]))) if rows else set()
    assert list(index.rows_with(wanted)) == [r for r in rows if r[0] in wanted]
    assert list(index.chunk_rows()) == rows
    assert index.paths == tuple(parsed.files)
    repeated = {r[0] for r in rows if [x[0] for x in rows].count(r[0]) > 1}
    assert index.repeated_rows(wanted) == [r for r in rows if r[0] in wanted | repeated]
    with_findings = {path for path, file in parsed.files.items() if file.findings}
    assert index.paths_with_findings() == with_findings
    some = draw.draw(st.lists(st.sampled_from([*parsed.files, "absent.md"])))
    expected = sum(len(parsed.files[p].chunks) for p in some if p in parsed.files)
    assert index.chunk_total(some) == expected


# -- reading only what is asked -----------------------------------------------------------------

HEAD = (
    '{"chunkgate_manifest": 1, "chunking": 3, "config": "0123456789abcdef", '
    '"rules": "fedcba9876543210"}\n'
)


def chunk_text(path: str, identity: str, digest: str, tail: str = "") -> str:
    return (
        f'{{"id": "{path}#{identity}", "lines": [1, 2], "chars": 10, "tokens": 3, '
        f'"hash": "{digest}"{tail}}}\n'
    )


def test_findings_decodes_only_the_file_line_asked_about() -> None:
    good = '[{"rule": "CG201", "line": 1, "chunk": null, "message": "m", "fix": "f"}]'
    bad = '[{"rule": "CG201", "line": 0, "chunk": null, "message": "m", "fix": "f"}]'
    data = (
        HEAD
        + f'{{"file": "a.md", "blob": null, "chunks": 0, "findings": {good}}}\n'
        + f'{{"file": "b.md", "blob": null, "chunks": 0, "findings": {bad}}}\n'
    ).encode()
    index = ManifestIndex(data, name="m")
    assert index.findings("a.md") == (finding(message="m", fix="f"),)
    assert index.findings("a.md") is index.findings("a.md")  # decoded once
    with pytest.raises(ManifestSyntaxError, match=r'^m:3: finding 1: "line" must be'):
        index.findings("b.md")


def test_rows_with_decodes_only_the_lines_with_those_hashes() -> None:
    wanted, other = "1111111111111111", "2222222222222222"
    data = (
        HEAD
        + '{"file": "a.md", "blob": null, "chunks": 2}\n'
        + chunk_text("a.md", "one", wanted, ', "suppressed": ["CG501"]')
        + chunk_text("a.md", "two", other, ', "suppressed": ["CG501", "CG201"]')  # unsorted
    ).encode()
    index = ManifestIndex(data, name="m")
    assert list(index.rows_with({wanted})) == [(wanted, "a.md#one", "a.md", 1, ("CG501",))]
    with pytest.raises(ManifestSyntaxError, match=r'^m:4: "suppressed" must be'):
        list(index.rows_with({other}))
    with pytest.raises(ManifestSyntaxError, match=r'^m:4: "suppressed" must be'):
        list(index.chunk_rows())


@pytest.mark.parametrize("asked", [1, 63, 64, 300], ids=lambda n: f"{n}-hashes")
def test_rows_with_few_or_many_hashes(asked: int) -> None:
    # With the absent "f" * 16, 63 asked make the most that go into one regular
    # expression; from 64 on every hash is looked up.
    chunks = [
        ChunkEntry(
            f"a.md#c{n}", (n + 1, n + 1), 1, 1, f"{n % 150:016x}", None, ("CG501",) * (n % 2)
        )
        for n in range(300)
    ]
    index = ManifestIndex(render(manifest(FileEntry("a.md", BLOB, tuple(chunks)))), name="m")
    wanted = {f"{n:016x}" for n in range(0, 2 * asked, 2)} | {"not a hash", "f" * 16}
    expected = [row for row in index.chunk_rows() if row[0] in wanted]
    assert len(expected) == 2 * min(asked, 75)
    assert list(index.rows_with(wanted)) == expected


def test_rows_read_the_slow_way_are_the_same() -> None:
    plain = chunk_text("a.md", "one", HASH, ', "moved_from": "a.md#old"')
    escaped = plain.replace('"a.md#one"', '"a.md#\\u006fne"').replace("#old", "#\\u006fld")
    data = (HEAD + '{"file": "a.md", "blob": null, "chunks": 1}\n' + escaped).encode()
    index = ManifestIndex(data, name="m")
    expected = [(HASH, "a.md#one", "a.md", 1, ())]
    assert list(index.chunk_rows()) == expected
    assert list(index.rows_with({HASH})) == expected
    assert index.ids("a.md") == {"a.md#one"}


def test_a_chunk_line_of_another_file_is_not_read_as_a_row() -> None:
    data = (
        HEAD + '{"file": "a.md", "blob": null, "chunks": 1}\n' + chunk_text("b.md", "x", HASH)
    ).encode()
    index = ManifestIndex(data, name="m")
    for read in (lambda: list(index.chunk_rows()), lambda: list(index.rows_with({HASH}))):
        with pytest.raises(ManifestSyntaxError, match=r'^m:3: chunk "b.md#x" does not belong'):
            read()


# -- replace ------------------------------------------------------------------------------------


@st.composite
def replacements(draw: st.DrawFn) -> tuple[Manifest, dict[str, FileEntry | None], Header]:
    original = draw(manifests())
    changes: dict[str, FileEntry | None] = {}
    for path in original.files:
        action = draw(st.sampled_from(["keep", "keep", "replace", "remove"]))
        if action == "replace":
            changes[path] = draw(file_entries(path))
        elif action == "remove":
            changes[path] = None
    for path in draw(st.lists(names, max_size=3)):
        changes[path] = draw(st.none() | file_entries(path))
    header = draw(st.sampled_from([original.header, HEADER]))
    return original, changes, header


@settings(deadline=None, max_examples=200)
@given(replacements(), st.booleans())
def test_replace_equals_full_render(
    case: tuple[Manifest, dict[str, FileEntry | None], Header], lazy: bool
) -> None:
    original, changes, header = case
    files = dict(original.files)
    for path, new in changes.items():
        if new is None:
            files.pop(path, None)
        else:
            files[path] = new
    index = ManifestIndex(render(original), name="m", lazy=lazy)
    assert index.replace(changes, header) == render(Manifest(header, files))


def test_replace_refuses_an_entry_under_another_path() -> None:
    index = ManifestIndex(GOLDEN, name="m")
    with pytest.raises(ValueError, match="holds the entry of"):
        index.replace({"docs/a.md": entry("docs/b.md")}, HEADER)


def test_partial_update_of_a_large_manifest(tmp_path: Path) -> None:
    big = synthetic(7000, 9)
    data = render(big)
    path = tmp_path / "chunkgate.manifest.jsonl"
    path.write_bytes(data)
    target = synthetic_path(3250)
    changed = entry(target, "heading-number-0", "new-heading", blob="1" * 40)
    added = entry(target.replace(".md", "b.md"), "x")
    removed = synthetic_path(97)

    started = time.perf_counter()
    index = ManifestIndex.load(path)
    assert index is not None
    loaded = time.perf_counter()
    old = index.entry(target)
    new = index.replace({target: changed, added.path: added, removed: None}, HEADER)
    replaced = time.perf_counter()
    findings = [index.findings(p) for p in index.paths]
    found = time.perf_counter()
    rows = list(index.rows_with({HASH}))
    selected = time.perf_counter()
    print(
        f"\n7,000 files / {len(data.splitlines()):,} lines / {len(data) / 1e6:.1f} MB: "
        f"load {1000 * (loaded - started):.1f} ms, entry+replace "
        f"{1000 * (replaced - loaded):.1f} ms, every file's findings "
        f"{1000 * (found - replaced):.1f} ms, rows_with(one hash: every chunk) "
        f"{1000 * (selected - found):.1f} ms; full parse for comparison: ",
        end="",
    )
    started = time.perf_counter()
    parsed = parse(data, name="m")
    print(f"{1000 * (time.perf_counter() - started):.1f} ms")

    assert parsed == big
    assert old == big.files[target]
    assert findings == [file.findings for file in parsed.files.values()]
    assert sum(map(bool, findings)) == 637
    assert rows == rows_of(parsed)
    files = dict(big.files)
    files[target] = changed
    files[added.path] = added
    del files[removed]
    assert new == render(Manifest(HEADER, files))


# -- a lazy index: what a run on a few files reads ---------------------------------------------


def _corrupt_block(data: bytes, path: str) -> tuple[bytes, int]:
    """``data`` with the second chunk line of ``path``'s block replaced by a line of
    another kind, and that line's number."""
    lines = data.split(b"\n")
    number = lines.index(
        next(line for line in lines if line.startswith(b'{"file": "' + path.encode()))
    )
    lines[number + 2] = b'{"note": "not a chunk line"}'
    return b"\n".join(lines), number + 3


def test_a_lazy_index_reads_only_the_blocks_it_is_asked_about() -> None:
    big = synthetic(300, 3)
    broken = synthetic_path(200)
    data, line = _corrupt_block(render(big), broken)
    with pytest.raises(ManifestSyntaxError) as eager:
        ManifestIndex(data, name="m")
    assert eager.value.line == line

    index = ManifestIndex(data, name="m", lazy=True)
    asked = synthetic_path(17)
    assert index.entry(asked) == big.files[asked]
    changed = entry(asked, "new")
    added = entry("docs/zz.md", "x")
    new = index.replace({asked: changed, added.path: added}, HEADER)
    files = dict(big.files)
    files[asked] = changed
    files[added.path] = added
    expected, _ = _corrupt_block(render(manifest(*files.values())), broken)
    assert new == expected  # the corrupt block is copied as it is, for a full check to report
    with pytest.raises(ManifestSyntaxError) as lazy:
        index.entry(broken)
    assert (lazy.value.line, lazy.value.what) == (eager.value.line, eager.value.what)
    with pytest.raises(ManifestSyntaxError):
        index.paths  # noqa: B018  (asking for every file scans, and checks, all of them)


def test_a_lazy_index_names_the_line_of_a_corrupt_file_line() -> None:
    big = synthetic(50, 2)
    asked = synthetic_path(33)  # every 11th file has findings: its file line is read as JSON
    data = render(big).replace(b'"line": 12', b'"line": 0', 4)
    number = data.split(b"\n").index(
        next(line for line in data.split(b"\n") if asked.encode() in line)
    )
    index = ManifestIndex(data, name="m", lazy=True)
    with pytest.raises(ManifestSyntaxError) as lazy:
        index.findings(asked)
    with pytest.raises(ManifestSyntaxError) as eager:
        ManifestIndex(data, name="m").findings(asked)
    assert lazy.value.line == eager.value.line == number + 1


def test_a_lazy_index_still_refuses_merge_conflict_markers() -> None:
    lines = render(synthetic(20, 2)).split(b"\n")
    lines[10:10] = [b"<<<<<<< ours"]
    lines[14:14] = [b"=======", b">>>>>>> theirs"]
    with pytest.raises(ManifestSyntaxError) as found:
        ManifestIndex(b"\n".join(lines), name="m", lazy=True)
    assert found.value.line == 11
    assert "merge conflict" in str(found.value)


def test_a_lazy_index_of_a_large_manifest_seeks_without_scanning() -> None:
    """Six changes over 7,000 files, first and last included, while a block no change
    touches is corrupt: a scan would refuse the manifest, seeking never reads it."""
    big = synthetic(7000, 9)
    data = render(big)
    eager = ManifestIndex(data, name="m")
    broken = synthetic_path(5000)
    corrupt, _ = _corrupt_block(data, broken)
    started = time.perf_counter()
    lazy = ManifestIndex(corrupt, name="m", lazy=True)
    changes: dict[str, FileEntry | None] = {
        synthetic_path(0): entry(synthetic_path(0), "first"),
        synthetic_path(3250): None,
        synthetic_path(6999): entry(synthetic_path(6999), "last"),
        "docs/section-00/page-00000a.md": entry("docs/section-00/page-00000a.md", "new"),
        "zzz.md": entry("zzz.md", "end"),
        "a.md": entry("a.md", "start"),
    }
    replaced = lazy.replace(changes, HEADER)
    elapsed = time.perf_counter() - started
    print(f"\nlazy index of 7,000 files and a replace of six: {1000 * elapsed:.1f} ms")
    assert replaced == _corrupt_block(eager.replace(changes, HEADER), broken)[0]
    whole = ManifestIndex(data, name="m", lazy=True)
    assert list(whole.rows_with({HASH})) == list(eager.rows_with({HASH}))  # every chunk's
    assert sorted(lazy.listed()) == sorted(eager.paths)


def digest(number: int, chunk_number: int) -> str:
    """Shared among the even files, unique in the odd ones."""
    if number % 2:
        return f"{number:08x}{chunk_number:08x}"
    return f"{(number * chunk_number) % 11:016x}"


def test_repeated_rows_are_found_by_counting_chunk_lines() -> None:
    """Hashes repeated across files, within a file, at a block's first and last line, in
    an escaped path's block, and next to unique ones: rows_with those hashes, in order."""
    files = []
    for number in range(40):
        path = f'docs/{number:02d} "q".md' if number % 7 == 0 else synthetic_path(number)
        chunks = tuple(
            replace(chunk(path, f"c{c}", 2 * c + 1, 2 * c + 2), hash=digest(number, c))
            for c in range(number % 5)
        )
        files.append(FileEntry(path, BLOB, chunks))
    big = manifest(*files)
    index = ManifestIndex(render(big), name="m")
    rows = rows_of(parse(render(big), name="m"))
    repeated = {r[0] for r in rows if sum(x[0] == r[0] for x in rows) > 1}
    assert 0 < len(repeated) < len({r[0] for r in rows})
    assert index.repeated_rows() == [r for r in rows if r[0] in repeated]
    unique = next(r[0] for r in rows if r[0] not in repeated)
    assert index.repeated_rows({unique}) == list(index.rows_with(repeated | {unique}))
