"""Strict reading of a shard and of the header: every line checked, errors named by the
shard and the line, the summary reader agreeing with the strict one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from manifest_samples import GOLDEN_HEADER, HEADER, file_entries, headers

from chunkgate.core.errors import ManifestError
from chunkgate.manifest import (
    FileEntry,
    Header,
    ManifestSyntaxError,
    parse_block,
    parse_header,
    render_block,
    render_header,
    summarise,
)
from chunkgate.manifest.legacy import read_legacy


@given(file_entries())
def test_render_parse_round_trip(original: FileEntry) -> None:
    data = render_block(original)
    assert parse_block(data, "s") == original
    assert render_block(parse_block(data, "s")) == data
    lines = data.decode("utf-8").split("\n")  # not splitlines: U+0085, U+2028
    assert lines[-1] == ""
    assert len(lines) == 2 + len(original.chunks)
    for line in lines[:-1]:
        # Canonical JSON, with lone surrogates (undecodable path bytes) as \\udcXX escapes.
        canonical = json.dumps(json.loads(line), ensure_ascii=False)
        assert canonical.encode("utf-8", "backslashreplace").decode("utf-8") == line


@given(file_entries())
def test_parse_accepts_crlf_and_a_missing_final_newline(original: FileEntry) -> None:
    data = render_block(original)
    for mended in (data.replace(b"\n", b"\r\n"), data[:-1], data.replace(b"\n", b"\r\n")[:-2]):
        assert parse_block(mended, "s") == original
        assert summarise(mended, "s") == summarise(data, "s")


@given(headers)
def test_header_round_trip(original: Header) -> None:
    data = render_header(original)
    assert parse_header(data, "h") == original
    assert parse_header(data.replace(b"\n", b"\r\n"), "h") == original
    assert parse_header(data[:-1], "h") == original
    assert data.count(b"\n") == 7  # one key a line, so a settings change diffs as its line


# -- a corrupt shard ---------------------------------------------------------------------------

SA, SB = "chunkgate.manifest/a.md.jsonl", "chunkgate.manifest/b.md.jsonl"
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
VALID = {SA: [A, A1, A2], SB: [B, B1]}
LONG = "9" * 5000


def shard(
    name: str, changes: dict[int, str | None] | None = None, insert: dict[int, str] | None = None
) -> tuple[bytes, str]:
    """The valid shard ``name`` with 1-based lines replaced (None deletes) and lines
    inserted before others."""
    out = []
    for number, text in enumerate(VALID[name], start=1):
        if insert and number in insert:
            out.append(insert[number])
        replaced = (changes or {}).get(number, text)
        if replaced is not None:
            out.append(replaced)
    return ("\n".join(out) + "\n").encode(), name


def swap(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def finding_swap(old: str, new: str) -> tuple[bytes, str]:
    """Shard b with its finding changed."""
    return shard(SB, {1: swap(B, FINDING, swap(FINDING, old, new))})


def replaced(case: tuple[bytes, str], old: bytes, new: bytes) -> tuple[bytes, str]:
    data, name = case
    assert old in data
    return data.replace(old, new), name


ONE_LINE_HEADER = (
    '{"chunkgate_manifest": 3, "chunking": 3, "config": "x", "anchors": "", "rules": "y"}'
)
REBUILD = "run `chunkgate update` to rebuild it"

CORRUPT = [
    pytest.param(b"", SA, f"{SA}:1: empty file ({REBUILD})", id="empty"),
    pytest.param(
        *shard(SA, insert={2: "<<<<<<< HEAD"}),
        f"{SA}:2: merge conflict markers at line 2 ({REBUILD}, or resolve the conflict)",
        id="conflict-ours-marker",
    ),
    pytest.param(
        *shard(SB, {1: "=======", 2: ">>>>>>> feature"}),
        f"{SB}:1: merge conflict markers at line 1",
        id="conflict-separator",
    ),
    pytest.param(
        *shard(SA, insert={2: "||||||| base"}),
        f"{SA}:2: merge conflict markers at line 2",
        id="conflict-diff3-base",
    ),
    pytest.param(
        ("<<<<<<< ours\n" + "\n".join(VALID[SA])).encode(),
        SA,
        f"{SA}:1: merge conflict markers at line 1",
        id="conflict-first-line",
    ),
    pytest.param(
        shard(SA)[0].replace(b"\n", b"\r\n").replace(b"\r\n" + A2.encode(), b"\r\n======="),
        SA,
        f"{SA}:3: merge conflict markers at line 3",
        id="conflict-crlf",
    ),
    pytest.param(*shard(SA, {3: A2[:30]}), f"{SA}:3: invalid JSON: ", id="truncated-chunk"),
    pytest.param(*shard(SA, {1: A[:-1]}), f"{SA}:1: invalid JSON: ", id="truncated-file-line"),
    pytest.param(*shard(SA, {1: "[1, 2]"}), f"{SA}:1: expected a JSON object", id="not-an-object"),
    pytest.param(*shard(SA, insert={3: ""}), f"{SA}:3: empty line", id="empty-line"),
    pytest.param(
        *replaced(shard(SA), b"a.md#one", b"a.md#\xffone"),
        f"{SA}:2: not valid UTF-8",
        id="invalid-utf8",
    ),
    pytest.param(
        *replaced(shard(SA), b"a.md", b"a\xff.md"),
        f"{SA}:1: not valid UTF-8",
        id="invalid-utf8-in-the-path",
    ),
    pytest.param(
        *replaced(shard(SB), b"too big", b"too \xff big"),
        f"{SB}:1: not valid UTF-8",
        id="invalid-utf8-in-a-finding",
    ),
    pytest.param(
        *shard(SA, {1: A1}), f"{SA}:1: chunk line where a file line is expected", id="chunk-first"
    ),
    pytest.param(
        *shard(SB, {1: ONE_LINE_HEADER}),
        f"{SB}:1: header line where a file line is expected",
        id="header-in-a-shard",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"a.md"', '"a\\ud800.md"')}),
        f'{SA}:1: path "a\ud800.md" holds a lone surrogate',
        id="path-lone-high-surrogate",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"blob": null', '"blob": "abc"')}),
        f'{SA}:1: "blob" must be a git object id or null, got "abc"',
        id="blob-short",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"blob": null', '"blob": "' + "A" * 40 + '"')}),
        f'{SA}:1: "blob" must be a git object id or null',
        id="blob-uppercase",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"chunks": 2', '"chunks": true')}),
        f'{SA}:1: "chunks" must be an integer ≥ 0, got true',
        id="count-bool",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"chunks": 2', '"chunks": 2.0')}),
        f'{SA}:1: "chunks" must be an integer ≥ 0, got 2.0',
        id="count-float",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"chunks": 2', '"chunks": 2x')}),
        f"{SA}:1: invalid JSON",
        id="count-digit-and-letter",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"chunks": 2', f'"chunks": {LONG}')}),
        f"{SA}:1: invalid JSON: a number of 5,000 digits",
        id="count-5000-digits",
    ),
    pytest.param(
        *shard(SB, {1: swap(B, f"[{FINDING}]", "[]")}),
        f'{SB}:1: "findings" must be a non-empty list, got []',
        id="findings-empty",
    ),
    pytest.param(
        *shard(SB, {1: swap(B, f"[{FINDING}]", '"CG201"')}),
        f'{SB}:1: "findings" must be a non-empty list, got "CG201"',
        id="findings-not-a-list",
    ),
    pytest.param(
        *shard(SB, {1: swap(B, f"[{FINDING}]", '["CG201"]')}),
        f'{SB}:1: finding 1 must be an object with the keys "rule", "line", "chunk", "message", '
        '"fix", got "CG201"',
        id="findings-bare-codes",
    ),
    pytest.param(
        *finding_swap(', "fix": "split"', ""),
        f"{SB}:1: finding 1 must be an object with the keys",
        id="finding-missing-key",
    ),
    pytest.param(
        *finding_swap('"rule": "CG201", "line": 1', '"line": 1, "rule": "CG201"'),
        f"{SB}:1: finding 1 must be an object with the keys",
        id="finding-keys-out-of-order",
    ),
    pytest.param(
        *finding_swap('"CG201"', '"CG2O1"'),
        f'{SB}:1: finding 1: "rule" must be a rule code like "CG201", got "CG2O1"',
        id="finding-rule-not-a-code",
    ),
    pytest.param(
        *finding_swap('"CG201"', '"CG\\u0662\\u0660\\u0661"'),
        f'{SB}:1: finding 1: "rule" must be a rule code like "CG201", got "CG٢٠١"',
        id="finding-rule-other-digits",
    ),
    pytest.param(
        *finding_swap('"line": 1', '"line": 0'),
        f'{SB}:1: finding 1: "line" must be an integer ≥ 1, got 0',
        id="finding-line-zero",
    ),
    pytest.param(
        *finding_swap('"line": 1', '"line": "1"'),
        f'{SB}:1: finding 1: "line" must be an integer ≥ 1, got "1"',
        id="finding-line-string",
    ),
    pytest.param(
        *finding_swap('"line": 1', f'"line": {LONG}'),
        f"{SB}:1: invalid JSON: a number of 5,000 digits",
        id="finding-line-5000-digits",
    ),
    pytest.param(
        *finding_swap('"b.md#x"', '"a.md#one"'),
        f'{SB}:1: finding 1: "chunk" must be null or the ID of a chunk of "b.md", got "a.md#one"',
        id="finding-on-another-files-chunk",
    ),
    pytest.param(
        *finding_swap('"b.md#x"', '"b.md#"'),
        f'{SB}:1: finding 1: "chunk" must be null or the ID of a chunk of "b.md", got "b.md#"',
        id="finding-chunk-without-identity",
    ),
    pytest.param(
        *finding_swap('"too big"', "null"),
        f'{SB}:1: finding 1: "message" must be a string, got null',
        id="finding-message-null",
    ),
    pytest.param(
        *finding_swap('"split"', "[]"),
        f'{SB}:1: finding 1: "fix" must be a string, got []',
        id="finding-fix-list",
    ),
    pytest.param(
        *shard(SB, {1: swap(B, FINDING, f"{FINDING}, {swap(FINDING, '1', '0')}")}),
        f'{SB}:1: finding 2: "line" must be an integer ≥ 1, got 0',
        id="second-finding-numbered",
    ),
    pytest.param(
        *shard(SB, {1: swap(B, FINDING, f"{swap(FINDING, '1', '2')}, {FINDING}")}),
        f'{SB}:1: "findings" must be sorted by line, rule, chunk, message and fix',
        id="findings-unsorted",
    ),
    pytest.param(
        *shard(SA, {1: '{"file": "a.md", "chunks": 2}'}),
        f'{SA}:1: missing key "blob"',
        id="file-missing-blob",
    ),
    pytest.param(
        *shard(SA, {1: '{"file": "a.md", "chunks": 2, "blob": null}'}),
        f'{SA}:1: keys out of order (expected "file", "blob", "chunks", "settings", "findings")',
        id="file-keys-out-of-order",
    ),
    pytest.param(
        *shard(SA, {1: '{"file": "a.md", "blob": null, "chunks": 2, "settings": "abc"}'}),
        f'{SA}:1: "settings" must be 16 hex digits, got "abc"',
        id="settings-not-a-digest",
    ),
    pytest.param(
        *shard(SA, {1: '{"file": "a.md", "blob": null, "chunks": 2, "settings": null}'}),
        f'{SA}:1: "settings" must be 16 hex digits, got null',
        id="settings-null",
    ),
    pytest.param(
        *shard(
            SA,
            {
                1: '{"file": "a.md", "blob": null, "chunks": 2, "findings": [], '
                '"settings": "0123456789abcdef"}'
            },
        ),
        f'{SA}:1: keys out of order (expected "file", "blob", "chunks", "settings", "findings")',
        id="settings-after-findings",
    ),
    pytest.param(
        *shard(SA, {1: '{"file": "a.md", "blob": null, "blob": null, "chunks": 2}'}),
        f"{SA}:1: invalid JSON: duplicate key",
        id="duplicate-key",
    ),
    pytest.param(
        *shard(SA, {1: '{"file":"a.md","blob":null,"chunks":2}'}),
        f"{SA}:1: not in canonical form (spacing differs); {REBUILD}",
        id="file-spacing",
    ),
    pytest.param(
        *shard(SA, {2: " " + A1}), f"{SA}:2: not in canonical form (spacing differs)", id="indent"
    ),
    pytest.param(
        *shard(SA, {2: swap(A1, "[1, 2]", "[3, 2]")}),
        f'{SA}:2: "lines" must be [start, end] with 1 ≤ start ≤ end, got [3, 2]',
        id="lines-reversed",
    ),
    pytest.param(
        *shard(SA, {2: swap(A1, "[1, 2]", "[0, 2]")}),
        f'{SA}:2: "lines" must be [start, end]',
        id="lines-zero",
    ),
    pytest.param(
        *shard(SA, {2: swap(A1, "[1, 2]", "[1]")}),
        f'{SA}:2: "lines" must be [start, end]',
        id="lines-one",
    ),
    pytest.param(
        *shard(SA, {2: swap(A1, "[1, 2]", f"[1, {LONG}]")}),
        f"{SA}:2: invalid JSON: a number of 5,000 digits",
        id="lines-5000-digits",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"chars": 10', '"chars": -10')}),
        f'{SA}:3: "chars" must be an integer ≥ 0, got -10',
        id="chars-negative",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"chars": 10', f'"chars": {LONG}')}),
        f"{SA}:3: invalid JSON: a number of 5,000 digits",
        id="chars-5000-digits",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"chars": 10', '"chars": 1O')}),
        f"{SA}:3: invalid JSON",
        id="chars-letter-for-a-digit",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"tokens": 3', '"tokens": 03')}),
        f"{SA}:3: invalid JSON",
        id="tokens-leading-zero",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"0123456789abcdef"', '"0123456789abcde"')}),
        f'{SA}:3: "hash" must be 16 hex digits, got "0123456789abcde"',
        id="hash-short",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"0123456789abcdef"', '"0123456789abcdeg"')}),
        f'{SA}:3: "hash" must be 16 hex digits, got "0123456789abcdeg"',
        id="hash-not-hex",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"a.md#two"', '"b.md#two"')}),
        f'{SA}:3: chunk "b.md#two" does not belong to "a.md"',
        id="chunk-of-other-file",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"a.md#two"', '"a.mdx#two"')}),
        f'{SA}:3: chunk "a.mdx#two" does not belong to "a.md"',
        id="chunk-of-a-file-with-a-longer-name",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"a.md#two"', '"a.md#"')}),
        f'{SA}:3: chunk "a.md#" does not belong to "a.md"',
        id="chunk-without-identity",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, ', "suppressed"', ', "moved_from": "", "suppressed"')}),
        f'{SA}:3: "moved_from" must be a non-empty string, got ""',
        id="moved-from-empty",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"CG201", "CG501"', '"CG501", "CG201"')}),
        f'{SA}:3: "suppressed" must be a non-empty sorted list of rule codes, '
        'got ["CG501", "CG201"]',
        id="suppressed-unsorted",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"CG201", "CG501"', '"CG201", "CG201"')}),
        f'{SA}:3: "suppressed" must be a non-empty sorted list of rule codes',
        id="suppressed-repeated",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '["CG201", "CG501"]', "[]")}),
        f'{SA}:3: "suppressed" must be a non-empty sorted list of rule codes, got []',
        id="suppressed-empty",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"CG201", "CG501"', '"ALL"')}),
        f'{SA}:3: "suppressed" must be a non-empty sorted list of rule codes, got ["ALL"]',
        id="suppressed-not-a-code",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"CG201", "CG501"', "201")}),
        f'{SA}:3: "suppressed" must be a non-empty sorted list of rule codes, got [201]',
        id="suppressed-not-strings",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, ', "suppressed"', ', "moved_from": "a.md#x", "suppressed"')}),
        None,
        id="moved-from-then-suppressed-is-valid",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, "}", ', "moved_from": "a.md#x"}')}),
        f'{SA}:3: keys out of order (expected "id", "lines", "chars", "tokens", "hash", '
        '"moved_from", "suppressed", "merged")',
        id="suppressed-before-moved-from",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, '"chars": 10, "tokens": 3', '"tokens": 3, "chars": 10')}),
        f"{SA}:3: keys out of order",
        id="chunk-keys-swapped",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, ', "tokens": 3', "")}),
        f'{SA}:3: missing key "tokens"',
        id="chunk-missing-key",
    ),
    pytest.param(
        *shard(SA, {3: swap(A2, "}", ', "text": "…"}')}),
        f'{SA}:3: unexpected key "text"',
        id="chunk-unexpected-key",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"chunks": 2', '"chunks": 3')}),
        f'{SA}:1: "a.md" declares 3 chunks but the file ends after 2',
        id="count-too-high",
    ),
    pytest.param(
        ("\n".join([swap(A, '"chunks": 2', '"chunks": 3'), A1, A2, A]) + "\n").encode(),
        SA,
        f'{SA}:4: file line where a chunk line is expected ("a.md" on line 1 declares 3 chunks, '
        "found 2)",
        id="count-too-high-then-a-file-line",
    ),
    pytest.param(
        *shard(SA, {1: swap(A, '"chunks": 2', '"chunks": 1')}),
        f'{SA}:3: a line after the 1 chunk lines "a.md" declares',
        id="count-too-low",
    ),
    pytest.param(
        *shard(SB, {1: swap(B, '"chunks": 1', '"chunks": 3')}),
        f'{SB}:1: "b.md" declares 3 chunks but the file ends after 1',
        id="count-past-end",
    ),
    pytest.param(
        *shard(SB, {2: None}),
        f'{SB}:1: "b.md" declares 1 chunks but the file ends after 0',
        id="last-chunk-missing",
    ),
    pytest.param(
        *shard(SA, insert={3: A1}),
        f'{SA}:4: a line after the 2 chunk lines "a.md" declares',
        id="extra-chunk-line",
    ),
    pytest.param(
        ("\n".join([A, A1, A2, A, A1, A2]) + "\n").encode(),
        SA,
        f'{SA}:4: a line after the 2 chunk lines "a.md" declares',
        id="two-blocks-in-one-shard",
    ),
    pytest.param(
        shard(SA)[0] + b"\n",
        SA,
        f'{SA}:4: a line after the 2 chunk lines "a.md" declares',
        id="blank-line-at-end",
    ),
]


@pytest.mark.parametrize(("data", "name", "message"), CORRUPT)
def test_corrupt_shard_names_the_shard_and_the_line(
    data: bytes, name: str, message: str | None
) -> None:
    if message is None:
        parse_block(data, name)
        return
    with pytest.raises(ManifestSyntaxError) as parsed:
        parse_block(data, name)
    assert str(parsed.value).startswith(message)
    assert str(parsed.value).startswith(f"{name}:{parsed.value.line}: ")
    assert "\n" not in str(parsed.value)


@pytest.mark.parametrize(("data", "name", "message"), CORRUPT)
def test_summarise_refuses_what_parse_refuses(data: bytes, name: str, message: str | None) -> None:
    if message is None:
        assert summarise(data, name).chunks == 2
        return
    with pytest.raises(ManifestSyntaxError) as parsed:
        parse_block(data, name)
    with pytest.raises(ManifestSyntaxError) as summarised:
        summarise(data, name)
    assert str(summarised.value) == str(parsed.value)


def test_valid_table_base_is_valid() -> None:
    assert parse_block(*shard(SA)).path == "a.md"
    assert parse_block(*shard(SB)).findings[0].rule == "CG201"
    hashes = ("0123456789abcdef",) * 2
    assert summarise(*shard(SA)) == ("a.md", None, 2, False, hashes, 2, False, None)
    assert summarise(*shard(SB)).findings


def test_escaped_strings_are_read_the_slow_way() -> None:
    data, name = shard(
        SA, {1: swap(A, '"a.md"', '"\\u0061.md"'), 2: swap(A1, '"a.md#one"', '"a.md#\\u006fne"')}
    )
    assert parse_block(data, name) == parse_block(*shard(SA))
    assert summarise(data, name) == summarise(*shard(SA))
    data, name = shard(SB, {1: swap(B, '"too big"', '"too \\u0062ig"')})
    assert parse_block(data, name).findings[0].message == "too big"


# -- the header --------------------------------------------------------------------------------

HEADER_NAME = "chunkgate.manifest/manifest.json"


def header_with(old: bytes, new: bytes) -> bytes:
    assert old in GOLDEN_HEADER
    return GOLDEN_HEADER.replace(old, new)


CORRUPT_HEADERS = [
    pytest.param(b"", f"{HEADER_NAME}:1: empty file ({REBUILD})", id="empty"),
    pytest.param(
        header_with(b'  "chunking": 3,\n', b'<<<<<<< HEAD\n  "chunking": 3,\n=======\n'),
        f"{HEADER_NAME}:3: merge conflict markers at line 3",
        id="conflict-markers",
    ),
    pytest.param(
        header_with(b'"chunkgate_manifest": 3', b'"chunkgate_manifest": 4'),
        f"{HEADER_NAME}:2: manifest format 4 is newer than this chunkgate supports (3); "
        "upgrade chunkgate",
        id="future-format",
    ),
    pytest.param(
        header_with(b'"chunkgate_manifest": 3', b'"chunkgate_manifest": 1'),
        f"{HEADER_NAME}:2: unknown manifest format 1; {REBUILD}",
        id="format-one",
    ),
    pytest.param(
        header_with(b'"chunkgate_manifest": 3', b'"chunkgate_manifest": "3"'),
        f'{HEADER_NAME}:2: expected {{"chunkgate_manifest": …}}',
        id="format-string",
    ),
    pytest.param(b"[2]\n", f"{HEADER_NAME}:1: expected a JSON object", id="not-an-object"),
    pytest.param(
        header_with(b'"chunking": 3,', b'"chunking": 3'),
        f"{HEADER_NAME}:4: invalid JSON: Expecting ',' delimiter (column 3)",
        id="missing-comma",
    ),
    pytest.param(
        header_with(b'"chunking": 3', b'"chunking": -1'),
        f'{HEADER_NAME}:3: "chunking" must be an integer ≥ 0, got -1',
        id="chunking-negative",
    ),
    pytest.param(
        header_with(b'"chunking": 3', f'"chunking": {LONG}'.encode()),
        # The decoder does not say where a value it refused was: the header's first line.
        f"{HEADER_NAME}:1: invalid JSON: a number of 5,000 digits",
        id="chunking-5000-digits",
    ),
    pytest.param(
        header_with(b'"config": "size', b'"config": 7, "x": "size'),
        f'{HEADER_NAME}:1: unexpected key "x"',
        id="unexpected-key",
    ),
    pytest.param(
        header_with(b'  "anchors": "github",\n', b""),
        f'{HEADER_NAME}:1: missing key "anchors"',
        id="missing-key",
    ),
    pytest.param(
        header_with(b'"anchors": "github"', b'"anchors": null'),
        f'{HEADER_NAME}:5: "anchors" must be a string, got null',
        id="anchors-null",
    ),
    pytest.param(
        header_with(b'"rules": "rules=', b'"rules": "", "x": "'),
        f'{HEADER_NAME}:1: unexpected key "x"',
        id="rules-then-another-key",
    ),
    pytest.param(
        header_with(b'"rules": "rules=CG201.1,CG302.1;max_file_bytes=1000000"', b'"rules": ""'),
        f'{HEADER_NAME}:6: "rules" must be a non-empty string, got ""',
        id="rules-empty",
    ),
    pytest.param(
        header_with(b"}\n", b', "when": "2024-01-01"}\n'),
        f'{HEADER_NAME}:1: unexpected key "when"',
        id="timestamp",
    ),
]


@pytest.mark.parametrize(("data", "message"), CORRUPT_HEADERS)
def test_corrupt_header_names_the_line(data: bytes, message: str) -> None:
    with pytest.raises(ManifestSyntaxError) as parsed:
        parse_header(data, HEADER_NAME)
    assert str(parsed.value).startswith(message)
    assert "\n" not in str(parsed.value)


def test_header_written_on_one_line_is_read() -> None:
    # Someone's editor or tool reflowed it: still the same header (update rewrites it).
    flat = json.dumps(json.loads(GOLDEN_HEADER)).encode()
    assert parse_header(flat, HEADER_NAME) == HEADER


# -- format 1, read to migrate -----------------------------------------------------------------

LEGACY = (
    '{"chunkgate_manifest": 1, "chunking": 3, "config": "0123456789abcdef", '
    '"rules": "fedcba9876543210"}\n'
    f"{A}\n{A1}\n{A2}\n{B}\n{B1}\n"
).encode()


def test_read_legacy(tmp_path: Path) -> None:
    path = tmp_path / "chunkgate.manifest.jsonl"
    path.write_bytes(LEGACY.replace(b"\n", b"\r\n")[:-2])
    assert read_legacy(path) == {
        "a.md": parse_block(*shard(SA)),
        "b.md": parse_block(*shard(SB)),
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(GOLDEN_HEADER, "chunkgate.manifest.jsonl:1: invalid JSON", id="format-2"),
        pytest.param(
            LEGACY.replace(b'"chunkgate_manifest": 1', b'"chunkgate_manifest": 2'),
            "chunkgate.manifest.jsonl:1: not a format-1 chunkgate manifest",
            id="other-version",
        ),
        pytest.param(
            LEGACY.replace(b'"chunks": 2', b'"chunks": 3'),
            "chunkgate.manifest.jsonl:5: file line where a chunk line is expected",
            id="a-block-counted-wrong",
        ),
        pytest.param(
            LEGACY + b"=======\n", "chunkgate.manifest.jsonl:7: merge conflict markers", id="merge"
        ),
    ],
)
def test_read_legacy_refuses_what_is_not_format_1(
    tmp_path: Path, data: bytes, message: str
) -> None:
    path = tmp_path / "chunkgate.manifest.jsonl"
    path.write_bytes(data)
    with pytest.raises(ManifestError) as caught:
        read_legacy(path)
    assert str(caught.value).startswith(message)
