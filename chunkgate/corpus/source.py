"""Bytes to text: binary detection, BOMs, PEP 263 cookies and line endings."""

from __future__ import annotations

import codecs
import io
import tokenize

from chunkgate.core.errors import UnreadableError

# git's own heuristic: a NUL byte in the first 8000 bytes means binary.
_BINARY_SNIFF = 8000
# The first line of a Git LFS pointer file (the Git LFS spec): the content is elsewhere.
LFS_POINTER = b"version https://git-lfs.github.com/spec/v1\n"


def decode(data: bytes, path: str, *, python: bool = False) -> str:
    """Decode a file's bytes into text with ``\\n`` line endings.

    Raises UnreadableError naming the file when it is binary or not valid in
    its encoding (UTF-8, or the PEP 263 coding cookie of a Python file).
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _decode_as(data, path, "utf-16")
    elif data.find(b"\x00", 0, _BINARY_SNIFF) >= 0:
        raise UnreadableError(path, "binary file (contains NUL bytes)")
    elif data.startswith(LFS_POINTER):
        raise UnreadableError(path, "a Git LFS pointer, not the file's content")
    elif python:
        text = _decode_as(data, path, _python_encoding(data, path))
    else:
        text = _decode_as(data, path, "utf-8-sig")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _python_encoding(data: bytes, path: str) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise UnreadableError(path, f"bad coding cookie: {exc}") from None
    # detect_encoding reports "utf-8-sig" when there is a BOM; either way the
    # BOM must not reach the text.
    return "utf-8-sig" if encoding in ("utf-8", "utf-8-sig") else encoding


def _decode_as(data: bytes, path: str, encoding: str) -> str:
    if encoding == "utf-8-sig":
        # Without the BOM, an error's offset is one the user's editor shows.
        encoding = "utf-8"
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        name = "UTF-8" if encoding.startswith("utf-8") else encoding
        raise UnreadableError(
            path, f"not valid {name}: byte 0x{bad} at line {line}, column {column}"
        ) from None
    except LookupError:
        raise UnreadableError(path, f"unknown encoding {encoding!r}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text
