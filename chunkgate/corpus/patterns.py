"""gitignore-style path patterns, matched without importing pathspec when that is not needed.

The default corpus patterns (``**/*.md``, ``*.py``, ...) only ask whether a
path component ends with a suffix; answering that directly keeps pathspec's
import off the pre-commit hook path. Anything else goes to pathspec's
``GitIgnoreSpec``, compiled once, on first use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from chunkgate.core.regex import lazy

if TYPE_CHECKING:
    import pathspec

# "*.md" or "**/*.md": gitignore matches such a pattern against every path
# component, so a file below a folder named "x.md" matches too.
_SUFFIX_ONLY = lazy(r"(?:\*\*/)?\*(\.[A-Za-z0-9_+-]+)")


class PathPatterns:
    __slots__ = ("_spec", "_suffix_search", "_suffixes", "patterns")

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        suffixes = [_SUFFIX_ONLY.fullmatch(pattern) for pattern in self.patterns]
        self._suffixes = (
            tuple(found.group(1) for found in suffixes if found) if all(suffixes) else None
        )
        # A component ends with one of the suffixes where the suffix is followed
        # by "/" or the end of the path: one regex search instead of a split.
        self._suffix_search = (
            re.compile(f"(?:{'|'.join(map(re.escape, self._suffixes))})(?:/|\\Z)").search
            if self._suffixes
            else None
        )
        self._spec: pathspec.GitIgnoreSpec | None = None

    def __bool__(self) -> bool:
        return bool(self.patterns)

    @property
    def simple(self) -> bool:
        """Whether only suffixes are asked for (then pathspec is never needed)."""
        return self._suffixes is not None

    def match(self, path: str) -> bool:
        if self._suffixes is not None:
            return self._suffix_search is not None and self._suffix_search(path) is not None
        return self.spec().match_file(path)

    def deciding(self, path: str) -> str | None:
        """The pattern that makes ``path`` match (the last one that matches, as in
        gitignore); None when it does not match."""
        if self._suffixes is not None:
            found = self._suffix_search(path) if self._suffix_search is not None else None
            if found is None:
                return None
            suffix = found.group().rstrip("/")
            return next(p for p in reversed(self.patterns) if p.endswith(f"*{suffix}"))
        checked = self.spec().check_file(path)
        return (
            self.patterns[checked.index] if checked.include and checked.index is not None else None
        )

    def filter(self, paths: Iterable[str]) -> list[str]:
        """The paths that match, in their order (``match`` of each, in one pass)."""
        if self._suffixes is not None:
            search = self._suffix_search
            return [path for path in paths if search(path)] if search is not None else []
        match = self.spec().match_file
        return [path for path in paths if match(path)]

    def spec(self) -> pathspec.GitIgnoreSpec:
        """The compiled patterns (raises pathspec's error for an invalid pattern)."""
        if self._spec is None:
            import pathspec  # deferred: most patterns are simple suffixes (hook start-up)

            self._spec = pathspec.GitIgnoreSpec.from_lines(self.patterns)
        return self._spec
