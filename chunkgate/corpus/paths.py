"""Which paths chunkgate may read or write: the one place that decides.

A path from the configuration (``manifest:``), the command line (``-o``), a
manifest's file lines or chunkgate's own caches is allowed only when it is a
plain relative path inside its tree (the work tree; the cache folder for
caches): no NUL, not absolute, no ``..``, nothing under ``.git``, no symlink
on the way that leads out or into ``.git``, and, for what chunkgate writes,
not a corpus file. A committed ``.chunkgate.yaml`` is someone else's input:
``manifest: .git/hooks`` must not make ``update`` write git's hooks.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from chunkgate.core.errors import ChunkgateError
from chunkgate.core.regex import lazy

_DRIVE = lazy(r"[A-Za-z]:")


class PathError(ChunkgateError):
    """A path chunkgate refuses to read or write; the message names it and the fix."""


def problem(path: str) -> str | None:
    """Why the root-relative POSIX ``path`` is not one chunkgate may use (None: it may).

    Pure string checks, cheap enough for every file line of a manifest."""
    if not path:
        return "is empty"
    if "\0" in path:
        return "holds a NUL byte"
    if path.startswith("/") or _DRIVE.match(path):
        return "is absolute"
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "is not a plain relative path (no '..', '.' or empty parts)"
    # Case-folded: macOS and Windows file systems treat .GIT as .git.
    if any(part.lower() == ".git" for part in parts):
        return "is inside .git"
    return None


def allowed(
    base: Path,
    path: str,
    *,
    what: str,
    read_by: Callable[[str], bool] | None = None,
    folder: bool = False,
    fix: str = "",
) -> Path:
    """The absolute path of ``path`` (relative to ``base``) if chunkgate may use it, else a
    ``PathError`` naming ``what`` it is for. ``read_by`` given (``Config.reads``): a path
    it reads (a corpus file, the configuration, the manifest) is refused too, for paths
    chunkgate writes. ``folder``: the path must be a folder, or not exist yet; otherwise
    it must not be a folder."""
    reason = problem(path)
    full = base / path
    if reason is None:
        reason = _on_disk(base, full, folder=folder)
    if reason is None and read_by is not None and read_by(path):
        reason = "is a corpus file"
    if reason is not None:
        tail = f"; {fix}" if fix else ""
        raise PathError(f"{what} {path!r} {reason}{tail}")
    return full


def relative_to_root(root: Path, given: str | os.PathLike[str]) -> str:
    """``given`` (relative to the cwd, or absolute) as a root-relative POSIX path; a
    ``PathError`` when it is outside the work tree."""
    text = os.fspath(given)
    if "\0" in text:
        raise PathError(f"{text!r} holds a NUL byte")
    full = Path(os.path.abspath(text))
    try:
        return full.relative_to(root).as_posix()
    except ValueError:
        pass
    try:  # a cwd reached through a symlink
        return full.parent.resolve().joinpath(full.name).relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        raise PathError(
            f"{text}: outside the repository ({root}); write inside it, or redirect "
            "the output (> FILE)"
        ) from None


def _on_disk(base: Path, full: Path, *, folder: bool) -> str | None:
    try:
        real_base = base.resolve()
        real_parent = full.parent.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return "goes through a symlink loop"
    try:
        inside = real_parent.relative_to(real_base).as_posix()
    except ValueError:
        return "goes through a symlink that leads outside the repository"
    if inside != "." and problem(inside) is not None:
        return "goes through a symlink into .git"
    if os.path.islink(full):
        return "is a symlink"
    if folder and os.path.lexists(full) and not os.path.isdir(full):
        return "is a file, not a folder"
    if not folder and os.path.isdir(full):
        return "is a folder"
    return None


def manifest_folder(root: Path, folder: str, *, writing: bool = False) -> Path:
    """The manifest folder, if chunkgate may use it. One that ``update`` would create in
    an existing folder of other files (``manifest: docs``) is refused when ``writing``."""
    fix = "name a folder of its own in `manifest:` (default: chunkgate.manifest)"
    full = allowed(root, folder, what="manifest:", folder=True, fix=fix)
    if writing and os.path.isdir(full) and not os.path.lexists(full / "manifest.json"):
        other = _foreign_file(full)
        if other is not None:
            raise PathError(f"manifest: {folder!r} holds other files ({other}); {fix}")
    return full


def _foreign_file(folder: Path) -> str | None:
    """A file in ``folder`` that is not a shard (``*.jsonl``), if there is one."""
    for top, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            if not name.endswith(".jsonl") and not name.startswith("."):
                return Path(top, name).relative_to(folder).as_posix()
    return None


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes; a FIFO, socket or device is refused (``OSError``) rather than read,
    which could wait forever."""
    # O_NONBLOCK: opening a FIFO with no writer would block; a regular file ignores it.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(
                errno.EINVAL,
                "not a regular file (a FIFO, socket or device): remove it or make it a file",
                path,
            )
        return file.read()


def cache_file_allowed(base: Path, file: Path) -> bool:
    """Whether chunkgate may write its cache ``file`` under the cache folder ``base``: the
    same rules, with the cache folder as the tree (a cache is an optimisation: a refused
    one is just not written)."""
    try:
        allowed(base, file.relative_to(base).as_posix(), what="cache")
    except (PathError, ValueError):
        return False
    return True


def relative_paths(root: Path, paths: Sequence[str]) -> list[str]:
    """Root-relative POSIX paths of ``paths`` (files or folders, relative to the cwd or
    absolute), each once: how every command reads its FILES arguments.

    A symlink is no corpus file of its own: named, it stands for its target, which
    must be inside the repository like any name (``docs/link.md`` to ``real.md`` is
    ``docs/real.md``). A symlink loop is an error."""
    real_root = os.path.realpath(root)
    folders: dict[str, str] = {}  # each folder named, resolved once for all its files
    result: dict[str, None] = {}
    for given in paths:
        relative = _inside(_real(os.path.abspath(given), folders, given), real_root)
        if relative is None:
            raise ChunkgateError(f"path outside the repository: {given}")
        result[relative] = None
    return list(result)


def _real(path: str, folders: dict[str, str], given: str) -> str:
    """The real path of the absolute ``path``: its folder resolved, and its name too when
    that is a symlink."""
    folder, name = os.path.split(path)
    if not name:  # the file system's root
        return path
    real_folder = folders.get(folder)
    if real_folder is None:
        real_folder = folders[folder] = os.path.realpath(folder)
    located = os.path.join(real_folder, name)
    if not os.path.islink(located):
        return located
    try:
        return str(Path(located).resolve())
    except (OSError, RuntimeError):  # a loop (RuntimeError before Python 3.13)
        raise ChunkgateError(f"{given}: a symlink loop; fix or remove it") from None


def _inside(path: str, root: str) -> str | None:
    if path == root:
        return "."
    prefix = os.path.join(root, "")
    return path[len(prefix) :].replace(os.sep, "/") if path.startswith(prefix) else None
