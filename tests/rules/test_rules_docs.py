"""Every rule is documented where `chunkgate rules` and the README find it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import chunkgate.rules
from chunkgate.chunking import ChunkOptions, chunk_document
from chunkgate.config.model import Config
from chunkgate.rules import FILE_CHECKS, RULES, FileCheck, FileContext, rule_docs

_HEADING = re.compile(r"^(?:## )?(CG\d{3}) ([a-z][a-z-]*)[ \t]*$", re.MULTILINE)


@pytest.mark.parametrize("code", list(RULES))
def test_every_rule_is_documented_with_examples(code: str) -> None:
    doc = rule_docs().get(code)
    assert doc, f"{code} has no section in any chunkgate.rules module docstring"
    # "Fires:", "Fires (with size.max 200):" and reST's "Fires::" all introduce one.
    assert re.search(r"^[ \t]*Fires\b[^\n]*:", doc, re.MULTILINE), f"{code}: no 'Fires:' example"
    assert re.search(r"^[ \t]*Passes\b[^\n]*:", doc, re.MULTILINE), f"{code}: no 'Passes:' example"
    assert not doc.startswith(code), "the section leaves its heading to the caller"


def test_headings_name_the_registered_rule() -> None:
    for check in FILE_CHECKS:
        module = __import__(check.__module__, fromlist=["check"])
        headings = _HEADING.findall(module.__doc__ or "")
        assert headings, f"{check.__module__} documents no rule"
        for code, name in headings:
            assert RULES[code].name == name, f"{check.__module__}: {code} is {RULES[code].name}"


def test_file_checks_run_in_code_order() -> None:
    first_codes = []
    for check in FILE_CHECKS:
        module = __import__(check.__module__, fromlist=["check"])
        first_codes.append(_HEADING.findall(module.__doc__ or "")[0][0])
    assert first_codes == sorted(first_codes)
    assert len(set(FILE_CHECKS)) == len(FILE_CHECKS)


def test_each_code_is_documented_once() -> None:
    seen: dict[str, str] = {}
    for name in dir(chunkgate.rules):
        module = getattr(chunkgate.rules, name)
        if getattr(module, "__name__", "").startswith("chunkgate.rules.") and module.__doc__:
            for code, _ in _HEADING.findall(module.__doc__):
                assert code not in seen, f"{code} documented in {seen.get(code)} and {name}"
                seen[code] = name


def test_docs_are_in_code_order() -> None:
    assert list(rule_docs()) == sorted(rule_docs())


# The examples of the file-check rules are run: what the docs say fires, fires.
_EXAMPLE = re.compile(r"^(Fires|Passes)\b[^\n]*:\n\n```(\w+)\n(.*?)\n```", re.MULTILINE | re.DOTALL)
_EXAMPLE_PATHS = {"markdown": "docs/example.md", "python": "src/example.py"}
_EXAMPLE_OPTIONS = {"CG201": ChunkOptions(max=200)}


class Example(NamedTuple):
    check: FileCheck
    code: str
    fires: bool
    language: str
    body: str


def _examples() -> list[Any]:
    cases = []
    for check in FILE_CHECKS:
        module = __import__(check.__module__, fromlist=["check"])
        for code, _ in _HEADING.findall(module.__doc__ or ""):
            for kind, language, shown in _EXAMPLE.findall(rule_docs()[code]):
                # "…" in an example stands for more of the same: a long base64 run.
                body = shown.replace("…", "QUJD" * 400)
                example = Example(check, code, kind == "Fires", language, body)
                cases.append(pytest.param(example, id=f"{code}-{kind.lower()}"))
    return cases


@pytest.mark.parametrize("example", _examples())
def test_examples_do_what_they_say(tmp_path: Path, example: Example) -> None:
    options = _EXAMPLE_OPTIONS.get(example.code, ChunkOptions())
    config = Config(root=tmp_path, chunking=options)
    if example.language == "text":
        # Path examples: one corpus path a line.
        paths = example.body.split("\n")
        files = [FileContext(path, 1, "x\n", (), config) for path in paths]
    else:
        path = _EXAMPLE_PATHS[example.language]
        text = example.body + "\n"
        chunked = chunk_document(text, path, options=config.chunking)
        files = [FileContext(path, len(text), text, chunked.chunks, config, chunked.problems)]
    for file in files:
        codes = [finding.code for finding in example.check(file)]
        assert (example.code in codes) == example.fires, (file.path, codes)
