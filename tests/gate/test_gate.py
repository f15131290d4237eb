"""The gate end to end: `check` and `update` in real git repositories, through the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import (
    MANIFEST,
    check_json,
    cli_process,
    commit_all,
    committed,
    git,
    make_repo,
    manifest_snapshot,
    manifest_text,
    shard,
    write,
)
from helpers import invoke as run

from chunkgate.cli import cli
from chunkgate.gate import filecheck

SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"


def page(*headings: str) -> str:
    return "".join(f"## {heading}\n\n{SECTION}\n" for heading in headings)


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    return cli_repo


def rules_of(report: dict[str, list[dict[str, object]]]) -> list[tuple[object, object]]:
    return [(v["rule"], v["chunk_id"] or v["path"]) for v in report["violations"]]


def test_first_run_needs_a_manifest_then_passes(repo: Path) -> None:
    write(repo, "docs/guide.md", page("Install", "Usage"))
    commit_all(repo)
    code, report = check_json()
    assert code == 1
    assert rules_of(report) == [("CG401", MANIFEST)]
    assert "chunkgate update" in str(report["violations"][0]["fix"])
    assert run("update").exit_code == 0
    code, report = check_json()
    assert (code, report["violations"]) == (0, [])
    assert report["summary"] == {
        "files": 1,
        "chunks": 2,
        "errors": 0,
        "warnings": 0,
        "known": 0,
        "unverified": 0,
    }


def test_oversized_section_fails_with_the_fix(repo: Path) -> None:
    write(repo, "guide.md", "# Guide\n\n" + "word " * 600 + "\n")
    result = run("check", "--format", "text", "guide.md")
    # One sentence of 3,000 characters: it cannot be split. Over the target, it is a
    # warning while the model takes it whole (8,192 tokens without a model) ...
    assert "guide.md:1: warning CG201 oversized" in result.output
    assert "over size.max 2,000" in result.output
    assert "its sentence (line 3, 3,000 chars) cannot be split" in result.output
    assert "break the sentence up" in result.output
    # ... and an error over the input limit of a model that takes 512 tokens.
    write(repo, ".chunkgate.yaml", "size: {limit: 512}\n")
    result = run("check", "--format", "text", "guide.md")
    assert result.exit_code == 1
    assert "guide.md:1: error CG201 oversized: section is 7" in result.output
    assert (
        "tokens as embedded, over the hard limit 512: its sentence (line 3, 3,000 chars) "
        "cannot be split; the model truncates it" in result.output
    )


def test_inline_suppression(repo: Path) -> None:
    write(repo, "guide.md", "<!-- chunkgate: disable=CG201 -->\n# Guide\n\n" + "word " * 600 + "\n")
    committed(repo)
    code, report = check_json()
    assert (code, rules_of(report)) == (0, [])


def test_update_hook_rewrites_entries_and_fails_once(repo: Path) -> None:
    write(repo, "a.md", page("One"))
    write(repo, "b.md", page("Two"))
    committed(repo)
    write(repo, "a.md", page("One", "Added"))
    code, report = check_json("a.md")
    assert (code, rules_of(report)) == (1, [("CG401", "a.md")])
    first = run("check", "--update", "a.md")
    assert first.exit_code == 1
    assert "updated chunkgate.manifest/ (1 file changed)" in first.output
    manifest = manifest_text(repo)
    assert '"id": "a.md#added"' in manifest
    assert '"id": "b.md#two"' in manifest
    assert run("check", "--update", "a.md").exit_code == 0


def test_heading_rename_is_unstable_until_acknowledged(repo: Path) -> None:
    write(repo, "guide.md", page("Install", "Usage"))
    committed(repo)
    write(repo, "guide.md", page("Installation", "Usage"))
    code, report = check_json()
    assert code == 1
    assert ("CG402", "guide.md#installation") in rules_of(report)
    # The hook keeps the file's entry as it was while the move is not acknowledged, so
    # that committing the manifest (an autofix bot's commit) cannot make it pass; the
    # baseline is the manifest committed at HEAD in any case.
    hook = run("check", "--update", "guide.md")
    assert hook.exit_code == 1
    assert "kept the manifest entries of guide.md" in hook.output
    code, report = check_json("guide.md")
    assert rules_of(report) == [("CG401", "guide.md"), ("CG402", "guide.md#installation")]
    assert "guide.md#install" in str(report["violations"][1]["message"])
    assert run("update", "--accept-moves").exit_code == 0
    assert '"moved_from": "guide.md#install"' in manifest_text(repo)
    code, report = check_json()
    assert (code, rules_of(report)) == (0, [])
    commit_all(repo)
    assert check_json()[0] == 0


def long_section(heading: str, paragraphs: int) -> str:
    body = "\n\n".join(f"Paragraph {n}. " + SECTION.strip() * 6 for n in range(paragraphs))
    return f"## {heading}\n\n{body}\n"


@pytest.mark.parametrize(("before", "after"), [(8, 14), (14, 8), (8, 9)])
def test_parts_that_come_and_go_as_a_section_changes_are_no_finding(
    repo: Path, before: int, after: int
) -> None:
    write(repo, "guide.md", long_section("Install", before) + page("Usage"))
    committed(repo)
    write(repo, "guide.md", long_section("Install", after) + page("Usage"))
    assert run("check", "--update", "guide.md").exit_code == 1  # the manifest changed
    code, report = check_json()
    assert (code, rules_of(report)) == (0, [])


def test_a_renamed_long_section_is_one_unstable_id(repo: Path) -> None:
    write(repo, "guide.md", long_section("Install", 8))
    committed(repo)
    write(repo, "guide.md", long_section("Installation", 8))
    code, report = check_json()
    assert code == 1
    assert [r for r in rules_of(report) if r[0] in ("CG402", "CG403")] == [
        ("CG402", "guide.md#installation")
    ]
    (moved,) = [v for v in report["violations"] if v["rule"] == "CG402"]
    assert str(moved["message"]).startswith("ID changed from guide.md#install: the same text")


def test_explicit_id_keeps_the_id_stable(repo: Path) -> None:
    write(repo, "guide.md", page("Install"))
    committed(repo)
    write(repo, "guide.md", "## Installing it {#install}\n\n" + SECTION)
    assert run("check", "--update", "guide.md").exit_code == 1  # the manifest changed
    code, report = check_json()
    assert (code, rules_of(report)) == (0, [])


def test_file_rename_passed_alone_like_pre_commit_does(repo: Path) -> None:
    write(repo, "docs/old name.md", page("Alpha", "Beta"))
    committed(repo)
    git(repo, "mv", "docs/old name.md", "docs/nëw name.md")
    code, report = check_json("docs/nëw name.md")
    assert code == 1
    assert sorted(r for r in rules_of(report) if r[0] == "CG402") == [
        ("CG402", "docs/nëw name.md#alpha"),
        ("CG402", "docs/nëw name.md#beta"),
    ]


def test_deleting_a_file_updates_the_manifest_and_warns(repo: Path) -> None:
    write(repo, "keep.md", page("Keep"))
    write(repo, "gone.md", page("Gone"))
    committed(repo)
    git(repo, "rm", "-q", "gone.md")
    # pre-commit passes no file names when a commit only deletes files.
    first = run("check", "--update", "--format", "text")
    assert first.exit_code == 1
    assert "gone.md#gone was removed" in first.output
    assert "gone.md" not in manifest_text(repo)
    assert not shard(repo, "gone.md").exists()
    second = run("check", "--update", "--format", "json")
    assert second.exit_code == 0  # CG403 is a warning
    assert [v["rule"] for v in json.loads(second.output)["violations"]] == ["CG403"]


def test_duplicate_content_across_files(repo: Path) -> None:
    write(repo, "a.md", page("Same"))
    write(repo, "b.md", page("Same"))
    committed(repo)
    # The committed manifest had the copies already: known, listed only with --strict.
    code, report = check_json()
    assert (code, rules_of(report)) == (0, [])
    assert [(v["rule"], v["chunk_id"]) for v in report["known"]] == [("CG501", "b.md#same")]
    code, report = check_json("--strict")
    assert (code, rules_of(report)) == (0, [("CG501", "b.md#same")])
    assert report["violations"][0]["message"] == "same text as a.md#same"
    assert report["violations"][0]["severity"] == "warning"
    # A run on named files (the hook) compares them with each other only; the
    # whole-corpus run (CI) compares every file with every other.
    assert check_json("a.md")[1]["violations"] == []
    code, report = check_json("a.md", "b.md", "--strict")
    assert [(v["rule"], v["chunk_id"], v["message"]) for v in report["violations"]] == [
        ("CG501", "a.md#same", "same text as b.md#same"),
        ("CG501", "b.md#same", "same text as a.md#same"),
    ]
    # A third copy is new, and makes its group new: whichever copy a report names.
    write(repo, "0.md", page("Same"))
    assert run("update").exit_code == 0
    code, report = check_json()
    assert rules_of(report) == [("CG501", "a.md#same"), ("CG501", "b.md#same")]
    assert report["known"] == []


def test_whole_corpus_check_reads_no_unchanged_file(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for index in range(300):
        write(repo, f"docs/section {index // 50}/päge-{index}.md", page(f"Topic {index}"))
    committed(repo)
    calls: list[str] = []
    original = filecheck.check_file

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(str(args[1]))
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(filecheck, "check_file", counting)
    code, report = check_json()
    assert (code, report["summary"]["files"], calls) == (0, 300, [])
    write(repo, "docs/section 0/päge-0.md", page("Topic 0", "More"))
    code, report = check_json()
    assert calls == ["docs/section 0/päge-0.md"]
    assert rules_of(report) == [("CG401", "docs/section 0/päge-0.md")]


def test_the_committed_manifest_is_listed_from_the_index_when_it_holds_the_commit(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole-corpus check takes the baseline's listing from the work tree's listing while
    the index holds HEAD's manifest folder; once a shard change is staged, from git's tree.
    The answers are the same either way."""
    from chunkgate.git import listings

    write(repo, "guide.md", page("Install", "Usage"))
    write(repo, "other.md", page("Other"))
    committed(repo)
    listed: list[str] = []
    original = listings.tree_blobs

    def counting(root: Path, rev: str, paths: tuple[str, ...] = ()) -> dict[str, str]:
        listed.append(rev)
        return original(root, rev, paths)

    monkeypatch.setattr(listings, "tree_blobs", counting)
    assert (check_json()[0], listed) == (0, [])
    write(repo, "guide.md", page("Installation", "Usage"))
    (repo / "other.md").unlink()
    assert run("update", "--accept-moves").exit_code == 0  # shards changed and deleted
    expected = [("CG403", "other.md#other")]
    code, report = check_json()
    assert (code, rules_of(report), listed) == (0, expected, [])  # a warning
    git(repo, "add", "-A")
    code, report = check_json()
    assert (code, rules_of(report), listed) == (0, expected, ["HEAD"])


def test_cross_file_duplicates_from_cached_summaries_are_those_without_the_cache(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole-corpus run counts the hashes of the summaries it keeps between runs; over
    random edits, updates and commits it finds what reading every shard (no cache) finds."""
    import random

    from chunkgate.config.load import load_config
    from chunkgate.gate import run_check

    rng = random.Random(501)

    def random_page() -> str:  # 48 sections of 40 topics: most once or twice
        return page(*rng.sample([f"Topic {n}" for n in range(40)], 2))

    for n in range(24):
        write(repo, f"docs/p{n}.md", random_page())
    assert run("update").exit_code == 0
    commit_all(repo)

    def copies() -> list[tuple[str, str]]:
        result = run_check(load_config(repo))
        found = [*result.violations, *result.known]
        return sorted((v.chunk_id or v.path, v.message) for v in found if v.rule == "CG501")

    for _ in range(16):
        for n in rng.sample(range(30), 4):
            if rng.random() < 0.2 and (repo / f"docs/p{n}.md").exists():
                (repo / f"docs/p{n}.md").unlink()
            else:
                write(repo, f"docs/p{n}.md", random_page())
        step = rng.choice(["edit", "update", "commit"])
        if step in ("update", "commit"):
            run("update")
        if step == "commit":
            commit_all(repo)
        monkeypatch.setenv("CHUNKGATE_NO_CACHE", "1")
        counted = copies()
        monkeypatch.delenv("CHUNKGATE_NO_CACHE")
        assert copies() == counted
        assert counted  # the pages share sections


def test_cold_update_is_the_same_with_several_jobs(repo: Path) -> None:
    for index in range(120):
        write(repo, f"d/{index}.md", page(f"T{index}", "Shared"))
    assert run("update", "--jobs", "1").exit_code == 0
    single = manifest_snapshot(repo)
    assert len(single) == 121  # the header and a shard a file
    shutil.rmtree(repo / MANIFEST)
    assert run("update", "--jobs", "2").exit_code == 0
    assert manifest_snapshot(repo) == single


def _other_settings(repo: Path, key: str) -> None:
    """Give the manifest's header other settings, as a settings change would."""
    header = repo / MANIFEST / "manifest.json"
    fields = json.loads(header.read_bytes())
    fields[key] = "size.max=1"
    header.write_text(json.dumps(fields, indent=2) + "\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rebuilds_write_what_the_general_path_writes(repo: Path, jobs: str) -> None:
    """A rebuild with no committed IDs streams rendered blocks (from the workers with
    --jobs 2): with no manifest, and over a manifest of other settings. Its manifest
    and report equal those of the general path, which holds every file's records and
    runs when a committed manifest's IDs are compared; duplicates across files are
    found from the written file."""
    for index in range(80):
        write(repo, f"d/{index:02d}.md", page(f"T{index}", "Shared") + "# Own\n\nå" * index)
    write(repo, "d/big.md", "# Big\n\n" + "word " * 600 + "\n")
    result = run("check", "--update", "--strict", "--jobs", jobs, "--format", "json")
    cold = manifest_snapshot(repo)
    report = json.loads(result.output)
    rules = sorted({str(v["rule"]) for v in report["violations"]})
    assert rules == ["CG201", "CG202", "CG501"]
    assert sum(v["rule"] == "CG501" for v in report["violations"]) == 79
    assert report["summary"]["chunks"] == manifest_text(repo).count('{"id": ')
    for key in ["rules", "config"]:
        # A manifest of other settings, none committed: rebuilt the same way.
        _other_settings(repo, key)
        again = run("check", "--update", "--strict", "--jobs", jobs, "--format", "json")
        assert (again.exit_code, manifest_snapshot(repo)) == (1, cold)
        assert json.loads(again.output)["violations"] == report["violations"]
    # With the manifest committed, the general path rewrites it from records.
    commit_all(repo)
    _other_settings(repo, "rules")
    general = run("check", "--update", "--strict", "--jobs", jobs, "--format", "json")
    assert (general.exit_code, manifest_snapshot(repo)) == (1, cold)
    assert json.loads(general.output)["violations"] == report["violations"]
    # Not strict, what the committed manifest records is known, in rebuilds too.
    _other_settings(repo, "rules")
    known = json.loads(run("check", "--update", "--jobs", jobs, "--format", "json").output)
    assert (known["violations"], known["known"]) == ([], report["violations"])


def test_rebuild_keeps_acknowledged_moves_and_counts_changed_files(repo: Path) -> None:
    """Over a manifest of other settings, a rebuild keeps the ``moved_from`` of the
    IDs that remain and names how many files' entries changed, as updates do."""
    write(repo, "guide.md", page("Install", "Usage"))
    write(repo, "other.md", page("Other"))
    write(repo, "gone.md", page("Gone"))
    assert run("update").exit_code == 0
    commit_all(repo)
    write(repo, "guide.md", page("Installing", "Usage"))
    assert run("update", "--accept-moves").exit_code == 0
    assert manifest_text(repo).count('"moved_from"') == 1
    git(repo, "rm", "-q", "-r", "--cached", MANIFEST)
    git(repo, "commit", "-q", "-m", "no manifest")  # no committed IDs to compare with
    (repo / "gone.md").unlink()
    _other_settings(repo, "config")
    result = CliRunner().invoke(cli, ["update"], catch_exceptions=False)
    assert result.exit_code == 0
    rebuilt = manifest_text(repo)
    assert '"id": "guide.md#installing", "lines": [1, 3]' in rebuilt
    assert rebuilt.count('"moved_from": "guide.md#install"') == 1
    assert "gone.md" not in rebuilt
    # Only gone.md's entry changed; the header does not count as a file.
    assert "(1 file changed)" in result.output


def test_a_settings_change_alone_says_so_and_restamps_each_shard(repo: Path) -> None:
    write(repo, "guide.md", page("Install", "Usage"))
    assert run("update").exit_code == 0
    before = manifest_text(repo)
    write(repo, ".chunkgate.yaml", "size: {max: 1900}\n")
    result = run("update")
    assert result.exit_code == 0
    assert "size.max 2000 → 1900" in result.output
    # Each shard records the settings it was made under: the chunk lines stay as they were.
    assert "(1 file changed)" in result.output
    after = manifest_text(repo)
    assert after != before

    def chunk_lines(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith('{"id": ')]

    assert chunk_lines(after) == chunk_lines(before)


def test_rebuild_that_changes_nothing_leaves_the_manifest_alone(repo: Path) -> None:
    """An empty corpus, nothing committed: every run rebuilds, and from the second on
    the manifest is the same, so the hook passes and the file is not rewritten."""
    assert run("check", "--update").exit_code == 1  # created: stage it
    manifest = repo / MANIFEST / "manifest.json"
    before = manifest.stat().st_mtime_ns
    time.sleep(0.01)
    result = run("check", "--update")
    assert (result.exit_code, manifest.stat().st_mtime_ns) == (0, before)
    assert "updated" not in result.output


def test_cold_update_that_fails_leaves_no_manifest(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shards are written as files are checked, to temporary files renamed all
    together with the header at the end: a failure half way leaves the manifest as it
    was (here none: no shard, no header) and no temporary file."""
    for index in range(5):
        write(repo, f"d/{index}.md", page(f"T{index}"))
    original = filecheck.check_file

    def failing(*args: object, **kwargs: object) -> filecheck.FileOutcome:
        if args[1] == "d/3.md":
            raise KeyboardInterrupt
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(filecheck, "check_file", failing)
    assert run("update").exit_code == 130
    assert sorted(path.name for path in repo.iterdir()) == [".git", MANIFEST, "d"]
    assert sorted(manifest_snapshot(repo)) == []
    monkeypatch.setattr(filecheck, "check_file", original)
    code, report = check_json()
    assert (code, rules_of(report)) == (1, [("CG401", MANIFEST)])  # no header yet
    assert "missing (run `chunkgate update`)" in str(report["violations"][0]["message"])
    assert run("update").exit_code == 0
    assert check_json()[0] == 0


def test_works_outside_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "notes/a.md", page("One"))
    write(tmp_path, "build/out.md", page("Two"))
    write(tmp_path, ".gitignore", "build/\n")
    assert run("update").exit_code == 0
    assert run("check").exit_code == 0
    assert "build/out.md" not in manifest_text(tmp_path)
    assert "notes/a.md" in manifest_text(tmp_path)


def test_concurrent_hook_invocations_lose_no_entries(repo: Path) -> None:
    for index in range(8):
        write(repo, f"f{index}.md", page(f"F{index}"))
    committed(repo)
    for index in range(8):
        write(repo, f"f{index}.md", page(f"F{index}", f"New {index}"))
    env = {**os.environ, "NO_COLOR": "1"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "chunkgate", "check", "--update", f"f{i}.md", f"f{i + 4}.md"],
            cwd=repo,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for i in range(4)
    ]
    assert [proc.wait() for proc in procs] == [1, 1, 1, 1]
    manifest = manifest_text(repo)
    assert all(f'"id": "f{i}.md#new-{i}"' in manifest for i in range(8))
    assert check_json()[0] == 0


def test_the_baseline_can_be_another_revision(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pre-commit's from-ref: a move whose manifest was committed along with it is still
    unstable against the manifest before it."""
    from chunkgate.config.load import load_config
    from chunkgate.gate import run_check

    monkeypatch.chdir(git_repo)
    body = "A section with enough words in it to be a chunk of its own, and then some more."
    write(git_repo, "a.md", f"# Guide\n\n{body}\n\n## Install\n\n{body} Install.\n")
    config = load_config(git_repo)
    run_check(config, update=True)
    start = commit_all(git_repo)
    write(git_repo, "a.md", f"# Guide\n\n{body}\n\n## Setup\n\n{body} Install.\n")
    run_check(config, update=True)
    commit_all(git_repo)
    assert not run_check(config, ["a.md"]).errors  # HEAD's manifest has the new ID
    found = run_check(config, ["a.md"], baseline=start)
    assert [(v.rule, v.chunk_id, v.line, v.end_line) for v in found.errors] == [
        ("CG402", "a.md#setup", 5, 7)
    ]
    # The move, already committed, is recorded against the same baseline.
    run_check(config, update=True, accept_moves=True, baseline=start)
    assert not run_check(config, ["a.md"], baseline=start).errors


def test_renumbered_duplicate_headings_fail_check_as_they_fail_diff(repo: Path) -> None:
    """A repeated heading inserted above its namesakes renumbers them: every old text now
    lives under another ID. check (and the hook, on the file) say so as diff does."""

    def releases(*numbers: int) -> str:
        return "".join(f"# Release {n}\n\n## Bug fixes\n\n{SECTION} ({n})\n\n" for n in numbers)

    write(repo, "notes.md", releases(3, 2, 1))
    committed(repo)
    write(repo, "notes.md", releases(4, 3, 2, 1))
    assert run("update", "notes.md").exit_code == 0  # rewritten, the move not recorded
    code, report = check_json()
    moved = [(v["rule"], v["chunk_id"]) for v in report["violations"]]
    assert code == 1
    assert moved == [
        ("CG402", "notes.md#bug-fixes-1"),
        ("CG402", "notes.md#bug-fixes-2"),
        ("CG402", "notes.md#bug-fixes-3"),
    ]
    assert "ID changed from notes.md#bug-fixes:" in str(report["violations"][0]["message"])
    assert "--hook-stage manual" in str(report["violations"][0]["fix"])
    assert check_json("--hook", "notes.md")[0] == 1
    diff = run("diff", "HEAD", "--fail-on", "unstable")
    assert diff.exit_code == 1
    assert "3 unstable" in diff.output


def _fence(statements: int) -> str:
    # One line: a code block is cut between its lines, and a line cannot be cut.
    body = "; ".join(
        f"value_{n} = compute({n}, factor={n * 3}, label='item {n}')" for n in range(statements)
    )
    return f"```python\n{body}\n```\n"


def test_known_problems_fail_nothing_and_show_on_request(repo: Path) -> None:
    """Adopting: the committed manifest records a problem; it is known until it grows or is
    fixed; --show-known lists it, --strict (or `strict: true`) fails on it."""
    limit = "size: {limit: 500}\n"  # the fence's embed text is over it: an error
    write(repo, ".chunkgate.yaml", limit)
    write(repo, "big.md", f"# Big\n\n{SECTION}\n## Data\n\n{_fence(50)}")
    write(repo, "small.md", page("Small"))
    committed(repo)
    text = run("check", "--format", "text")
    assert text.exit_code == 0, text.output
    assert "1 known problem the manifest records" in text.output
    assert "CG201" not in text.output
    shown = run("check", "--format", "text", "--show-known")
    assert shown.exit_code == 0
    assert "big.md:5: error (known) CG201 oversized" in shown.output
    assert run("check", "--strict").exit_code == 1
    write(repo, ".chunkgate.yaml", limit + "strict: true\n")
    assert run("check", "--format", "text").exit_code == 1
    write(repo, ".chunkgate.yaml", limit)
    # Edited elsewhere in the file: still known. Grown: new again.
    write(repo, "big.md", f"# Big\n\nEdited. {SECTION}\n## Data\n\n{_fence(50)}")
    assert run("update").exit_code == 0
    code, report = check_json()
    assert (code, [v["rule"] for v in report["known"]]) == (0, ["CG201"])
    write(repo, "big.md", f"# Big\n\n{SECTION}\n## Data\n\n{_fence(60)}")
    assert run("update").exit_code == 0
    code, report = check_json()
    assert (code, rules_of(report), report["known"]) == (1, [("CG201", "big.md#data")], [])
    # Fixed and updated: the record shrinks, nothing is known.
    write(repo, "big.md", f"# Big\n\n{SECTION}\n## Data\n\n{_fence(5)}")
    assert run("update").exit_code == 0
    assert '"CG201"' not in shard(repo, "big.md").read_text()
    code, report = check_json()
    assert (code, report["known"]) == (0, [])


def test_select_and_ignore_take_codes_and_prefixes(repo: Path) -> None:
    write(repo, "big.md", f"# Big\n\n{SECTION}\n## Data\n\n{_fence(50)}\n## Tiny\n\nSmall.\n")
    report = check_json("--strict")[1]
    assert sorted({v["rule"] for v in report["violations"]}) == ["CG201", "CG202", "CG401"]
    assert {v["rule"] for v in check_json("--strict", "--select", "CG2")[1]["violations"]} == {
        "CG201",
        "CG202",
    }
    ignored = check_json("--strict", "--ignore", "CG201,CG4")
    assert [v["rule"] for v in ignored[1]["violations"]] == ["CG202"]
    assert ignored[0] == 0  # a warning
    wrong = run("check", "--select", "CG9")
    assert wrong.exit_code == 2
    assert "--select: 'CG9' names no rule" in wrong.output


def test_the_hook_checks_the_named_files_and_deletions_only(repo: Path) -> None:
    write(repo, "a.md", page("A"))
    write(repo, "big.md", "# Big\n\n" + "word " * 600 + "\n")
    write(repo, "gone.md", page("Gone"))
    commit_all(repo)
    assert run("update", "a.md", "gone.md").exit_code == 0  # big.md: not in the manifest
    commit_all(repo)
    git(repo, "rm", "-q", "gone.md")
    # No file named (a commit that only deletes): the deletion, never the whole corpus.
    code, report = check_json("--hook")
    assert code == 1
    assert [(v["rule"], v["path"]) for v in report["violations"]] == [
        ("CG401", "gone.md"),
        ("CG403", "gone.md"),
    ]
    code, report = check_json("--hook", "a.md")
    assert "big.md" not in json.dumps(report)


def test_excluding_a_listed_file_removes_its_entry(repo: Path) -> None:
    write(repo, "docs/a.md", page("A"))
    write(repo, "docs/b.md", page("B"))
    committed(repo)
    write(repo, ".chunkgate.yaml", "exclude: [docs/b.md]\n")
    text = run("check", "--format", "text", "--verbose")
    assert text.exit_code == 1
    assert "1 file (1 ID) left the corpus: the configuration leaves them out now" in text.output
    assert "lists docs/b.md, which is no longer in the corpus" in text.output
    assert "the configuration now leaves its file out" in text.output
    # The advice works when followed: the named file's entry goes.
    updated = run("update", "docs/b.md")
    assert updated.exit_code == 0
    assert "up to date" not in updated.output
    assert not shard(repo, "docs/b.md").exists()
    assert run("check").exit_code == 0


def test_a_run_without_git_on_path_keeps_the_record_of_the_site_configs(tmp_path: Path) -> None:
    # Issue 44: with git missing from PATH, `update` read the corpus from the folder and
    # wrote a header without `site_configs` (what the hook's runs read instead of listing).
    repo = make_repo(tmp_path)
    write(repo, "mkdocs.yml", "site_name: x\nmarkdown_extensions:\n  - toc\n")
    write(repo, "docs/a.md", f"# A\n\n{SECTION}")
    commit_all(repo, "a site")
    assert cli_process(repo, "update", "-q").returncode == 0
    commit_all(repo, "its manifest")
    header = json.loads((repo / "chunkgate.manifest" / "manifest.json").read_bytes())
    assert header["site_configs"] == ["mkdocs.yml"]
    no_git = {"PATH": os.fspath(tmp_path / "empty")}
    for command in ("update", "check"):
        done = cli_process(repo, command, env=no_git)
        assert done.returncode == 0, done.stdout + done.stderr
        assert git(repo, "status", "--porcelain") == ""
    # A new setting rewrites the header, the record with it.
    write(repo, ".chunkgate.yaml", "size: {max: 3000}\n")
    done = cli_process(repo, "update", env=no_git)
    assert done.returncode == 0, done.stdout + done.stderr
    rewritten = json.loads((repo / "chunkgate.manifest" / "manifest.json").read_bytes())
    assert "size.max=3000" in rewritten["config"]
    assert rewritten["site_configs"] == ["mkdocs.yml"]
