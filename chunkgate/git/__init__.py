"""Git through one door: every git process chunkgate starts is made by ``_popen``.

Output is read with ``-z`` wherever git offers it, paths are decoded as UTF-8
with ``surrogateescape`` (so names that are not UTF-8 survive a round trip),
and many objects are streamed through one ``git cat-file --batch`` process.
The caller's environment is kept on purpose: inside a git hook,
``GIT_INDEX_FILE`` points at the index being committed.
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import os
import stat
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, NamedTuple

from chunkgate.core.errors import GitError
from chunkgate.core.parallel import in_background
from chunkgate.core.regex import lazy

_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "LC_ALL": "C",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
}
_REGULAR_MODES = ("100644", "100755")
_GITLINK, _SYMLINK = "160000", "120000"
# Keep command lines well under Windows' 32 KiB limit; pathspecs beyond it go in batches.
_ARGV_BUDGET = 24_000
# `ls-files -s -t` records: "<tag> <mode> <object> <stage>\t<path>", NUL-separated; the
# tag S marks a skip-worktree entry (outside a sparse checkout's cone).
_LS_STAGE = ("ls-files", "-z", "-s", "-t")
_STAGE_RECORD = lazy(r"(\S) (\d+) ([0-9a-f]+) (\d)\t([^\0]*)")
_DIFF_FILES = ("diff-files", "-z", "--no-ext-diff")
_LS_UNTRACKED = ("ls-files", "-z", "-o", "--exclude-standard")

_started = {"processes": 0}
_count_lock = threading.Lock()

_Process = subprocess.Popen[bytes]


class GitCommandError(GitError):
    """A git command exited non-zero; keeps the exit code and stderr for callers."""

    def __init__(self, args: Sequence[str], returncode: int, stderr: str) -> None:
        shown = " ".join(args)
        if len(shown) > 120:
            shown = shown[:119] + "…"
        super().__init__(f"git {shown}: {stderr or 'failed'} (exit {returncode})")
        self.command = tuple(args)
        self.returncode = returncode
        self.stderr = stderr


def process_count() -> int:
    """How many git processes this interpreter has started (reported in benchmarks)."""
    return _started["processes"]


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _encode(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _clean_stderr(raw: bytes) -> str:
    lines = []
    for line in _decode(raw).splitlines():
        text = line.strip()
        for prefix in ("fatal: ", "error: "):
            text = text.removeprefix(prefix)
        if text:
            lines.append(text)
    return "; ".join(lines)


def _popen(
    root: Path,
    args: Sequence[str],
    *,
    stdin: int,
    stdout: int,
    stderr: int,
    env: dict[str, str] | None = None,
) -> _Process:
    command = ("git", "-C", os.fspath(root), "-c", "core.quotepath=off", *args)
    try:
        proc = subprocess.Popen(
            command,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, **_ENV, **(env or {})},
        )
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    with _count_lock:
        _started["processes"] += 1
    return proc


def _run(
    root: Path,
    *args: str,
    input: bytes | None = None,
    check: bool = True,
    env: dict[str, str] | None = None,
) -> bytes:
    """Run one git command to completion and return its stdout."""
    proc = _popen(
        root,
        args,
        stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    stdout, stderr = proc.communicate(input)
    if check and proc.returncode:
        raise GitCommandError(args, proc.returncode, _clean_stderr(stderr))
    return stdout


def _records(output: bytes) -> Iterator[str]:
    for record in _decode(output).split("\0"):
        if record:
            yield record


def _pathspec_batches(paths: Sequence[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for path in paths:
        if batch and size + len(path) > _ARGV_BUDGET:
            yield batch
            batch, size = [], 0
        batch.append(path)
        size += len(path) + 1
    if batch:
        yield batch


def _list(root: Path, args: Sequence[str], paths: Sequence[str] | None) -> Iterator[str]:
    """Records of a ``-z`` listing command, limited to literal pathspecs when given."""
    if paths is None:
        yield from _records(_run(root, *args))
        return
    for batch in _pathspec_batches(paths):
        yield from _records(_run(root, "--literal-pathspecs", *args, "--", *batch))


def installed() -> bool:
    """Whether a git executable is on PATH (as ``shutil.which`` tells, without its import)."""
    if os.name == "nt":
        import shutil

        return shutil.which("git") is not None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or ".", "git")
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return True
    return False


def find_root(start: Path) -> Path | None:
    """The top of the work tree holding ``start``; None outside one or without git."""
    folder = start if start.is_dir() else start.parent
    try:
        out = _run(folder, "rev-parse", "--show-toplevel")
    except GitCommandError as exc:
        if "dubious ownership" in exc.stderr:
            raise
        return None
    except GitError:
        return None
    top = _decode(out).rstrip("\n")
    return Path(top) if top else None


def index_blobs(root: Path, paths: Sequence[str] | None = None) -> dict[str, str]:
    """POSIX path → blob id of every regular file in the index (stage 0, else "ours")."""
    return index_entries(root, paths)[0]


def index_entries(
    root: Path, paths: Sequence[str] | None = None
) -> tuple[dict[str, str], set[str]]:
    """``index_blobs``, and the paths among them git keeps out of the work tree
    (skip-worktree: a sparse checkout's files outside its cone)."""
    return _index_entries("\0".join(_list(root, _LS_STAGE, paths)))


def _index_entries(listing: str) -> tuple[dict[str, str], set[str]]:
    """``index_entries`` of an ``ls-files -z -s -t`` listing."""
    blobs: dict[str, str] = {}
    ours: dict[str, str] = {}
    skipped: set[str] = set()
    for tag, mode, oid, stage, path in _STAGE_RECORD.findall(listing):
        if mode in (_GITLINK, _SYMLINK):  # a submodule's gitlink is not a corpus file
            continue
        if tag == "S":
            skipped.add(path)
        if stage == "0":
            blobs[path] = oid
        elif stage == "2":
            ours[path] = oid
    for path, blob in ours.items():
        blobs.setdefault(path, blob)
    return blobs, skipped


def modified_paths(root: Path, paths: Sequence[str] | None = None) -> set[str]:
    """Tracked paths whose work tree file differs from the index, deleted ones included:
    what ``ls-files -m`` lists.

    ``diff-files`` trusts stat data, so it also reports files that were merely
    touched; those are compared by content (``hash-object``, with the path's
    filters) in one more process, and only when there are any. ``ls-files -m``
    itself is not used because given more than one pathspec it stats every
    tracked file, which on a hook run costs more than the rest of git's work.
    """
    return _modified(root, _list(root, _DIFF_FILES, paths))


def _modified(root: Path, records: Iterator[str]) -> set[str]:
    """``modified_paths`` of the records of a ``diff-files -z`` listing."""
    modified: set[str] = set()
    touched: dict[str, str] = {}  # path -> index blob, when only stat data differs
    for meta, path in zip(records, records, strict=True):  # records alternate: meta, path
        # ":<index mode> <work tree mode> <index blob> <work tree blob> <status>"
        index_mode, tree_mode, index_blob, tree_blob, status = meta[1:].split(" ")
        unhashed = tree_blob.strip("0") == "" and index_blob.strip("0") != ""
        if status == "M" and unhashed and index_mode == tree_mode in _REGULAR_MODES:
            touched.setdefault(path, index_blob)
        else:
            modified.add(path)
    candidates = [path for path in touched if path not in modified]
    if candidates:
        hashed = hash_blobs(root, candidates)
        modified.update(path for path in candidates if hashed.get(path) != touched[path])
    return modified


class WorkTree(NamedTuple):
    """The whole work tree as a whole-corpus run lists it, for the parts that need it."""

    blobs: dict[str, str]  # ``index_blobs``
    modified: set[str]  # ``modified_paths``
    untracked: list[str]  # ``untracked_paths``


class WorkTreeListing:
    """What a whole-corpus run asks git about the work tree, asked at once: the index
    (``ls-files -s -t``), the tracked files that differ from it (``diff-files``) and the
    untracked ones, three processes side by side (each mostly waits on the file system).
    ``raw`` is what git printed, by which a run recognises a work tree it has seen."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._index = in_background(_run, root, *_LS_STAGE)
        self._diff = in_background(_run, root, *_DIFF_FILES)
        self._others = in_background(_run, root, *_LS_UNTRACKED)
        self._modified: set[str] | None = None
        self._untracked: list[str] | None = None

    def raw(self) -> tuple[bytes, bytes, bytes]:
        return self._index(), self._diff(), self._others()

    def entries(self) -> tuple[dict[str, str], set[str]]:
        """``index_entries``."""
        return _index_entries(_decode(self._index()))

    def modified(self) -> set[str]:
        """``modified_paths``."""
        if self._modified is None:
            self._modified = _modified(self.root, _records(self._diff()))
        return self._modified

    def untracked(self) -> list[str]:
        """``untracked_paths``."""
        if self._untracked is None:
            self._untracked = _untracked(_records(self._others()))
        return self._untracked

    def differing(self) -> list[str]:
        """Every path ``diff-files`` names (a file merely touched too) and the untracked
        ones: the files whose bytes the index does not tell."""
        records = list(_records(self._diff()))
        return [*records[1::2], *self.untracked()]


class Staged(NamedTuple):
    """One path the index holds differently from HEAD (``diff-index --cached`` raw)."""

    status: str  # A, M, T (the index's mode and blob follow), D (gone), U (unmerged)
    mode: str
    blob: str


def staged_changes(root: Path) -> dict[str, Staged] | None:
    """Every path whose index entry differs from HEAD's, a rename as a deletion and an
    addition; None before the first commit. Compares the index with HEAD's tree, so its
    cost follows the change."""
    args = ("diff-index", "--cached", "--no-renames", "-z", "HEAD")
    try:
        out = _run(root, *args)
    except GitCommandError as exc:
        if exc.returncode == 128:  # no HEAD to compare with
            return None
        raise
    records = list(_records(out))
    changes: dict[str, Staged] = {}
    for meta, path in zip(records[::2], records[1::2], strict=True):  # meta, path
        # ":<HEAD mode> <index mode> <HEAD blob> <index blob> <status>"
        _, mode, _, blob, status = meta[1:].split(" ")
        changes[path] = Staged(status[:1], mode, blob)
    return changes


def staged_deletions(root: Path) -> list[str]:
    """Paths the index no longer has that HEAD has (a rename's old path included): what a
    commit deletes."""
    return deleted(staged_changes(root))


def deleted(changes: dict[str, Staged] | None) -> list[str]:
    """The deletions among ``staged_changes``."""
    return [path for path, change in (changes or {}).items() if change.status == "D"]


def index_matches(root: Path, rev: str, folder: str) -> bool:
    """Whether the index holds exactly ``rev``'s tree under ``folder`` (``diff --cached
    --quiet``: it stops at the first difference; a conflict is one)."""
    args = ("--literal-pathspecs", "diff", "--cached", "--quiet", "--no-renames")
    proc = _popen(
        root,
        (*args, "--end-of-options", rev, "--", folder),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc.wait() == 0


def untracked_paths(root: Path, paths: Sequence[str] | None = None) -> list[str]:
    """Untracked files that no ignore rule excludes (nested repositories left out)."""
    return _untracked(_list(root, _LS_UNTRACKED, paths))


def _untracked(records: Iterable[str]) -> list[str]:
    # A nested repository is listed as its folder, with a trailing slash.
    return [record for record in records if not record.endswith("/")]


def _quote_stdin_path(path: str) -> bytes:
    # hash-object --stdin-paths unquotes a line that starts with '"' (C-style), which
    # is the one way to pass a name holding a newline or ending in CR.
    raw = _encode(path)
    if b"\n" not in raw and not raw.startswith(b'"') and not raw.endswith(b"\r"):
        return raw
    escaped = raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
    escaped = escaped.replace(b"\n", b"\\n").replace(b"\r", b"\\r")
    return b'"' + escaped + b'"'


def _is_regular_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def hash_blobs(root: Path, paths: Iterable[str]) -> dict[str, str]:
    """Blob ids of work tree files as git would store them (clean filters, eol applied).

    One process for all paths. Paths that are not regular files are left out.
    """
    wanted = [p for p in dict.fromkeys(paths) if _is_regular_file(root / p)]
    if not wanted:
        return {}
    stdin = b"".join(_quote_stdin_path(p) + b"\n" for p in wanted)
    oids = _run(root, "hash-object", "--stdin-paths", input=stdin).split()
    if len(oids) != len(wanted):
        raise GitError(f"git hash-object returned {len(oids)} ids for {len(wanted)} paths")
    return {path: oid.decode("ascii") for path, oid in zip(wanted, oids, strict=True)}


def hash_bytes(data: bytes) -> str:
    """The blob id git gives these exact bytes (no filters)."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)  # not header + data: that would copy a whole manifest
    return digest.hexdigest()


def resolve(root: Path, rev: str) -> str:
    """The full sha of the commit ``rev`` names."""
    try:
        out = _run(
            root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
        )
    except GitCommandError as exc:
        if exc.returncode == 1:  # --verify --quiet: not a commit, nothing on stderr
            raise GitError(f"git rev-parse: unknown revision {rev!r}") from None
        raise
    return out.decode("ascii").strip()


def object_id(root: Path, spec: str) -> str | None:
    """The object ``spec`` names (``HEAD:path``, a blob id...), or None when there is none."""
    try:
        out = _run(root, "rev-parse", "--verify", "--quiet", "--end-of-options", spec)
    except GitCommandError as exc:
        if exc.returncode in (1, 128):  # no such object (or no HEAD yet)
            return None
        raise
    return out.decode("ascii").strip() or None


def describe_objects(root: Path, specs: Sequence[str]) -> bytes:
    """What ``cat-file --batch-check`` says of each spec, a line each: its object ID, type
    and size, or that it is missing (one process for all)."""
    return _run(
        root, "cat-file", "--batch-check", input=b"".join(_encode(s) + b"\n" for s in specs)
    )


def attributes_files(root: Path) -> list[Path]:
    """The attributes files outside the work tree that git reads: the repository's
    ``info/attributes`` and the user's (``core.attributesFile``, else the XDG one)."""
    common = _decode(_run(root, "rev-parse", "--git-common-dir")).rstrip("\n")
    found = [root / common / "info" / "attributes"]
    configured = _decode(
        _run(root, "config", "--path", "--get", "core.attributesFile", check=False)
    )
    if configured.strip():
        found.append(Path(configured.rstrip("\n")))
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        found.append(Path(base, "git", "attributes"))
    return found


def merge_base(root: Path, a: str, b: str) -> str:
    """The best common ancestor of two revisions (for ``A...B``)."""
    first, second = resolve(root, a), resolve(root, b)
    try:
        return _run(root, "merge-base", first, second).decode("ascii").strip()
    except GitCommandError as exc:
        if exc.returncode == 1:
            raise GitError(f"git merge-base: {a!r} and {b!r} have no common ancestor") from None
        raise


def is_shallow(root: Path) -> bool:
    return _run(root, "rev-parse", "--is-shallow-repository").strip() == b"true"


def tree_blobs(root: Path, rev: str, paths: Sequence[str] = ()) -> dict[str, str]:
    """POSIX path → blob id of every regular file in the tree of ``rev`` (under ``paths``,
    literal folders or files, when given)."""
    limit = ["--", *paths] if paths else []
    try:
        out = _run(
            root,
            "--literal-pathspecs",
            "ls-tree",
            "-r",
            "-z",
            "--full-tree",
            "--end-of-options",
            rev,
            *limit,
        )
    except GitCommandError as exc:
        if "not a valid object name" in exc.stderr.lower():
            raise GitError(f"git ls-tree: unknown revision {rev!r}") from None
        raise
    blobs: dict[str, str] = {}
    for record in _records(out):
        meta, _, path = record.partition("\t")
        mode, kind, oid = meta.split(" ")
        if kind == "blob" and mode in _REGULAR_MODES:
            blobs[path] = oid
    return blobs


def fetch(root: Path, remote: str, sha: str, depth: int | None = None) -> None:
    """Fetch one commit a shallow clone lacks (e.g. a pull request's base)."""
    args = ["fetch", "--quiet", "--no-tags"]
    if depth is not None:
        args.append(f"--depth={depth}")
    _run(root, *args, "--end-of-options", remote, sha)


def gitattributes_flags(
    root: Path,
    paths: Iterable[str],
    attrs: Sequence[str] = ("linguist-generated", "linguist-vendored"),
    *,
    index: bool = True,
) -> dict[str, set[str]]:
    """Which of ``attrs`` are set for each path (only paths with at least one).

    ``index=False``: without reading the index (all of it, 23 MB at 100,000 files),
    for a caller that knows git would read no ``.gitattributes`` from it (``_no_index``)."""
    wanted = list(dict.fromkeys(paths))
    if not wanted or not attrs:
        return {}
    stdin = b"".join(_encode(p) + b"\0" for p in wanted)
    # git reads a missing index as an empty one.
    env = None if index else {"GIT_INDEX_FILE": os.fspath(root / ".git" / "chunkgate-no-index")}
    fields = _run(root, "check-attr", "-z", "--stdin", *attrs, input=stdin, env=env).split(b"\0")
    flags: dict[str, set[str]] = {}
    for i in range(0, len(fields) - 2, 3):
        path, attr, value = fields[i : i + 3]
        if value.lower() in (b"set", b"true"):
            flags.setdefault(_decode(path), set()).add(_decode(attr))
    return flags


class NamedListing:
    """What git says about the files a hook run names, asked for before the run needs it.

    The paths are every one given, root-relative: those the configuration leaves
    out are dropped from the answers by the selection, as from any listing.

    Each git process that reads the index reads all of it (0.04-0.07 s of CPU at
    100,000 files, where the index holds the shards too), so the hook starts
    two, beside the imports and the configuration: the staged changes (what the
    commit deletes, and the index's blob of each staged file) and the attributes.
    A named file the commit leaves as it is has HEAD's blob, from HEAD's tree
    (``ls-tree``, which reads no index). Whether the work tree file differs from
    its index blob is decided by hashing its bytes, and by git's filters (one
    ``hash-object``) only for the files whose bytes differ. A named path this
    cannot settle (no HEAD; not a regular file; missing; unmerged; neither in
    HEAD nor staged) sends the listing to ``index_entries`` and
    ``modified_paths``, which ask the index itself.
    """

    def __init__(self, root: Path, paths: list[str]) -> None:
        self.root = root
        self.paths = paths
        self._staged = in_background(staged_changes, root)
        self._attribute_files = _attribute_files(paths)
        self._head = in_background(_head_entries, root, [*paths, *self._attribute_files])
        self.attributes = in_background(self._attributes)
        self._answers: tuple[dict[str, str], set[str]] | None = None

    def _attributes(self) -> dict[str, set[str]]:
        """``gitattributes_flags`` of the paths, without the index when git would take no
        ``.gitattributes`` from it."""
        return gitattributes_flags(self.root, self.paths, index=self._attributes_in_index())

    def _attributes_in_index(self) -> bool:
        """Whether git may read a ``.gitattributes`` of the paths' folders from the index:
        it does for a folder whose work tree file it cannot read (missing, a symlink...),
        so when such a file is in HEAD or staged, or there is no HEAD to tell."""
        changes, committed = self._staged(), self._head()
        if changes is None or committed is None or not (self.root / ".git").is_dir():
            return True
        for name in self._attribute_files:
            if _is_regular_file(self.root / name):
                continue  # git reads the work tree's
            change = changes.get(name)
            if change.status != "D" if change is not None else name in committed:
                return True
        return False

    def deletions(self) -> list[str]:
        """``staged_deletions``."""
        return deleted(self._staged())

    def entries(self) -> tuple[dict[str, str], set[str]]:
        """``index_entries`` of the paths."""
        return self._answer()[0], set()

    def modified(self) -> set[str]:
        """``modified_paths`` of the paths."""
        return self._answer()[1]

    def _answer(self) -> tuple[dict[str, str], set[str]]:
        if self._answers is None:
            self._answers = self._settled() or self._asked()
        return self._answers

    def _asked(self) -> tuple[dict[str, str], set[str]]:
        modified = in_background(modified_paths, self.root, self.paths)
        blobs, _ = index_entries(self.root, self.paths)
        return blobs, modified()

    def _settled(self) -> tuple[dict[str, str], set[str]] | None:
        changes, head = self._staged(), self._head()
        if changes is None or head is None:
            return None
        committed = {path: oid for path, (mode, oid) in head.items() if mode in _REGULAR_MODES}
        blobs: dict[str, str] = {}
        for path in self.paths:
            change = changes.get(path)
            if change is None:
                blob = committed.get(path)
            elif change.status == "D":
                continue  # not in the index (a file there now is untracked)
            elif change.status in ("A", "M", "T") and change.mode in _REGULAR_MODES:
                blob = change.blob
            else:
                return None
            if blob is None or len(blob) != 40:  # neither in HEAD nor staged; or SHA-256
                return None
            blobs[path] = blob
        differing = []
        for path, blob in blobs.items():
            digest = _file_blob(self.root / path)
            if digest is None:
                return None
            if digest != blob:
                differing.append(path)
        hashed = hash_blobs(self.root, differing)
        return blobs, {path for path in differing if hashed.get(path) != blobs[path]}


def _attribute_files(paths: Iterable[str]) -> list[str]:
    """The ``.gitattributes`` of every folder above ``paths``, the root's included."""
    found = {".gitattributes"}
    for path in paths:
        parts = path.split("/")[:-1]
        found.update(
            "/".join([*parts[:depth], ".gitattributes"]) for depth in range(1, len(parts) + 1)
        )
    return sorted(found)


def _head_entries(root: Path, paths: list[str]) -> dict[str, tuple[str, str]] | None:
    """Path -> (mode, blob) of HEAD's blobs under ``paths``, whatever their mode (trees
    only, no index); None without a HEAD."""
    args = ("--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", "HEAD", "--")
    try:
        out = _run(root, *args, *paths)
    except GitCommandError:
        return None
    entries: dict[str, tuple[str, str]] = {}
    for record in _records(out):
        meta, _, path = record.partition("\t")
        mode, kind, oid = meta.split(" ")
        if kind == "blob":
            entries[path] = (mode, oid)
    return entries


def _file_blob(path: Path) -> str | None:
    """The blob id of a regular file's bytes as they are (no filters); None when the path
    is not a regular file."""
    if not _is_regular_file(path):
        return None
    try:
        return hash_bytes(path.read_bytes())
    except OSError:
        return None


def read_blob(root: Path, oid: str) -> bytes | None:
    """One blob's bytes (None when there is no such blob), through a temporary file.

    For a large blob read on a helper thread (the committed manifest, while the
    current one is parsed): from a pipe, Python takes 64 KB at a time and needs
    the GIL back after each read, waiting out the switch interval hundreds of
    times; git writing a file needs it back once.
    """
    import tempfile  # its imports (shutil, random...) cost a hook run 6 ms otherwise

    with tempfile.TemporaryFile() as out:
        proc = _popen(
            root,
            ("cat-file", "blob", oid),
            stdin=subprocess.DEVNULL,
            stdout=out.fileno(),
            stderr=subprocess.DEVNULL,
        )
        if proc.wait():
            return None
        out.seek(0)
        return out.read()


class BlobReader:
    """Stream many objects through one ``git cat-file --batch`` process.

    ``read(spec)`` takes a blob id or ``rev:path`` and returns the blob's bytes,
    or None when there is no such blob.
    """

    def __init__(self, root: Path, *, lazy: bool = False) -> None:
        self._root = root
        self._proc: _Process | None = None
        self._lazy = lazy  # start git on the first read, not on entering
        self._open = False

    def __enter__(self) -> BlobReader:
        self._open = True
        if not self._lazy:
            self._start()
        return self

    def _start(self) -> None:
        self._proc = _popen(
            self._root,
            ("cat-file", "--batch"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def _running(self) -> None:
        if self._proc is None:
            if not self._open:
                raise RuntimeError("BlobReader is not open; use it as a context manager")
            self._start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def close(self) -> None:
        self._open = False
        proc, self._proc = self._proc, None
        if proc is None:
            return
        # EOF on stdin ends cat-file; kill it only if it does not go (e.g. interrupted mid-reply).
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        except BaseException:  # Ctrl-C while waiting: still reap the child, then go on
            proc.kill()
            proc.wait()
            raise

    def read(self, spec: str) -> bytes | None:
        self._running()
        if not spec:
            return None
        raw = _encode(spec)
        if b"\n" in raw or raw.endswith(b"\r"):
            # The batch protocol is line based; such a name needs its own process.
            try:
                return _run(self._root, "cat-file", "blob", spec)
            except GitCommandError:
                return None
        stdin, stdout = self._streams()
        stdin.write(raw + b"\n")
        stdin.flush()
        return self._answer(stdout)

    def read_many(self, specs: Sequence[str]) -> Iterator[bytes | None]:
        """``read`` of each spec, in order, with the requests streamed to git while its
        answers are read (one round trip in all, not one per object)."""
        self._running()
        plain = [spec for spec in specs if spec and b"\n" not in _encode(spec)]
        if len(plain) != len(specs) or len(specs) < 2:
            yield from map(self.read, specs)
            return
        stdin, stdout = self._streams()
        request = b"".join(_encode(spec) + b"\n" for spec in specs)
        writer = threading.Thread(target=_write_all, args=(stdin, request), daemon=True)
        writer.start()
        try:
            for _ in specs:
                yield self._answer(stdout)
        finally:
            writer.join()

    def commit_id(self, revision: str) -> str | None:
        """``object_id(root, f"{revision}^{{commit}}")``, asked of this ``cat-file``
        rather than of one more git process."""
        spec = f"{revision}^{{commit}}"
        raw = _encode(spec)
        if not revision or b"\n" in raw or raw.endswith(b"\r"):
            return object_id(self._root, spec)
        self._running()
        stdin, stdout = self._streams()
        stdin.write(raw + b"\n")
        stdin.flush()
        found = self._reply(stdout)
        return _decode(found[0]) if found is not None and found[1] == b"commit" else None

    def _answer(self, stdout: IO[bytes]) -> bytes | None:
        found = self._reply(stdout)
        return found[2] if found is not None and found[1] == b"blob" else None

    def _reply(self, stdout: IO[bytes]) -> tuple[bytes, bytes, bytes] | None:
        """The object's id, type and content; None when there is no such object."""
        header = stdout.readline()
        if not header.endswith(b"\n"):
            raise GitError("git cat-file --batch ended unexpectedly")
        parts = header[:-1].rsplit(b" ", 2)
        if len(parts) == 3 and parts[2].isdigit():
            size = int(parts[2])
            body = stdout.read(size + 1)  # the content and the newline that ends it
            if len(body) != size + 1:
                raise GitError("git cat-file --batch ended unexpectedly")
            return parts[0], parts[1], body[:-1]
        if header.endswith((b" missing\n", b" ambiguous\n")):
            return None
        raise GitError(f"git cat-file --batch: unexpected reply {_decode(header)!r}")

    def _streams(self) -> tuple[IO[bytes], IO[bytes]]:
        proc = self._proc
        assert proc is not None
        assert proc.stdin is not None
        assert proc.stdout is not None
        return proc.stdin, proc.stdout


def files_containing(root: Path, needles: Sequence[str]) -> list[str]:
    """The tracked files of the work tree that hold any of ``needles`` (literal text), as
    git's own multithreaded grep finds them: the files that may link to an anchor."""
    if not needles:
        return []
    args = ["grep", "-z", "-l", "-F", "--no-color", "-I"]
    for needle in needles:
        args += ["-e", needle]
    proc = _popen(root, args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)  # fmt: skip
    stdout, stderr = proc.communicate()
    if proc.returncode > 1:  # 1: nothing found
        raise GitCommandError(tuple(args), proc.returncode, _clean_stderr(stderr))
    return list(_records(stdout))


class NamedFiles(NamedTuple):
    paths: list[str]  # tracked (any stage, any mode) and untracked, not ignored; sorted
    regular: list[str]  # the tracked regular files among them, as ``index_blobs`` has them


def files_named(
    root: Path, names: Sequence[str], untracked: Callable[[], list[str]] | None = None
) -> NamedFiles:
    """The files, in any folder, whose name matches one of ``names`` (``fnmatch``
    wildcards allowed), in one ``ls-files``; with ``untracked`` (the untracked files,
    listed already by a whole-corpus run) it lists the index alone, which is all of its
    cost that does not walk the work tree (100,000 files: 0.04 s against 0.3 s).

    ``name`` and ``*/name`` pathspecs, not ``:(glob)**/name``: git's glob magic
    costs about three times as much per index entry (5,000 files, 19 names: 32 ms
    against 9 ms of git's CPU), and without it ``*`` matches ``/`` too, so
    ``*/name`` is ``name`` in any folder. A pathspec also matches the files
    under a folder of that name: those are left out here.
    """
    specs = [spec for name in names for spec in (name, f"*/{name}")]
    others = ("--others", "--exclude-standard") if untracked is None else ()
    listing = _run(root, *_LS_STAGE, "--cached", *others, "--", *specs)
    records = list(_records(listing))
    if untracked is not None:
        records += [f"? {path}" for path in untracked()]
    paths: set[str] = set()
    regular: set[str] = set()
    for record in records:
        if record.startswith("? "):  # untracked
            path, mode, stage = record[2:], "", ""
        else:
            meta, _, path = record.partition("\t")
            _tag, mode, _oid, stage = meta.split(" ")
        name = path.rpartition("/")[2]
        if not any(fnmatch.fnmatchcase(name, pattern) for pattern in names):
            continue
        paths.add(path)
        if stage in ("0", "2") and mode not in (_GITLINK, _SYMLINK):
            regular.add(path)
    return NamedFiles(sorted(paths), sorted(regular))


def _write_all(stream: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(OSError):  # git went away: the reader reports it
        stream.write(data)
        stream.flush()
