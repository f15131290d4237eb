"""Git's attributes: which of them ``check-attr`` sets for each path, and the
``.gitattributes`` files it reads them from."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from chunkgate.git.process import decode, encode, run


def gitattributes_flags(
    root: Path,
    paths: Iterable[str],
    attrs: Sequence[str] = ("linguist-generated", "linguist-vendored"),
    *,
    index: bool = True,
) -> dict[str, set[str]]:
    """Which of ``attrs`` are set for each path (only paths with at least one).

    ``index=False``: without reading the index (all of it, 23 MB at 100,000 files),
    for a caller that knows git would read no ``.gitattributes`` from it
    (``hookfiles.NamedListing``)."""
    wanted = list(dict.fromkeys(paths))
    if not wanted or not attrs:
        return {}
    stdin = b"".join(encode(p) + b"\0" for p in wanted)
    # git reads a missing index as an empty one.
    env = None if index else {"GIT_INDEX_FILE": os.fspath(root / ".git" / "chunkgate-no-index")}
    fields = run(root, "check-attr", "-z", "--stdin", *attrs, input=stdin, env=env).split(b"\0")
    flags: dict[str, set[str]] = {}
    for i in range(0, len(fields) - 2, 3):
        path, attr, value = fields[i : i + 3]
        if value.lower() in (b"set", b"true"):
            flags.setdefault(decode(path), set()).add(decode(attr))
    return flags


def attributes_files(root: Path) -> list[Path]:
    """The attributes files outside the work tree that git reads: the repository's
    ``info/attributes`` and the user's (``core.attributesFile``, else the XDG one)."""
    common = decode(run(root, "rev-parse", "--git-common-dir")).rstrip("\n")
    found = [root / common / "info" / "attributes"]
    configured = decode(run(root, "config", "--path", "--get", "core.attributesFile", check=False))
    if configured.strip():
        found.append(Path(configured.rstrip("\n")))
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        found.append(Path(base, "git", "attributes"))
    return found


def files_above(paths: Iterable[str]) -> list[str]:
    """The ``.gitattributes`` of every folder above ``paths``, the root's included."""
    found = {".gitattributes"}
    for path in paths:
        parts = path.split("/")[:-1]
        found.update(
            "/".join([*parts[:depth], ".gitattributes"]) for depth in range(1, len(parts) + 1)
        )
    return sorted(found)
