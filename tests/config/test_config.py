from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import pin_git_env, write

from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.languages import default_include
from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.config.model import Config
from chunkgate.config.template import default_config_yaml
from chunkgate.core.errors import ConfigError
from chunkgate.rules import RULES, denylist


@pytest.fixture
def root(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    return git_repo.resolve()


def load_yaml(root: Path, text: str) -> Config:
    write(root, ".chunkgate.yaml", text)
    return load_config(root)


def test_no_configuration_gives_the_defaults(root: Path) -> None:
    config = load_config(root)
    assert config == Config(root=root)
    assert config.source is None
    assert config.include == default_include()
    assert config.exclude == ()
    assert config.manifest == "chunkgate.manifest"
    assert config.chunking == ChunkOptions()
    assert config.chunking.max == 2000
    assert config.chunking.min == 40
    assert config.chunking.unit == "chars"
    assert dict(config.severities) == {code: rule.severity for code, rule in RULES.items()}
    assert config.option(denylist.PATHS) == ()
    assert config.option(denylist.CONTENT) == ()
    assert config.max_file_bytes == 1_000_000


def test_default_config_yaml_loads_as_exactly_the_defaults(root: Path) -> None:
    config = load_yaml(root, default_config_yaml())
    assert config.source == root / ".chunkgate.yaml"
    assert config == Config(root=root, source=root / ".chunkgate.yaml")


def test_default_config_yaml_names_every_key_and_rule() -> None:
    for key in ("include:", "exclude:", "manifest:", "size:", "unit:", "max:", "min:"):
        assert key in default_config_yaml()
    for key in ("overlap:", "split:", "tokenizer:", "split_level:", "split_classes:", "rules:"):
        assert key in default_config_yaml()
    for key in ("denylist:", "paths:", "content:", "max_file_bytes:"):
        assert key in default_config_yaml()
    for code in RULES:
        assert f"#   {code}: " in default_config_yaml()


def test_start_in_a_subfolder_finds_the_root(root: Path) -> None:
    write(root, ".chunkgate.yaml", "size: {max: 500}\n")
    sub = root / "docs" / "guide"
    sub.mkdir(parents=True)
    config = load_config(sub)
    assert config.root == root
    assert config.chunking.max == 500
    assert load_config(sub / "file.md").root == root


def test_start_defaults_to_cwd(root: Path) -> None:
    write(root, ".chunkgate.yaml", "size: {max: 700}\n")
    assert load_config().chunking.max == 700


def test_outside_git_the_start_folder_is_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_git_env(monkeypatch)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    plain = tmp_path / "plain"
    write(plain, ".chunkgate.yml", "size: {min: 5}\n")
    config = load_config(plain)
    assert config.root == plain.resolve()
    assert config.source == plain.resolve() / ".chunkgate.yml"
    assert config.chunking.min == 5


def test_values_are_read(root: Path) -> None:
    config = load_yaml(
        root,
        """
include: ["docs/**/*.md"]
exclude: ["docs/generated/**"]
manifest: ./meta/chunks
size: {unit: tokens, max: 512, min: 0, overlap: 64, split: false}
tokenizer: tiktoken:cl100k_base
markdown: {split_level: 2}
python: {split_classes: false}
rules: {CG202: error, cg501: off, CG304: "off"}
denylist: {paths: ["secrets/**"], content: ["(?i)confidential"]}
max_file_bytes: 5000
""",
    )
    assert config.include == ("docs/**/*.md",)
    assert config.exclude == ("docs/generated/**",)
    assert config.manifest == "meta/chunks"
    assert config.chunking == ChunkOptions(
        unit="tokens",
        max=512,
        min=0,
        overlap=64,
        split_level=2,
        split_classes=False,
        tokenizer="tiktoken:cl100k_base",
        split=False,
    )
    assert config.severity("CG202") == "error"
    assert config.severity("CG501") == "off"
    assert config.severity("CG304") == "off"
    assert config.severity("CG201") == "error"
    assert config.option(denylist.PATHS) == ("secrets/**",)
    assert config.option(denylist.CONTENT) == (re.compile("(?i)confidential"),)
    assert config.max_file_bytes == 5000


def test_config_is_frozen_and_hashable(root: Path) -> None:
    config = load_yaml(root, "rules: {CG202: off}\nexclude: [a.md]\n")
    with pytest.raises(AttributeError):
        config.manifest = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.severities["CG202"] = "error"  # type: ignore[index]
    assert hash(config) == hash(load_config(root))
    assert "include_spec" not in repr(config)


def test_library_config_fills_in_default_severities(tmp_path: Path) -> None:
    config = Config(root=tmp_path, severities={"CG201": "off"}, include=["*.md"])  # type: ignore[arg-type]
    assert config.severity("CG201") == "off"
    assert config.severity("CG101") == "error"
    assert config.include == ("*.md",)


@pytest.mark.parametrize(
    ("path", "selected"),
    [
        pytest.param("README.md", True, id="root-markdown"),
        pytest.param("docs/deep/guide.markdown", True, id="nested-markdown"),
        pytest.param("pkg/mod.py", True, id="python"),
        pytest.param("pkg/mod.pyi", True, id="stub"),
        pytest.param("page.mdx", True, id="mdx"),
        pytest.param("notes.txt", False, id="not-included"),
        pytest.param("docs/generated/api.md", False, id="excluded"),
        pytest.param("chunkgate.manifest/docs/a.md.jsonl", False, id="manifest"),
        pytest.param("chunkgate.manifest.jsonl", False, id="legacy-manifest"),
        pytest.param(".chunkgate.yaml", False, id="config"),
    ],
)
def test_selects_default_include_with_exclude(root: Path, path: str, selected: bool) -> None:
    config = load_yaml(root, "exclude: ['docs/generated/']\n")
    assert config.selects(path) is selected


@pytest.mark.parametrize(
    "path",
    [
        "CHANGELOG.md",
        "docs/changelog.md",
        "CHANGES.md",
        "CHANGELOG-2.x.md",
        "HISTORY.md",
        "NEWS.md",
        "docs/en/docs/release-notes.md",
        "RELEASE_NOTES.md",
        "pkg/ReleaseNotes.md",
    ],
)
def test_changelogs_are_out_of_the_default_corpus(root: Path, path: str) -> None:
    assert not load_yaml(root, "").selects(path)


@pytest.mark.parametrize(
    "path",
    ["docs/history-design-future.md", "docs/newsletter.md", "NewScratch.md", "news/post.md"],
)
def test_pages_named_like_changelogs_are_not_changelogs(root: Path, path: str) -> None:
    assert load_yaml(root, "").selects(path)


@pytest.mark.parametrize(
    ("include", "back", "still_out"),
    [
        pytest.param("/CHANGELOG.md", ["CHANGELOG.md"], ["docs/CHANGELOG.md"], id="one-file"),
        pytest.param(
            "CHANGELOG.md", ["CHANGELOG.md", "docs/CHANGELOG.md"], ["CHANGES.md"], id="a-name"
        ),
        pytest.param(
            "**/CHANGELOG*", ["CHANGELOG.md", "docs/CHANGELOG.md"], ["HISTORY.md"], id="all"
        ),
        pytest.param("docs/release-notes.md", ["docs/release-notes.md"], ["NEWS.md"], id="docs"),
    ],
)
def test_one_include_line_brings_changelogs_back(
    root: Path, include: str, back: list[str], still_out: list[str]
) -> None:
    # The default include plus one line that names them.
    config = load_yaml(root, f"include: ['**/*.md', '**/*.py', '{include}']\n")
    assert [config.selects(path) for path in back] == [True] * len(back)
    assert [config.selects(path) for path in still_out] == [False] * len(still_out)
    assert config.selects("docs/guide.md")


def test_exclude_still_wins_over_a_changelog_include(root: Path) -> None:
    config = load_yaml(root, "include: ['**/*.md', 'CHANGELOG.md']\nexclude: ['CHANGELOG.md']\n")
    assert not config.selects("CHANGELOG.md")


def test_selects_never_returns_the_manifest_even_when_included(root: Path) -> None:
    config = load_yaml(root, "include: ['**/*']\nmanifest: meta/chunks\n")
    assert config.selects("meta/other.md")
    assert config.selects("meta/chunks.md")  # beside the folder, not in it
    assert not config.selects("meta/chunks/a.md.jsonl")
    assert not config.selects("meta/chunks/manifest.json")
    assert not config.selects(".chunkgate.yaml")
    assert not config.selects(".chunkgate.yml")


@pytest.mark.parametrize(
    "yaml_text",
    [
        pytest.param("", id="defaults"),
        pytest.param("exclude: ['docs/generated/']\n", id="exclude"),
        pytest.param("include: ['**/*']\nmanifest: meta/chunks\n", id="everything"),
        pytest.param("include: ['docs/**/*.md', '!docs/old/']\n", id="pathspec"),
        pytest.param("include: ['*.txt']\nexclude: ['*.md']\n", id="nothing-markdown"),
        pytest.param("include: ['**/*.md', 'CHANGELOG.md']\n", id="a-changelog-back"),
    ],
)
def test_selected_is_selects_in_one_pass(root: Path, yaml_text: str) -> None:
    config = load_yaml(root, yaml_text)
    paths = [
        "README.md", "docs/deep/guide.markdown", "pkg/mod.py", "page.mdx", "notes.txt",
        "docs/generated/api.md", "docs/old/a.md", "docs/new/b.md", "meta/chunks/a.md.jsonl",
        "meta/other.md", "chunkgate.manifest/README.md.jsonl", ".chunkgate.yaml",
        "x.md/inner.txt", "CHANGELOG.md", "docs/changelog.md", "docs/history-design-future.md",
    ]  # fmt: skip
    expected = [path for path in paths if config.selects(path)]
    assert config.selected(paths) == expected
    assert config.selected(reversed(paths)) == expected[::-1]
    assert 0 < len(expected) < len(paths)


def test_pyproject_table(root: Path) -> None:
    write(
        root,
        "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.chunkgate]\nexclude = ["old/**"]\n'
        "[tool.chunkgate.size]\nmax = 900\n[tool.chunkgate.rules]\nCG202 = false\n",
    )
    config = load_config(root)
    assert config.source == root / "pyproject.toml"
    assert config.exclude == ("old/**",)
    assert config.chunking.max == 900
    assert config.severity("CG202") == "off"


def test_pyproject_errors_name_the_table(root: Path) -> None:
    write(root, "pyproject.toml", "[tool.chunkgate]\nszie = 1\n")
    with pytest.raises(ConfigError) as caught:
        load_config(root)
    assert str(caught.value) == (
        "pyproject.toml: unknown key 'tool.chunkgate.szie' (did you mean 'tool.chunkgate.size'?)"
    )
    write(root, "pyproject.toml", "[tool.chunkgate.size]\nmax = 'big'\n")
    with pytest.raises(ConfigError, match=r"pyproject\.toml: tool\.chunkgate\.size\.max: "):
        load_config(root)
    write(root, "pyproject.toml", "[tool]\nchunkgate = 3\n")
    with pytest.raises(ConfigError, match=r"pyproject\.toml: tool\.chunkgate: expected a mapping"):
        load_config(root)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('[project]\nname = "x"\n', id="no-table"),
        pytest.param('[project]\ndependencies = ["chunkgate"]\n', id="only-a-dependency"),
        pytest.param("this is [not toml\n", id="broken-but-not-ours"),
    ],
)
def test_pyproject_without_our_table_gives_defaults(root: Path, text: str) -> None:
    write(root, "pyproject.toml", text)
    config = load_config(root)
    assert config.source is None
    assert config == Config(root=root)


def test_yaml_wins_over_pyproject(root: Path) -> None:
    write(root, "pyproject.toml", "[tool.chunkgate.size]\nmax = 900\n")
    write(root, ".chunkgate.yaml", "size: {max: 300}\n")
    config = load_config(root)
    assert config.source == root / ".chunkgate.yaml"
    assert config.chunking.max == 300


def test_yml_is_found(root: Path) -> None:
    write(root, ".chunkgate.yml", "size: {max: 301}\n")
    assert load_config(root).chunking.max == 301


def test_both_yaml_and_yml_is_an_error(root: Path) -> None:
    write(root, ".chunkgate.yaml", "{}\n")
    write(root, ".chunkgate.yml", "{}\n")
    with pytest.raises(ConfigError, match=r"both \.chunkgate\.yaml and \.chunkgate\.yml exist"):
        load_config(root)


def test_explicit_config_path_wins(root: Path, tmp_path: Path) -> None:
    write(root, ".chunkgate.yaml", "size: {max: 300}\n")
    other = write(tmp_path, "ci/strict.yaml", "size: {max: 100}\n")
    config = load_config(root, config_path=other)
    assert config.source == other.resolve()
    assert config.root == root
    assert config.chunking.max == 100


def test_explicit_toml_files(root: Path, tmp_path: Path) -> None:
    standalone = write(tmp_path, "chunkgate.toml", "[size]\nmax = 123\n")
    assert load_config(root, config_path=standalone).chunking.max == 123
    pyproject = write(tmp_path, "other/pyproject.toml", "[tool.chunkgate.size]\nmax = 124\n")
    assert load_config(root, config_path=pyproject).chunking.max == 124
    empty = write(tmp_path, "empty/pyproject.toml", "[project]\nname = 'x'\n")
    with pytest.raises(ConfigError, match=r"no \[tool\.chunkgate\] table"):
        load_config(root, config_path=empty)


def test_missing_explicit_config_is_an_error(root: Path) -> None:
    with pytest.raises(ConfigError, match=r"^nope\.yaml: config file not found$"):
        load_config(root, config_path=Path("nope.yaml"))


def test_empty_yaml_file_gives_defaults(root: Path) -> None:
    config = load_yaml(root, "# nothing yet\n")
    assert config == Config(root=root, source=root / ".chunkgate.yaml")


def test_invalid_yaml_names_file_and_line(root: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_yaml(root, "size:\n  max: 10\n  min: [1, 2\n")
    assert str(caught.value) == (
        ".chunkgate.yaml:4: invalid YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence started on line 3)"
    )
    with pytest.raises(ConfigError, match=r"^\.chunkgate\.yaml:2: invalid YAML: "):
        load_yaml(root, "size: {max: 10}\n\tmin: 3\n")


def test_invalid_toml_names_file_and_line(root: Path) -> None:
    write(root, "pyproject.toml", "[tool.chunkgate]\nsize = {max = }\n")
    with pytest.raises(ConfigError, match=r"^pyproject\.toml: invalid TOML: .*line 2"):
        load_config(root)


def test_duplicate_keys_are_an_error(root: Path) -> None:
    with pytest.raises(ConfigError, match=r"^\.chunkgate\.yaml:4: duplicate key 'max'$"):
        load_yaml(root, "size:\n  max: 10\n  min: 1\n  max: 20\n")


UNKNOWN_KEYS = [
    pytest.param("szie: {}\n", "unknown key 'szie' (did you mean 'size'?)", id="top-typo"),
    pytest.param(
        "size: {maxx: 3}\n", "unknown key 'size.maxx' (did you mean 'size.max'?)", id="nested-typo"
    ),
    pytest.param(
        "markdown: {split_levle: 2}\n",
        "unknown key 'markdown.split_levle' (did you mean 'markdown.split_level'?)",
        id="markdown-typo",
    ),
    pytest.param(
        "denylist: {path: []}\n",
        "unknown key 'denylist.path' (did you mean 'denylist.paths'?)",
        id="denylist-typo",
    ),
    pytest.param(
        "colour: red\n",
        "unknown key 'colour' (known keys: include, exclude, manifest,",
        id="nothing-close",
    ),
]


@pytest.mark.parametrize(("text", "message"), UNKNOWN_KEYS)
def test_unknown_keys_suggest_the_closest(root: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_yaml(root, text)
    assert str(caught.value).startswith(f".chunkgate.yaml: {message}")


INVALID = [
    pytest.param("[1, 2]\n", "top level: expected a mapping, got [1, 2]", id="not-a-mapping"),
    pytest.param(
        "include: '*.md'\n", "include: expected a list of strings, got '*.md'", id="include-string"
    ),
    pytest.param(
        "exclude: [1]\n", "exclude: expected a list of strings, got [1]", id="exclude-number"
    ),
    pytest.param(
        "manifest: ../out.jsonl\n",
        "manifest: expected a relative POSIX path",
        id="manifest-escapes",
    ),
    pytest.param(
        "manifest: docs/../../out.jsonl\n",
        "manifest: expected a relative POSIX path",
        id="manifest-escapes-later",
    ),
    pytest.param(
        "manifest: /tmp/out.jsonl\n",
        "manifest: expected a relative POSIX path",
        id="manifest-absolute",
    ),
    pytest.param(
        "manifest: 'a\\b.jsonl'\n",
        "manifest: expected a relative POSIX path",
        id="manifest-backslash",
    ),
    pytest.param("manifest: 3\n", "manifest: expected a relative POSIX path", id="manifest-int"),
    pytest.param("size: 100\n", "size: expected a mapping, got 100", id="size-scalar"),
    pytest.param(
        "size: {max: big}\n", "size.max: expected an integer >= 1, got 'big'", id="max-string"
    ),
    pytest.param("size: {max: 0}\n", "size.max: expected an integer >= 1, got 0", id="max-zero"),
    pytest.param(
        "size: {max: 2.5}\n", "size.max: expected an integer >= 1, got 2.5", id="max-float"
    ),
    pytest.param(
        "size: {max: true}\n", "size.max: expected an integer >= 1, got True", id="max-bool"
    ),
    pytest.param(
        "size: {min: -1}\n", "size.min: expected an integer >= 0, got -1", id="min-negative"
    ),
    pytest.param(
        "size: {max: 100, min: 200}\n",
        "size.min: expected at most size.max (100), got 200",
        id="min-over-max",
    ),
    pytest.param(
        "size: {max: 30}\n",
        "size.min: expected at most size.max (30), got 40 (the default; set size.min too)",
        id="default-min-over-max",
    ),
    pytest.param(
        "size: {overlap: 2000}\n",
        "size.overlap: expected less than size.max (2000), got 2000",
        id="overlap-equals-max",
    ),
    pytest.param(
        "size: {max: 10, min: 0, overlap: 50}\n",
        "size.overlap: expected less than size.max (10), got 50",
        id="overlap-over-max",
    ),
    pytest.param(
        "size: {unit: words}\n",
        "size.unit: expected 'chars' or 'tokens', got 'words'",
        id="unknown-unit",
    ),
    pytest.param(
        "tokenizer: tiktoken\n",
        "tokenizer: expected 'estimate', 'tiktoken:<encoding>' or "
        "'huggingface:<repository or path>', got 'tiktoken'",
        id="tokenizer-no-encoding",
    ),
    pytest.param(
        "tokenizer: 'hf:bert'\n",
        "tokenizer: expected 'estimate', 'tiktoken:<encoding>' or "
        "'huggingface:<repository or path>', got 'hf:bert'",
        id="tokenizer-unknown",
    ),
    pytest.param(
        "embed: {model: bge-small}\n",
        "embed.model: expected one of text-embedding-3-small, ",
        id="unknown-model",
    ),
    pytest.param(
        "size: {limit: 0}\n",
        "size.limit: expected an integer >= 1, got 0",
        id="limit-zero",
    ),
    pytest.param(
        "markdown: {split_level: 7}\n",
        "markdown.split_level: expected an integer from 1 to 6, got 7",
        id="split-level-high",
    ),
    pytest.param(
        "markdown: {split_level: 0}\n",
        "markdown.split_level: expected an integer from 1 to 6, got 0",
        id="split-level-low",
    ),
    pytest.param(
        "size: {split: 'no'}\n",
        "size.split: expected true or false, got 'no'",
        id="split-string",
    ),
    pytest.param(
        "python: {split_classes: 'yes'}\n",
        "python.split_classes: expected true or false, got 'yes'",
        id="split-classes-string",
    ),
    pytest.param(
        "python: {split_classes: 1}\n",
        "python.split_classes: expected true or false, got 1",
        id="split-classes-int",
    ),
    pytest.param("rules: [CG202]\n", "rules: expected a mapping of rule code", id="rules-list"),
    pytest.param(
        "rules: {CG999: off}\n",
        "rules.CG999: unknown rule code 'CG999' (known codes: CG001, CG101,",
        id="unknown-code",
    ),
    pytest.param(
        "rules: {CG2O2: off}\n",
        "rules.CG2O2: unknown rule code 'CG2O2' (did you mean 'CG202'? known codes:",
        id="code-typo",
    ),
    pytest.param(
        "rules: {undersized: off}\n",
        "rules.undersized: unknown rule code 'undersized' (did you mean 'CG202'?",
        id="rule-name",
    ),
    pytest.param(
        "rules: {CG202: fatal}\n",
        "rules.CG202: expected 'error', 'warning' or 'off', got 'fatal'",
        id="unknown-severity",
    ),
    pytest.param(
        "rules: {CG202: on}\n",
        "rules.CG202: expected 'error', 'warning' or 'off', got True",
        id="yaml-on-is-not-a-severity",
    ),
    pytest.param("denylist: []\n", "denylist: expected a mapping, got []", id="denylist-list"),
    pytest.param(
        "denylist: {content: ['(unclosed']}\n",
        "denylist.content[0]: expected a Python regular expression (missing ),",
        id="bad-regex",
    ),
    pytest.param(
        "denylist: {content: 'x'}\n",
        "denylist.content: expected a list of strings, got 'x'",
        id="content-string",
    ),
    pytest.param(
        "denylist: {paths: [3]}\n", "denylist.paths: expected a list of strings", id="paths-number"
    ),
    pytest.param(
        "links: {anchors: [{pattern: '(unclosed', anchor: 'x'}]}\n",
        "links.anchors[0].pattern: expected a Python regex (missing ),",
        id="links-anchors-bad-regex",
    ),
    pytest.param(
        "links: {anchors: [{pattern: 'md:setting (\\S+)', anchor: '\\2'}]}\n",
        "links.anchors[0].anchor: expected a template of the pattern's groups (invalid group",
        id="links-anchors-bad-group",
    ),
    pytest.param(
        "links: {anchors: [{pattern: 'x', id: 'x'}]}\n",
        "unknown key 'links.anchors[0].id' (known keys: pattern, anchor)",
        id="links-anchors-unknown-key",
    ),
    pytest.param(
        "links: {anchors: [{pattern: 'x'}]}\n",
        "links.anchors[0].anchor: expected a non-empty string, got None",
        id="links-anchors-no-anchor",
    ),
    pytest.param(
        "links: {anchors: 'x'}\n",
        "links.anchors: expected a list of {pattern: REGEX, anchor: TEMPLATE} mappings",
        id="links-anchors-not-a-list",
    ),
    pytest.param(
        "links: {ignore: ['[']}\n",
        "links.ignore[0]: expected a Python regular expression (unterminated",
        id="links-ignore-bad-regex",
    ),
    pytest.param(
        "max_file_bytes: 0\n",
        "max_file_bytes: expected an integer >= 1, got 0",
        id="max-file-bytes-zero",
    ),
    pytest.param(
        "max_file_bytes: 1e6\n",
        "max_file_bytes: expected an integer >= 1, got '1e6'",
        id="max-file-bytes-yaml-float-string",
    ),
]


@pytest.mark.parametrize(("text", "message"), INVALID)
def test_invalid_values_name_file_key_value_and_what_is_allowed(
    root: Path, text: str, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_yaml(root, text)
    assert str(caught.value).startswith(f".chunkgate.yaml: {message}")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("size: {max: 10, overlap: 9, min: 10}\n", id="edges"),
        pytest.param("size: {max: 1, min: 0}\n", id="smallest"),
        pytest.param("markdown: {split_level: 1}\n", id="split-level-1"),
        pytest.param("rules: {CG501: off, CG202: warning, CG101: error}\n", id="every-severity"),
        pytest.param("tokenizer: tiktoken:o200k_base\n", id="tiktoken-not-loaded"),
        pytest.param("include: []\n", id="empty-include"),
        pytest.param("denylist: {paths: ['*.lock', '!keep.lock'], content: []}\n", id="negation"),
        pytest.param(
            "links: {anchors: [{pattern: '<!-- md:setting (?P<n>\\S+) -->', anchor: '\\g<n>'}],"
            " ignore: ['^https?:']}\n",
            id="links",
        ),
    ],
)
def test_valid_edge_values(root: Path, text: str) -> None:
    load_yaml(root, text)


def test_a_parsed_yaml_config_is_cached_by_content(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(tmp_path / "cache"))
    text = "size: {max: 900}\nrules: {CG304: off}\n"
    first = load_yaml(root, text)
    assert first.chunking.max == 900
    assert len(list((tmp_path / "cache" / "config").glob("*.json"))) == 1
    # The same bytes again: no YAML parser needed (a broken yaml module would fail).
    monkeypatch.setitem(sys.modules, "yaml", None)
    assert load_yaml(root, text) == first
    # Other bytes are another entry, parsed afresh.
    with pytest.raises(ImportError):
        load_yaml(root, text.replace("900", "901"))
    monkeypatch.delitem(sys.modules, "yaml")
    assert load_yaml(root, text.replace("900", "901")).chunking.max == 901


def test_the_config_cache_never_hides_an_error_and_failing_is_harmless(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be\n")
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(blocked))
    assert load_yaml(root, "size: {max: 700}\n").chunking.max == 700
    monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):  # invalid YAML is reported every time, never cached
        with pytest.raises(ConfigError, match="invalid YAML"):
            load_yaml(root, "size: {max: 10\n")
    # Duplicate keys are an error the cache must not forget either.
    for _ in range(2):
        with pytest.raises(ConfigError, match="size"):
            load_yaml(root, "size: {max: 10}\nsize: {max: 20}\n")
    # A corrupt entry is ignored and rewritten.
    load_yaml(root, "size: {max: 600}\n")
    (entry,) = (tmp_path / "cache" / "config").glob("*.json")
    entry.write_text("{not json")
    assert load_yaml(root, "size: {max: 600}\n").chunking.max == 600
    assert entry.read_text() == '{"size": {"max": 600}}'


def test_links_options_are_read_as_patterns(root: Path) -> None:
    config = load_yaml(
        root,
        "links:\n"
        "  anchors:\n"
        "    - {pattern: '<!-- md:setting (\\S+) -->', anchor: '\\1'}\n"
        "  ignore: ['^changelog\\.md']\n",
    )
    (declared,) = config.option(RULES["CG404"].options[0])
    match = declared.pattern.search("#### <!-- md:setting config.blog_dir -->")
    assert match is not None
    assert match.expand(declared.anchor) == "config.blog_dir"
    (ignore,) = config.option(RULES["CG404"].options[1])
    assert ignore.search("changelog.md#x")


def test_a_model_sets_the_defaults_that_depend_on_it(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONTRIBUTING's walk-through: one entry in MODELS, and embed.model takes it."""
    from chunkgate.chunking.models import MODELS, EmbedModel

    monkeypatch.setitem(MODELS, "toy-embedder", EmbedModel("toy-embedder", "estimate", 200))
    options = load_yaml(root, "embed: {model: toy-embedder}\n").chunking
    assert (options.model, options.tokenizer, options.limit) == ("toy-embedder", "estimate", 200)
    assert (options.unit, options.max, options.min) == ("tokens", 150, 10)
    assert "embed.model=toy-embedder;size.limit=200" in options.fingerprint()
    # A key the user sets wins over the model's default.
    mine = load_yaml(root, "embed: {model: toy-embedder}\nsize: {unit: chars, limit: 300}\n")
    assert (mine.chunking.unit, mine.chunking.max, mine.chunking.limit) == ("chars", 2000, 300)
    # Without a model: 8,192 tokens, and nothing new in the fingerprint (old manifests hold).
    assert load_yaml(root, "").chunking.limit == 8192
    assert "limit" not in ChunkOptions().fingerprint()


@pytest.mark.parametrize(
    "path",
    [
        "tests/data/page.md",
        "test/source/_posts/hello.markdown",
        "tests/mypy/outputs/plugin.py",
        "src/lib/__tests__/button.md",
        "pkg/__snapshots__/render.md",
        "crates/x/tests/snapshots/out.md",
        "spec/fixtures/page.md",
        "go/parser/testdata/input.md",
        "Tests/Unit/Readme.md",
        "examples/expected/output.md",
    ],
)
def test_test_data_is_out_of_the_default_corpus(root: Path, path: str) -> None:
    assert not load_yaml(root, "").selects(path)
    assert load_yaml(root, "").selected([path, "docs/guide.md"]) == ["docs/guide.md"]


@pytest.mark.parametrize(
    "path", ["docs/testing.md", "docs/test-your-app.md", "mytests/a.md", "docs/fixture.md"]
)
def test_pages_named_like_test_folders_stay(root: Path, path: str) -> None:
    assert load_yaml(root, "").selects(path)


def test_one_include_line_brings_test_data_back(root: Path) -> None:
    config = load_yaml(root, "include: ['**/*.md', '**/*.py', 'tests/**/*.md']\n")
    assert [config.selects(path) for path in ("tests/a.md", "tests/b/c.md")] == [True, True]
    assert not config.selects("tests/test_a.py")  # the line names tests' Markdown only
    assert not config.selects("pkg/tests/a.md")  # nor another tests/ folder
    everywhere = load_yaml(root, "include: ['**/*.md', '**/tests/**']\n")
    assert everywhere.selects("pkg/tests/a.md")
    assert not everywhere.selects("pkg/fixtures/a.md")


THREE_MISTAKES = """\
size:
  max: big
rules:
  CG999: error
markdown:
  split_levl: 2
"""


def test_every_configuration_error_is_reported_at_once(root: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        load_yaml(root, THREE_MISTAKES)
    assert str(raised.value).split("\n") == [
        ".chunkgate.yaml: size.max: expected an integer >= 1, got 'big'",
        ".chunkgate.yaml: unknown key 'markdown.split_levl' (did you mean 'markdown.split_level'?)",
        f".chunkgate.yaml: rules.CG999: unknown rule code 'CG999' (known codes: "
        f"{', '.join(RULES)})",
    ]


def test_the_command_line_says_each_configuration_error_on_its_own_line(root: Path) -> None:
    write(root, ".chunkgate.yaml", THREE_MISTAKES)
    result = CliRunner().invoke(cli, ["check", "--format", "text"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 3
    assert all(line.startswith("chunkgate: error: .chunkgate.yaml: ") for line in lines)
    assert "size.max: expected an integer >= 1, got 'big'" in lines[0]


def test_merge_small_and_module_summary_are_off_unless_set(root: Path) -> None:
    assert "merge_small: false" in default_config_yaml()
    assert "module_summary: false" in default_config_yaml()
    config = load_yaml(root, "markdown: {merge_small: true}\nembed: {module_summary: true}\n")
    assert config.chunking.merge_small
    assert config.chunking.embed.module_summary
    # A manifest made without merging stays valid: the fingerprint names it only when on.
    assert "merge_small" not in load_config_default(root).chunking.fingerprint()
    with pytest.raises(ConfigError, match=r"markdown\.merge_small: expected true or false"):
        load_yaml(root, "markdown: {merge_small: small}\n")
    with pytest.raises(ConfigError, match=r"embed\.module_summary: expected true or false"):
        load_yaml(root, "embed: {module_summary: 1}\n")


def load_config_default(root: Path) -> Config:
    (root / ".chunkgate.yaml").unlink()
    return load_config(root)
