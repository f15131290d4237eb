"""The sticky pull request comment, against a local stand-in for GitHub's REST API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakegithub import FakeGitHub, serving

from chunkgate.core.errors import ChunkgateError
from chunkgate.github.comment import PAGE, Target, marker, upsert_comment


@pytest.fixture
def github() -> Iterator[tuple[FakeGitHub, Target]]:
    with serving() as (fake, api):
        yield fake, Target(api, "owner/docs", 7, "s3cret")


def test_created_then_updated_then_unchanged(github: tuple[FakeGitHub, Target]) -> None:
    fake, target = github
    fake.comments.append({"id": 1, "body": "a reviewer's comment"})
    assert upsert_comment(target, "### chunkgate diff\n\nfirst") == "created"
    assert upsert_comment(target, "### chunkgate diff\n\nsecond") == "updated"
    assert upsert_comment(target, "### chunkgate diff\n\nsecond") == "unchanged"
    assert [c["body"] for c in fake.comments] == [
        "a reviewer's comment",
        f"### chunkgate diff\n\nsecond\n\n{marker()}\n",
    ]
    assert {auth for _, _, auth in fake.requests} == {"Bearer s3cret"}
    assert ("POST", "/repos/owner/docs/issues/7/comments") in [r[:2] for r in fake.requests]
    assert ("PATCH", "/repos/owner/docs/issues/comments/1001") in [r[:2] for r in fake.requests]


def test_the_comment_is_found_on_a_later_page_and_per_key(
    github: tuple[FakeGitHub, Target],
) -> None:
    fake, target = github
    fake.comments += [{"id": i, "body": f"chatter {i}"} for i in range(PAGE + 5)]
    assert upsert_comment(target, "docs", key="docs") == "created"
    assert upsert_comment(target, "site", key="site") == "created"
    assert upsert_comment(target, "docs again", key="docs") == "updated"
    bodies = [c["body"] for c in fake.comments[PAGE + 5 :]]
    assert bodies == [
        f"docs again\n\n{marker('docs')}\n",
        f"site\n\n{marker('site')}\n",
    ]


def test_a_read_only_token_is_a_clear_error(github: tuple[FakeGitHub, Target]) -> None:
    fake, target = github
    fake.refuse = 403
    with pytest.raises(ChunkgateError) as caught:
        upsert_comment(target, "body")
    message = str(caught.value)
    assert message.startswith(
        "GitHub API GET /repos/owner/docs/issues/7/comments?per_page=100&page=1: 403 Forbidden: "
        "Resource not accessible by integration"
    )
    assert "a pull request from a fork gets a read-only token" in message


def test_no_server_is_a_clear_error() -> None:
    target = Target("http://127.0.0.1:9", "owner/docs", 7, "t")
    with pytest.raises(ChunkgateError, match=r"^GitHub API GET /repos/owner/docs/issues/7/"):
        upsert_comment(target, "body")
