"""``chunkgate redirects``: the accepted moves' redirects, built by the real generators, and
the old URL serves the redirect page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import cli_process, commit_all, git, run, write

SETUP = (
    "# Setup\n\nAn introduction long enough to be a chunk of its own.\n\n"
    "## Install\n\nRun the installer; a sentence long enough to be a chunk.\n"
)


def _moved(repo: Path, old: str, new: str, *, rename: bool = False) -> None:
    commit_all(repo, "site")
    assert run("update")[0] == 0
    commit_all(repo, "adopt")
    (repo / new).parent.mkdir(parents=True, exist_ok=True)
    git(repo, "mv", old, new)
    if rename:
        text = (repo / new).read_text(encoding="utf-8")
        (repo / new).write_text(text.replace("## Install", "## Installing"), encoding="utf-8")
    assert run("update", "--accept-moves")[0] == 0


def test_mkdocs_redirects_build_and_the_old_url_redirects(cli_repo: Path) -> None:
    write(cli_repo, "mkdocs.yml", "site_name: Test\n# the site's own comment\n")
    write(cli_repo, "docs/index.md", "# Home\n\nThe home page, long enough for a chunk.\n")
    write(cli_repo, "docs/setup.md", SETUP)
    _moved(cli_repo, "docs/setup.md", "docs/guide/setup.md", rename=True)
    args = ("redirects", "mkdocs.yml", "--anchors", "docs/chunkgate-anchors.json")
    first = cli_process(cli_repo, *args)
    assert first.returncode == 0, first.stderr
    assert b"+        'setup.md': 'guide/setup.md'" in first.stdout
    assert "# the site's own comment" in (cli_repo / "mkdocs.yml").read_text(encoding="utf-8")
    again = cli_process(cli_repo, *args)
    assert b"0 file(s) written" in again.stdout  # idempotent
    anchors = json.loads((cli_repo / "docs/chunkgate-anchors.json").read_text(encoding="utf-8"))
    assert anchors["/setup/#install"] == "/guide/setup/#installing"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"],
        cwd=cli_repo,
        check=True,
        capture_output=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    page = (cli_repo / "site/setup/index.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh" content="0; url=../guide/setup/"' in page
    assert (cli_repo / "site/guide/setup/index.html").is_file()
    assert (cli_repo / "site/chunkgate-anchors.json").is_file()


def test_hugo_aliases_build_and_the_old_url_redirects(cli_repo: Path) -> None:
    write(cli_repo, "hugo.toml", 'baseURL = "https://example.org/"\ntitle = "x"\n')
    write(cli_repo, "layouts/_default/single.html", "{{ .Content }}")
    write(cli_repo, "content/docs/setup.md", f"---\ntitle: Setup\n---\n\n{SETUP}")
    _moved(cli_repo, "content/docs/setup.md", "content/docs/guide/setup.md")
    result = cli_process(cli_repo, "redirects", "hugo.toml")
    assert result.returncode == 0, result.stderr
    front = (cli_repo / "content/docs/guide/setup.md").read_text(encoding="utf-8")
    assert front.startswith('---\ntitle: Setup\naliases:\n  - "/docs/setup/"\n---\n')
    subprocess.run(["hugo", "--quiet"], cwd=cli_repo, check=True, capture_output=True)
    page = (cli_repo / "public/docs/setup/index.html").read_text(encoding="utf-8")
    assert 'content="0; url=https://example.org/docs/guide/setup/"' in page
    # The front matter is no text: the page's chunks and IDs are the same.
    assert run("update")[0] == 0
    assert cli_process(cli_repo, "check").returncode == 0
