"""The GitHub Actions event that started a workflow, as far as ``--base auto`` needs it.

Read from the payload at ``$GITHUB_EVENT_PATH`` (the webhook payload GitHub
writes for the run) and ``$GITHUB_EVENT_NAME``. Only what picks a base is
kept; every field is optional, because payloads differ by event type.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import NamedTuple

from chunkgate.core.errors import ChunkgateError

NULL_SHA = "0" * 40


class Event(NamedTuple):
    name: str  # pull_request, pull_request_target, push, merge_group, workflow_dispatch...
    pr_number: int | None = None
    pr_base_sha: str = ""
    pr_head_sha: str = ""
    pr_base_ref: str = ""
    base_repo: str = ""  # owner/name of the pull request's base repository
    head_repo: str = ""  # ... and of its head: another one for a fork
    base_clone_url: str = ""
    merge_group_base_sha: str = ""
    before: str = ""  # push: the branch's previous tip ("" for a new branch)
    ref: str = ""  # push: refs/heads/NAME
    created: bool = False
    deleted: bool = False
    forced: bool = False
    repository: str = ""  # owner/name the workflow runs in
    default_branch: str = ""

    @property
    def is_pull_request(self) -> bool:
        return bool(self.pr_base_sha)

    @property
    def from_fork(self) -> bool:
        return bool(self.head_repo) and self.head_repo != self.base_repo


def _get(data: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _str(data: object, *keys: str) -> str:
    value = _get(data, *keys)
    return value if isinstance(value, str) else ""


def parse_event(payload: object, name: str = "") -> Event:
    """The fields of one payload; ``name`` is ``$GITHUB_EVENT_NAME`` (guessed when empty)."""
    if not name:
        if isinstance(_get(payload, "pull_request"), dict):
            name = "pull_request"
        elif isinstance(_get(payload, "merge_group"), dict):
            name = "merge_group"
        elif _str(payload, "ref") or _str(payload, "before"):
            name = "push"
    number = _get(payload, "pull_request", "number")
    before = _str(payload, "before")
    return Event(
        name=name,
        pr_number=number if isinstance(number, int) and not isinstance(number, bool) else None,
        pr_base_sha=_str(payload, "pull_request", "base", "sha"),
        pr_head_sha=_str(payload, "pull_request", "head", "sha"),
        pr_base_ref=_str(payload, "pull_request", "base", "ref"),
        base_repo=_str(payload, "pull_request", "base", "repo", "full_name"),
        head_repo=_str(payload, "pull_request", "head", "repo", "full_name"),
        base_clone_url=_str(payload, "pull_request", "base", "repo", "clone_url"),
        merge_group_base_sha=_str(payload, "merge_group", "base_sha"),
        before="" if before.strip("0") == "" else before,
        ref=_str(payload, "ref"),
        created=_get(payload, "created") is True or (bool(before) and not before.strip("0")),
        deleted=_get(payload, "deleted") is True,
        forced=_get(payload, "forced") is True,
        repository=_str(payload, "repository", "full_name"),
        default_branch=_str(payload, "repository", "default_branch"),
    )


def read_event(env: Mapping[str, str]) -> Event | None:
    """The event of this workflow run, or None outside GitHub Actions."""
    if env.get("GITHUB_ACTIONS") != "true":
        return None
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return Event(name=env.get("GITHUB_EVENT_NAME", ""))
    try:
        with open(path, encoding="utf-8") as handle:
            payload = json.load(handle)
    except (OSError, ValueError) as exc:
        raise ChunkgateError(f"GITHUB_EVENT_PATH {path}: cannot read the event: {exc}") from None
    return parse_event(payload, env.get("GITHUB_EVENT_NAME", ""))
