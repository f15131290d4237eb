"""Findings one change explains, as one line each: a page that moved (its changed IDs and
the links into it), a renamed heading and the links that still name it, the files a
configuration change left out, a folder that copies another (CG501). The members stay
in the result (JSON lists them, and ``--verbose`` under their line); a cause with one
finding is shown as that finding."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chunkgate.core.model import Group, Severity, Violation
from chunkgate.rules.duplicates import COPIES, copies_message, original_of
from chunkgate.rules.stale import DROPPED

_WEIGHT = {"error": 2, "warning": 1}


def grouped(violations: Iterable[Violation]) -> tuple[Group, ...]:
    """The groups of ``violations`` that share a cause, two or more findings each."""
    causes: dict[str, list[Violation]] = {}
    stale: list[Violation] = []
    for violation in sorted(violations, key=Violation.sort_key):
        if violation.cause is not None:
            causes.setdefault(violation.cause, []).append(violation)
        elif violation.rule == "CG401":
            stale.append(violation)
    # A moved page's manifest entries are out of date at both paths: the move says why.
    pages = {
        path: cause
        for cause in causes
        if cause.startswith("moved:") and "#" not in cause
        for path in cause.removeprefix("moved:").split(">")
    }
    for violation in stale:
        if violation.path in pages:
            causes[pages[violation.path]].append(violation)
    groups = [_group(cause, members) for cause, members in causes.items() if len(members) > 1]
    return tuple(sorted(groups, key=lambda g: (g.path, g.line, g.cause)))


def _group(cause: str, members: Sequence[Violation]) -> Group:
    severity: Severity = max((v.severity for v in members), key=lambda s: _WEIGHT.get(s, 0))
    if cause == DROPPED:
        return _dropped(cause, severity, members)
    if cause.startswith(COPIES):
        return _copied(cause, severity, members)
    return _moved(cause, severity, members)


def _copied(cause: str, severity: Severity, members: Sequence[Violation]) -> Group:
    """A copied folder's CG501 findings: one line, and every (copy, original) chunk pair."""
    first = members[0]
    pairs = tuple((v.chunk_id or "", original_of(v)) for v in members)
    message = copies_message(cause, len(members))
    return Group(cause, severity, first.path, first.line, message, first.fix, tuple(members), pairs)


def _dropped(cause: str, severity: Severity, members: Sequence[Violation]) -> Group:
    files = sorted({v.path for v in members})
    ids = sum(v.rule == "CG403" for v in members)
    sample = ", ".join(files[:3]) + (", ..." if len(files) > 3 else "")
    message = (
        f"{_count(len(files), 'file')} ({_count(ids, 'ID')}) left the corpus: the "
        f"configuration leaves them out now ({sample})"
    )
    fix = (
        "`chunkgate update` removes their manifest entries; if intended, update the "
        "citations and eval sets that use their IDs (`--verbose` lists each finding)"
    )
    return Group(cause, severity, files[0], 1, message, fix, tuple(members))


def _moved(cause: str, severity: Severity, members: Sequence[Violation]) -> Group:
    old, _, new = cause.removeprefix("moved:").partition(">")
    moves = [v for v in members if v.rule == "CG402"]
    links = [v for v in members if v.rule in ("CG404", "CG405")]
    parts = []
    if moves:
        parts.append(f"{_moved_what(old, new)}: {_count(len(moves), 'ID')} changed (CG402)")
    own = [v for v in links if v.path == new and "#" not in new]  # the moved page's links
    links = [v for v in links if v not in own]
    if links:
        rules = ", ".join(sorted({v.rule for v in links}))
        named = f"it ({rules})" if moves else f"{old} ({rules}), which moved to {new}"
        parts.append(f"{_links_where(links)} still name {named}")
    if own:
        parts.append(f"{_count(len(own), 'relative link')} of its own no longer land (CG405)")
        links = [*links, *own]
    if any(v.rule == "CG401" for v in members):
        parts.append("the manifest lists the old path (CG401)")
    fixes = []
    if moves:
        fixes.append("record the move: `chunkgate update --accept-moves`")
    if any(v.edit is not None for v in links):
        fixes.append("rewrite the links: `chunkgate fix-links`")
    elif links:
        fixes.append("link to the new place")
    first = moves[0] if moves else links[0]
    fix = "; ".join(fixes) + " (`--verbose` lists each finding)"
    return Group(cause, severity, first.path, first.line, "; ".join(parts), fix, tuple(members))


def _links_where(links: Sequence[Violation]) -> str:
    """``2 links (docs/a.md:5, docs/b.md:9)``; past three, ``18 links in 7 files``."""
    if len(links) <= 3:
        places = dict.fromkeys(f"{v.path}:{v.line}" for v in links)
        return f"{_count(len(links), 'link')} ({', '.join(places)})"
    return f"{_count(len(links), 'link')} in {_count(len({v.path for v in links}), 'file')}"


def _moved_what(old: str, new: str) -> str:
    """``docs/a.md moved to docs/b.md``, ``#json-mode renamed to #json``."""
    old_page, _, old_anchor = old.partition("#")
    new_page, _, new_anchor = new.partition("#")
    if not old_anchor:
        return f"{old} moved to {new}"
    if old_page == new_page:
        return f"{old_page}#{old_anchor} renamed to #{new_anchor}"
    return f"{old} moved to {new}"


def _count(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
