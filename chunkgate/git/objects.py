"""Git's objects: the ID of a name or of some bytes, and blobs' contents, many of them
through one ``git cat-file --batch`` process."""

from __future__ import annotations

import contextlib
import hashlib
import stat
import subprocess
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from chunkgate.core.errors import GitError
from chunkgate.git.process import GitCommandError, Process, decode, encode, popen, run


def _quote_stdin_path(path: str) -> bytes:
    # hash-object --stdin-paths unquotes a line that starts with '"' (C-style), which
    # is the one way to pass a name holding a newline or ending in CR.
    raw = encode(path)
    if b"\n" not in raw and not raw.startswith(b'"') and not raw.endswith(b"\r"):
        return raw
    escaped = raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
    escaped = escaped.replace(b"\n", b"\\n").replace(b"\r", b"\\r")
    return b'"' + escaped + b'"'


def is_regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (not a symlink to one)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def hash_blobs(root: Path, paths: Iterable[str]) -> dict[str, str]:
    """Blob ids of work tree files as git would store them (clean filters, eol applied).

    One process for all paths. Paths that are not regular files are left out.
    """
    wanted = [p for p in dict.fromkeys(paths) if is_regular_file(root / p)]
    if not wanted:
        return {}
    stdin = b"".join(_quote_stdin_path(p) + b"\n" for p in wanted)
    oids = run(root, "hash-object", "--stdin-paths", input=stdin).split()
    if len(oids) != len(wanted):
        raise GitError(f"git hash-object returned {len(oids)} ids for {len(wanted)} paths")
    return {path: oid.decode("ascii") for path, oid in zip(wanted, oids, strict=True)}


def hash_bytes(data: bytes) -> str:
    """The blob id git gives these exact bytes (no filters)."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)  # not header + data: that would copy a whole manifest
    return digest.hexdigest()


def file_blob(path: Path) -> str | None:
    """The blob id of a regular file's bytes as they are (no filters); None when the path
    is not a regular file."""
    if not is_regular_file(path):
        return None
    try:
        return hash_bytes(path.read_bytes())
    except OSError:
        return None


def object_id(root: Path, spec: str) -> str | None:
    """The object ``spec`` names (``HEAD:path``, a blob id...), or None when there is none."""
    try:
        out = run(root, "rev-parse", "--verify", "--quiet", "--end-of-options", spec)
    except GitCommandError as exc:
        if exc.returncode in (1, 128):  # no such object (or no HEAD yet)
            return None
        raise
    return out.decode("ascii").strip() or None


def describe_objects(root: Path, specs: Sequence[str]) -> bytes:
    """What ``cat-file --batch-check`` says of each spec, a line each: its object ID, type
    and size, or that it is missing (one process for all)."""
    return run(root, "cat-file", "--batch-check", input=b"".join(encode(s) + b"\n" for s in specs))


def read_blob(root: Path, oid: str) -> bytes | None:
    """One blob's bytes (None when there is no such blob), through a temporary file.

    For a large blob read on a helper thread (the committed manifest, while the
    current one is parsed): from a pipe, Python takes 64 KB at a time and needs
    the GIL back after each read, waiting out the switch interval hundreds of
    times; git writing a file needs it back once.
    """
    import tempfile  # its imports (shutil, random...) cost a hook run 6 ms otherwise

    with tempfile.TemporaryFile() as out:
        proc = popen(
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
        self._proc: Process | None = None
        self._lazy = lazy  # start git on the first read, not on entering
        self._open = False

    def __enter__(self) -> BlobReader:
        self._open = True
        if not self._lazy:
            self._start()
        return self

    def _start(self) -> None:
        self._proc = popen(
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
        raw = encode(spec)
        if b"\n" in raw or raw.endswith(b"\r"):
            # The batch protocol is line based; such a name needs its own process.
            try:
                return run(self._root, "cat-file", "blob", spec)
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
        plain = [spec for spec in specs if spec and b"\n" not in encode(spec)]
        if len(plain) != len(specs) or len(specs) < 2:
            yield from map(self.read, specs)
            return
        stdin, stdout = self._streams()
        request = b"".join(encode(spec) + b"\n" for spec in specs)
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
        raw = encode(spec)
        if not revision or b"\n" in raw or raw.endswith(b"\r"):
            return object_id(self._root, spec)
        self._running()
        stdin, stdout = self._streams()
        stdin.write(raw + b"\n")
        stdin.flush()
        found = self._reply(stdout)
        return decode(found[0]) if found is not None and found[1] == b"commit" else None

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
        raise GitError(f"git cat-file --batch: unexpected reply {decode(header)!r}")

    def _streams(self) -> tuple[IO[bytes], IO[bytes]]:
        proc = self._proc
        assert proc is not None
        assert proc.stdin is not None
        assert proc.stdout is not None
        return proc.stdin, proc.stdout


def _write_all(stream: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(OSError):  # git went away: the reader reports it
        stream.write(data)
        stream.flush()
