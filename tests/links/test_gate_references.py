"""CG404 in the gate: the whole-corpus check, the hook, the known-problem baseline and
recorded moves, on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import check_json, cli_process, commit_all, committed, git, invoke, shard, write

BODY = "Install the package with pip, then configure it as the guide says.\n"
SETUP = f"# Setup\n\n## Install\n\n{BODY}\n## Configure\n\n{BODY}"
INDEX = "# Docs\n\nSome words that introduce the documentation of this project.\n\n"
LINK = "Read [how to install](setup.md#install) first.\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "docs/setup.md", SETUP)
    write(cli_repo, "docs/index.md", INDEX + LINK)
    write(cli_repo, "docs/other.md", f"# Other\n\n{BODY}")
    committed(cli_repo)
    return cli_repo


def broken(data: dict[str, object]) -> list[tuple[str, int, str]]:
    found = data["violations"]
    assert isinstance(found, list)
    return [(v["path"], v["line"], v["message"]) for v in found if v["rule"] == "CG404"]


MISSING = "link setup.md#install: docs/setup.md has no anchor #install"


def test_a_clean_corpus_passes(repo: Path) -> None:
    code, data = check_json()
    assert (code, broken(data)) == (0, [])


def test_a_broken_link_fails_the_whole_corpus_check(repo: Path) -> None:
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\nSee [it](setup.md#nothing-here).\n")
    code, data = check_json()
    assert code == 1
    message = "link setup.md#nothing-here: docs/setup.md has no anchor #nothing-here"
    assert broken(data) == [("docs/other.md", 5, message)]
    (violation,) = [v for v in data["violations"] if v["rule"] == "CG404"]  # type: ignore[union-attr]
    assert violation["severity"] == "error"


def test_a_rename_breaking_a_link_fails_the_hook_naming_the_citing_file(repo: Path) -> None:
    write(repo, "docs/setup.md", SETUP.replace("## Install", "## Installing it"))
    git(repo, "add", "docs/setup.md")
    code, data = check_json("--hook", "docs/setup.md")
    assert code == 1
    assert broken(data) == [("docs/index.md", 5, MISSING)]
    (violation,) = [v for v in data["violations"] if v["rule"] == "CG404"]  # type: ignore[union-attr]
    assert "#installing-it" in violation["fix"]
    # The whole-corpus check says the same.
    code, data = check_json()
    assert (code, broken(data)) == (1, [("docs/index.md", 5, MISSING)])


def test_the_hook_checks_the_links_of_committed_files(repo: Path) -> None:
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\n[x](#no-such-heading)\n")
    code, data = check_json("--hook", "docs/other.md")
    assert code == 1
    assert broken(data) == [
        ("docs/other.md", 5, "link #no-such-heading: this file has no anchor #no-such-heading")
    ]
    # A rename nothing links to, in a file with a heading others link to, passes.
    write(repo, "docs/other.md", f"# Other\n\n{BODY}")
    write(repo, "docs/setup.md", SETUP.replace("## Configure", "## Configuring"))
    _, data = check_json("--hook", "docs/setup.md", "docs/other.md")
    assert broken(data) == []


def test_a_known_broken_link_is_known_and_a_new_one_fails(repo: Path) -> None:
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\nSee [it](setup.md#gone).\n")
    assert invoke("update").exit_code == 0
    recorded = shard(repo, "docs/other.md").read_text()
    assert '"rule": "CG404"' in recorded
    commit_all(repo)
    code, data = check_json()
    assert (code, broken(data)) == (0, [])
    known = [v for v in data["known"] if v["rule"] == "CG404"]  # type: ignore[union-attr]
    assert [(v["path"], v["line"]) for v in known] == [("docs/other.md", 5)]
    # Lines above it move: still the same known link.
    write(repo, "docs/other.md", f"# Other\n\nMore words.\n\n{BODY}\nSee [it](setup.md#gone).\n")
    code, data = check_json("--hook", "docs/other.md")
    assert broken(data) == []  # (CG401: the shard is not updated)
    known = [v for v in data["known"] if v["rule"] == "CG404"]  # type: ignore[union-attr]
    assert [(v["path"], v["line"]) for v in known] == [("docs/other.md", 7)]
    # A second broken link is new; the known one stays known.
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\nSee [it](setup.md#gone), [x](#nope).\n")
    code, data = check_json()
    assert code == 1
    assert broken(data) == [("docs/other.md", 5, "link #nope: this file has no anchor #nope")]
    assert invoke("check", "--strict").exit_code == 1


def test_a_recorded_move_names_the_new_anchor_until_the_link_is_fixed(repo: Path) -> None:
    write(repo, "docs/setup.md", SETUP.replace("## Install", "## Installing it"))
    result = invoke("update", "--accept-moves")
    assert result.exit_code == 0, result.output
    assert '"moved_from": "docs/setup.md#install"' in shard(repo, "docs/setup.md").read_text()
    git(repo, "add", "-A")
    # Accepting the move silences no link: the hook and the whole check both report it.
    for args in (("--hook", "docs/setup.md"), ()):
        code, data = check_json(*args)
        assert code == 1
        assert [path for path, _, _ in broken(data)] == ["docs/index.md"]
        fixes = [v["fix"] for v in data["violations"] if v["rule"] == "CG404"]
        assert all("docs/setup.md#installing-it" in fix for fix in fixes), fixes
    assert invoke("fix-links").exit_code == 0
    assert invoke("update").exit_code == 0
    git(repo, "add", "-A")
    code, data = check_json()
    assert (code, broken(data)) == (0, []), data
    commit_all(repo)
    # A later rename that the move no longer lands on breaks it again.
    write(repo, "docs/setup.md", SETUP.replace("## Install", "## Setup steps"))
    git(repo, "add", "-A")
    code, data = check_json("--hook", "docs/setup.md")
    assert code == 1
    assert [path for path, _, _ in broken(data)] == ["docs/index.md"]


def test_the_hook_as_a_subprocess_names_the_citing_file_and_line(repo: Path) -> None:
    write(repo, "docs/setup.md", SETUP.replace("## Install\n", "## Installation\n"))
    git(repo, "add", "docs/setup.md")
    proc = cli_process(repo, "check", "--update", "--hook", "--format", "text", "docs/setup.md")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert b"docs/index.md:5" in proc.stdout
    assert b"CG404" in proc.stdout
    assert b"Traceback" not in proc.stderr


def test_cg404_off_is_not_checked(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "rules: {CG404: off}\n")
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\n[x](#no-such-heading)\n")
    _, data = check_json()
    assert broken(data) == []


def test_a_whole_corpus_update_records_and_forgets_links_broken_elsewhere(repo: Path) -> None:
    write(repo, "docs/setup.md", SETUP.replace("## Install", "## Installing it"))
    invoke("update")  # CG402 fails it, but the shards are written
    assert '"rule": "CG404"' in shard(repo, "docs/index.md").read_text()  # index.md unchanged
    write(repo, "docs/setup.md", SETUP)
    assert invoke("update").exit_code == 0
    assert '"rule": "CG404"' not in shard(repo, "docs/index.md").read_text()


def test_each_site_of_the_repository_resolves_its_own_pages_links(repo: Path) -> None:
    """Two MkDocs sites, one folder down each: a rooted link in b's docs is b's, and
    broken there though a's page of that name has the anchor (once every link was
    resolved in the first site, and this one passed)."""
    write(repo, "a/mkdocs.yml", "site_name: a\n")
    write(repo, "a/docs/guide/index.md", f"# Guide\n\n## Nope\n\n{BODY}")
    write(repo, "a/docs/index.md", f"# A\n\n{BODY}\nSee [the guide](/guide/#nope).\n")
    write(repo, "b/mkdocs.yml", "site_name: b\n")
    write(repo, "b/docs/guide/index.md", f"# Guide\n\n## Install\n\n{BODY}")
    write(repo, "b/docs/index.md", f"# B\n\n{BODY}\nSee [the guide](/guide/#nope).\n")
    commit_all(repo)
    code, data = check_json()
    message = "link /guide/#nope: b/docs/guide/index.md has no anchor #nope"
    assert (code, broken(data)) == (1, [("b/docs/index.md", 5, message)])


@pytest.mark.parametrize("hook", [False, True])
def test_a_vitepress_site_links_by_its_slugs_and_routes(repo: Path, hook: bool) -> None:
    """VitePress (``docs/.vitepress/config.mts``) slugs ``server.open`` as ``server-open``
    (GitHub: ``serveropen``), and ``./options`` or ``/config/options`` name options.md."""
    write(repo, "site/.vitepress/config.mts", "export default { cleanUrls: true }\n")
    write(repo, "site/config/options.md", f"# Options\n\n## server.open\n\n{BODY}")
    good = "[a](./options#server-open), [b](/config/options#server-open)"
    write(repo, "site/config/guide.md", f"# Guide\n\n{BODY}\nSee {good}.\n")
    invoke("update")  # the hook reads the site configs the last update recorded
    commit_all(repo)
    write(repo, "site/config/guide.md", f"# Guide\n\n{BODY}\nSee {good}, [c](#server-nope).\n")
    git(repo, "add", "-A")
    code, data = check_json(*(("--hook", "site/config/guide.md") if hook else ()))
    message = "link #server-nope: this file has no anchor #server-nope"
    assert (code, broken(data)) == (1, [("site/config/guide.md", 5, message)])
    assert broken({"violations": data.get("known", [])}) == []


def test_a_cold_corpus_reads_its_links_in_workers_with_the_same_findings(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no link cache (CI's fresh machine) the files are read over ``--jobs``
    worker processes when they are enough work; the report is the same as one job's."""
    from chunkgate.core import parallel

    monkeypatch.setattr(parallel, "WORTH_SECONDS", 64 * parallel.FILE_SECONDS)
    for index in range(80):
        target = "setup.md#nothing-here" if index % 16 == 3 else "setup.md#install"
        write(repo, f"docs/pages/{index:02d}.md", f"# Page {index}\n\n{BODY}\n[x](../{target})\n")
    commit_all(repo)
    started = []
    real = parallel._in_workers

    def counted(work: object, *args: object) -> object:
        started.append(getattr(work, "func", work).__name__)  # type: ignore[attr-defined]
        return real(work, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "_in_workers", counted)
    reports = []
    for jobs in ("2", "1", "2"):
        monkeypatch.setenv("CHUNKGATE_CACHE_DIR", str(tmp_path / f"cache-{len(reports)}"))
        reports.append(check_json("--jobs", jobs))
    assert started.count("_links_of") == 2  # the 2-job runs, once each
    assert reports[0] == reports[1] == reports[2]
    code, data = reports[0]
    message = "link ../setup.md#nothing-here: docs/setup.md has no anchor #nothing-here"
    expected = [(f"docs/pages/{index:02d}.md", 5, message) for index in (3, 19, 35, 51, 67)]
    assert (code, sorted(broken(data))) == (1, expected)
    # A warm run reads no file for its links.
    assert check_json("--jobs", "2") == reports[0]
    assert started.count("_links_of") == 2


PAGE = f"# Guide\n\n{BODY}\n## Install & Run\n\n{BODY}\n## Über Größe\n\n{BODY}"


@pytest.mark.parametrize("hook", [False, True])
def test_links_are_checked_against_the_anchors_the_site_publishes(repo: Path, hook: bool) -> None:
    """On an MkDocs site a heading's anchor is MkDocs' (the chunk ID's), not GitHub's:
    a link to what the site publishes passes, a link to GitHub's spelling is broken,
    and the fix names the site's anchor."""
    write(repo, "mkdocs.yml", "site_name: Docs\n")
    write(repo, "docs/guide.md", PAGE)
    committed(repo)
    assert '"id": "docs/guide.md#install-run"' in shard(repo, "docs/guide.md").read_text()
    good = "[a](guide.md#install-run) [b](guide.md#uber-groe)\n"
    bad = "[c](guide.md#install--run)\n"  # GitHub's anchor of the heading
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\n{good}\n{bad}")
    git(repo, "add", "-A")
    code, data = check_json("--hook", "docs/other.md") if hook else check_json()
    assert broken(data) == [
        (
            "docs/other.md",
            7,
            "link guide.md#install--run: docs/guide.md has no anchor #install--run",
        )
    ]
    (violation,) = [v for v in data["violations"] if v["rule"] == "CG404"]  # type: ignore[union-attr]
    assert "#install-run" in violation["fix"]
    assert code == 1


def test_the_configured_anchor_flavour_is_the_one_links_are_checked_against(
    repo: Path,
) -> None:
    write(repo, ".chunkgate.yaml", "markdown: {anchors: mkdocs}\n")
    write(repo, "docs/guide.md", PAGE)
    committed(repo)
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\n[a](guide.md#uber-groe) [b](#other)\n")
    assert invoke("update").exit_code == 0  # nothing broken to record
    code, data = check_json()
    assert (code, broken(data), data["known"]) == (0, [], [])


TRICKY = (
    "# Über Größe & Co.\n\nSome words that introduce this page of the documentation.\n\n"
    + "".join(
        f"## {title}\n\n{BODY}\n"
        for title in [
            'Foo & Bar: "quoted" (v2.0)',
            'Foo & Bar: "quoted" (v2.0)',
            "日本語の見出し",
            "`code` and *emph* -- dashes",
            "Trailing punctuation!!!",
        ]
    )
)
SITES = {
    "github": ("", "", "docs"),
    "mkdocs": ("mkdocs.yml", "site_name: x\n", "docs"),
    "hugo": ("hugo.toml", 'title = "x"\n', "content"),
    "jekyll": ("_config.yml", "title: x\n", "docs"),
    "starlight": (
        "astro.config.mjs",
        "import starlight from '@astrojs/starlight';\n"
        "export default { integrations: [starlight({ title: 'x' })] };\n",
        "src/content/docs",
    ),
    "mdbook": ("book.toml", '[book]\ntitle = "x"\n', "src"),
}


@pytest.mark.parametrize("site", sorted(SITES))
def test_every_chunk_id_is_a_link_target_on_every_site(cli_repo: Path, site: str) -> None:
    """A chunk ID's anchor is the one the site publishes, and CG404 checks links against
    the same anchors: a page linking to every chunk of another passes, whatever the
    generator (punctuation, repeats, non-Latin headings)."""
    config, text, folder = SITES[site]
    if config:
        write(cli_repo, config, text)
    write(cli_repo, f"{folder}/page.md", TRICKY)
    listed = invoke("chunks", "--format", "jsonl", f"{folder}/page.md")
    anchors = [json.loads(line)["id"].partition("#")[2] for line in listed.output.splitlines()]
    assert len(set(anchors)) == 6
    links = "".join(f"- [x](page.md#{anchor})\n" for anchor in anchors)
    write(cli_repo, f"{folder}/links.md", f"# Links\n\n{BODY}\n{links}")
    git(cli_repo, "add", "-A")
    code, data = check_json("--select", "CG404")
    assert (code, broken(data)) == (0, [])
    code, data = check_json("--select", "CG404", "--hook", f"{folder}/links.md")
    assert (code, broken(data)) == (0, [])


def test_a_broken_non_ascii_link_is_shown_as_written_and_stays_known(repo: Path) -> None:
    """cmark percent-encodes a link's non-ASCII text; the finding shows it as written,
    and a finding recorded in the encoded form (an older chunkgate's) is still known."""
    write(repo, "docs/other.md", f"# Other\n\n{BODY}\nSee [it](setup.md#über-größe).\n")
    git(repo, "add", "-A")
    code, data = check_json()
    message = "link setup.md#über-größe: docs/setup.md has no anchor #über-größe"
    assert (code, broken(data)) == (1, [("docs/other.md", 5, message)])
    assert invoke("update").exit_code == 0
    recorded = shard(repo, "docs/other.md")
    old = message.replace("setup.md#über-größe:", "setup.md#%C3%BCber-gr%C3%B6%C3%9Fe:")
    assert json.dumps(message, ensure_ascii=False) in recorded.read_text()
    recorded.write_text(recorded.read_text().replace(message, old))
    commit_all(repo)
    code, data = check_json()
    assert (code, broken(data)) == (0, [])
    assert [v["message"] for v in data["known"]] == [message]
