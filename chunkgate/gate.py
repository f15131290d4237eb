"""``check`` and ``update``: chunk the corpus, apply the rules, keep the manifest.

Three manifests take part:

- the *current* manifest, the file in the work tree: CG401 compares the
  corpus with it, and ``--update`` rewrites it;
- the *baseline*, the manifest as committed at ``HEAD``: a chunk ID it has
  that is gone now is either a move (CG402, unless the current manifest
  records ``moved_from``) or a removal (CG403). Comparing with ``HEAD``
  rather than with the work tree keeps an unacknowledged move an error until
  it is acknowledged, however often the hook rewrites the current manifest;
- nothing else: old chunk texts are read from git by the blob IDs the
  baseline records.

A whole-corpus check reads no file whose git blob ID matches the current
manifest: its chunks are known, and what the file-level rules found in it is
recorded there too and reported again as it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path

from chunkgate import git
from chunkgate.chunking import (
    CHUNKING_VERSION,
    chunk_bytes,
    missing_extras,  # issue 22
)
from chunkgate.config import Config
from chunkgate.corpus import Selection, in_background, select_files
from chunkgate.errors import ManifestError, UnreadableError
from chunkgate.filecheck import (
    FileOutcome,
    Item,
    RenderedFile,
    check_all,
    render_all,
    to_violations,
)
from chunkgate.manifest import (
    FORMAT_VERSION,
    FileEntry,
    Header,
    Manifest,
    ManifestIndex,
    ManifestSyntaxError,
    fingerprint,
    manifest_lock,
    render_blocks,
    write_atomic,
)
from chunkgate.manifest.codec import parse_block, render_block, render_header
from chunkgate.model import CheckResult, Chunk, Summary, Violation
from chunkgate.rules import RULES_VERSION
from chunkgate.rules.duplicates import duplicate_violations
from chunkgate.rules.stability import (
    moved_violation,
    removed_violation,
    stale_file_violation,
    stale_manifest_violation,
)


def expected_header(config: Config) -> Header:
    return Header(
        format=FORMAT_VERSION,
        chunking=CHUNKING_VERSION,
        config=fingerprint(config.chunking.fingerprint()),
        rules=fingerprint(rules_fingerprint(config)),
    )


def rules_fingerprint(config: Config) -> str:
    """Everything that changes what the file-level rules find (not their severity)."""
    content = ";".join(pattern.pattern for pattern in config.denylist_content)
    return (
        f"rules={RULES_VERSION};denylist.paths={','.join(config.denylist_paths)};"
        f"denylist.content={content};max_file_bytes={config.max_file_bytes}"
    )


def run_check(
    config: Config,
    paths: Sequence[str] | None = None,
    *,
    update: bool = False,
    accept_moves: bool = False,
    jobs: int = 1,
) -> CheckResult:
    """Check the corpus (or the named files) against the rules and the manifest.

    With ``update``, rewrite the manifest entries of the files checked (all,
    when no paths are given) under a lock, so that concurrent invocations
    never lose each other's entries.
    """
    manifest_path = config.root / config.manifest
    with ExitStack() as stack:
        if update or accept_moves:
            stack.enter_context(manifest_lock(manifest_path))
        writing = update or accept_moves
        broken: ManifestError | None = None
        ignore_committed = False
        while True:
            gate = _Gate(
                config,
                update=writing,
                accept_moves=accept_moves,
                jobs=jobs,
                broken=broken,
                ignore_committed=ignore_committed,
            )
            stack.callback(gate.close)
            try:
                return gate.run(paths)
            except ManifestSyntaxError as exc:
                # The index checks what it reads when it reads it (a run on a few
                # files reads a few blocks); a corrupt line found late makes the
                # manifest unusable, as if found early: the current one is then
                # rebuilt or reported, the committed one has no IDs to compare.
                if exc.name == config.manifest and broken is None:
                    broken = exc
                elif exc.name == f"HEAD:{config.manifest}" and not ignore_committed:
                    ignore_committed = True
                else:
                    raise
                gate.close()


@dataclass(slots=True)
class _Gate:
    config: Config
    update: bool
    accept_moves: bool
    jobs: int
    notes: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    broken: ManifestError | None = None
    ignore_committed: bool = False  # HEAD's manifest turned out to be corrupt
    # A run on named files (the hook) reads the manifests lazily: only their blocks.
    lazy: bool = False
    _reader: git.BlobReader | None = None
    _in_git: bool | None = None
    # The current manifest's blob ID, hashed on another thread while it is parsed.
    _current_id: Callable[[], str] | None = None
    # HEAD's manifest: its blob ID, and its index when it differs from the current
    # one, fetched on another thread (see _fetch_committed).
    _committed: Callable[[], tuple[str | None, ManifestIndex | None]] | None = None

    # -- setting up --

    @property
    def in_git(self) -> bool:
        if self._in_git is None:
            # The configuration found the root with git already: a .git entry
            # there (a folder, or a file in a worktree) says it is a repository.
            self._in_git = (self.config.root / ".git").exists()
        return self._in_git

    def reader(self) -> git.BlobReader | None:
        if not self.in_git:
            return None
        if self._reader is None:
            self._reader = git.BlobReader(self.config.root).__enter__()
        return self._reader

    def close(self) -> None:
        if self._committed is not None:
            with suppress(Exception):  # its errors are for load_baseline
                self._committed()  # no git process left behind
            self._committed = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def load_current(self) -> tuple[ManifestIndex | None, bytes]:
        path = self.config.root / self.config.manifest
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = None
        if self.in_git:
            if data is not None:
                self._current_id = in_background(git.hash_bytes, data)
            self._committed = in_background(self._fetch_committed)
        if data is None:
            return None, b""
        try:
            if self.broken is not None:
                raise self.broken
            return ManifestIndex.from_bytes(data, name=self.config.manifest, lazy=self.lazy), data
        except ManifestError as exc:
            if self.update:
                self.notes.append(f"{exc}; rebuilding it")
            else:
                self.add(stale_manifest_violation(self.config, str(exc), line=exc_line(exc)))
            return None, data

    def _fetch_committed(self) -> tuple[str | None, ManifestIndex | None]:
        """The blob ID of the manifest committed at HEAD (None: not committed), and that
        manifest unless it is the current one (None then, or when it is broken).

        Run on another thread while the current manifest is parsed and the corpus
        listed: git inflating a large manifest takes as long as parsing one, and the
        listing mostly waits for git.
        """
        committed = git.object_id(self.config.root, f"HEAD:{self.config.manifest}")
        if committed is None or (self._current_id is not None and committed == self._current_id()):
            return committed, None
        data = git.read_blob(self.config.root, committed) if not self.ignore_committed else None
        if data is None:
            return committed, None
        name = f"HEAD:{self.config.manifest}"
        try:
            return committed, ManifestIndex.from_bytes(data, name=name, lazy=self.lazy)
        except ManifestError:
            return committed, None  # a broken committed manifest has no IDs to compare with

    def load_baseline(self, current: ManifestIndex | None) -> ManifestIndex | None:
        if self._committed is None:  # not in git
            return current
        committed, baseline = self._committed()
        if committed is None:
            return None  # nothing committed yet: no IDs to keep stable
        if current is not None and self._current_id is not None and committed == self._current_id():
            return current  # the usual case: read the manifest once, not twice
        return baseline

    # -- the run --

    def run(self, paths: Sequence[str] | None) -> CheckResult:
        config = self.config
        expected = expected_header(config)
        self.lazy = paths is not None
        current, current_bytes = self.load_current()
        chunking_ok = current is not None and same_chunking(current.header, expected)
        rules_ok = chunking_ok and current is not None and current.header.rules == expected.rules
        explicit = paths is not None
        if explicit and self.update and not chunking_ok:
            explicit = False  # a partial update cannot fix a manifest of other settings
            self.notes.append("rebuilding the whole manifest (it was missing or of other settings)")
        selection = select_files(config, paths if explicit else None)
        if current is None and not self.update and not self.violations:
            self.add(stale_manifest_violation(config, f"no manifest at {config.manifest}"))
        elif current is not None and not chunking_ok and not self.update:
            self.add(
                stale_manifest_violation(
                    config,
                    f"{config.manifest} was written with other chunking settings "
                    "(size, tokenizer, markdown, python options or chunkgate version)",
                )
            )
        baseline = self.load_baseline(current)
        if baseline is not None and not same_chunking(baseline.header, expected):
            baseline = None  # IDs under other settings are not comparable
        work, cached, deleted = self.plan(
            selection, current, baseline, explicit=explicit, cache=rules_ok
        )
        if self.update and not explicit and baseline is None and not cached:
            return self.rebuild(
                selection,
                work,
                deleted=deleted,
                current=current,
                current_bytes=current_bytes,
                expected=expected,
            )
        outcomes = self.process(work, baseline)
        entries: dict[str, FileEntry | None] = {}
        new_chunks: list[Chunk] = []
        for outcome in outcomes:
            self.violations.extend(outcome.violations)
            new_chunks.extend(outcome.new_chunks)
            entry = _inherit_moves(outcome.entry, current)
            entries[entry.path] = entry
        for path in deleted:
            entries[path] = None
        if current is not None and cached:
            # What the file-level rules found for the unchanged files, as recorded.
            recorded = current.paths_with_findings()
            for path in cached:
                if path in recorded:
                    self.violations.extend(to_violations(config, path, current.findings(path)))
        self.stability(baseline, entries, new_chunks)
        if not self.update and chunking_ok and current is not None:
            self.staleness(current, entries, deleted)
        self.duplicates(current, entries, explicit)
        changed = False
        if self.update:
            changed = self.write(current, current_bytes, entries, expected, whole=not explicit)
        chunk_count = sum(len(e.chunks) for e in entries.values() if e is not None)
        if current is not None and cached:
            chunk_count += current.chunk_total(cached)
        return self.result(selection, chunk_count, changed)

    def rebuild(
        self,
        selection: Selection,
        work: list[tuple[str, str | None]],
        *,
        deleted: list[str],
        current: ManifestIndex | None,
        current_bytes: bytes,
        expected: Header,
    ) -> CheckResult:
        """An update that checks every file and has no committed IDs to compare with:
        no manifest yet, or one of other settings (every file's chunks may change).

        Each file's block is rendered where the file is checked (in the workers,
        with ``--jobs``, which then send bytes rather than objects), so no file's
        records are held. Without a manifest the blocks go to the new manifest's
        temporary file at once; with one they are kept as bytes, to leave an
        unchanged manifest alone. The file is then read back for CG501, which
        reads it as it reads any manifest. Moves the current manifest
        acknowledges are kept for the IDs that remain, as in any update.
        """
        chunk_count = 0
        changed = len(deleted)
        moved = current.paths_with_moves() if current is not None else set()

        def blocks() -> Iterator[bytes]:
            nonlocal chunk_count, changed
            yield render_header(expected)
            for checked in self.process_rendered(work):
                self.violations.extend(checked.violations)
                chunk_count += checked.chunks
                block = checked.block
                if checked.path in moved:
                    block = render_block(_inherit_moves(parse_block(block, checked.path), current))
                if current is None or current.block(checked.path) != block:
                    changed += 1
                yield block

        path = self.config.root / self.config.manifest
        written = True
        if current is None:
            write_atomic(path, blocks())
        else:
            data = list(blocks())
            written = not _same_bytes(data, current_bytes)
            if written:
                write_atomic(path, data)
            del data
        manifest = current
        if written:
            self.written(changed)
            manifest = ManifestIndex.from_bytes(path.read_bytes(), name=self.config.manifest)
        self.duplicates(manifest, {}, False)
        return self.result(selection, chunk_count, written)

    def result(self, selection: Selection, chunk_count: int, changed: bool) -> CheckResult:
        violations = tuple(sorted(self.violations, key=Violation.sort_key))
        files = len(selection.files)
        return CheckResult(
            violations=violations,
            summary=Summary(
                files=files,
                chunks=chunk_count,
                errors=sum(v.severity == "error" for v in violations),
                warnings=sum(v.severity == "warning" for v in violations),
            ),
            manifest=self.config.manifest,
            manifest_changed=changed,
            # issue 22: one note per optional extra the corpus needs and lacks.
            notes=(*self.notes, *missing_extras(file.path for file in selection.files)),
        )

    def plan(
        self,
        selection: Selection,
        current: ManifestIndex | None,
        baseline: ManifestIndex | None,
        *,
        explicit: bool,
        cache: bool,
    ) -> tuple[list[tuple[str, str | None]], list[str], list[str]]:
        """Split the corpus into files to read, files known from the manifest, and deletions.

        Deletions include the baseline's files that are gone, so that a rename
        split over several hook invocations is still seen as a move.
        """
        root = self.config.root
        selected = {file.path: file.blob for file in selection.files}
        if explicit:
            # Which listed files are gone: their paths alone, no block read.
            listed = set(current.listed()) if current is not None else set()
            if baseline is not None and baseline is not current:
                listed.update(baseline.listed())
            gone = _missing(root, listed - selected.keys())
            deleted = sorted(set(selection.missing) | set(gone), key=_byte_order)
            return list(selected.items()), [], deleted
        known = set(current.paths) if current is not None else set()
        committed = set(baseline.paths) if baseline is not None else set()
        deleted = sorted((known | committed) - set(selected), key=_byte_order)
        if current is None or not cache:
            return list(selected.items()), [], deleted
        unknown = [path for path, blob in selected.items() if blob is None and path in known]
        if unknown and self.in_git:
            selected.update(git.hash_blobs(root, unknown))
        work: list[tuple[str, str | None]] = []
        cached: list[str] = []
        for path, blob in selected.items():
            recorded = current.blob(path)
            settled = baseline is None or baseline is current or baseline.blob(path) == recorded
            if blob is not None and blob == recorded and settled:
                cached.append(path)
            else:
                # Changed since the manifest or since HEAD: its IDs may have moved.
                work.append((path, blob))
        return work, cached, deleted

    def process(
        self, work: list[tuple[str, str | None]], baseline: ManifestIndex | None
    ) -> Iterator[FileOutcome]:
        items = self.items(work, baseline)
        return check_all(self.config, items, self.jobs)

    def process_rendered(self, work: list[tuple[str, str | None]]) -> Iterator[RenderedFile]:
        """``process`` for a rebuild: each file as its rendered manifest block."""
        return render_all(self.config, self.items(work, None), self.jobs)

    def items(
        self, work: list[tuple[str, str | None]], baseline: ManifestIndex | None
    ) -> list[Item]:
        """What ``check_file`` takes for each file: path, blob, baseline IDs, git attributes."""
        attributes: Mapping[str, set[str]] = {}
        if work and self.in_git:
            attributes = git.gitattributes_flags(self.config.root, [path for path, _ in work])
        return [
            (
                path,
                blob,
                baseline.ids(path) if baseline is not None else None,
                frozenset(attributes.get(path, ())),
            )
            for path, blob in work
        ]

    # -- corpus-level rules --

    def stability(
        self,
        baseline: ManifestIndex | None,
        entries: Mapping[str, FileEntry | None],
        new_chunks: list[Chunk],
    ) -> None:
        """CG402 and CG403: baseline IDs of the checked files that are gone now."""
        if baseline is None:
            return
        removed: list[Chunk] = []
        for path, entry in entries.items():
            now = {chunk.id for chunk in entry.chunks} if entry is not None else set()
            gone = baseline.ids(path) - now
            old = baseline.entry(path) if gone else None
            if old is not None:
                removed.extend(self.old_chunks(old, set(gone)))
        if not removed:
            return
        from chunkgate.moves import find_moves  # only when IDs went missing

        moves = find_moves(removed, new_chunks)
        moved_from = {move.old.id for move in moves}
        for move in moves:
            entry = entries.get(move.new.path)
            acknowledged = entry is not None and entry.moved_from(move.new.id) == move.old.id
            if acknowledged:
                continue
            if self.accept_moves and entry is not None:
                entries[move.new.path] = entry.with_moved_from(move.new.id, move.old.id)  # type: ignore[index]
                continue
            if "CG402" not in move.new.suppressed:
                self.add(moved_violation(self.config, move))
        for chunk in removed:
            if chunk.id not in moved_from:
                self.add(
                    removed_violation(self.config, chunk, deleted=entries.get(chunk.path) is None)
                )

    def old_chunks(self, entry: FileEntry, ids: set[str]) -> list[Chunk]:
        """The baseline's chunks of one file with the given IDs, read back from git."""
        reader = self.reader()
        data = reader.read(entry.blob) if reader is not None and entry.blob else None
        if data is not None:
            try:
                chunks = chunk_bytes(data, entry.path, options=self.config.chunking).chunks
            except UnreadableError:
                chunks = ()
            found = [chunk for chunk in chunks if chunk.id in ids]
            if len(found) == len(ids):
                return found
        # Without the old text only identical content can be recognised.
        return [
            entry_chunk.placeholder(entry.path)
            for entry_chunk in entry.chunks
            if entry_chunk.id in ids
        ]

    def staleness(
        self,
        current: ManifestIndex,
        entries: Mapping[str, FileEntry | None],
        deleted: Iterable[str],
    ) -> None:
        """CG401: the manifest does not describe the corpus."""
        deleted = set(deleted)
        for path, entry in entries.items():
            recorded = current.entry(path)
            if entry is None:
                if recorded is not None:
                    reason = "no longer exists" if path in deleted else "is no longer in the corpus"
                    self.add(
                        stale_file_violation(self.config, path, f"lists {path}, which {reason}")
                    )
            elif recorded is None:
                self.add(stale_file_violation(self.config, path, f"does not list {path}"))
            elif not entry.same_chunks(recorded):
                self.add(stale_file_violation(self.config, path, f"is out of date for {path}"))

    def duplicates(
        self,
        current: ManifestIndex | None,
        entries: Mapping[str, FileEntry | None],
        explicit: bool,
    ) -> None:
        """CG501 over the whole corpus: checked files, and the rest from the manifest.

        Only the manifest rows that share a hash with something are decoded: the
        checked chunks' hashes for a commit, the repeated hashes for the corpus.
        """
        if self.config.severity("CG501") == "off":
            return
        rows: list[tuple[str, str, str, int, tuple[str, ...]]] = []
        for path, entry in entries.items():
            if entry is not None:
                rows.extend((c.hash, c.id, path, c.lines[0], c.suppressed) for c in entry.chunks)
        if current is not None:
            checked = {row[0] for row in rows}
            # Repeated in the manifest, or a checked chunk's hash (which may repeat
            # one elsewhere): only those rows are decoded.
            found = current.rows_with(checked) if explicit else current.repeated_rows(checked)
            rows.extend(row for row in found if row[2] not in entries)
        self.violations.extend(
            duplicate_violations(self.config, rows, only=set(entries) if explicit else None)
        )

    def add(self, violation: Violation | None) -> None:
        if violation is not None:
            self.violations.append(violation)

    # -- writing --

    def write(
        self,
        current: ManifestIndex | None,
        current_bytes: bytes,
        entries: Mapping[str, FileEntry | None],
        expected: Header,
        *,
        whole: bool,
    ) -> bool:
        header = expected
        if current is not None and not whole and current.header.rules != expected.rules:
            # Other files' findings were made under other rule settings; only a
            # whole update may claim the new ones.
            header = replace(expected, rules=current.header.rules)
        data: bytes | list[bytes]
        if current is not None and (current.header == header or not whole):
            data = current.replace(entries, header)
        else:
            files = {path: entry for path, entry in entries.items() if entry is not None}
            if current is not None:
                for path in current.paths:
                    if path not in entries:
                        recorded = current.entry(path)
                        if recorded is not None:
                            files[path] = recorded
            # Block by block: a cold update of a large corpus never holds the
            # whole manifest as text and as bytes at once.
            data = list(render_blocks(Manifest(header=header, files=files)))
        if _same_bytes(data, current_bytes):
            return False
        write_atomic(self.config.root / self.config.manifest, data)
        changed = sum(1 for path, entry in entries.items() if not _unchanged(current, path, entry))
        self.written(changed)
        return True

    def written(self, changed: int) -> None:
        if changed:
            what = f"{changed} file{'s' if changed != 1 else ''} changed"
        else:  # the header (other settings) or the line endings
            what = "no file's entry changed"
        self.notes.append(
            f"updated {self.config.manifest} ({what}): "
            f"stage it with `git add {self.config.manifest}`"
        )


def _same_bytes(data: bytes | list[bytes], current: bytes) -> bool:
    if isinstance(data, bytes):
        return data == current
    return sum(map(len, data)) == len(current) and b"".join(data) == current


def _unchanged(current: ManifestIndex | None, path: str, entry: FileEntry | None) -> bool:
    if current is None:
        return False
    recorded = current.entry(path)
    if entry is None or recorded is None:
        return entry is None and recorded is None
    return entry == recorded


def _inherit_moves(entry: FileEntry, current: ManifestIndex | None) -> FileEntry:
    """Keep the ``moved_from`` acknowledgements the current manifest has for these IDs."""
    recorded = current.entry(entry.path) if current is not None else None
    if recorded is None:
        return entry
    for chunk in recorded.chunks:
        if chunk.moved_from is not None:
            entry = entry.with_moved_from(chunk.id, chunk.moved_from)
    return entry


def same_chunking(header: Header, expected: Header) -> bool:
    return (header.format, header.chunking, header.config) == (
        expected.format,
        expected.chunking,
        expected.config,
    )


def _missing(root: Path, paths: Iterable[str]) -> list[str]:
    """The paths with no file or link on disk, listing each folder once, not stat-ing each."""
    by_folder: dict[str, list[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        by_folder.setdefault(folder, []).append(name)
    missing: list[str] = []
    for folder, names in by_folder.items():
        try:
            present = set(os.listdir(os.path.join(root, folder) if folder else root))
        except OSError:  # the folder is gone, or is a file now
            present = set()
        prefix = f"{folder}/" if folder else ""
        missing.extend(prefix + name for name in names if name not in present)
    return sorted(missing, key=_byte_order)


def _byte_order(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def exc_line(exc: Exception) -> int:
    return int(getattr(exc, "line", 0) or 1)


__all__ = ["expected_header", "run_check"]
