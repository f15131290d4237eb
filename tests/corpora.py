"""The shared corpora (real documentation sites), found beside the checkout as in CI."""

from __future__ import annotations

from pathlib import Path


def shared_corpus(name: str) -> Path:
    """``shared/corpora/NAME`` in a folder above this checkout; an error when absent, so
    that a machine without the corpora fails loudly rather than skipping."""
    for folder in Path(__file__).resolve().parents:
        candidate = folder / "shared" / "corpora" / name
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"shared/corpora/{name} not found above {Path(__file__).parent}")
