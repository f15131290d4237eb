"""The registries: rules and languages declared in one place each, everything else derived.

A toy rule family and a toy language are added here, in the test, and flow
through the whole tool with no other module touched.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, manifest_text, write

from chunkgate import rules
from chunkgate.chunking import chunk_text, languages, plain
from chunkgate.chunking.base import ChunkContext, Chunked
from chunkgate.chunking.extras import missing_extras
from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.config.template import default_config_yaml
from chunkgate.core.errors import ConfigError
from chunkgate.core.model import Violation
from chunkgate.gate import expected_header
from chunkgate.report.github import by_priority
from chunkgate.rules.base import FileContext, Finding, Option, Rule

# -- what the declarations derive ------------------------------------------------------------


def test_the_derived_rule_tables() -> None:
    """The thirteen rules the tool always had keep their names, defaults and display
    order; the rules added since (CG404, CG405, CG502, the export rules) fall in by priority."""
    assert [(rule.code, rule.name, rule.severity) for rule in rules.RULES.values()] == [
        ("CG001", "unreadable", "error"),
        ("CG101", "duplicate-id", "error"),
        ("CG201", "oversized", "error"),
        ("CG202", "undersized", "warning"),
        ("CG301", "denylisted-path", "error"),
        ("CG302", "license-text", "error"),
        ("CG303", "generated", "error"),
        ("CG304", "link-farm", "warning"),
        ("CG305", "data-dump", "error"),
        ("CG401", "stale-manifest", "error"),
        ("CG402", "unstable-id", "error"),
        ("CG403", "removed-id", "warning"),
        ("CG404", "broken-reference", "error"),
        ("CG405", "missing-page", "error"),
        ("CG501", "duplicate-content", "warning"),
        ("CG502", "near-duplicate", "off"),
        ("CG601", "empty-chunk", "error"),
        ("CG602", "missing-source", "error"),
        ("CG603", "missing-id", "warning"),
        ("CG604", "cut-fence", "error"),
        ("CG605", "mid-sentence", "warning"),
        ("CG606", "cut-table", "warning"),
        ("CG607", "no-heading", "warning"),
        ("CG608", "changed-id", "error"),
    ]
    assert rules.PRIORITY == [
        "CG001", "CG301", "CG302", "CG303", "CG305", "CG304", "CG402", "CG404", "CG405",
        "CG201", "CG101", "CG401", "CG601", "CG604", "CG608", "CG602",
        "CG403", "CG202", "CG501", "CG502", "CG603", "CG605", "CG606", "CG607",
    ]  # fmt: skip
    assert {"CG301", "CG302", "CG303", "CG305"} == rules.NEVER_EMBED
    assert {
        "CG001", "CG101", "CG201", "CG202", "CG301", "CG302", "CG303", "CG304", "CG305",
    } == rules.FILE_RULES  # fmt: skip
    assert [option.key for option in rules.options()] == [
        "denylist.paths",
        "denylist.content",
        "max_file_bytes",
        "links.anchors",
        "links.ignore",
        "near_duplicates.threshold",
    ]


def test_the_findings_fingerprint_follows_every_option_and_rule_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    default = Config(root=tmp_path).findings_fingerprint()
    assert default.startswith("rules=CG001.2,CG101.1,")
    assert default.endswith(";denylist.paths=;denylist.content=;max_file_bytes=1000000")
    paths = Config(root=tmp_path, options={"denylist.paths": ("a/**", "b/**")})
    assert "denylist.paths=a/**,b/**;" in paths.findings_fingerprint()
    content = Config(
        root=tmp_path, options={"denylist.content": (re.compile("x"), re.compile("y"))}
    )
    assert "denylist.content=x;y;" in content.findings_fingerprint()
    size = rules.RULES["CG201"]
    monkeypatch.setitem(rules.RULES, "CG201", size._replace(version=2))
    assert "CG201.2," in Config(root=tmp_path).findings_fingerprint()


def test_languages_derive_the_default_corpus_and_the_default_config() -> None:
    assert languages.default_include() == (
        "**/*.md",
        "**/*.markdown",
        "**/*.mdx",
        "**/*.py",
        "**/*.pyi",
    )
    assert (
        'include: ["**/*.md", "**/*.markdown", "**/*.mdx", "**/*.py", "**/*.pyi"]'
        in default_config_yaml()
    )
    assert languages.language_of("docs/A.MD") == "markdown"
    assert languages.language_of("pkg/mod.pyi") == "python"
    assert languages.language_of("notes.rst") == "rst"
    assert languages.language_of("notes.adoc") == "text"
    assert languages.language_of("Makefile") == "text"
    assert languages.language_of("docs/.md") == "text"  # a dot file, not a suffix


# -- a toy rule family ----------------------------------------------------------------------

TOY_THRESHOLD: Option[int] = Option(
    "toy.threshold", "positive_int", 2, "how many TOYs are too many"
)


def _toy_check(file: FileContext) -> Iterator[Finding]:
    limit = file.config.option(TOY_THRESHOLD)
    for chunk in file.chunks:
        count = chunk.text.count("TOY")
        if count >= limit:
            yield Finding("CG901", chunk.start_line, f"{count} TOYs", "say it once", chunk=chunk)


def _toy_family() -> types.ModuleType:
    family = types.ModuleType(
        "toyrules",
        "Toys.\n\n## CG901 too-many-toys\n\nFires on TOY TOY.\n\nFires:\n\n    TOY TOY\n\n"
        "Passes:\n\n    TOY\n",
    )
    family.RULES = (  # type: ignore[attr-defined]
        Rule("CG901", "too-many-toys", "warning", "a chunk says TOY too often", priority=5,
             options=(TOY_THRESHOLD,)),
    )  # fmt: skip
    family.check = _toy_check  # type: ignore[attr-defined]
    return family


@pytest.fixture
def toy_rule() -> Iterator[types.ModuleType]:
    family = _toy_family()
    rules.register(family)
    yield family
    rules.unregister(family)
    assert "CG901" not in rules.RULES


def chunk_toy_windows(ctx: ChunkContext, language: languages.Language) -> Chunked:
    """As a chunker does when its extra is missing: text windows."""
    return Chunked(plain.chunk_plain(ctx, language=language.name))


# A language chunked by an optional extra that is not installed here.
TOY_EXTRA = languages.Language(
    "toyx",
    (".toyx",),
    f"{__name__}:chunk_toy_windows",
    {"card": "toy card", "text": "text window"},
    default=True,
    extra="toys",
    needs=("chunkgate_toy_grammar_not_installed",),
    display="Toy",
)


@pytest.fixture
def toy_extra() -> Iterator[languages.Language]:
    languages.register(TOY_EXTRA)
    yield TOY_EXTRA
    languages.unregister("toyx")


def test_a_language_whose_extra_is_missing_is_said_once_and_chunked_as_windows(
    toy_extra: languages.Language, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert missing_extras(["a.toyx", "b.toyx", "c.md"]) == [
        "2 Toy files chunked as text windows: install chunkgate with its `toys` extra to "
        "chunk them by toy card (every machine that checks this corpus needs it, or "
        "their manifests differ)"
    ]
    repo = _repo(tmp_path, {"a.toyx": SECTION * 3, "b.toyx": SECTION, "docs/a.md": SECTION})
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["update"])
    assert result.exit_code == 0, result.output
    assert result.output.count("install chunkgate with its `toys` extra") == 1, result.output
    assert '"id": "a.toyx#~1"' in manifest_text(repo)


def test_a_language_with_an_extra_names_what_the_extra_installs() -> None:
    with pytest.raises(ValueError, match="toyx: an extra needs the modules it installs"):
        languages.register(TOY_EXTRA._replace(needs=()))
    assert languages.language_of("a.toyx") == "text"


def _repo(root: Path, files: dict[str, str]) -> Path:
    from helpers import make_repo

    repo = make_repo(root)
    for path, text in files.items():
        write(repo, path, text)
    commit_all(repo, "docs")
    return repo


SECTION = "Text long enough to pass the minimum chunk size without any trouble at all.\n"


def test_a_toy_rule_flows_through_config_check_docs_and_ci_output(
    toy_rule: types.ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, {"docs/a.md": f"# A\n\n{SECTION}TOY TOY TOY\n\n## B\n\n{SECTION}TOY\n"})
    monkeypatch.chdir(repo)
    runner = CliRunner()
    assert runner.invoke(cli, ["update", "-q"]).exit_code == 0
    result = runner.invoke(cli, ["check", "--strict", "--format", "json"])
    assert result.exit_code == 0, result.output  # a warning
    found = [v for v in json.loads(result.output)["violations"] if v["rule"] == "CG901"]
    assert [(v["chunk_id"], v["message"], v["severity"]) for v in found] == [
        ("docs/a.md#a", "3 TOYs", "warning")
    ]
    # Its option is a configuration key, validated and part of the findings fingerprint.
    write(repo, ".chunkgate.yaml", "toy: {threshold: 1}\nrules: {CG901: error}\n")
    config = load_config(repo)
    assert config.option(TOY_THRESHOLD) == 1
    assert ";toy.threshold=1" in config.findings_fingerprint()
    assert expected_header(config).rules != expected_header(Config(root=repo)).rules
    result = runner.invoke(cli, ["check", "--strict", "--format", "json"])
    assert result.exit_code == 1
    assert [v["chunk_id"] for v in json.loads(result.output)["violations"]] == [
        "docs/a.md#a",
        "docs/a.md#b",
    ]
    write(repo, ".chunkgate.yaml", "toy: {treshold: 1}\n")
    with pytest.raises(ConfigError, match=r"unknown key 'toy.treshold' \(did you mean"):
        load_config(repo)
    assert "  # how many TOYs are too many\n  threshold: 2\n" in default_config_yaml()
    # Documented, and ordered by its declared priority.
    assert "Fires on TOY TOY." in runner.invoke(cli, ["rules", "CG901"]).output
    assert "CG901  too-many-toys" in runner.invoke(cli, ["rules"]).output
    assert rules.PRIORITY[0] == "CG901"
    ordered = by_priority(
        [
            Violation("CG001", "unreadable", "warning", "a.md", 1, None, "x"),
            Violation("CG901", "too-many-toys", "warning", "b.md", 1, None, "y"),
        ]
    )
    assert [v.rule for v in ordered] == ["CG901", "CG001"]


def test_findings_of_a_rule_no_longer_registered_are_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    family = _toy_family()
    rules.register(family)
    repo = _repo(tmp_path, {"docs/a.md": f"# A\n\n{SECTION}TOY TOY\n"})
    monkeypatch.chdir(repo)
    runner = CliRunner()
    try:
        assert runner.invoke(cli, ["update", "-q"]).exit_code == 0
        assert '"rule": "CG901"' in manifest_text(repo)
    finally:
        rules.unregister(family)
    result = runner.invoke(cli, ["check", "docs/a.md", "--format", "json"])
    assert result.exception is None, result.output
    assert "CG901" not in result.output


# -- a toy language -------------------------------------------------------------------------


def chunk_toy(ctx: ChunkContext, language: languages.Language) -> Chunked:
    """A card starts at each line beginning with '@'; its identity is the word after it."""
    starts = [i for i, line in enumerate(ctx.lines) if line.startswith("@")]
    chunks = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(ctx.lines)
        while end > start + 1 and not ctx.lines[end - 1].strip():
            end -= 1
        name = ctx.lines[start][1:].split()[0]
        chunks.append(ctx.make(f"card-{name}", "card", "toy", start + 1, end, body_line=start + 2))
    return Chunked(chunks)


TOY = languages.Language(
    "toy",
    (".toy",),
    f"{__name__}:chunk_toy",
    {"card": "toy card"},
    default=True,
    explicit_id="`@{identity}` above the card",
    explicit_kinds=("card",),
    duplicate_fix="give each card its own name",
)


@pytest.fixture
def toy_language() -> Iterator[languages.Language]:
    languages.register(TOY)
    yield TOY
    languages.unregister("toy")
    assert languages.language_of("a.toy") == "text"


def test_a_toy_language_flows_through_chunks_check_update_and_diff(
    toy_language: languages.Language, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = f"@alpha\n{SECTION}\n@beta\n{SECTION}"
    assert [c.id for c in chunk_text(cards, "deck.toy")] == [
        "deck.toy#card-alpha",
        "deck.toy#card-beta",
    ]
    assert "**/*.toy" in languages.default_include()
    repo = _repo(tmp_path, {"cards/deck.toy": cards, "docs/a.md": f"# A\n\n{SECTION}"})
    monkeypatch.chdir(repo)
    runner = CliRunner()
    listed = runner.invoke(cli, ["chunks", "--format", "json", "cards/deck.toy"])
    assert [(c["id"], c["kind"], c["language"]) for c in json.loads(listed.output)] == [
        ("cards/deck.toy#card-alpha", "card", "toy"),
        ("cards/deck.toy#card-beta", "card", "toy"),
    ]
    assert runner.invoke(cli, ["update", "-q"]).exit_code == 0
    assert '"id": "cards/deck.toy#card-beta"' in manifest_text(repo)
    commit_all(repo, "manifest")
    assert runner.invoke(cli, ["check"]).exit_code == 0
    # An oversized card is named with the language's own noun.
    write(repo, "cards/deck.toy", f"@alpha\n{SECTION * 40}\n@beta\n{SECTION}")
    result = runner.invoke(cli, ["check", "--format", "json", "cards/deck.toy"])
    messages = [v["message"] for v in json.loads(result.output)["violations"]]
    assert any(m.startswith("toy card is ") and "over size.max" in m for m in messages)
    # A renamed card is a move; its fix names the language's way to keep the ID.
    write(repo, "cards/deck.toy", f"@alpha\n{SECTION}\n@gamma\n{SECTION}")
    result = runner.invoke(cli, ["check", "--format", "json", "cards/deck.toy"])
    moved = [v for v in json.loads(result.output)["violations"] if v["rule"] == "CG402"]
    assert [v["chunk_id"] for v in moved] == ["cards/deck.toy#card-gamma"]
    assert "`@card-beta`" in moved[0]["fix"]
    diff = runner.invoke(cli, ["diff", "--format", "json"])
    moves = json.loads(diff.output)["moved"]
    assert [(m["from"], m["to"]) for m in moves] == [
        ("cards/deck.toy#card-beta", "cards/deck.toy#card-gamma")
    ]
