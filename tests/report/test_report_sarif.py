from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import pytest

import chunkgate
import chunkgate.report.sarif
from chunkgate.core.model import CheckResult, Summary, Violation
from chunkgate.report.check import write_check
from chunkgate.report.sarif import FINGERPRINT, SCHEMA_URI, artifact_uri, fingerprint, sarif_log
from chunkgate.rules import RULES

SCHEMA = json.loads(
    (Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)


def violation(
    rule: str,
    path: str = "docs/a.md",
    line: int = 3,
    chunk_id: str | None = "docs/a.md#intro",
    *,
    severity: str | None = None,
    message: str = "something is wrong",
    fix: str = "do the right thing",
) -> Violation:
    return Violation(
        rule,
        RULES[rule].name,
        severity or RULES[rule].severity,  # type: ignore[arg-type]
        path,
        line,
        chunk_id,
        message,
        fix,
    )


def result_of(violations: list[Violation]) -> CheckResult:
    errors = sum(1 for v in violations if v.severity == "error")
    return CheckResult(
        tuple(sorted(violations, key=Violation.sort_key)),
        Summary(4, 20, errors, len(violations) - errors),
        "chunkgate.manifest.jsonl",
    )


# SARIF's name for a rule that is off (CG502 is off by default).
_LEVEL = {"error": "error", "warning": "warning", "off": "none"}


def every_rule() -> list[Violation]:
    paths = ["docs/ünïcode/guide.md", "docs/with space/a:b.md", "日本語/読む.md", "src/mod.py"]
    out = []
    for i, code in enumerate(sorted(RULES)):
        path = paths[i % len(paths)]
        chunk_id = None if code.startswith(("CG0", "CG3", "CG4")) else f"{path}#part-{i}"
        out.append(violation(code, path, i + 1, chunk_id, message=f"{code} «fired»\nline two"))
    return out


def render(result: CheckResult) -> str:
    stream = io.StringIO()
    write_check(result, "sarif", stream, quiet=True, env={})
    return stream.getvalue()


def assert_valid(log: dict[str, Any]) -> None:
    validator_class = jsonschema.validators.validator_for(SCHEMA)
    assert validator_class is jsonschema.Draft4Validator  # what the schema declares
    validator_class.check_schema(SCHEMA)
    errors = sorted(validator_class(SCHEMA).iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


@pytest.mark.parametrize(
    "violations",
    [
        pytest.param(every_rule(), id="every-rule"),
        pytest.param([], id="no-violations"),
        pytest.param([violation("CG101"), violation("CG101", line=9)], id="same-chunk-twice"),
        pytest.param([violation("CG001", line=0, chunk_id=None, fix="")], id="line-0-no-fix"),
    ],
)
def test_output_is_valid_sarif(violations: list[Violation]) -> None:
    log = json.loads(render(result_of(violations)))
    assert_valid(log)
    assert log["$schema"] == SCHEMA_URI
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    assert len(run["results"]) == len(violations)
    assert "%SRCROOT%" in run["originalUriBaseIds"]


def test_driver_lists_every_rule_in_code_order() -> None:
    driver = sarif_log(result_of([]))["runs"][0]["tool"]["driver"]  # type: ignore[index]
    assert driver["name"] == "chunkgate"
    assert driver["version"] == chunkgate.__version__
    assert driver["informationUri"].startswith("https://")
    assert [rule["id"] for rule in driver["rules"]] == sorted(RULES)
    for rule in driver["rules"]:
        code = rule["id"]
        assert rule["name"] == RULES[code].name
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["help"]["text"]
        assert rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] == _LEVEL[RULES[code].severity]
        assert "chunkgate" in rule["properties"]["tags"]


def test_results_point_at_their_rule_file_and_line() -> None:
    violations = every_rule()
    log = json.loads(render(result_of(violations)))
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    by_rule = {v.rule: v for v in violations}
    for result in run["results"]:
        source = by_rule[result["ruleId"]]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == _LEVEL[source.severity]
        assert result["message"]["text"] == (
            f"{source.rule} «fired» line two (fix: do the right thing)"
        )
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert unquote(physical["artifactLocation"]["uri"]) == source.path
        assert physical["artifactLocation"]["uri"].isascii()
        assert physical["region"] == {"startLine": source.line}
        assert set(result["partialFingerprints"]) == {FINGERPRINT}


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        pytest.param("docs/a.md", "docs/a.md", id="plain"),
        pytest.param("docs/with space.md", "docs/with%20space.md", id="space"),
        pytest.param("c:notes.md", "c%3Anotes.md", id="colon-is-not-a-scheme"),
        pytest.param("ü/日.md", "%C3%BC/%E6%97%A5.md", id="unicode"),
        pytest.param("a#b?.md", "a%23b%3F.md", id="fragment-and-query"),
    ],
)
def test_artifact_uri(path: str, uri: str) -> None:
    assert artifact_uri(path) == uri


@pytest.mark.parametrize(
    ("severity", "level"),
    [("error", "error"), ("warning", "warning"), ("off", "none")],
)
def test_levels(severity: str, level: str) -> None:
    log = sarif_log(result_of([violation("CG201", severity=severity)]))
    assert log["runs"][0]["results"][0]["level"] == level  # type: ignore[index]


def test_an_off_rule_is_level_none(monkeypatch: pytest.MonkeyPatch) -> None:
    rule = RULES["CG501"]
    monkeypatch.setitem(RULES, "CG501", rule._replace(severity="off"))
    rules = sarif_log(result_of([]))["runs"][0]["tool"]["driver"]["rules"]  # type: ignore[index]
    (cg501,) = [r for r in rules if r["id"] == "CG501"]
    assert cg501["defaultConfiguration"] == {"level": "none"}


def test_fingerprints_follow_the_chunk_not_the_line_or_message() -> None:
    before = violation("CG201", line=10, message="2,100 chars")
    after = violation("CG201", line=55, message="2,900 chars")
    assert fingerprint(before) == fingerprint(after)
    assert fingerprint(before) != fingerprint(violation("CG202"))
    assert fingerprint(before) != fingerprint(violation("CG201", chunk_id="docs/a.md#other"))
    file_level = violation("CG303", chunk_id=None)
    assert fingerprint(file_level) == fingerprint(violation("CG303", line=40, chunk_id=None))
    assert fingerprint(file_level) != fingerprint(violation("CG303", "b.md", chunk_id=None))
    # A chunk ID never collides with a path-keyed fingerprint.
    assert fingerprint(violation("CG303", "x", chunk_id=None)) != fingerprint(
        violation("CG303", chunk_id="x")
    )


def test_fingerprints_are_distinct_within_a_run_and_stable_across_runs() -> None:
    violations = [
        *every_rule(),
        violation("CG101", line=4),
        violation("CG101", line=90),
        violation("CG501", "b.md", chunk_id="b.md#x"),
    ]
    first = json.loads(render(result_of(violations)))["runs"][0]["results"]
    prints = [r["partialFingerprints"][FINGERPRINT] for r in first]
    assert len(set(prints)) == len(prints)
    moved = [violation("CG101", line=7), violation("CG101", line=120)]
    second = json.loads(render(result_of(moved)))["runs"][0]["results"]
    assert [r["partialFingerprints"][FINGERPRINT] for r in second] == [
        fingerprint(moved[0], 1),
        fingerprint(moved[1], 2),
    ]
    assert fingerprint(moved[0], 1) in prints
    assert fingerprint(moved[1], 2) in prints


def test_output_is_deterministic() -> None:
    result = result_of(every_rule())
    assert render(result) == render(result)
    assert render(result).endswith("}\n")


def test_help_comes_from_rule_docs_when_there(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = "## CG201 oversized\n\nFires when a chunk is larger\nthan size.max.\n\n**Fix:** split it."
    monkeypatch.setattr(chunkgate.report.sarif, "rule_docs", lambda: {"CG201": doc})
    rules = sarif_log(result_of([]))["runs"][0]["tool"]["driver"]["rules"]  # type: ignore[index]
    oversized = next(rule for rule in rules if rule["id"] == "CG201")
    assert oversized["help"]["markdown"] == doc
    assert oversized["help"]["text"].startswith("CG201 oversized\n\nFires when")
    assert oversized["fullDescription"]["text"] == "Fires when a chunk is larger than size.max."
    undersized = next(rule for rule in rules if rule["id"] == "CG202")
    assert undersized["help"]["text"] == "A chunk is below size.min."


def test_help_falls_back_to_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunkgate.report.sarif, "rule_docs", dict)  # no rule documented
    rules = sarif_log(result_of([]))["runs"][0]["tool"]["driver"]["rules"]  # type: ignore[index]
    for rule in rules:
        summary = RULES[rule["id"]].summary
        assert rule["help"] == {"text": rule["help"]["markdown"], "markdown": rule["help"]["text"]}
        assert rule["help"]["text"].lower() == f"{summary}.".lower()


def test_the_schema_check_catches_a_broken_log() -> None:
    log = json.loads(render(result_of([violation("CG201")])))
    log["runs"][0]["results"][0]["level"] = "fatal"
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(AssertionError, match="fatal"):
        assert_valid(log)


def test_a_run_holds_at_most_25000_results() -> None:
    from chunkgate.report.sarif import MAX_RESULTS

    assert MAX_RESULTS == 25_000  # GitHub rejects a run with more
    flood = [violation("CG202", f"docs/w{i:05}.md", chunk_id=None) for i in range(MAX_RESULTS + 1)]
    run = json.loads(render(result_of(flood)))["runs"][0]
    assert len(run["results"]) == MAX_RESULTS
    assert "1 of 25,001 results left out" in json.dumps(run["invocations"])


def test_the_results_kept_are_the_worst_and_a_notification_counts_the_rest() -> None:
    warnings = [violation("CG202", f"docs/w{i:03}.md", chunk_id=None) for i in range(250)]
    errors = [violation("CG201", f"docs/e{i:03}.md", chunk_id=None) for i in range(50)]
    unreadable = [violation("CG001", "z/broken.md", chunk_id=None)]
    log = sarif_log(result_of(warnings + errors + unreadable), limit=200)
    run = log["runs"][0]
    results = run["results"]
    assert len(results) == 200
    assert sum(result["ruleId"] == "CG001" for result in results) == 1
    assert sum(result["ruleId"] == "CG201" for result in results) == 50
    (notification,) = run["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"] == (
        "101 of 301 results left out: GitHub code scanning takes at most 200 a run. These are "
        "the worst; `chunkgate check --format text` lists them all."
    )
    assert_valid(log)


def test_category_and_end_line() -> None:
    spanned = violation("CG402")._replace(end_line=9)
    log = sarif_log(result_of([spanned, violation("CG201")]), category="docs/site")
    run = log["runs"][0]
    assert run["automationDetails"] == {"id": "docs/site/"}
    assert "invocations" not in run
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in run["results"]]
    assert {"startLine": 3, "endLine": 9} in regions
    assert {"startLine": 3} in regions
    assert_valid(log)


def test_known_problems_are_results_with_baseline_state_unchanged() -> None:
    result = result_of([violation("CG201", "docs/new.md")])._replace(
        known=(violation("CG302", "docs/old.md"),)
    )
    log = sarif_log(result)
    assert_valid(log)
    states = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["baselineState"]
        for r in log["runs"][0]["results"]
    }
    assert states == {"docs/new.md": "new", "docs/old.md": "unchanged"}
