"""``check --site DIR``: CG404 against a site MkDocs really built, where chunkgate's own
reading of the sources cannot know the anchors (a site hook writes them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import check_json, commit_all, make_repo, pin_git_env, write

from chunkgate.links.broken import from_built_site
from chunkgate.links.openings import PageAnchors
from chunkgate.sites.built import read_site
from chunkgate.sites.routes import Routes

# A hook like Material's docs have: `<!-- md:setting NAME -->` becomes a heading's ID, and
# every page gets an anchor no source holds.
HOOK = """\
import re


def on_page_markdown(markdown, **kwargs):
    return re.sub(r"<!-- md:setting (\\S+) -->", r"`\\1` { #\\1 }", markdown)


def on_page_content(html, **kwargs):
    return html + '<span id="generated"></span>'
"""
MKDOCS_YML = """\
site_name: t
hooks: [hooks.py]
markdown_extensions: [attr_list, md_in_html]
"""
PAGES = {
    "docs/index.md": (
        "# Home\n\n"
        "[a](api.md#config.blog_dir) [b](api.md#config.nope) [c](api.md#generated)\n"
        "[d](api.md#in-html) [e](api.md#missing)\n"
    ),
    "docs/api.md": (
        "# API\n\n#### <!-- md:setting config.blog_dir -->\n\nThe folder.\n\n"
        '<div markdown="1">\n\n## In HTML\n\nText.\n\n</div>\n'
    ),
}


@pytest.fixture
def site_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    write(repo, "mkdocs.yml", MKDOCS_YML)
    write(repo, "hooks.py", HOOK)
    for path, text in PAGES.items():
        write(repo, path, text)
    commit_all(repo)
    built = tmp_path / "built"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(built)],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    return built


def _cg404(report: dict[str, object]) -> list[tuple[int, str]]:
    violations = report["violations"]
    assert isinstance(violations, list)
    return [(v["line"], v["message"]) for v in violations if v["rule"] == "CG404"]


def test_the_built_site_decides_what_the_sources_cannot(site_repo: Path) -> None:
    # Without the site: the hook's heading leaves api.md open, so its links are
    # unverified; the hook's other anchor, on a page chunkgate reads as complete...
    code, report = check_json("--select", "CG404")
    unverified = report["unverified"]
    assert {u["destination"] for u in unverified} == {
        "api.md#config.blog_dir",
        "api.md#config.nope",
        "api.md#generated",
        "api.md#missing",
    }
    assert report["summary"]["unverified"] == 4
    assert code == 0  # unverified fails nothing

    # With it: exact. The hook's anchors are there, the two wrong links are errors.
    code, report = check_json("--select", "CG404", "--site", str(site_repo))
    assert _cg404(report) == [
        (3, "link api.md#config.nope: docs/api.md has no anchor #config.nope"),
        (4, "link api.md#missing: docs/api.md has no anchor #missing"),
    ]
    assert report["unverified"] == []
    assert code == 1


def test_a_page_the_site_does_not_serve_keeps_chunkgate_s_anchors(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h1 id="built">A</h1>', encoding="utf-8")
    site = read_site(tmp_path)
    own = PageAnchors(frozenset({"own"}), "an autodoc block")
    anchors = from_built_site(lambda path: own, site, Routes("mkdocs", ("docs",), True))
    assert anchors("docs/a.md") == PageAnchors(frozenset({"built"}))
    assert anchors("docs/b.md") == own


def test_a_permalink_only_the_built_site_knows_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Jekyll publishes ruby.md at its front matter's permalink: the sources resolve
    `/docs/ruby-101/` through it (``sites.urls``), and the built site agrees."""
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    write(repo, "_config.yml", "title: t\n")
    write(repo, "ruby.md", "---\npermalink: /docs/ruby-101/\n---\n# Ruby 101\n\n## Gems\n\nText.\n")
    links = "[g](/docs/ruby-101/#gems) [n](/docs/ruby-101/#gem) [r](docs/ruby-101/#nope)\n"
    write(repo, "index.md", f"---\n---\n# Home\n\n{links}")
    commit_all(repo)
    built = tmp_path / "built"
    subprocess.run(
        ["jekyll", "build", "-q", "-s", str(repo), "-d", str(built)],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    broken = [
        (5, "link /docs/ruby-101/#gem: ruby.md has no anchor #gem"),
        (5, "link docs/ruby-101/#nope: ruby.md has no anchor #nope"),
    ]
    _, report = check_json("--select", "CG404")
    assert _cg404(report) == broken
    code, report = check_json("--select", "CG404", "--site", str(built))
    assert _cg404(report) == broken
    assert report["violations"][0]["fix"] == "link to #gems (the closest anchor of ruby.md)"
    assert code == 1


def test_a_hugo_shortcode_s_heading_is_read_from_the_built_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hugo publishes content/Guide/Setup.md at /guide/setup/; the heading its shortcode
    writes is an id there and nowhere in the sources. A shortcode whose template writes
    no id leaves its page complete: a link into it is judged without the site."""
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    write(repo, "hugo.toml", 'baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS"]\n')
    for name in ("single", "list"):
        write(repo, f"layouts/_default/{name}.html", "{{ .Content }}\n")
    write(repo, "layouts/shortcodes/heading.html", '<h2 id="made">{{ .Get 0 }}</h2>\n')
    write(repo, "layouts/shortcodes/note.html", '<div class="note">{{ .Inner }}</div>\n')
    setup = '---\ntitle: Setup\n---\n\n## Install\n\n{{< heading "Made" >}}\n\nText.\n'
    write(repo, "content/Guide/Setup.md", setup)
    notes = "---\ntitle: Notes\n---\n\n## First\n\n{{< note >}}\nA note.\n{{< /note >}}\n"
    write(repo, "content/Guide/Notes.md", notes)
    links = "[a](guide/setup/#made) [b](guide/setup/#nope) [c](guide/setup/#install)\n"
    write(repo, "content/_index.md", f"---\ntitle: Home\n---\n\n{links}[d](guide/notes/#nope)\n")
    commit_all(repo)
    built = tmp_path / "built"
    subprocess.run(
        ["hugo", "--quiet", "--destination", str(built)], cwd=repo, check=True, capture_output=True
    )
    _, report = check_json("--select", "CG404")
    assert {u["destination"] for u in report["unverified"]} == {
        "guide/setup/#made",
        "guide/setup/#nope",
    }
    notes_nope = (6, "link guide/notes/#nope: content/Guide/Notes.md has no anchor #nope")
    assert _cg404(report) == [notes_nope]
    _, report = check_json("--select", "CG404", "--site", str(built))
    assert _cg404(report) == [
        (5, "link guide/setup/#nope: content/Guide/Setup.md has no anchor #nope"),
        notes_nope,
    ]
    assert report["unverified"] == []
