"""A sticky pull request comment: one comment with the chunk diff, updated on every push.

Used by the action when its ``github-token`` input is set (off by default:
it is chunkgate's only network call besides ``git fetch``). The comment is
found again by a hidden marker, so each run edits it instead of adding one;
two runs in one pull request (two folders) keep their own by their key.
Talks to GitHub's REST API with the standard library (``$GITHUB_API_URL``,
``https://api.github.com`` by default).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import NamedTuple

from chunkgate.core.errors import ChunkgateError

API_URL = "https://api.github.com"
COMMENT_LIMIT = 65_536  # characters GitHub takes in a comment body
PAGE = 100
_TIMEOUT = 30


def marker(key: str = "") -> str:
    return f"<!-- chunkgate:diff{':' + key if key else ''} -->"


class Target(NamedTuple):
    api_url: str
    repository: str  # owner/name
    number: int
    token: str


class _Api:
    def __init__(self, target: Target) -> None:
        self.target = target

    def call(self, method: str, path: str, body: Mapping[str, object] | None = None) -> object:
        url = self.target.api_url.rstrip("/") + path
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.target.token}")
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        request.add_header("User-Agent", "chunkgate")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=_TIMEOUT) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise ChunkgateError(_http_error(method, path, exc)) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ChunkgateError(f"GitHub API {method} {path}: {reason}") from None
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            raise ChunkgateError(f"GitHub API {method} {path}: the answer is not JSON") from None


def _http_error(method: str, path: str, exc: urllib.error.HTTPError) -> str:
    try:
        detail = json.loads(exc.read()).get("message", "")
    except (ValueError, AttributeError, OSError):
        detail = ""
    text = f"GitHub API {method} {path}: {exc.code} {exc.reason}" + (
        f": {detail}" if detail else ""
    )
    if exc.code in (401, 403, 404):
        text += (
            " (the token needs `pull-requests: write`; a pull request from a fork gets a "
            "read-only token in `pull_request` runs, so no comment can be written there)"
        )
    return text


def upsert_comment(target: Target, body: str, *, key: str = "") -> str:
    """Create the comment, or edit the one with this key's marker; return what was done:
    ``created``, ``updated`` or ``unchanged``."""
    tag = marker(key)
    text = f"{body.rstrip()}\n\n{tag}\n"
    if len(text) > COMMENT_LIMIT:
        raise ChunkgateError(f"comment of {len(text):,} characters is over GitHub's limit")
    api = _Api(target)
    base = f"/repos/{target.repository}/issues"
    page = 1
    while True:
        found = api.call("GET", f"{base}/{target.number}/comments?per_page={PAGE}&page={page}")
        comments = found if isinstance(found, list) else []
        for comment in comments:
            if isinstance(comment, dict) and tag in str(comment.get("body", "")):
                if comment.get("body") == text:
                    return "unchanged"
                api.call("PATCH", f"{base}/comments/{comment['id']}", {"body": text})
                return "updated"
        if len(comments) < PAGE:
            break
        page += 1
    api.call("POST", f"{base}/{target.number}/comments", {"body": text})
    return "created"
