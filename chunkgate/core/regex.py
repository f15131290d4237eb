"""Module-level regular expressions, compiled on first use.

Every rule family and chunker is imported by every run, the pre-commit hook's
included, and most of their patterns serve content a given page does not
have: a hook run on five plain pages used 20 of the 104 patterns it used to
compile at import, and compiling the rest cost it 12-14 ms of about 0.17 s.
``lazy`` stands in for ``re.compile`` at module level: the pattern is compiled
when one of its attributes (``search``, ``finditer``, ``pattern``...) is first
read, and each attribute read is kept on the stand-in, so later reads cost
what they cost on the compiled pattern.

A stand-in is not an ``re.Pattern`` instance: pass ``lazy(...).compiled`` where
a real one is needed (``re.sub`` with a pattern object, ``isinstance``). A
pattern that does not compile fails at its first use, not at import;
``tests/test_regex.py`` compiles every module-level one.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast


class _Forwarded:
    """A ``re.Pattern`` attribute of ``Lazy``: its first read compiles the pattern and
    keeps the compiled pattern's attribute in the stand-in's ``__dict__``, which later
    reads find first (this descriptor defines no ``__set__``)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Lazy | None, owner: type) -> Any:
        if instance is None:
            return self
        value = getattr(instance.compiled, self.name)
        instance.__dict__[self.name] = value
        return value


class Lazy:
    """The stand-in ``lazy`` returns (see the module's docstring)."""

    pattern = _Forwarded()
    flags = _Forwarded()
    groups = _Forwarded()
    groupindex = _Forwarded()
    search = _Forwarded()
    match = _Forwarded()
    fullmatch = _Forwarded()
    finditer = _Forwarded()
    findall = _Forwarded()
    split = _Forwarded()
    sub = _Forwarded()
    subn = _Forwarded()
    scanner = _Forwarded()

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[Any] | None = None

    @property
    def compiled(self) -> re.Pattern[Any]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (to a worker) as the call that made it
        return (Lazy, (self._source, self._flags))

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags})"


def lazy(source: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, compiled on first use (a ``Lazy`` stand-in)."""
    return cast("re.Pattern[AnyStr]", Lazy(source, int(flags)))
