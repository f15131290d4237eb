"""Corpus rules in ``check`` and ``update``: a family's ``check_corpus``, called from the
registry (CG404, CG502, and a toy one added by the test alone)."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, committed, invoke, shard, write

from chunkgate import rules
from chunkgate.cli import cli
from chunkgate.core.model import Violation
from chunkgate.rules.base import CorpusContext, Rule

PROSE = (
    "Configure the cache directory before the first run, because the default location "
    "is inside the temporary folder and is cleared on every reboot of the machine, which "
    "makes every build download its dependencies again and slows the pipeline down a lot."
)
NEAR = "rules: {CG502: warning}\n"


@pytest.fixture
def near_copies(cli_repo: Path) -> Path:
    """Two pages whose sections are 95% alike, CG502 turned on."""
    write(cli_repo, ".chunkgate.yaml", NEAR)
    write(cli_repo, "docs/index.md", "# Docs\n\nThe documentation of a project, in a few pages.\n")
    committed(cli_repo)  # the manifest committed: what follows is new
    write(cli_repo, "docs/linux.md", f"# Linux\n\n## Cache\n\n{PROSE}\n")
    mac = PROSE.replace("machine", "Mac")
    write(cli_repo, "docs/macos.md", f"# macOS\n\n## Cache\n\n{mac}\n")
    commit_all(cli_repo)
    return cli_repo


def _near(output: str) -> list[str]:
    return [line for line in output.splitlines() if "CG502" in line]


def test_near_duplicates_are_found_by_check_and_update(near_copies: Path) -> None:
    (line,) = _near(invoke("check").output)  # (and CG401: the manifest is not updated)
    assert "docs/macos.md:1: warning CG502" in line
    assert "the same text as docs/linux.md#cache" in line
    result = invoke("update")
    assert result.exit_code == 0, result.output  # a warning fails nothing
    assert '"rule": "CG502"' in shard(near_copies, "docs/macos.md").read_text()
    commit_all(near_copies)
    assert _near(invoke("check").output) == []  # recorded and committed: known
    assert len(_near(invoke("check", "--show-known").output)) == 1


def test_near_duplicates_without_the_extra_say_which_extra(
    near_copies: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "datasketch", None)  # not installed: ImportError
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 2
    assert "neardup extra" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_near_duplicates_off_by_default(cli_repo: Path) -> None:
    write(cli_repo, "docs/linux.md", f"# Linux\n\n## Cache\n\n{PROSE}\n")
    write(cli_repo, "docs/macos.md", f"# macOS\n\n## Cache\n\n{PROSE.replace('machine', 'Mac')}\n")
    committed(cli_repo)
    assert _near(invoke("check").output) == []


def _toy_family() -> types.ModuleType:
    """A corpus rule as a third party writes one: ``RULES`` and ``check_corpus``."""
    family = types.ModuleType("toy_corpus_rule", "A toy corpus rule.\n\nCG999 toy-corpus\n")
    rule = Rule("CG999", "toy-corpus", "error", "the corpus has a file named TODO.md", 99)
    family.RULES = (rule,)  # type: ignore[attr-defined]

    def check_corpus(context: CorpusContext) -> Iterator[Violation]:
        for path in context.files:
            if path.endswith("TODO.md"):
                yield Violation(
                    rule.code, rule.name, "error", path, 1, None, "a TODO page", "finish it"
                )

    family.check_corpus = check_corpus  # type: ignore[attr-defined]
    return family


def test_a_corpus_rule_is_one_module_and_one_registry_entry(cli_repo: Path) -> None:
    write(cli_repo, "docs/index.md", f"# Docs\n\n{PROSE}\n")
    write(cli_repo, "docs/TODO.md", f"# To do\n\n{PROSE.replace('cache', 'store')}\n")
    committed(cli_repo)
    family = _toy_family()
    rules.register(family)
    try:
        assert rules.RULES["CG999"].name == "toy-corpus"
        result = CliRunner().invoke(cli, ["check"])
        assert result.exit_code == 1, result.output
        assert "CG999" in result.output
        assert "docs/TODO.md" in result.output
        hook = CliRunner().invoke(cli, ["check", "--hook", "docs/index.md"])
        assert "CG999" not in hook.output  # the hook's files only
    finally:
        rules.unregister(family)
    assert "CG999" not in CliRunner().invoke(cli, ["check"]).output
