"""The generated pages of the docs site: committed as scripts/gen_docs.py writes them now,
and the configuration reference true to the validator it documents."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from docspages import DOCS, gen_docs, page

from chunkgate import rules
from chunkgate.config import keys
from chunkgate.config.template import default_config_yaml
from chunkgate.config.validate import validated
from chunkgate.core.errors import ConfigError
from chunkgate.rules import RULES, rule_docs

GEN = gen_docs()


def test_the_committed_pages_are_what_the_generator_writes() -> None:
    """As ruff's generate-all check: after a rule's docstring or a key's description
    changes, `python scripts/gen_docs.py` and a commit of its pages."""
    assert list(GEN.stale(GEN.pages(), DOCS)) == []
    assert GEN.main(["--check"]) == 0


def test_a_stale_page_is_found(tmp_path: Path) -> None:
    written = GEN.pages()
    GEN.write(written, tmp_path)
    assert list(GEN.stale(written, tmp_path)) == []
    (tmp_path / "rules" / "CG402.md").write_text("# CG402 unstable-id\n\n60% similar\n")
    (tmp_path / "rules" / "CG999.md").write_text("# a rule that is gone\n")
    assert list(GEN.stale(written, tmp_path)) == ["rules/CG402.md", "rules/CG999.md"]


def test_every_rule_has_its_page_with_its_own_documentation() -> None:
    for code, rule in RULES.items():
        text = page(f"rules/{code}.md")
        assert text.splitlines()[1] == f"# {code} {rule.name}"
        assert f"Default severity: **{rule.severity}**" in text
        # The docstring's prose, as `chunkgate rules CODE` prints it.
        first = rule_docs()[code].split("\n\n")[0]
        assert first in text


def _nested(path: str, value: object) -> dict[str, Any]:
    table, _, name = path.rpartition(".")
    return {table: {name: value}} if table else {name: value}


def _yaml_default(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _all_keys() -> list[tuple[str, object]]:
    own = [(key.path, key.default) for key in keys.KEYS]
    return own + [(option.key, option.default) for option in rules.options()]


@pytest.mark.parametrize(("path", "default"), _all_keys(), ids=[p for p, _ in _all_keys()])
def test_each_documented_default_is_the_default(tmp_path: Path, path: str, default: object) -> None:
    """Setting a key to the default the reference states changes nothing."""
    if path == "denylist.content":
        default = ()  # compiled patterns: the empty default is the case to state
    given = validated(_nested(path, _yaml_default(default)), None, tmp_path)
    assert given == validated({}, None, tmp_path)


def test_the_reference_names_every_key_the_validator_accepts(tmp_path: Path) -> None:
    reference = page("configuration.md")
    documented = {line[3:] for line in reference.splitlines() if line.startswith("## ")}
    assert documented == {path for path, _ in _all_keys()}
    for path, _ in _all_keys():  # a key it does not know is an error naming it
        table = path.rpartition(".")[0]
        if table:
            with pytest.raises(Exception, match=f"unknown key '{table}.nope'"):
                validated({table: {"nope": 1}}, None, tmp_path)


def test_init_writes_the_descriptions_the_reference_shows() -> None:
    lines = default_config_yaml().splitlines()
    template = " ".join(re.sub(r"^\s*# ?", "", line) for line in lines)
    for key in keys.KEYS:
        assert " ".join(key.doc.split()) in template, key.path
        assert key.doc in page("configuration.md")


def _enumerated() -> list[tuple[str, str]]:
    return [
        (key.path, value)
        for key in keys.KEYS
        if isinstance(key.takes, tuple)
        for value in key.takes
        if "<" not in value  # a placeholder: tiktoken:<encoding>
    ]


ENUMERATED = _enumerated()


@pytest.mark.parametrize(("path", "value"), ENUMERATED, ids=[f"{p}={v}" for p, v in ENUMERATED])
def test_each_value_the_reference_lists_is_accepted(tmp_path: Path, path: str, value: str) -> None:
    parsed = yaml.safe_load(f"{value}\n")  # as the YAML file gives it: true, null
    validated(_nested(path, parsed), None, tmp_path)


@pytest.mark.parametrize(
    "key", [k for k in keys.KEYS if isinstance(k.takes, tuple)], ids=lambda k: k.path
)
def test_a_value_the_reference_does_not_list_is_refused(tmp_path: Path, key: keys.Key) -> None:
    with pytest.raises(ConfigError, match=re.escape(key.path)):
        validated(_nested(key.path, "not-a-listed-value"), None, tmp_path)
