"""The documentation's pages for the tests that hold them to the code: the README and
the MkDocs site under docs/ (what moved out of the README lives there now)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def page(name: str) -> str:
    """A page of the docs site by its path under docs/ (``rules/index.md``)."""
    return (DOCS / name).read_text(encoding="utf-8")


def pages() -> dict[str, str]:
    """Every page of the docs site, by its path under docs/."""
    return {
        path.relative_to(DOCS).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(DOCS.rglob("*.md"))
    }


def section(text: str, heading: str) -> str:
    """The text under a heading (any level) up to the next heading of any level."""
    for level in range(1, 7):
        mark = f"\n{'#' * level} {heading}\n"
        start = ("\n" + text).find(mark)
        if start != -1:
            body = ("\n" + text)[start + len(mark) :]
            end = body.find("\n#")
            return body[: end if end != -1 else None]
    raise AssertionError(f"no heading {heading!r}")


def gen_docs() -> ModuleType:
    """scripts/gen_docs.py, the generator of the configuration reference and rule pages."""
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
