"""The ``chunkgate`` console script and ``python -m chunkgate``."""

from __future__ import annotations

import sys


def main() -> None:
    # First of all, before click's import: the pre-commit hook's git listing.
    from chunkgate.hooks import start as hookstart

    hookstart.start(sys.argv[1:])
    # imported once git's listing has started: click's import and the command's run beside it
    from chunkgate.cli import main as run

    run()


if __name__ == "__main__":
    main()
