"""A small corpus for ``chunkgate report``'s tests: three folders, chunks under, within
and over the limits, known and new findings, and one pair of near copies (CG502)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import adopted_repo, invoke, write

PROSE = (
    "Configure the cache directory before the first run, because the default location "
    "is inside the temporary folder and is cleared on every reboot of the machine, which "
    "makes every build download its dependencies again and slows the pipeline down a lot."
)
INTRO = (
    "This project keeps the documentation of a small command line tool: how to install it, "
    "how to run it on a folder, and what each of its messages means for the reader."
)
STEPS = " ".join(
    f"Step {n} of the setup asks for the {word} and writes it to the settings file."
    for n, word in enumerate(("name", "folder", "port", "user", "token", "mirror"), 1)
)
FILES = {
    ".chunkgate.yaml": "size: {max: 400, min: 40}\nrules: {CG502: warning}\n",
    "README.md": f"# Project\n\n{INTRO}\n\n## Usage\n\n{INTRO[:120]}\n",
    "docs/guide.md": (
        "# Guide\n\nThe guide walks through a first run, step by step.\n\n"
        f"## Tiny\n\nShort.\n\n## Long\n\n{STEPS}\n\n"
        f"## Wide\n\n```text\n{'x' * 700}\n```\n"
    ),
    "docs/api/linux.md": f"# Linux\n\n{PROSE}\n",
    "docs/api/macos.md": f"# macOS\n\n{PROSE.replace('machine', 'Mac')}\n",
}
NEAR_COPIES = ("docs/api/linux.md#linux", "docs/api/macos.md#macos")


def report_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The corpus committed with its manifest (its findings known), then one new page
    with a new finding, uncommitted; the working folder."""
    repo = adopted_repo(tmp_path, monkeypatch, FILES)
    write(repo, "docs/new.md", "# New\n\nTiny.\n")
    return repo


def exported() -> list[dict[str, object]]:
    """``chunkgate export``'s records: every chunk, with its path, line and sizes."""
    result = invoke("export")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]
