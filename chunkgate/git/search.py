"""Files found in the work tree by name (``ls-files`` with pathspecs) or by what they
hold (``git grep``)."""

from __future__ import annotations

import fnmatch
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from chunkgate.git.listings import GITLINK, LS_STAGE, SYMLINK
from chunkgate.git.process import GitCommandError, clean_stderr, popen, run, split_z


def files_containing(root: Path, needles: Sequence[str]) -> list[str]:
    """The tracked files of the work tree that hold any of ``needles`` (literal text), as
    git's own multithreaded grep finds them: the files that may link to an anchor."""
    if not needles:
        return []
    args = ["grep", "-z", "-l", "-F", "--no-color", "-I"]
    for needle in needles:
        args += ["-e", needle]
    proc = popen(root, args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)  # fmt: skip
    stdout, stderr = proc.communicate()
    if proc.returncode > 1:  # 1: nothing found
        raise GitCommandError(tuple(args), proc.returncode, clean_stderr(stderr))
    return list(split_z(stdout))


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
    listing = run(root, *LS_STAGE, "--cached", *others, "--", *specs)
    records = list(split_z(listing))
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
        if stage in ("0", "2") and mode not in (GITLINK, SYMLINK):
            regular.add(path)
    return NamedFiles(sorted(paths), sorted(regular))
