"""``search``'s output: the JSON document's schema, IDs shortened in the middle, and the
snippet's marks on the query's words."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner
from helpers import write

from chunkgate.cli import cli
from chunkgate.evaluate.snippets import snippet

_TERM = {
    "type": "object",
    "required": ["term", "weight"],
    "additionalProperties": False,
    "properties": {"term": {"type": "string"}, "weight": {"type": "number", "minimum": 0}},
}
_FINDING = {
    "type": "object",
    "required": ["rule", "name", "severity", "message"],
    "additionalProperties": False,
    "properties": {
        "rule": {"type": "string", "pattern": "^CG[23][0-9]{2}$"},
        "name": {"type": "string"},
        "severity": {"enum": ["error", "warning"]},
        "message": {"type": "string"},
    },
}
_RESULT = {
    "type": "object",
    "additionalProperties": False,
    "required": [
        "rank", "id", "score", "path", "kind", "heading_path", "symbol", "lines", "tokens",
        "chars", "snippet", "marks", "terms", "findings",
    ],
    "properties": {
        "rank": {"type": "integer", "minimum": 1},
        "id": {"type": "string", "pattern": "#"},
        "score": {"type": "number", "exclusiveMinimum": 0},
        "path": {"type": "string"},
        "kind": {"type": "string"},
        "heading_path": {"type": "array", "items": {"type": "string"}},
        "symbol": {"type": ["string", "null"]},
        "lines": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "tokens": {"type": "integer"},
        "chars": {"type": "integer"},
        "snippet": {"type": "string"},
        "marks": {
            "type": "array",
            "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        },
        "terms": {"type": "array", "items": _TERM},
        "findings": {"type": "array", "items": _FINDING},
    },
}  # fmt: skip
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["query", "searched", "chunks", "k", "terms", "explain", "results", "skipped"],
    "properties": {
        "query": {"type": "string"},
        "searched": {"type": "string"},
        "chunks": {"type": "integer", "minimum": 0},
        "k": {"type": "integer", "minimum": 1},
        "terms": {"type": "array", "items": {"type": "string"}},
        "explain": {"type": ["integer", "null"], "minimum": 1},
        "results": {"type": "array", "items": _RESULT},
        "skipped": {"type": "array", "items": {"type": "string"}},
    },
}


def test_the_json_document_has_its_schema(cli_repo: Path) -> None:
    write(cli_repo, "a.md", "# Cats\n\nCats purr in the sun.\n\n## Dogs\n\nDogs bark.\n")
    # One line of code: it cannot be split.
    write(cli_repo, "big.md", "# Big cats\n\n```text\n" + "cats purr " * 400 + "\n```\n")
    write(cli_repo, "b.md", b"\x00binary\x00")
    result = CliRunner().invoke(
        cli, ["search", "cats purr", "-k", "3", "--explain", "1", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert [r["rank"] for r in document["results"]] == [1, 2, 3]
    assert document["explain"] == 1
    assert document["skipped"][0].startswith("b.md: ")
    big = next(r for r in document["results"] if r["path"] == "big.md")
    assert [f["rule"] for f in big["findings"]] == ["CG201"]
    for found in document["results"]:
        words = {found["snippet"][a:b].lower() for a, b in found["marks"]}
        assert words <= {"cats", "purr"}


def test_the_snippet_is_the_window_with_the_most_matches() -> None:
    text = "intro words " * 40 + "the path parameter and the path type " + "outro " * 40
    found = snippet(text, {"path", "parameter", "type"}, width=80)
    assert len(found.text) <= 80 + 2 * len("...")
    assert found.text.startswith("...")
    assert found.text.endswith("...")
    assert [found.text[a:b] for a, b in found.marks] == ["path", "parameter", "path", "type"]
    assert found.marked("[", "]").count("[path]") == 2
