"""A generator config appearing changes the chunking settings (CG401), not the IDs' stability."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import check_json, commit_all, write

from chunkgate.cli import cli

BODY = "A sentence of prose that is long enough to be a chunk of its own.\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    return cli_repo


def _check(*args: str) -> tuple[int, list[dict[str, object]]]:
    code, report = check_json(*args)
    return code, report["violations"]


def test_a_generator_config_appearing_is_a_settings_change(repo: Path) -> None:
    for index in range(30):
        text = f"# Setup & Usage {index}\n\n{BODY}\n## Q&A\n\nAsk about page {index}: {BODY}"
        write(repo, f"docs/page-{index}.md", text)
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo)
    assert _check() == (0, [])

    write(repo, "mkdocs.yml", "site_name: x\n")  # the files under docs/ are now MkDocs pages
    for args in ((), ("docs/page-3.md",)):
        code, violations = _check(*args)
        assert code == 1
        assert [v["rule"] for v in violations] == ["CG401"]
        message = str(violations[0]["message"])
        assert "other chunking settings" in message
        assert "heading anchors github → mkdocs (mkdocs.yml) for docs/, github elsewhere" in message

    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    outline = CliRunner().invoke(cli, ["outline", "--format", "json", "docs/page-3.md"])
    entries = json.loads(outline.output)
    assert [e["id"] for e in entries] == ["docs/page-3.md#setup-usage-3", "docs/page-3.md#qa"]
    assert {e["anchors"] for e in entries} == {"mkdocs (mkdocs.yml)"}
    commit_all(repo)
    assert _check() == (0, [])


def test_outline_and_chunks_say_which_flavour_is_in_force(repo: Path) -> None:
    write(repo, "site/_config.yml", "title: x\n")
    write(repo, "site/a.md", f"## Setup & Usage\n{{: #setup}}\n\n### Fixes\n\n{BODY}")
    write(repo, "README.md", f"# Setup & Usage\n\n{BODY}")
    commit_all(repo)
    text = CliRunner().invoke(cli, ["outline", "site/a.md", "README.md"]).output
    assert "site/a.md  anchors: kramdown (site/_config.yml)" in text
    assert "#setup  :1" in text
    assert "README.md  anchors: github\n" in text
    chunks = CliRunner().invoke(cli, ["chunks", "site/a.md", "README.md"])
    assert "site/a.md#fixes " in chunks.output  # the heading above has no body of its own
    assert "README.md#setup--usage " in chunks.output
    assert "anchors: kramdown (site/_config.yml) for site/a.md" in chunks.output
    assert "anchors: github for README.md" in chunks.output


def test_markdown_anchors_forces_a_flavour_and_rejects_unknown_ones(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "markdown: {anchors: hugo:blackfriday}\n")
    write(repo, "a.md", f"# Setup & Usage\n\n{BODY}")
    result = CliRunner().invoke(cli, ["outline", "--format", "json", "a.md"])
    assert json.loads(result.output)[0]["id"] == "a.md#setup-usage"
    assert json.loads(result.output)[0]["anchors"] == "hugo blackfriday (markdown.anchors)"
    write(repo, ".chunkgate.yaml", "markdown: {anchors: sphinx}\n")
    result = CliRunner().invoke(cli, ["outline", "a.md"])
    assert result.exit_code == 2
    assert "markdown.anchors" in result.output
    assert "Traceback" not in result.output
