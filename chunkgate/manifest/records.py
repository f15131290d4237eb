"""The manifest's records: what one header, file line and chunk line hold.

Each record refuses, with a ``ValueError``, what could not be written and
read back: ``render`` of valid records always parses to equal records.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from chunkgate.core.model import Chunk
from chunkgate.core.regex import lazy
from chunkgate.corpus.paths import problem

# 3: each shard records the settings it was made under; 2: one shard file per corpus file
# (read as is: its shards were made under its header); 1: one manifest file.
FORMAT_VERSION = 3
READABLE_FORMATS = (2, 3)

HEX16 = lazy(r"[0-9a-f]{16}")
# [0-9], not \d: \d also matches other scripts' digits.
RULE_CODE = lazy(r"CG[0-9]{3}")


def path_key(path: str) -> bytes:
    """Sort key of manifest paths: their bytes, as git orders them."""
    return path.encode("utf-8", "surrogateescape")


def belongs(chunk_id: str, path: str) -> bool:
    """``chunk_id`` is ``path#identity`` with a non-empty identity."""
    return len(chunk_id) > len(path) + 1 and chunk_id.startswith(path + "#")


@dataclass(frozen=True, slots=True)
class Header:
    """What the manifest's entries were made with: the format, chunkgate's chunking
    version, the settings that change chunks (``ChunkOptions.fingerprint()``), the
    heading anchors in words, and what changes the file-level rules' findings
    (``Config.findings_fingerprint()``). Kept readable, so that a change can be named."""

    format: int
    chunking: int
    config: str
    rules: str
    anchors: str = ""
    # The site-generator configs the last whole-corpus run listed (``chunkgate.sites.detect``),
    # for runs on named files, which read these instead of listing the work tree; None
    # when not recorded (outside git, or by an older chunkgate). ``untracked_configs``:
    # those among them that are not tracked regular files.
    site_configs: tuple[str, ...] | None = None
    untracked_configs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.site_configs is None:
            if self.untracked_configs:
                raise ValueError("Header.untracked_configs without site_configs")
            return
        for field_ in (self.site_configs, self.untracked_configs):
            if list(field_) != sorted(set(field_), key=path_key):
                raise ValueError(f"Header's site configs must be sorted and unique: {field_!r}")
            for path in field_:
                if not isinstance(path, str) or problem(path) is not None:
                    raise ValueError(f"Header's site config is not a corpus path: {path!r}")
        if not set(self.untracked_configs) <= set(self.site_configs):
            raise ValueError("Header.untracked_configs must be among site_configs")

    def with_sites(self, listed: tuple[str, ...], tracked: tuple[str, ...]) -> Header:
        """This header recording ``listed`` generator configs, ``tracked`` of them tracked."""
        keep = set(tracked)
        return dataclasses.replace(
            self,
            site_configs=tuple(sorted(set(listed), key=path_key)),
            untracked_configs=tuple(sorted(set(listed) - keep, key=path_key)),
        )

    def tracked_configs(self) -> tuple[str, ...] | None:
        if self.site_configs is None:
            return None
        untracked = set(self.untracked_configs)
        return tuple(path for path in self.site_configs if path not in untracked)

    def same_chunking(self, other: Header) -> bool:
        """Entries made under one are valid under the other: the same chunks and IDs
        (formats 2 and 3 hold the same entries; 3 adds each shard's ``settings``)."""
        formats = self.format == other.format or {self.format, other.format} <= set(
            READABLE_FORMATS
        )
        return formats and (self.chunking, self.config) == (other.chunking, other.config)

    def digest(self) -> str:
        """What a shard records as the settings it was made under: 16 hex digits of the
        SHA-256 of the chunking version, the chunking settings and the rule settings."""
        made = f"{self.chunking}\n{self.config}\n{self.rules}"
        return hashlib.sha256(made.encode("utf-8", "surrogateescape")).hexdigest()[:16]

    def changes(self, now: Header) -> list[str]:
        """What differs in ``now``, in words: ``size.max 2000 → 3000``."""
        if self.chunking != now.chunking:
            return [f"chunkgate's chunking version {self.chunking} → {now.chunking}"]
        before, after = _settings(self.config), _settings(now.config)
        changed = []
        for key in dict.fromkeys([*before, *after]):
            if before.get(key) == after.get(key):
                continue
            if key == "anchors":
                changed.append(f"heading anchors {self.anchors or '?'} → {now.anchors or '?'}")
            else:
                changed.append(f"{key} {before.get(key, '-')} → {after.get(key, '-')}")
        return changed


def _settings(text: str) -> dict[str, str]:
    pairs = (item.partition("=") for item in text.split(";") if item)
    return {key: value for key, _, value in pairs}


@dataclass(frozen=True, slots=True)
class StoredFinding:
    """A file-level rule's finding as the manifest records it (severity comes from the
    config when it is reported). ``chunk_id`` is None for a finding on the whole file."""

    rule: str
    line: int
    chunk_id: str | None
    message: str
    fix: str

    def __post_init__(self) -> None:
        if not isinstance(self.rule, str) or not RULE_CODE.fullmatch(self.rule):
            raise ValueError(f"StoredFinding.rule must be a rule code like CG201: {self.rule!r}")
        if type(self.line) is not int or self.line < 1:
            raise ValueError(f"StoredFinding.line must be an integer ≥ 1: {self.line!r}")
        if not isinstance(self.message, str) or not isinstance(self.fix, str):
            raise ValueError("StoredFinding.message and .fix must be strings")

    def sort_key(self) -> tuple[int, str, str, str, str]:
        """The manifest's order of one file's findings."""
        return self.line, self.rule, self.chunk_id or "", self.message, self.fix


@dataclass(frozen=True, slots=True)
class ChunkEntry:
    """One chunk line. ``suppressed`` is kept sorted and unique whatever order it is
    given in: the rule codes an inline ``chunkgate: disable=`` turns off for it.
    ``merged``: the IDs of the sections under ``size.min`` the chunk took in
    (``markdown.merge_small``), in document order; none in a manifest made without it."""

    id: str
    lines: tuple[int, int]
    chars: int
    tokens: int
    hash: str
    moved_from: str | None = None
    suppressed: tuple[str, ...] = ()
    merged: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.merged:
            object.__setattr__(self, "merged", tuple(self.merged))
            if len(set(self.merged)) != len(self.merged) or self.id in self.merged:
                raise ValueError(f"ChunkEntry.merged must be other, distinct IDs: {self.merged}")
        if self.suppressed:
            codes = tuple(sorted(set(self.suppressed)))
            for code in codes:
                if not isinstance(code, str) or not RULE_CODE.fullmatch(code):
                    raise ValueError(f"ChunkEntry.suppressed holds {code!r}, not a rule code")
            object.__setattr__(self, "suppressed", codes)

    @classmethod
    def from_chunk(cls, chunk: Chunk, moved_from: str | None = None) -> ChunkEntry:
        # A disable comment may name anything; only rule codes can suppress a rule.
        suppressed = tuple(sorted(c for c in chunk.suppressed if RULE_CODE.fullmatch(c)))
        return cls(
            chunk.id, (chunk.start_line, chunk.end_line), chunk.chars, chunk.tokens, chunk.hash,
            moved_from, suppressed, chunk.merged,
        )  # fmt: skip

    def placeholder(self, path: str) -> Chunk:
        """A text-less ``Chunk`` standing in for this entry when its text cannot be read:
        only its ID, path, span, sizes, hash and suppressions are known."""
        start, end = self.lines
        return Chunk(
            id=self.id, path=path, kind="text", language="text", symbol=None, heading_path=(),
            level=0, start_line=start, end_line=end, chars=self.chars, tokens=self.tokens,
            hash=self.hash, text="", body_line=start, suppressed=frozenset(self.suppressed),
            merged=self.merged,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file's block. ``findings`` is kept in the manifest's order (``sort_key``),
    whatever order it is given in, repeats kept: a finding made twice is known twice.
    ``settings`` is the ``Header.digest`` of the settings it was made under (None: a
    format-2 shard, made under its header's)."""

    path: str
    blob: str | None
    chunks: tuple[ChunkEntry, ...]
    findings: tuple[StoredFinding, ...] = ()
    settings: str | None = None

    def __post_init__(self) -> None:
        path_key(self.path)  # a lone surrogate that is not an undecodable byte: ValueError
        unsafe = problem(self.path)
        if unsafe is not None:
            raise ValueError(f"FileEntry.path {self.path!r} {unsafe}")
        if self.settings is not None and not (
            isinstance(self.settings, str) and HEX16.fullmatch(self.settings)
        ):
            raise ValueError(f"FileEntry.settings must be 16 hex digits: {self.settings!r}")
        prefix = self.path + "#"
        for chunk in self.chunks:
            if len(chunk.id) <= len(prefix) or not chunk.id.startswith(prefix):
                raise ValueError(f"chunk {chunk.id!r} does not belong to {self.path!r}")
            for merged in chunk.merged:
                if not belongs(merged, self.path):
                    raise ValueError(f"merged chunk {merged!r} does not belong to {self.path!r}")
        findings = tuple(sorted(self.findings, key=StoredFinding.sort_key))
        for finding in findings:
            if finding.chunk_id is not None and not belongs(finding.chunk_id, self.path):
                raise ValueError(f"finding on {finding.chunk_id!r}, not a chunk of {self.path!r}")
        object.__setattr__(self, "chunks", tuple(self.chunks))
        object.__setattr__(self, "findings", findings)

    @classmethod
    def from_chunks(
        cls,
        path: str,
        blob: str | None,
        chunks: Iterable[Chunk],
        *,
        findings: Iterable[StoredFinding] = (),
        moved: Mapping[str, str] | None = None,
        settings: str | None = None,
    ) -> FileEntry:
        """The entry of chunked file; ``moved`` maps a chunk ID to the ID it moved from."""
        moved = moved or {}
        entries = tuple(ChunkEntry.from_chunk(c, moved.get(c.id)) for c in chunks)
        return cls(path, blob, entries, tuple(findings), settings)

    def moved_from(self, chunk_id: str) -> str | None:
        """The ID the chunk ``chunk_id`` is recorded as moved from, if any."""
        return next((c.moved_from for c in self.chunks if c.id == chunk_id), None)

    def with_moved_from(self, chunk_id: str, old_id: str | None) -> FileEntry:
        """This entry with the move of ``chunk_id`` recorded (or cleared); unchanged
        when it has no such chunk."""
        chunks = tuple(
            dataclasses.replace(c, moved_from=old_id) if c.id == chunk_id else c
            for c in self.chunks
        )
        return self if chunks == self.chunks else dataclasses.replace(self, chunks=chunks)

    def same_chunks(self, other: FileEntry) -> bool:
        """Both list the same chunks (IDs, spans, sizes, hashes); blob, findings,
        settings, suppressions and recorded moves are not compared."""

        def core(entry: FileEntry) -> list[tuple[object, ...]]:
            return [(c.id, c.lines, c.chars, c.tokens, c.hash) for c in entry.chunks]

        return core(self) == core(other)
