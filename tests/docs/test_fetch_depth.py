"""Every workflow the docs show and the one `chunkgate init` prints check out the same
history (issue 42: `init` said `fetch-depth: 0` where the README said nothing)."""

from __future__ import annotations

import re

from docspages import ROOT, pages, readme

from chunkgate.cli.init import INIT_SNIPPETS

# The one recommendation: the whole history, so that the base is never fetched.
FETCH_DEPTH = "fetch-depth: 0   # the whole history: no base to fetch"
CHECKOUT = re.compile(r"^( *)- uses: actions/checkout@v\d+.*\n((?:\1  .*\n)*)", re.M)


def _checkouts() -> dict[str, list[str]]:
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    commented = "\n".join(line.removeprefix("#") for line in action.splitlines()) + "\n"
    texts = {"README.md": readme(), "action.yml": commented, "init": INIT_SNIPPETS}
    texts.update({f"docs/{name}": text for name, text in pages().items()})
    return {
        name: [match.group(2) for match in CHECKOUT.finditer(text)] for name, text in texts.items()
    }


def test_every_checkout_step_fetches_the_whole_history() -> None:
    found = _checkouts()
    for name in ("README.md", "action.yml", "init", "docs/github-action.md"):
        assert found[name], name
    for name, steps in found.items():
        for step in steps:
            assert FETCH_DEPTH in {line.strip() for line in step.splitlines()}, (name, step)
