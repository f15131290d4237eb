from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkgate.core.errors import ChunkgateError
from chunkgate.git.events import Event, parse_event, read_event

SHA_A, SHA_B = "a" * 40, "b" * 40


@pytest.mark.parametrize(
    ("payload", "name", "expected"),
    [
        pytest.param(
            {
                "pull_request": {
                    "number": 7,
                    "base": {
                        "sha": SHA_A,
                        "ref": "main",
                        "repo": {"full_name": "o/r", "clone_url": "u"},
                    },
                    "head": {"sha": SHA_B, "repo": {"full_name": "fork/r"}},
                }
            },
            "pull_request_target",
            Event(
                "pull_request_target",
                pr_number=7,
                pr_base_sha=SHA_A,
                pr_head_sha=SHA_B,
                pr_base_ref="main",
                base_repo="o/r",
                head_repo="fork/r",
                base_clone_url="u",
            ),
            id="fork-pull-request",
        ),
        pytest.param(
            {"ref": "refs/heads/x", "before": "0" * 40, "after": SHA_B, "created": True},
            "",
            Event("push", ref="refs/heads/x", created=True),
            id="push-creating-a-branch",
        ),
        pytest.param(
            {
                "ref": "refs/heads/x",
                "before": SHA_A,
                "forced": True,
                "repository": {"default_branch": "trunk"},
            },
            "push",
            Event("push", before=SHA_A, ref="refs/heads/x", forced=True, default_branch="trunk"),
            id="force-push",
        ),
        pytest.param(
            {"merge_group": {"base_sha": SHA_A}},
            "",
            Event("merge_group", merge_group_base_sha=SHA_A),
            id="merge-group",
        ),
        pytest.param(
            {"pull_request": {"number": True}}, "", Event("pull_request"), id="junk-number"
        ),
        pytest.param([1, 2], "schedule", Event("schedule"), id="not-a-mapping"),
    ],
)
def test_parse_event(payload: object, name: str, expected: Event) -> None:
    assert parse_event(payload, name) == expected


def test_a_fork_is_a_fork() -> None:
    assert Event("pull_request", base_repo="o/r", head_repo="f/r").from_fork
    assert not Event("pull_request", base_repo="o/r", head_repo="o/r").from_fork


def test_read_event(tmp_path: Path) -> None:
    assert read_event({}) is None
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"before": SHA_A, "ref": "refs/heads/main"}))
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": str(path), "GITHUB_EVENT_NAME": "push"}
    assert read_event(env) == Event("push", before=SHA_A, ref="refs/heads/main")
    path.write_text("{not json")
    with pytest.raises(ChunkgateError, match="cannot read the event"):
        read_event(env)
