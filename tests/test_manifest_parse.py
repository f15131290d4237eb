"""Strict reading: every line checked, errors named by their line, the index agreeing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from manifest_samples import GOLDEN, golden_manifest, manifests

from chunkgate.errors import ManifestError
from chunkgate.manifest import Manifest, ManifestIndex, ManifestSyntaxError, parse, read, render


@settings(deadline=None)
@given(manifests())
def test_render_parse_round_trip(original: Manifest) -> None:
    data = render(original)
    assert parse(data, name="m") == original
    assert render(parse(data, name="m")) == data
    for line in data.decode("utf-8").split("\n")[:-1]:  # not splitlines: U+0085, U+2028
        # Canonical JSON, with lone surrogates (undecodable path bytes) as \\udcXX escapes.
        canonical = json.dumps(json.loads(line), ensure_ascii=False)
        assert canonical.encode("utf-8", "backslashreplace").decode("utf-8") == line


@settings(deadline=None)
@given(manifests())
def test_parse_accepts_crlf_and_a_missing_final_newline(original: Manifest) -> None:
    data = render(original)
    assert parse(data.replace(b"\n", b"\r\n"), name="m") == original
    assert parse(data[:-1], name="m") == original
    assert ManifestIndex(data.replace(b"\n", b"\r\n"), name="m").data == data


# -- corruption ------------------------------------------------------------------------------

H = (
    '{"chunkgate_manifest": 1, "chunking": 3, "config": "0123456789abcdef", '
    '"rules": "fedcba9876543210"}'
)
A = '{"file": "a.md", "blob": null, "chunks": 2}'
A1 = '{"id": "a.md#one", "lines": [1, 2], "chars": 10, "tokens": 3, "hash": "0123456789abcdef"}'
A2 = (
    '{"id": "a.md#two", "lines": [3, 4], "chars": 10, "tokens": 3, "hash": "0123456789abcdef", '
    '"suppressed": ["CG201", "CG501"]}'
)
FINDING = '{"rule": "CG201", "line": 1, "chunk": "b.md#x", "message": "too big", "fix": "split"}'
B = (
    '{"file": "b.md", "blob": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "chunks": 1, '
    f'"findings": [{FINDING}]}}'
)
B1 = '{"id": "b.md#x", "lines": [1, 9], "chars": 10, "tokens": 3, "hash": "0123456789abcdef"}'
VALID = [H, A, A1, A2, B, B1]


def lines_with(changes: dict[int, str | None], *, insert: dict[int, str] | None = None) -> bytes:
    """VALID with 1-based lines replaced (None deletes) and lines inserted before others."""
    out = []
    for number, text in enumerate(VALID, start=1):
        if insert and number in insert:
            out.append(insert[number])
        replaced = changes.get(number, text)
        if replaced is not None:
            out.append(replaced)
    return ("\n".join(out) + "\n").encode()


def swap(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def finding_swap(old: str, new: str) -> bytes:
    """VALID with the finding on line 5 changed."""
    return lines_with({5: swap(B, FINDING, swap(FINDING, old, new))})


CORRUPT = [
    pytest.param(b"", "m: empty manifest (run `chunkgate update` to rebuild it)", id="empty"),
    pytest.param(
        lines_with({}, insert={3: "<<<<<<< HEAD"}),
        "m:3: merge conflict markers at line 3 (run `chunkgate update` to rebuild it, "
        "or resolve the conflict)",
        id="conflict-ours-marker",
    ),
    pytest.param(
        lines_with({5: "=======", 6: ">>>>>>> feature"}),
        "m:5: merge conflict markers at line 5",
        id="conflict-separator",
    ),
    pytest.param(
        lines_with({}, insert={2: "||||||| base"}),
        "m:2: merge conflict markers at line 2",
        id="conflict-diff3-base",
    ),
    pytest.param(
        ("<<<<<<< ours\n" + "\n".join(VALID)).encode(),
        "m:1: merge conflict markers at line 1",
        id="conflict-first-line",
    ),
    pytest.param(
        lines_with({}).replace(b"\n", b"\r\n").replace(b"\r\n" + A2.encode(), b"\r\n=======\r\n"),
        "m:4: merge conflict markers at line 4",
        id="conflict-crlf",
    ),
    pytest.param(lines_with({4: A2[:30]}), "m:4: invalid JSON: ", id="truncated-chunk"),
    pytest.param(lines_with({2: "[1, 2]"}), "m:2: expected a JSON object", id="not-an-object"),
    pytest.param(lines_with({}, insert={5: ""}), "m:5: empty line", id="empty-line"),
    pytest.param(
        lines_with({}).replace(b"a.md#one", b"a.md#\xffone"),
        "m:3: not valid UTF-8",
        id="invalid-utf8",
    ),
    pytest.param(
        lines_with({}).replace(b"too big", b"too \xff big"),
        "m:5: not valid UTF-8",
        id="invalid-utf8-in-a-finding",
    ),
    pytest.param(lines_with({1: None}), "m:1: expected the header line", id="missing-header"),
    pytest.param(
        lines_with({1: swap(H, '"chunkgate_manifest": 1', '"chunkgate_manifest": 2')}),
        "m:1: manifest format 2 is newer than this chunkgate supports (1); upgrade chunkgate",
        id="future-format",
    ),
    pytest.param(
        lines_with({1: swap(H, '"chunkgate_manifest": 1', '"chunkgate_manifest": 0')}),
        "m:1: unknown manifest format 0",
        id="format-zero",
    ),
    pytest.param(
        lines_with({1: swap(H, '"chunkgate_manifest": 1', '"chunkgate_manifest": "1"')}),
        'm:1: unknown manifest format "1"',
        id="format-string",
    ),
    pytest.param(
        lines_with({1: swap(H, '"0123456789abcdef"', '"0123456789ABCDEF"')}),
        'm:1: "config" must be 16 hex digits, got "0123456789ABCDEF"',
        id="header-config-uppercase",
    ),
    pytest.param(
        lines_with({1: swap(H, ', "rules": "fedcba9876543210"', "")}),
        'm:1: missing key "rules"',
        id="header-missing-key",
    ),
    pytest.param(
        lines_with({1: swap(H, "}", ', "when": "2024-01-01"}')}),
        'm:1: unexpected key "when"',
        id="header-timestamp",
    ),
    pytest.param(
        lines_with({1: swap(H, '"chunking": 3', '"chunking": -1')}),
        'm:1: "chunking" must be an integer ≥ 0, got -1',
        id="header-chunking-negative",
    ),
    pytest.param(
        lines_with({2: A1}),
        "m:2: chunk line where a file line is expected",
        id="chunk-line-first",
    ),
    pytest.param(
        lines_with({5: H}), "m:5: header line where a file line is expected", id="header-again"
    ),
    pytest.param(
        lines_with({2: swap(A, '"blob": null', '"blob": "abc"')}),
        'm:2: "blob" must be a git object id or null, got "abc"',
        id="blob-short",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": true')}),
        'm:2: "chunks" must be an integer ≥ 0, got true',
        id="count-bool",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": 2.0')}),
        'm:2: "chunks" must be an integer ≥ 0, got 2.0',
        id="count-float",
    ),
    pytest.param(
        lines_with({5: swap(B, f"[{FINDING}]", "[]")}),
        'm:5: "findings" must be a non-empty list, got []',
        id="findings-empty",
    ),
    pytest.param(
        lines_with({5: swap(B, f"[{FINDING}]", '"CG201"')}),
        'm:5: "findings" must be a non-empty list, got "CG201"',
        id="findings-not-a-list",
    ),
    pytest.param(
        lines_with({5: swap(B, f"[{FINDING}]", '["CG201"]')}),
        'm:5: finding 1 must be an object with the keys "rule", "line", "chunk", "message", '
        '"fix", got "CG201"',
        id="findings-bare-codes",
    ),
    pytest.param(
        finding_swap(', "fix": "split"', ""),
        "m:5: finding 1 must be an object with the keys",
        id="finding-missing-key",
    ),
    pytest.param(
        finding_swap('"rule": "CG201", "line": 1', '"line": 1, "rule": "CG201"'),
        "m:5: finding 1 must be an object with the keys",
        id="finding-keys-out-of-order",
    ),
    pytest.param(
        finding_swap('"CG201"', '"CG2O1"'),
        'm:5: finding 1: "rule" must be a rule code like "CG201", got "CG2O1"',
        id="finding-rule-not-a-code",
    ),
    pytest.param(
        finding_swap('"CG201"', '"CG\\u0662\\u0660\\u0661"'),
        'm:5: finding 1: "rule" must be a rule code like "CG201", got "CG٢٠١"',
        id="finding-rule-other-digits",
    ),
    pytest.param(
        finding_swap('"line": 1', '"line": 0'),
        'm:5: finding 1: "line" must be an integer ≥ 1, got 0',
        id="finding-line-zero",
    ),
    pytest.param(
        finding_swap('"line": 1', '"line": "1"'),
        'm:5: finding 1: "line" must be an integer ≥ 1, got "1"',
        id="finding-line-string",
    ),
    pytest.param(
        finding_swap('"b.md#x"', '"a.md#one"'),
        'm:5: finding 1: "chunk" must be null or the ID of a chunk of "b.md", got "a.md#one"',
        id="finding-on-another-files-chunk",
    ),
    pytest.param(
        finding_swap('"b.md#x"', '"b.md#"'),
        'm:5: finding 1: "chunk" must be null or the ID of a chunk of "b.md", got "b.md#"',
        id="finding-chunk-without-identity",
    ),
    pytest.param(
        finding_swap('"too big"', "null"),
        'm:5: finding 1: "message" must be a string, got null',
        id="finding-message-null",
    ),
    pytest.param(
        finding_swap('"split"', "[]"),
        'm:5: finding 1: "fix" must be a string, got []',
        id="finding-fix-list",
    ),
    pytest.param(
        lines_with({5: swap(B, FINDING, f"{FINDING}, {swap(FINDING, '1', '0')}")}),
        'm:5: finding 2: "line" must be an integer ≥ 1, got 0',
        id="second-finding-numbered",
    ),
    pytest.param(
        lines_with({5: swap(B, FINDING, f"{swap(FINDING, '1', '2')}, {FINDING}")}),
        'm:5: "findings" must be sorted by line, rule, chunk, message and fix, without repeats',
        id="findings-unsorted",
    ),
    pytest.param(
        lines_with({5: swap(B, FINDING, f"{FINDING}, {FINDING}")}),
        'm:5: "findings" must be sorted by line, rule, chunk, message and fix, without repeats',
        id="findings-repeated",
    ),
    pytest.param(
        lines_with({2: '{"file": "a.md", "chunks": 2}'}),
        'm:2: missing key "blob"',
        id="file-missing-blob",
    ),
    pytest.param(
        lines_with({2: '{"file": "a.md", "chunks": 2, "blob": null}'}),
        'm:2: keys out of order (expected "file", "blob", "chunks", "findings")',
        id="file-keys-out-of-order",
    ),
    pytest.param(
        lines_with({2: '{"file": "a.md", "blob": null, "blob": null, "chunks": 2}'}),
        "m:2: invalid JSON: duplicate key",
        id="duplicate-key",
    ),
    pytest.param(
        lines_with({2: '{"file":"a.md","blob":null,"chunks":2}'}),
        "m:2: not in canonical form (spacing differs); run `chunkgate update` to rebuild it",
        id="file-spacing",
    ),
    pytest.param(
        lines_with({3: " " + A1}),
        "m:3: not in canonical form (spacing differs)",
        id="chunk-spacing",
    ),
    pytest.param(
        lines_with({3: swap(A1, "[1, 2]", "[3, 2]")}),
        'm:3: "lines" must be [start, end] with 1 ≤ start ≤ end, got [3, 2]',
        id="lines-reversed",
    ),
    pytest.param(
        lines_with({3: swap(A1, "[1, 2]", "[0, 2]")}),
        'm:3: "lines" must be [start, end]',
        id="lines-zero",
    ),
    pytest.param(
        lines_with({3: swap(A1, "[1, 2]", "[1]")}),
        'm:3: "lines" must be [start, end]',
        id="lines-one",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"chars": 10', '"chars": -10')}),
        'm:4: "chars" must be an integer ≥ 0, got -10',
        id="chars-negative",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"tokens": 3', '"tokens": 03')}),
        "m:4: invalid JSON",
        id="tokens-leading-zero",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"0123456789abcdef"', '"0123456789abcde"')}),
        'm:4: "hash" must be 16 hex digits, got "0123456789abcde"',
        id="hash-short",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"a.md#two"', '"b.md#two"')}),
        'm:4: chunk "b.md#two" does not belong to "a.md"',
        id="chunk-of-other-file",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"a.md#two"', '"a.md#"')}),
        'm:4: chunk "a.md#" does not belong to "a.md"',
        id="chunk-without-identity",
    ),
    pytest.param(
        lines_with({4: swap(A2, ', "suppressed"', ', "moved_from": "", "suppressed"')}),
        'm:4: "moved_from" must be a non-empty string, got ""',
        id="moved-from-empty",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"CG201", "CG501"', '"CG501", "CG201"')}),
        'm:4: "suppressed" must be a non-empty sorted list of rule codes, got ["CG501", "CG201"]',
        id="suppressed-unsorted",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"CG201", "CG501"', '"CG201", "CG201"')}),
        'm:4: "suppressed" must be a non-empty sorted list of rule codes',
        id="suppressed-repeated",
    ),
    pytest.param(
        lines_with({4: swap(A2, '["CG201", "CG501"]', "[]")}),
        'm:4: "suppressed" must be a non-empty sorted list of rule codes, got []',
        id="suppressed-empty",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"CG201", "CG501"', '"ALL"')}),
        'm:4: "suppressed" must be a non-empty sorted list of rule codes, got ["ALL"]',
        id="suppressed-not-a-code",
    ),
    pytest.param(
        lines_with({4: swap(A2, '"CG201", "CG501"', "201")}),
        'm:4: "suppressed" must be a non-empty sorted list of rule codes, got [201]',
        id="suppressed-not-strings",
    ),
    pytest.param(
        lines_with({4: swap(A2, ', "suppressed"', ', "moved_from": "a.md#x", "suppressed"')}),
        None,
        id="moved-from-then-suppressed-is-valid",
    ),
    pytest.param(
        lines_with({4: swap(A2, "}", ', "moved_from": "a.md#x"}')}),
        'm:4: keys out of order (expected "id", "lines", "chars", "tokens", "hash", '
        '"moved_from", "suppressed")',
        id="suppressed-before-moved-from",
    ),
    pytest.param(
        lines_with({4: swap(A2, ', "tokens": 3', "")}),
        'm:4: missing key "tokens"',
        id="chunk-missing-key",
    ),
    pytest.param(
        lines_with({4: swap(A2, "}", ', "text": "…"}')}),
        'm:4: unexpected key "text"',
        id="chunk-unexpected-key",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": 3')}),
        'm:5: file line where a chunk line is expected ("a.md" on line 2 declares 3 chunks, '
        "found 2)",
        id="count-too-high",
    ),
    pytest.param(
        lines_with({2: swap(A, '"chunks": 2', '"chunks": 1')}),
        'm:4: chunk line where a file line is expected ("a.md" declares 1 chunks)',
        id="count-too-low",
    ),
    pytest.param(
        lines_with({5: swap(B, '"chunks": 1', '"chunks": 3')}),
        'm:5: "b.md" declares 3 chunks but the manifest ends after 1',
        id="count-past-end",
    ),
    pytest.param(
        lines_with({6: None}),
        'm:5: "b.md" declares 1 chunks but the manifest ends after 0',
        id="last-chunk-missing",
    ),
    pytest.param(
        ("\n".join([H, B, B1, A, A1, A2]) + "\n").encode(),
        'm:4: files out of order: "a.md" must come before "b.md" (line 2)',
        id="out-of-order",
    ),
    pytest.param(
        ("\n".join([H, A, A1, A2, A, A1, A2]) + "\n").encode(),
        'm:5: "a.md" is listed twice (also on line 2)',
        id="duplicate-file",
    ),
    pytest.param(lines_with({}) + b"\n", "m:7: empty line", id="blank-line-at-end"),
]


def _full_read(data: bytes) -> None:
    index = ManifestIndex(data, name="m")
    for path in index.paths:
        index.entry(path)
        index.findings(path)
        index.ids(path)
    list(index.chunk_rows())


@pytest.mark.parametrize(("data", "message"), CORRUPT)
def test_corrupt_manifest_names_the_line(data: bytes, message: str | None) -> None:
    if message is None:
        parse(data, name="m")
        return
    with pytest.raises(ManifestError) as parsed:
        parse(data, name="m")
    assert str(parsed.value).startswith(message)
    if isinstance(parsed.value, ManifestSyntaxError):
        assert str(parsed.value).startswith(f"m:{parsed.value.line}: ")


@pytest.mark.parametrize(("data", "message"), CORRUPT)
def test_index_reports_what_parse_reports(data: bytes, message: str | None) -> None:
    if message is None:
        _full_read(data)
        return
    with pytest.raises(ManifestError) as indexed:
        _full_read(data)
    assert str(indexed.value).startswith(message)


def test_valid_table_base_is_valid() -> None:
    assert list(parse(lines_with({}), name="m").files) == ["a.md", "b.md"]
    _full_read(lines_with({}))


def test_escaped_strings_are_read_the_slow_way() -> None:
    data = lines_with(
        {
            3: swap(A1, '"a.md#one"', '"a.md#\\u006fne"'),
            5: swap(B, '"too big"', '"too \\u0062ig"'),
        }
    )
    assert parse(data, name="m") == parse(lines_with({}), name="m")
    index = ManifestIndex(data, name="m")
    assert index.ids("a.md") == {"a.md#one", "a.md#two"}
    assert ("0123456789abcdef", "a.md#one") in set(index.hashes())
    assert index.findings("b.md")[0].message == "too big"


def test_read(tmp_path: Path) -> None:
    path = tmp_path / "chunkgate.manifest.jsonl"
    assert read(path) is None
    assert ManifestIndex.load(path) is None
    path.write_bytes(GOLDEN)
    assert read(path) == golden_manifest()
    path.write_bytes(GOLDEN[:-20])
    with pytest.raises(ManifestError, match=rf"^{re.escape(str(path))}:5: "):
        read(path)
