"""A file's three-way merge as git makes it, from the three blobs, for the merge driver
of its shard.

git merges a commit's paths one at a time and writes the work tree only when all
are merged, so the driver of a shard cannot read the merged file: it merges the
file's three blobs again itself (the ones the three shards record), with the
merge git runs for a text file (``git merge-file``). A file whose attributes
change how git merges or stores it (``merge``, ``filter``) is left to git.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from chunkgate.git.objects import BlobReader
from chunkgate.git.process import decode, encode, popen, run

# The attributes that make git's merge of a file something else than ``merge-file``'s.
_OWN_MERGE = ("merge", "filter")
_USAGE = 129  # git's status for an option it does not know


def merged_file(root: Path, path: str, base: str, ours: str, theirs: str) -> bytes | None:
    """``path``'s merge of the blobs ``ours`` and ``theirs`` from ``base``: the bytes git
    gives when it merges them cleanly; None when they conflict, a blob is missing, or the
    file's attributes choose another merge."""
    if _merged_its_own_way(root, path):
        return None
    with BlobReader(root) as reader:
        sides = [reader.read(blob) for blob in (ours, base, theirs)]
    with tempfile.TemporaryDirectory(prefix="chunkgate-merge-") as folder:
        names = []
        for name, data in zip(("ours", "base", "theirs"), sides, strict=True):
            if data is None:
                return None
            (Path(folder) / name).write_bytes(data)
            names.append(str(Path(folder) / name))
        # git's merge diffs with the histogram algorithm; merge-file takes the option
        # from git 2.44 on, and an older git refuses it (129), then merges with Myers.
        for algorithm in (("--diff-algorithm=histogram",), ()):
            proc = popen(
                root,
                ("merge-file", *algorithm, "-p", "-q", *names),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            merged, _ = proc.communicate()
            if proc.returncode != _USAGE:
                break
    # merge-file's status is the number of conflicts (negative on an error).
    return merged if proc.returncode == 0 else None


def _merged_its_own_way(root: Path, path: str) -> bool:
    fields = run(root, "check-attr", "-z", "--stdin", *_OWN_MERGE, input=encode(path) + b"\0")
    values = fields.split(b"\0")[2::3]
    return any(decode(value) != "unspecified" for value in values)
