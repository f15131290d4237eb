"""What a broken link's fix suggests: the closest anchor of its page, or the closest
corpus page to a missing one, found with bounded work per linking page.

``difflib`` compares a word with every choice (16 µs a pair of similar anchors):
a page of 5,600 links to missing anchors of a page of 2,300 headings took
minutes. A word is compared once per page it is looked up in, and the
comparisons one linking page may spend are capped (``BUDGET``): past the cap,
its fixes name no closest anchor or page. The cap counts per linking page, in
the order of its links, so a file's findings are the same in the hook and in a
whole-corpus run: a word is charged to each page that looks it up, once, even
when another page found it first.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection

# Comparisons (word x choice) one linking page may spend on suggestions: about
# 0.8 s at 16 µs a pair; a page with 500 broken links into a page of 100 headings
# is still served in full.
BUDGET = 50_000


class Suggestions:
    """The closest anchors and pages, for the broken links of one linking page at a time
    (``start`` before each page); ``paths`` are the corpus's Markdown files."""

    def __init__(self, paths: Collection[str]) -> None:
        self._paths = paths
        self._by_folder: dict[str, list[str]] | None = None
        self._by_name: dict[str, list[str]] = {}
        self._found: dict[tuple[str, str], str | None] = {}
        self._charged: set[tuple[str, str]] = set()
        self._left = BUDGET

    def start(self) -> None:
        """A new linking page: its own budget (what was found stays found)."""
        self._charged.clear()
        self._left = BUDGET

    def anchor(self, page: str, fragment: str, anchors: Collection[str]) -> str | None:
        """The anchor of ``page`` (which has ``anchors``) closest to ``fragment``."""
        return self._closest(f"#{page}", fragment, anchors)

    def page(self, missing: str) -> str | None:
        """The corpus page most like ``missing`` among those in its folder or of its name
        (an index of the corpus, not a fuzzy match against every path)."""
        if self._by_folder is None:
            self._by_folder = {}
            for path in self._paths:
                folder, _, name = path.rpartition("/")
                self._by_folder.setdefault(folder, []).append(path)
                self._by_name.setdefault(name, []).append(path)
        folder, _, name = missing.rpartition("/")
        near = dict.fromkeys(self._by_folder.get(folder, ()))
        near.update(dict.fromkeys(p for p in self._by_name.get(name, ()) if "/" in p))
        return self._closest("pages", missing, near)

    def _closest(self, among: str, word: str, choices: Collection[str]) -> str | None:
        key = (among, word)
        if key not in self._charged:
            if len(choices) > self._left:
                return None  # over this page's budget: no suggestion
            self._left -= len(choices)
            self._charged.add(key)
        if key not in self._found:
            found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
            self._found[key] = found[0] if found else None
        return self._found[key]
