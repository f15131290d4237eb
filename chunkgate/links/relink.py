"""A link written again to follow a move: the destination a broken link should have
now, in the form it was written in, and the edit of a page's text that makes it so.

A link is rewritten only where chunkgate knows the new place exactly: a move it
detected or the manifest records (never the closest anchor, which is a guess),
into a page it can name as the link named the old one. The anchor keeps its style
(percent-encoded stays percent-encoded) and the path its relative form (``./`` and
``../`` as written, a path from the linking page's folder); a site URL into a page
that moved (``/docs/setup/``) is the site's to map, so the finding names the new ID
and no edit is made.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import NamedTuple
from urllib.parse import quote, unquote

from chunkgate.sites.routes import MARKDOWN_SUFFIXES


class Edit(NamedTuple):
    """One link's destination, as written on ``line`` of ``path``, and what it becomes."""

    path: str
    line: int
    old: str
    new: str


def relinked(destination: str, source: str, old_page: str, new_id: str) -> str | None:
    """``destination`` (written in ``source``, landing on ``old_page``) pointing at
    ``new_id`` (``page#anchor``) instead; None when the link's form cannot name it."""
    new_page, _, anchor = new_id.partition("#")
    written, hash_sign, fragment = destination.partition("#")
    if new_page != old_page:
        moved = _moved_path(written, source, new_page)
        if moved is None:
            return None
        written = moved
    elif not hash_sign and not anchor:
        return destination
    if not anchor:
        return written + (f"#{fragment}" if hash_sign else "")
    return f"{written}#{_styled(anchor, fragment)}"


def _moved_path(written: str, source: str, new_page: str) -> str | None:
    """The path part of a link to a page now at ``new_page``, relative as written; None
    for a site URL or an absolute path (the site maps those, not the file tree)."""
    path, question, query = written.partition("?")
    if not path or path.startswith("/") or not unquote(path).lower().endswith(MARKDOWN_SUFFIXES):
        return None
    relative = posixpath.relpath(new_page, posixpath.dirname(source) or ".")
    if path.startswith("./") and not relative.startswith("../"):
        relative = f"./{relative}"
    if unquote(path) != path:
        relative = quote(relative)
    return relative + (f"?{query}" if question else "")


def _styled(anchor: str, written: str) -> str:
    """``anchor`` spelled as the old fragment was: percent-encoded when it was."""
    return quote(anchor, safe="") if unquote(written) != written else anchor


def moved_page(moved: Mapping[str, str], page: str) -> str | None:
    """Where the recorded moves took the sections of ``page``, when they went to one page."""
    return _one_page(moved, page, forward=True)


def moved_from_page(moved: Mapping[str, str], page: str) -> str | None:
    """The page whose sections moved to ``page``, when they all came from one."""
    return _one_page(moved, page, forward=False)


def _one_page(moved: Mapping[str, str], page: str, *, forward: bool) -> str | None:
    """The one other page at the far end of the moves from (``forward``) or into ``page``."""
    ends = set()
    for old, new in moved.items():
        here, there = (old, new) if forward else (new, old)
        if here.partition("#")[0] == page and there.partition("#")[0] != page:
            ends.add(there.partition("#")[0])
    return ends.pop() if len(ends) == 1 else None


def moving(moved: Mapping[str, str], page: str, source: str) -> bool:
    """Whether ``page`` moved, or ``source`` (linking to it) did."""
    return moved_page(moved, page) is not None or moved_from_page(moved, source) is not None


def into_moved_page(
    moved: Mapping[str, str], destination: str, source: str, page: str, went: str | None
) -> str | None:
    """A link into ``page``, gone to ``went``, rewritten there (its fragment through the
    section's own move, when it has one)."""
    if went is None:
        return None
    fragment = unquote(destination.partition("#")[2])
    new_id = follow(moved, f"{page}#{fragment}") if fragment else None
    if new_id is None or new_id.partition("#")[0] != went:
        new_id = f"{went}#{fragment}" if fragment else went
    return relinked(destination, source, page, new_id)


def follow(moved: Mapping[str, str], chunk_id: str) -> str | None:
    seen: set[str] = set()
    current = moved.get(chunk_id)
    while current is not None and current in moved and current not in seen:
        seen.add(current)
        current = moved[current]
    return current


def rewritten(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with each edit's destination replaced on its line, and nothing else
    changed: the destination is found after ``](``, ``]: `` or ``<`` on that line, so
    a link text or a code span that holds the same words is left as it is."""
    lines = text.split("\n")
    for edit in sorted(set(edits), key=lambda e: (e.line, e.old)):
        index = edit.line - 1
        if 0 <= index < len(lines):
            lines[index] = _replaced(lines[index], edit.old, edit.new)
    return "\n".join(lines)


def _replaced(line: str, old: str, new: str) -> str:
    # A destination is kept percent-encoded by the renderer; written decoded (`#über`),
    # it is rewritten decoded.
    body = line.rstrip("\r")
    ending = line[len(body) :]
    escaped = (old.replace("#", "\\#"), new.replace("#", "\\#"))
    for written, wanted in ((old, new), (unquote(old), unquote(new)), escaped):
        done = body
        for opener in ("](", "]: ", "]:", "<"):
            for closer in (")", " ", ">"):
                done = done.replace(f"{opener}{written}{closer}", f"{opener}{wanted}{closer}")
            if done.endswith(f"{opener}{written}"):
                done = done[: -len(written)] + wanted
        if done != body:
            return done + ending
    return line
