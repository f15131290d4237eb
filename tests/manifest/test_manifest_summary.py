"""The summary reader (one regular expression) agrees with the strict reader on every field
and every corrupt shard, and the fast paths take every line the writer writes plainly."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring
from unittest import mock

import pytest
from hypothesis import given
from manifest_samples import GOLDEN_SHARD, file_entries, plain_chars, summary_of

from chunkgate.manifest import (
    FileEntry,
    ManifestSyntaxError,
    parse_block,
    render_block,
    summarise,
)
from chunkgate.manifest import lines as lines_module
from chunkgate.manifest import summary as summary_module
from chunkgate.manifest.codec import to_bytes

NAME = "chunkgate.manifest/x.jsonl"


@given(file_entries())
def test_summary_equals_the_strict_readers_record(original: FileEntry) -> None:
    data = render_block(original)
    assert summarise(data, NAME) == summary_of(parse_block(data, NAME)) == summary_of(original)


plain_entries = file_entries(chars=plain_chars, with_findings=False)


@given(plain_entries)
def test_plain_shards_never_leave_the_fast_paths(original: FileEntry) -> None:
    data = render_block(original)
    strict = mock.patch.object(summary_module, "parse_block", side_effect=AssertionError)
    decode = mock.patch.object(lines_module, "json_object", side_effect=AssertionError)
    with strict, decode:
        assert summarise(data, NAME) == summary_of(original)
        assert parse_block(data, NAME) == original


@given(file_entries(chars=plain_chars, min_findings=1))
def test_recorded_findings_are_the_one_line_read_as_json(original: FileEntry) -> None:
    # By design: a file line with findings is decoded as JSON (its findings must be
    # sorted, which no pattern checks), and the summary falls back to the strict reader
    # (a whole-corpus run reads that shard anyway, to report them).
    data = render_block(original)
    with mock.patch.object(lines_module, "json_object", wraps=lines_module.json_object) as spy:
        assert summarise(data, NAME) == summary_of(original)
    assert spy.call_count == 1
    assert spy.call_args.args[2] == 1


def test_escapes_and_findings_leave_the_fast_path() -> None:
    with mock.patch.object(summary_module, "parse_block", wraps=parse_block) as spy:
        summarise(b'{"file": "a\\"b.md", "blob": null, "chunks": 0}\n', NAME)
        summarise(GOLDEN_SHARD, NAME)
    assert spy.call_count == 2


# -- corrupt variants of a valid shard ----------------------------------------------------------

NUMBER_KEYS = ("chunks", "chars", "tokens", "line")  # "line": a finding's


def json_bytes(text: str) -> bytes:
    """A string as the writer writes it."""
    return to_bytes(encode_basestring(text))


def variants(original: FileEntry) -> Iterator[tuple[str, bytes]]:
    """Every corrupt variant of the shard of ``original``: each line truncated; each number
    with a letter for a digit or 5,000 digits; keys swapped; a chunk ID of another file or
    without an identity; reversed lines; a chunk line repeated or missing; a byte that is
    not UTF-8; a hash that is not hex; suppressed codes unsorted. A key in quotes followed
    by ``": "`` is never inside a string (there a quote is escaped), so a pattern anchored
    on one finds the field itself."""
    lines = render_block(original).split(b"\n")[:-1]
    path = json_bytes(original.path)

    def join(changed: list[bytes]) -> bytes:
        return b"".join(line + b"\n" for line in changed)

    def at(i: int, line: bytes) -> bytes:
        return join([*lines[:i], line, *lines[i + 1 :]])

    def sub(i: int, old: bytes, new: bytes) -> bytes:
        assert old in lines[i]
        return at(i, lines[i].replace(old, new, 1))

    for i, line in enumerate(lines):
        where = f"line {i + 1}"
        yield f"{where} truncated to half", at(i, line[: len(line) // 2])
        yield f"{where} without its last byte", at(i, line[:-1])
        for key in NUMBER_KEYS:
            for found in re.finditer(b'"' + key.encode() + rb'": ([0-9]+)', line):
                start, end = found.span(1)
                yield f"{where} {key} x", at(i, line[: end - 1] + b"x" + line[end:])
                yield f"{where} {key} long", at(i, line[:start] + b"9" * 5000 + line[end:])
        if i == 0:
            swapped = re.sub(rb'^\{("file": .*), ("blob": (?:null|"[0-9a-f]+"))', rb"{\2, \1", line)
            yield "file and blob swapped", at(i, swapped)
            yield "path not UTF-8", sub(i, path, path[:-1] + b'\xff"')
            continue
        chunk = original.chunks[i - 1]
        prefix = b'{"id": ' + json_bytes(chunk.id)
        assert line.startswith(prefix)
        rest = line[len(prefix) :]
        other = path[:-1] + b"x#" + json_bytes(chunk.id)[len(path) :]
        yield f"{where} a chunk of another file", at(i, b'{"id": ' + other + rest)
        yield f"{where} no identity", at(i, b'{"id": ' + path[:-1] + b'#"' + rest)
        yield (
            f"{where} not UTF-8",
            at(i, b'{"id": ' + path[:-1] + b"#\xff" + prefix[len(path) + 7 :] + rest),
        )
        first, last = chunk.lines
        span = f'"lines": [{first}, {last}]'.encode()
        yield f"{where} reversed", sub(i, span, f'"lines": [{last + 1}, {first}]'.encode())
        yield f"{where} first line 0", sub(i, span, b'"lines": [0, 1]')
        swapped = re.sub(rb'("chars": [0-9]+), ("tokens": [0-9]+)', rb"\2, \1", line, count=1)
        yield f"{where} keys swapped", at(i, swapped)
        digest = f'"hash": "{chunk.hash}"'.encode()
        yield f"{where} hash not hex", sub(i, digest, digest[:-2] + b'g"')
        yield f"{where} repeated", join([*lines[: i + 1], line, *lines[i + 1 :]])
        yield f"{where} missing", join([*lines[:i], *lines[i + 1 :]])
        if len(chunk.suppressed) > 1:
            listed = ", ".join(f'"{code}"' for code in chunk.suppressed).encode()
            unsorted = ", ".join(f'"{code}"' for code in reversed(chunk.suppressed)).encode()
            yield f"{where} codes unsorted", sub(i, listed, unsorted)


def refusal(data: bytes, read: Callable[[bytes, str], object]) -> str:
    with pytest.raises(ManifestSyntaxError) as caught:
        read(data, NAME)
    return str(caught.value)


@given(file_entries())
def test_every_corrupt_variant_is_refused_by_both_readers_alike(original: FileEntry) -> None:
    for label, variant in variants(original):
        strict = refusal(variant, parse_block)
        assert refusal(variant, summarise) == strict, label
        assert strict.startswith(f"{NAME}:"), label


@given(plain_entries)
def test_every_corrupt_variant_of_a_plain_shard_is_refused_alike(original: FileEntry) -> None:
    # The shards the fast pattern would otherwise take: its checks are the ones tested.
    for label, variant in variants(original):
        assert refusal(variant, summarise) == refusal(variant, parse_block), label
