"""CG405: links to Markdown pages that are not there (deleted, moved, never written), on
real git repositories; links chunkgate cannot be sure of are never findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_json, commit_all, committed, git, invoke, write

BODY = "Install the package with pip, then configure it as the guide says.\n"
SETUP = f"# Setup\n\n## Install\n\n{BODY}"
LINKS = "Read [how to install](setup.md#install) and [the setup](setup.md).\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "docs/setup.md", SETUP)
    write(cli_repo, "docs/index.md", f"# Docs\n\n{BODY}\n{LINKS}")
    write(cli_repo, "docs/other.md", f"# Other\n\n{BODY}")
    committed(cli_repo)
    return cli_repo


def missing(data: dict[str, object]) -> list[tuple[str, int, str, str]]:
    found = data["violations"]
    assert isinstance(found, list)
    return [(v["path"], v["line"], v["message"], v["fix"]) for v in found if v["rule"] == "CG405"]


def test_a_link_to_a_page_never_written_is_reported_with_the_closest_page(repo: Path) -> None:
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\nSee [it](setpu.md#install).\n")
    code, data = check_json()
    fix = "link to an existing page (the closest: docs/setup.md), or remove the link"
    assert (code, missing(data)) == (
        1,
        [("docs/other.md", 5, "link setpu.md#install: no page docs/setpu.md", fix)],
    )
    assert not [v for v in data["violations"] if v["rule"] == "CG404"]


def test_links_chunkgate_cannot_be_sure_of_are_no_findings(repo: Path) -> None:
    """A page outside the corpus (it exists: the site publishes it), an image, a site
    URL of a page the generator makes (tags), another site, a templated link."""
    write(repo, ".chunkgate.yaml", "exclude: ['drafts/**']\n")
    write(repo, "drafts/plan.md", f"# Plan\n\n{BODY}")
    links = [
        "../drafts/plan.md",
        "img/logo.png",
        "/tags/python/",
        "https://example.org/x.md",
        "{{ site.baseurl }}/x.md",
    ]
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\n" + "".join(f"[x]({x})\n" for x in links))
    _, data = check_json()
    assert missing(data) == []


def test_the_hook_reports_the_links_into_a_page_the_commit_deletes(repo: Path) -> None:
    git(repo, "rm", "-q", "docs/setup.md")
    code, data = check_json("--hook", "docs/setup.md")
    assert code == 1
    fix = "link to an existing page, or remove the link"
    assert missing(data) == [
        ("docs/index.md", 5, "link setup.md#install: no page docs/setup.md", fix),
        ("docs/index.md", 5, "link setup.md: no page docs/setup.md", fix),
    ]
    # The whole-corpus check says the same, with the closest page it can list.
    code, data = check_json()
    assert [finding[:3] for finding in missing(data)] == [
        ("docs/index.md", 5, "link setup.md#install: no page docs/setup.md"),
        ("docs/index.md", 5, "link setup.md: no page docs/setup.md"),
    ]


def test_a_moved_page_the_manifest_records_is_named_in_the_fix(repo: Path) -> None:
    (repo / "docs" / "guide").mkdir()
    git(repo, "mv", "docs/setup.md", "docs/guide/setup.md")
    invoke("update", "--accept-moves")  # records the sections' moved_from
    git(repo, "add", "-A")
    _, data = check_json("--hook", "docs/setup.md", "docs/guide/setup.md")
    fix = "the page moved to docs/guide/setup.md: link to {} (`chunkgate fix-links` rewrites it)"
    assert {(finding[0], finding[3]) for finding in missing(data)} == {
        ("docs/index.md", fix.format("guide/setup.md#install")),
        ("docs/index.md", fix.format("guide/setup.md")),
    }


def test_a_site_url_into_a_deleted_page_is_reported_in_the_hook(cli_repo: Path) -> None:
    """On a site whose pages are published as folders, `/guide/setup/` named the page: the
    hook knows it was there, and finds the link by the page's published name."""
    write(cli_repo, "mkdocs.yml", "site_name: x\n")
    write(cli_repo, "docs/guide/setup.md", SETUP)
    write(cli_repo, "docs/index.md", f"# Docs\n\n{BODY}\nRead [it](/guide/setup/#install).\n")
    commit_all(cli_repo)  # the manifest records the tracked site configs the hook reads
    committed(cli_repo)
    git(cli_repo, "rm", "-q", "docs/guide/setup.md")
    code, data = check_json("--hook", "docs/guide/setup.md")
    message = "link /guide/setup/#install: no page docs/guide/setup.md"
    assert (code, [finding[:3] for finding in missing(data)]) == (
        1,
        [("docs/index.md", 5, message)],
    )


def test_a_translation_may_link_a_page_only_another_language_has(repo: Path) -> None:
    """fastapi's language sites fall back to the English page: docs/de/docs/newsletter.md is
    missing, docs/en/docs/newsletter.md is there (24 wrong findings on fastapi's docs otherwise)."""
    write(repo, "docs/en/docs/newsletter.md", f"# News\n\n{BODY}")
    links = "[News](newsletter.md), [x](nowhere.md)"
    write(repo, "docs/de/docs/help.md", f"# Hilfe\n\n{BODY}\n{links}\n")
    _, data = check_json()
    assert [finding[2] for finding in missing(data)] == [
        "link nowhere.md: no page docs/de/docs/nowhere.md"
    ]


def test_a_page_hugo_mounts_from_elsewhere_is_there(cli_repo: Path) -> None:
    mounts = '[[module.mounts]]\nsource = "content"\ntarget = "content"\n'
    mounts += '[[module.mounts]]\nsource = "../AGENTS.md"\ntarget = "content/repo/AGENTS.md"\n'
    write(cli_repo, "site/hugo.toml", 'baseURL = "https://x.org/"\n' + mounts)
    write(cli_repo, "site/content/repo/_index.md", f"# Repo\n\n{BODY}\n[a](AGENTS.md) [b](B.md)\n")
    commit_all(cli_repo)
    _, data = check_json()
    assert [finding[2] for finding in missing(data)] == [
        "link B.md: no page site/content/repo/B.md"
    ]
