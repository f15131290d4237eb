"""``fix-links``: the corpus's links into moved sections and pages rewritten to where they went.

A check (read-only) finds the broken links (CG404, CG405) and, for each whose
section or page a move took elsewhere (detected in the work tree, or recorded
as ``moved_from``), the destination it should have (``links.relink``). Those are
rewritten in place, each file at once (``write_atomic``), changing only the
destination's bytes; every edit is shown as a unified diff. A second run finds
nothing to do. Links with no move to follow are left, and listed: the closest
anchor is a guess for a person to make.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.config.model import Config, with_rules
from chunkgate.core.errors import ChunkgateError
from chunkgate.core.model import Violation
from chunkgate.gate import run_check
from chunkgate.links.relink import Edit, rewritten
from chunkgate.manifest import write_atomic

LINK_RULES = "CG404,CG405"


class FileFix(NamedTuple):
    path: str
    edits: tuple[Edit, ...]
    diff: str  # the file's edits as a unified diff (a/PATH, b/PATH)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "edits": [{"line": e.line, "from": e.old, "to": e.new} for e in self.edits],
            "diff": self.diff,
        }


class LinkFixes(NamedTuple):
    fixed: tuple[FileFix, ...]  # the files rewritten (or, with ``write`` off, to rewrite)
    left: tuple[Violation, ...]  # broken links with no move to follow: left as they are
    written: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "rewritten": [fix.to_dict() for fix in self.fixed],
            "left": [violation.to_dict() for violation in self.left],
            "written": self.written,
        }


def fix_links(config: Config, paths: Sequence[str] | None = None, *, write: bool) -> LinkFixes:
    """Find the links of the corpus (or of ``paths``) that a move broke and, with
    ``write``, rewrite them."""
    links_only = with_rules(config, select=LINK_RULES, ignore=None, strict=False)
    result = run_check(links_only, paths)
    found = sorted((*result.violations, *result.known), key=Violation.sort_key)
    edits: dict[str, list[Edit]] = {}
    left: list[Violation] = []
    for violation in found:
        if violation.edit is None:
            left.append(violation._replace(known=False))
        else:
            edit = Edit(violation.path, violation.line, *violation.edit)
            edits.setdefault(violation.path, []).append(edit)
    fixed: list[FileFix] = []
    for path, file_edits in sorted(edits.items()):
        fix = _fixed(config, path, file_edits, write=write)
        if fix is not None:
            fixed.append(fix)
    return LinkFixes(tuple(fixed), tuple(left), write)


def _fixed(config: Config, path: str, edits: list[Edit], *, write: bool) -> FileFix | None:
    file = config.root / path
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise ChunkgateError(f"{path}: cannot read: {exc.strerror}") from None
    text = data.decode("utf-8", "surrogateescape")
    new = rewritten(text, edits)
    if new == text:
        return None
    diff = unified(path, text, new)
    if write:
        write_atomic(file, new.encode("utf-8", "surrogateescape"))
    return FileFix(path, tuple(edits), diff)


def unified(path: str, old: str, new: str) -> str:
    """An edit of ``path`` as ``git diff`` shows it (``a/PATH``, ``b/PATH``)."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{path}",
        tofile=f"b/{path}",
    )
    return "".join(lines)
