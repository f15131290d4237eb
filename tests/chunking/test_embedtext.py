"""The embed text: a breadcrumb line, then the chunk's text (issue 20)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkgate import ChunkOptions, chunk_text
from chunkgate.chunking.embedtext import EmbedSettings, breadcrumb, embed_text, module_path
from chunkgate.config.load import load_config
from chunkgate.core.errors import ConfigError

PAGE = """\
---
title: The Guide
---
Before any heading.

# Configuration

## Networking

The timeout defaults to 30s.
"""


def test_breadcrumb_is_title_then_heading_path() -> None:
    chunks = chunk_text(PAGE, "docs/guide.md")
    assert [breadcrumb(c) for c in chunks] == [
        "The Guide",
        "The Guide > Configuration > Networking",
    ]
    assert embed_text(chunks[1]) == (
        "The Guide > Configuration > Networking\n# Configuration\n\n## Networking\n\n"
        "The timeout defaults to 30s."
    )


def test_title_repeating_the_first_heading_is_said_once() -> None:
    chunks = chunk_text("---\ntitle: Setup\n---\n# Setup\n\nbody text\n", "a.md")
    assert breadcrumb(chunks[0]) == "Setup"


def test_no_breadcrumb_no_first_line() -> None:
    (chunk,) = chunk_text("just a preamble, no title\n", "a.md")
    assert breadcrumb(chunk) == ""
    assert embed_text(chunk) == chunk.text


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        pytest.param(EmbedSettings(), "The Guide > Configuration > Networking", id="default"),
        pytest.param(
            EmbedSettings(separator=" / "), "The Guide / Configuration / Networking", id="separator"
        ),
        pytest.param(EmbedSettings(breadcrumb=False), "", id="off"),
    ],
)
def test_settings(settings: EmbedSettings, expected: str) -> None:
    chunk = chunk_text(PAGE, "docs/guide.md")[1]
    assert breadcrumb(chunk, settings) == expected
    assert embed_text(chunk, settings) == (f"{expected}\n{chunk.text}" if expected else chunk.text)


def test_python_breadcrumb_is_module_then_symbol() -> None:
    source = "class Client:\n    def send(self):\n        return 1\n\n\ndef main():\n    pass\n"
    chunks = chunk_text(source, "src/httpx/_client.py", options=ChunkOptions(max=30, min=0))
    crumbs = {c.identity: breadcrumb(c) for c in chunks}
    assert crumbs["method-Client.send"] == "httpx._client > Client.send"
    assert crumbs["function-main"] == "httpx._client > main"


@pytest.mark.parametrize(
    ("path", "module"),
    [
        pytest.param("pkg/mod.py", "pkg.mod", id="module"),
        pytest.param("src/pkg/__init__.py", "pkg", id="package-src"),
        pytest.param("stubs/mod.pyi", "stubs.mod", id="stub"),
        pytest.param("__init__.py", "__init__", id="root-init"),
    ],
)
def test_module_path(path: str, module: str) -> None:
    assert module_path(path) == module


def test_parts_share_the_breadcrumb() -> None:
    body = "\n\n".join(f"Paragraph {n} " + "words " * 30 for n in range(8))
    chunks = chunk_text(f"# Top\n\n## Long\n\n{body}\n", "a.md", options=ChunkOptions(max=400))
    parts = [c for c in chunks if c.parts > 1]
    assert len(parts) > 2
    assert {breadcrumb(c) for c in parts} == {"Top > Long"}
    assert all(embed_text(c).startswith("Top > Long\n") for c in parts)


def test_setext_heading_over_two_lines_stays_one_line() -> None:
    (chunk,) = chunk_text("Two\nlines\n===\n\nbody text here\n", "a.md")
    assert "\n" not in breadcrumb(chunk)


def config_in(tmp_path: Path, yaml: str) -> object:
    (tmp_path / ".chunkgate.yaml").write_text(yaml, encoding="utf-8")
    return load_config(tmp_path).embed


def test_config_defaults_and_values(tmp_path: Path) -> None:
    assert config_in(tmp_path, "include: ['*.md']\n") == EmbedSettings()
    assert config_in(tmp_path, "embed: {breadcrumb: false, separator: ' | ', sizes: embed}\n") == (
        EmbedSettings(breadcrumb=False, separator=" | ", sizes="embed")
    )


@pytest.mark.parametrize(
    ("yaml", "message"),
    [
        pytest.param("embed: yes\n", "embed: expected a mapping", id="not-a-table"),
        pytest.param("embed: {crumbs: true}\n", "unknown key 'embed.crumbs'", id="unknown-key"),
        pytest.param(
            "embed: {breadcrumb: 1}\n", "embed.breadcrumb: expected true or false", id="bool"
        ),
        pytest.param(
            "embed: {separator: ''}\n", "embed.separator: expected a non-empty", id="empty"
        ),
        pytest.param(
            'embed: {separator: "a\\nb"}\n', "embed.separator: expected a non-empty", id="newline"
        ),
        pytest.param(
            "embed: {sizes: model}\n", "embed.sizes: expected 'text' or 'embed'", id="sizes"
        ),
    ],
)
def test_config_errors_name_the_key(tmp_path: Path, yaml: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        config_in(tmp_path, yaml)
    assert ".chunkgate.yaml" in str(caught.value)


def test_settings_refuse_a_bad_separator() -> None:
    with pytest.raises(ValueError, match=r"embed\.separator"):
        EmbedSettings(separator="")


LONG = "# Top\n\n## Long section\n\n" + "\n\n".join(
    f"Paragraph {n} " + "words " * 30 for n in range(12)
)


@pytest.mark.parametrize("unit", ["chars", "tokens"])
@pytest.mark.parametrize("headings", [True, False])
def test_sizes_embed_counts_the_breadcrumb_and_parts_fit(unit: str, headings: bool) -> None:
    embed = EmbedSettings(sizes="embed", headings=headings)
    limit = 400 if unit == "chars" else 100
    options = ChunkOptions(unit=unit, max=limit, min=0, embed=embed)  # type: ignore[arg-type]
    chunks = chunk_text(LONG, "a.md", options=options)
    assert len(chunks) > 3
    for chunk in chunks:
        seen = embed_text(chunk, embed)
        assert chunk.chars == len(seen)
        assert chunk.tokens == (len(seen.encode()) + 3) // 4
        assert (chunk.chars if unit == "chars" else chunk.tokens) <= limit
    plain = chunk_text(LONG, "a.md", options=ChunkOptions(unit=unit, max=limit, min=0))  # type: ignore[arg-type]
    assert [c.hash for c in plain if c.part == 1] == [c.hash for c in chunks if c.part == 1]
    assert all(c.chars == len(c.text) for c in plain)


def test_sizes_embed_counts_python_module_and_symbol() -> None:
    embed = EmbedSettings(sizes="embed")
    (chunk,) = chunk_text("def f():\n    return 1\n", "pkg/m.py", options=ChunkOptions(embed=embed))
    assert chunk.chars == len("pkg.m > f\n") + len(chunk.text)


def test_only_counted_settings_enter_the_fingerprint() -> None:
    default = ChunkOptions().fingerprint()
    assert ChunkOptions(embed=EmbedSettings(separator=" / ")).fingerprint() == default
    assert (
        ChunkOptions(embed=EmbedSettings(breadcrumb=False, sizes="embed")).fingerprint() == default
    )
    counted = ChunkOptions(embed=EmbedSettings(sizes="embed")).fingerprint()
    assert counted != default
    assert "embed.sizes=embed" in counted
    other = ChunkOptions(embed=EmbedSettings(sizes="embed", separator=" / ")).fingerprint()
    assert other != counted


def test_counting_the_embed_text_makes_the_manifest_stale(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner
    from helpers import commit_all, pin_git_env, write

    from chunkgate.cli import cli

    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    write(git_repo, "guide.md", PAGE)
    runner = CliRunner()
    assert runner.invoke(cli, ["update"]).exit_code == 0
    commit_all(git_repo)
    # The separator alone changes no size: the manifest stays current.
    write(git_repo, ".chunkgate.yaml", "embed: {separator: ' / '}\n")
    assert runner.invoke(cli, ["check", "--all"]).exit_code == 0
    write(git_repo, ".chunkgate.yaml", "embed: {sizes: embed}\n")
    stale = runner.invoke(cli, ["check", "--all", "--format", "json"])
    assert stale.exit_code == 1
    assert "CG401" in stale.output
    assert "embed.sizes" in stale.output


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        pytest.param("# A\n\n## B\n\nbody\n", "A > B\nbody", id="own-and-parent-heading"),
        pytest.param("Title\n=====\n\nbody\n", "Title\nbody", id="setext"),
        pytest.param("## A\n\n## B\n\nbody\n", "B\n## A\n\n## B\n\nbody", id="sibling-kept"),
        pytest.param(
            "<!-- a note -->\n# A\n\nbody\n", "A\n<!-- a note -->\n# A\n\nbody", id="comment-kept"
        ),
    ],
)
def test_headings_the_breadcrumb_holds_are_not_repeated(page: str, expected: str) -> None:
    chunks = chunk_text(page, "docs/page.md")
    assert embed_text(chunks[-1], EmbedSettings(headings=False)) == expected
    assert embed_text(chunks[-1]) == f"{breadcrumb(chunks[-1])}\n{chunks[-1].text}"
    off = EmbedSettings(breadcrumb=False, headings=False)
    assert embed_text(chunks[-1], off) == chunks[-1].text


MODULE = '''\
"""Parse dates written by people.

The formats are listed in FORMATS.
"""

import re


def parse(text):
    return re.match(r"\\d+", text)


class Calendar:
    """Days and weeks, as the calendar of the locale counts them."""

    def today(self):
        return 1

    def tomorrow(self):
        return 2
'''


def test_module_summary_puts_the_docstrings_first_line_in_definitions_embed_text() -> None:
    from chunkgate.ingest.lines import file_lines

    summary = EmbedSettings(module_summary=True)
    options = ChunkOptions(embed=summary, max=60)  # the class in parts: head and method
    chunks = chunk_text(MODULE, "pkg/dates.py", options=options)
    texts = {c.identity: embed_text(c, summary) for c in chunks}
    assert texts["function-parse"] == (
        "pkg.dates > parse\nParse dates written by people.\n"
        'def parse(text):\n    return re.match(r"\\d+", text)'
    )
    assert texts["method-Calendar.today"].split("\n")[:2] == [
        "pkg.dates > Calendar.today",
        "Parse dates written by people.",
    ]
    assert texts["class-Calendar"].split("\n")[1] == "Parse dates written by people."
    assert "Parse dates" not in texts["module"].split("\n")[1:2]  # the docstring is its text
    # Context only: the chunks' lines, sizes and hashes are what they are without it.
    plain = chunk_text(MODULE, "pkg/dates.py", options=ChunkOptions(max=60))
    assert [c._replace(embed_before="") for c in chunks] == plain
    assert not any(c.embed_before for c in plain)
    parse = [c for c in chunks if c.identity == "function-parse"]
    record = json.loads(file_lines(parse, MODULE, summary, blob=None, commit=None, model=None))
    assert record["embed_text"] == texts["function-parse"]
    assert record["text"] == parse[0].text


def test_module_summary_of_a_module_without_a_docstring_is_nothing() -> None:
    options = ChunkOptions(embed=EmbedSettings(module_summary=True))
    code = MODULE.split('"""\n\n', 1)[1]
    assert not any(c.embed_before for c in chunk_text(code, "pkg/dates.py", options=options))
