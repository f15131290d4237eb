"""How far a long loop over a corpus's files has got, told to whoever shows it.

The loops that chunk files sit in the low layers (``parallel.ordered_map``, the
``diff`` sides, ``stats``' sizes); only the command line knows whether a terminal
is watching, and only ``report/`` draws. So a loop counts through ``tracked``,
which hands its items on untouched until a command installs a ``Meter`` for its
run (``metered``): as with ``logging``, the one place that knows where output
goes decides, and no function between the two carries a parameter for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

_T = TypeVar("_T")


class Meter(Protocol):
    """Shows the loops of one run."""

    def phase(
        self, what: str, total: int
    ) -> contextlib.AbstractContextManager[Callable[[int], None]]:
        """A loop over ``total`` files starts (``what`` names it: "chunking"); it calls the
        function it is given with the count done after each file."""

    def close(self) -> None:
        """The run ends (or fails): nothing of the meter is left on the screen."""


_meter: Meter | None = None


@contextlib.contextmanager
def metered(meter: Meter | None) -> Iterator[None]:
    """The loops of the ``with`` block report to ``meter`` (None: to nobody)."""
    global _meter  # noqa: PLW0603 - one run at a time is shown, as one terminal shows it
    previous, _meter = _meter, meter
    try:
        yield
    finally:
        _meter = previous
        if meter is not None:
            meter.close()


def tracked(items: Iterable[_T], total: int, what: str) -> Iterator[_T]:
    """``items`` as they come; a meter, when one is installed, counts them to ``total``."""
    if _meter is None:
        return iter(items)
    return _counted(_meter, items, total, what)


def _counted(meter: Meter, items: Iterable[_T], total: int, what: str) -> Iterator[_T]:
    with meter.phase(what, total) as done:
        # Counted when the next is asked for: the caller is through with this one.
        for count, item in enumerate(items, 1):
            yield item
            done(count)
