"""CG501 on a folder that copies another (a build output committed beside its source): one
line naming both folders, the count and the ``exclude`` line for the copy; every chunk
pair in JSON. Real git repositories, the CLI as a process and in-process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import cli_process, commit_all, run, write

PAGES = 12  # two chunks each: 24 shared, over the 20 that make a copy


def _source(repo: Path, folder: str = "src") -> None:
    for n in range(1, PAGES + 1):
        write(
            repo,
            f"{folder}/guide/page{n}.md",
            f"# Page {n}\n\nWhat page {n} is about, in a sentence of its own.\n\n"
            f"## Setup {n}\n\nRun the tool with option {n}, then read the output.\n",
        )


def _copy(repo: Path, source: str, copy: str) -> None:
    shutil.copytree(repo / source, repo / copy)


def _report(repo: Path) -> dict[str, object]:
    result = cli_process(repo, "check", "--format", "json")
    assert result.returncode == 1, result.stdout
    report: dict[str, object] = json.loads(result.stdout)
    return report


def _text(repo: Path, *args: str) -> list[str]:
    result = cli_process(repo, "check", "--format", "text", *args)
    return [line for line in result.stdout.decode().splitlines() if "CG501" in line]


def _exclude(line: str) -> list[str]:
    hint = line[line.index("exclude: [") :].partition("]")[0] + "]"
    found: list[str] = yaml.safe_load(hint)["exclude"]
    return found


def test_a_build_copy_committed_later_is_one_finding_naming_both(git_repo: Path) -> None:
    _source(git_repo)
    commit_all(git_repo, "the source")
    _copy(git_repo, "src", "material")
    commit_all(git_repo, "the build copy")
    lines = _text(git_repo)
    assert len(lines) == 1, lines
    (line,) = lines
    assert line.startswith(
        "material/guide/page1.md:1: warning copies: material/ holds a copy of src/: "
        "24 chunks the same (CG501) (fix: leave the copy out: add "
    )
    assert "material/ looks built: git added it after src/" in line
    assert _exclude(line) == ["material/**"]
    # --verbose lists every chunk under the line.
    assert len(_text(git_repo, "--verbose")) == 1 + 2 * PAGES
    report = _report(git_repo)
    groups = report["groups"]
    assert isinstance(groups, list)
    (group,) = groups
    assert group["cause"] == "copies:material>src"
    assert group["count"] == 2 * PAGES
    assert ["material/guide/page3.md#setup-3", "src/guide/page3.md#setup-3"] in group["pairs"]
    assert all(pair[0].startswith("material/") for pair in group["pairs"])
    # The exclude line it gives leaves no CG501.
    write(git_repo, ".chunkgate.yaml", 'exclude: ["material/**"]\n')
    assert _text(git_repo) == []


def test_a_build_folder_is_the_copy_even_when_git_added_it_first(cli_repo: Path) -> None:
    _source(cli_repo, "dist")
    commit_all(cli_repo, "a build committed first")
    _copy(cli_repo, "dist", "guide")
    commit_all(cli_repo, "the source, later")
    code, out = run("check", "--format", "text")
    lines = [line for line in out.splitlines() if "CG501" in line]
    assert code == 1
    assert len(lines) == 1, out
    assert "dist/ holds a copy of guide/" in lines[0]
    assert "dist/ looks built: a build folder (dist/)" in lines[0]
    assert _exclude(lines[0]) == ["dist/**"]


@pytest.mark.parametrize(
    ("config", "text", "folders", "reason"),
    [
        pytest.param(
            "pyproject.toml",
            '[tool.hatch.build.targets.wheel]\ninclude = ["/theme"]\n',
            ("theme", "sources"),
            "the package pyproject.toml ships (theme/)",
            id="package",
        ),
        pytest.param(
            "mkdocs.yml",
            "site_name: x\nsite_dir: rendered\n",
            ("rendered", "docs"),
            "mkdocs.yml names it as site_dir",
            id="mkdocs-site-dir",
        ),
        pytest.param(
            "_config.yml",
            "exclude: [archive, Gemfile]\n",
            ("archive", "pages"),
            "_config.yml leaves it out (exclude)",
            id="jekyll-exclude",
        ),
    ],
)
def test_a_folder_the_project_config_names_is_the_copy(
    cli_repo: Path, config: str, text: str, folders: tuple[str, str], reason: str
) -> None:
    """Committed before its source, or with it: the configuration decides, not git."""
    copy, source = folders
    write(cli_repo, config, text)
    _source(cli_repo, copy)
    commit_all(cli_repo, "the copy first")
    _copy(cli_repo, copy, source)
    commit_all(cli_repo, "the source")
    lines = _text(cli_repo)
    assert len(lines) == 1, lines
    assert f"{copy}/ holds a copy of {source}/" in lines[0]
    assert f"{copy}/ looks built: {reason}" in lines[0]


def test_when_nothing_tells_both_folders_are_named(cli_repo: Path) -> None:
    _source(cli_repo, "one")
    _copy(cli_repo, "one", "two")
    commit_all(cli_repo, "both at once")
    lines = _text(cli_repo)
    assert len(lines) == 1, lines
    assert "one/ and two/ hold 24 chunks the same, at the same paths (CG501)" in lines[0]
    assert "which to keep is your choice" in lines[0]
    first, _, second = lines[0].partition(" or ")
    assert (_exclude(first), _exclude(second)) == (["one/**"], ["two/**"])


def test_a_few_shared_chunks_stay_one_finding_each(cli_repo: Path) -> None:
    """Two example apps sharing a few sections are not a copy: each finding says to
    keep one copy, as before."""
    for folder in ("app-a", "app-b"):
        write(cli_repo, f"{folder}/one.md", "# Setup\n\nInstall the package first.\n")
        write(cli_repo, f"{folder}/two.md", "# Usage\n\nCall the function with a path.\n")
    write(cli_repo, "app-b/three.md", "# Other\n\nSomething that app b alone says.\n")
    commit_all(cli_repo, "apps")
    lines = _text(cli_repo)
    assert len(lines) == 2, lines
    assert all("keep one copy and link to app-a/" in line for line in lines)


def test_a_section_repeated_in_the_source_stays_its_own_finding(cli_repo: Path) -> None:
    """The source's own duplicate is still reported once; its copies in the copied
    folder are part of the one line (each pairs with the chunk of the same ID)."""
    _source(cli_repo)
    tail = "## See also\n\nThe reference lists every option.\n"
    for n in (1, 2):
        path = cli_repo / f"src/guide/page{n}.md"
        path.write_text(path.read_text() + "\n" + tail + "\n## More\n\nx\n\n" + tail)
    commit_all(cli_repo, "the source")
    _copy(cli_repo, "src", "material")
    commit_all(cli_repo, "the build copy")
    lines = _text(cli_repo)
    assert sum(" copies: material/ holds a copy of src/" in line for line in lines) == 1
    own = [line.partition(" warning CG501 ")[0] for line in lines if " CG501 " in line]
    # "See also" four times, "More" twice: three and one copies, all in the source.
    assert own == [
        "src/guide/page1.md:17:",
        "src/guide/page2.md:9:",
        "src/guide/page2.md:13:",
        "src/guide/page2.md:17:",
    ]
