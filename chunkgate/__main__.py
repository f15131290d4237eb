"""The ``chunkgate`` console script and ``python -m chunkgate``."""

from __future__ import annotations

from chunkgate.cli import main

if __name__ == "__main__":
    main()
