"""The manifest header's record of the site generators' configs: written by whole-corpus
runs, read by runs on named files (the hook) instead of listing the work tree (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import PROSE, commit_all, git, run, shard, write

from chunkgate.config.load import load_config
from chunkgate.core.errors import ManifestError
from chunkgate.hooks.mergedriver import merge_headers
from chunkgate.manifest import Header, parse_header, render_header
from chunkgate.sites import detect as sites

MKDOCS = "site_name: x\nmarkdown_extensions:\n  - toc:\n      permalink: true\n"
# MkDocs' toc drops the "&" and joins the words with one hyphen; GitHub keeps two.
PAGE = f"# Hello & World\n\n{PROSE}"
MKDOCS_ID, GITHUB_ID = "docs/a.md#hello-world", "docs/a.md#hello--world"
HEADER = "chunkgate.manifest/manifest.json"


class Listings:
    """Counts the work-tree listings for generator configs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = sites.search.files_named

        def counted(root: Path, names: object, untracked: object = None) -> object:
            self.count += 1
            return real(root, names, untracked)  # type: ignore[arg-type]

        monkeypatch.setattr(sites.search, "files_named", counted)


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> Listings:
    return Listings(monkeypatch)


def _header(repo: Path) -> Header:
    return parse_header((repo / HEADER).read_bytes(), HEADER)


def _edit_and_hook(repo: Path, *extra: str) -> tuple[int, str]:
    with (repo / "docs/a.md").open("a", encoding="utf-8") as handle:
        handle.write("\nAn added paragraph that is long enough to count as text.\n")
    git(repo, "add", "-A")
    return run("check", "--update", "--hook", "docs/a.md", *extra)


def test_update_records_the_configs_and_which_are_untracked(cli_repo: Path) -> None:
    write(cli_repo, "mkdocs.yml", MKDOCS)
    write(cli_repo, "docs/a.md", PAGE)
    write(cli_repo, "site/hugo.toml", "")
    commit_all(cli_repo)
    write(cli_repo, "other/mkdocs.yml", MKDOCS)  # untracked, not ignored
    code, output = run("update")
    assert code == 0, output
    header = _header(cli_repo)
    assert header.site_configs == ("mkdocs.yml", "other/mkdocs.yml", "site/hugo.toml")
    assert header.untracked_configs == ("other/mkdocs.yml",)
    assert header.tracked_configs() == ("mkdocs.yml", "site/hugo.toml")
    text = (cli_repo / HEADER).read_text(encoding="utf-8")
    assert '  "site_configs": [\n    "mkdocs.yml",\n' in text  # one path a line


def test_the_hook_reads_the_record_instead_of_listing_the_tree(
    cli_repo: Path, listings: Listings
) -> None:
    write(cli_repo, "docs/a.md", PAGE)
    write(cli_repo, "mkdocs.yml", MKDOCS)
    assert run("update")[0] == 0
    assert listings.count == 1
    commit_all(cli_repo)
    code, output = _edit_and_hook(cli_repo)
    assert code == 1, output  # the shard was rewritten
    assert listings.count == 1  # none for the hook
    assert MKDOCS_ID in shard(cli_repo, "docs/a.md").read_text(encoding="utf-8")
    code, output = run("check", "--hook", "docs/a.md")  # the read-only hook too
    assert (code, listings.count) == (0, 1), output
    assert run("check", "docs/a.md")[0] == 0  # a run by hand lists, as the whole one does
    assert listings.count == 2


def test_an_untracked_config_in_the_record_gives_the_hook_the_ids_update_gave(
    cli_repo: Path, listings: Listings
) -> None:
    write(cli_repo, "docs/a.md", PAGE)
    commit_all(cli_repo)
    write(cli_repo, "mkdocs.yml", MKDOCS)  # never committed
    assert run("update")[0] == 0
    git(cli_repo, "add", "--", "chunkgate.manifest")
    git(cli_repo, "commit", "-q", "-m", "manifest")
    assert _header(cli_repo).untracked_configs == ("mkdocs.yml",)
    code, output = _edit_and_hook(cli_repo)
    assert code == 1, output
    assert "CG402" not in output
    assert "CG1" not in output
    text = shard(cli_repo, "docs/a.md").read_text(encoding="utf-8")
    assert MKDOCS_ID in text
    assert GITHUB_ID not in text
    assert listings.count == 1


def test_a_config_among_the_named_files_makes_the_run_list_the_tree(
    cli_repo: Path, listings: Listings
) -> None:
    write(cli_repo, "docs/a.md", PAGE)
    assert run("update")[0] == 0
    commit_all(cli_repo)
    assert _header(cli_repo).site_configs == ()
    write(cli_repo, "mkdocs.yml", MKDOCS)
    _code, output = _edit_and_hook(cli_repo, "mkdocs.yml")
    assert listings.count == 2, output
    assert MKDOCS_ID in shard(cli_repo, "docs/a.md").read_text(encoding="utf-8")
    assert _header(cli_repo).site_configs == ("mkdocs.yml",)  # a rebuild: new settings
    config = load_config(cli_repo, hook_files=["docs"])  # a folder may hold a new config
    assert listings.count == 3
    assert [site.style.source for site in config.chunking.sites] == ["mkdocs.yml"]


def test_a_removed_config_drops_out_of_a_recorded_run(cli_repo: Path, listings: Listings) -> None:
    write(cli_repo, "docs/a.md", PAGE)
    write(cli_repo, "mkdocs.yml", MKDOCS)
    assert run("update")[0] == 0
    commit_all(cli_repo)
    git(cli_repo, "rm", "-q", "mkdocs.yml")
    config = load_config(cli_repo, hook_files=["docs/a.md"])
    assert listings.count == 1  # only update's
    assert config.chunking.sites == ()
    assert config.generator_files == ()
    assert config.generators is not None
    assert config.generators.listed == ()


def test_a_header_without_a_record_is_read_and_the_hook_lists_as_before(
    cli_repo: Path, listings: Listings
) -> None:
    write(cli_repo, "docs/a.md", PAGE)
    write(cli_repo, "mkdocs.yml", MKDOCS)
    assert run("update")[0] == 0
    older = _header(cli_repo)
    old_bytes = render_header(
        Header(older.format, older.chunking, older.config, older.rules, older.anchors)
    )
    (cli_repo / HEADER).write_bytes(old_bytes)  # as chunkgate before the record wrote it
    commit_all(cli_repo)
    code, output = _edit_and_hook(cli_repo)
    assert code == 1, output
    assert listings.count == 2  # update's, and the hook's own
    assert (cli_repo / HEADER).read_bytes() == old_bytes  # a named run leaves it
    assert MKDOCS_ID in shard(cli_repo, "docs/a.md").read_text(encoding="utf-8")
    assert run("update")[0] == 0
    assert _header(cli_repo).site_configs == ("mkdocs.yml",)


BASE = Header(3, 4, "config", "rules", "github", ("a/mkdocs.yml",), ())


@pytest.mark.parametrize(
    "header",
    [
        BASE,
        Header(3, 4, "config", "rules", "github", (), ()),
        Header(3, 4, "config", "rules", "github", ("b/mkdocs.yml", "mkdocs.yml"), ("mkdocs.yml",)),
        Header(3, 4, "config", "rules", "github"),
    ],
)
def test_the_record_reads_back(header: Header) -> None:
    assert parse_header(render_header(header), HEADER) == header


@pytest.mark.parametrize(
    ("record", "error"),
    [
        ('"site_configs": "mkdocs.yml"', "must be a list of paths"),
        ('"site_configs": ["b.yml", "a.yml"]', "sorted and unique"),
        ('"site_configs": ["/etc/mkdocs.yml"]', "not a corpus path"),
        ('"site_configs": ["a.yml"],\n  "untracked_configs": ["b.yml"]', "among site_configs"),
        ('"untracked_configs": ["b.yml"]', "without site_configs"),
    ],
)
def test_a_bad_record_is_a_manifest_error_on_its_line(record: str, error: str) -> None:
    good = render_header(Header(3, 4, "config", "rules", "github")).decode()
    data = good.replace("\n}\n", f",\n  {record}\n}}\n").encode()
    with pytest.raises(ManifestError, match=error) as raised:
        parse_header(data, HEADER)
    assert f"{HEADER}:7" in str(raised.value) or f"{HEADER}:1" in str(raised.value)


def test_the_merge_driver_keeps_the_configs_both_sides_added_and_drops_removed_ones() -> None:
    base = BASE
    ours = base.with_sites(("a/mkdocs.yml", "b/mkdocs.yml"), ("a/mkdocs.yml", "b/mkdocs.yml"))
    theirs = base.with_sites(("c/hugo.toml",), ())
    merged, messages = merge_headers(
        render_header(base), render_header(ours), render_header(theirs)
    )
    assert messages == []
    result = parse_header(merged, HEADER)
    assert result.site_configs == ("b/mkdocs.yml", "c/hugo.toml")
    assert result.untracked_configs == ("c/hugo.toml",)
