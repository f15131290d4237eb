"""A whole-corpus check answers from the last run's kept answer only when nothing it reads
has changed (``chunkgate.gate.memo``): never another answer than a fresh run gives."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import commit_all, git, invoke, page, write

import chunkgate
import chunkgate.gate.run
from chunkgate.gate import memo

LONG = "# Long\n\n" + "A sentence that goes on. " * 200 + "\n"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The runs that checked the corpus rather than answer from the memo."""
    seen: list[str] = []
    real = chunkgate.gate.run.checked

    def counted(*args: object, **kwargs: object) -> object:
        seen.append("checked")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chunkgate.gate.run, "checked", counted)
    return seen


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "docs/a.md", page("Alpha"))
    write(cli_repo, "docs/b.md", page("Beta"))
    write(cli_repo, "docs/long.md", LONG)
    write(cli_repo, "docs/LICENSE.md", "# License\n\nMIT, all of it.\n")  # a known problem
    assert invoke("update", "-q").exit_code == 0
    commit_all(cli_repo, "pages and manifest")
    write(cli_repo, "docs/third_party/x.md", page("Vendored"))  # a new one
    return cli_repo


def whole(*args: str) -> tuple[int, str]:
    result = invoke("check", "--format", "json", *args)
    return result.exit_code, result.output


def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """The answer of a run with nothing kept from earlier runs (an empty cache folder)."""
    with monkeypatch.context() as scoped:
        folder = tmp_path / f"fresh-{os.urandom(4).hex()}"
        scoped.setenv("CHUNKGATE_CACHE_DIR", str(folder))
        return whole(*args)


def test_the_same_inputs_answer_from_the_memo(repo: Path, calls: list[str]) -> None:
    first = whole()
    report = json.loads(first[1])
    assert report["violations"], "the corpus has findings to keep"
    assert report["known"]
    second = whole()
    assert calls == ["checked"]
    assert second == first
    text = invoke("check", "--format", "text")
    again = invoke("check", "--format", "text")
    assert again.output == text.output
    assert again.exit_code == text.exit_code == first[0] == 1
    assert calls == ["checked"], "the output format is not an input"


def _edit(repo: Path) -> None:
    write(repo, "docs/a.md", page("Alpha") + "\nMore words.\n")


def _touch(repo: Path) -> None:
    os.utime(repo / "docs/a.md", (1, 1))


def _stage(repo: Path) -> None:
    _edit(repo)
    git(repo, "add", "docs/a.md")


def _add_untracked(repo: Path) -> None:
    write(repo, "docs/c.md", LONG.replace("# Long", "# Other"))


def _delete(repo: Path) -> None:
    (repo / "docs/b.md").unlink()


def _config(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "size: {max: 100000}\n")


def _shard(repo: Path) -> None:
    shard = next((repo / "chunkgate.manifest").rglob("a.md*"))
    shard.write_text(shard.read_text(encoding="utf-8").replace('"chunks": ', '"chunks": 9'))


def _commit(repo: Path) -> None:
    _stage(repo)
    assert invoke("update", "-q").exit_code == 0
    commit_all(repo, "an edit")


def _baseline(repo: Path) -> None:
    """The commit the manifest is compared with moves back; the index stays as it was."""
    write(repo, "docs/a.md", "# Renamed\n\nThe same words.\n")
    _commit(repo)
    whole()
    git(repo, "reset", "-q", "--soft", "HEAD~1")


def _edit_again(repo: Path) -> None:
    """An edited file edited once more: git lists it as before, its bytes differ."""
    _edit(repo)
    whole()
    write(repo, "docs/a.md", page("Alpha") + "\nOther words, as many.\n")


def _attributes(repo: Path) -> None:
    _edit(repo)  # a file the run reads again: its attributes count
    whole()
    info = Path(git(repo, "rev-parse", "--git-common-dir").strip())
    info = info if info.is_absolute() else repo / info
    write(info, "info/attributes", "docs/a.md linguist-generated\n")


def _site(repo: Path) -> None:
    write(repo, "mkdocs.yml", "site_name: x\nmarkdown_extensions:\n  - toc:\n      slugify: x\n")


MUTATIONS: dict[str, Callable[[Path], None]] = {
    "an edit": _edit,
    "an edited file edited again": _edit_again,
    "a staged edit": _stage,
    "an untracked file": _add_untracked,
    "a deletion": _delete,
    "the configuration": _config,
    "a shard edited in the work tree": _shard,
    "a commit": _commit,
    "the baseline": _baseline,
    "git's info/attributes": _attributes,
    "an untracked site config": _site,
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_each_input_is_in_the_key(
    repo: Path, calls: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    before = whole()
    MUTATIONS[name](repo)
    calls.clear()
    after = whole()
    assert calls == ["checked"], f"a run after {name} was answered from the memo"
    assert after == fresh(tmp_path, monkeypatch)
    if name != "an untracked site config":
        assert after != before


def test_a_touched_file_keeps_the_answer(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = whole()
    _touch(repo)
    assert whole() == before == fresh(tmp_path, monkeypatch)


def test_rule_selection_is_an_input(repo: Path, calls: list[str]) -> None:
    everything = whole()
    stale = whole("--select", "CG4")
    assert {v["rule"] for v in json.loads(everything[1])["violations"]} == {"CG301", "CG401"}
    denied = whole("--ignore", "CG4")
    assert calls == ["checked"] * 3
    rules = [{v["rule"] for v in json.loads(out)["violations"]} for _, out in (stale, denied)]
    assert rules == [{"CG401"}, {"CG301"}]
    assert whole("--ignore", "CG4") == denied
    assert calls == ["checked"] * 3


def _operations(rng: random.Random, repo: Path) -> Iterator[str]:
    names = ["docs/a.md", "docs/b.md", "docs/c.md", "docs/d/e.md", "notes.txt"]
    while True:
        path = rng.choice(names)
        kind = rng.choice(["write", "write", "delete", "stage", "commit", "config", "touch"])
        if kind == "write":
            body = rng.choice([page(path), LONG, page("Same") + "[x](a.md#nowhere)\n"])
            write(repo, path, body)
        elif kind == "delete" and (repo / path).exists():
            (repo / path).unlink()
        elif kind == "stage":
            git(repo, "add", "-A")
        elif kind == "commit":
            invoke("update", "-q")
            commit_all(repo, "step")
        elif kind == "config":
            write(repo, ".chunkgate.yaml", rng.choice(["", "size: {max: 900}\n"]))
        elif kind == "touch" and (repo / path).exists():
            os.utime(repo / path, None)
        yield f"{kind} {path}"


def test_random_histories_answer_as_fresh_runs(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(20261205)
    steps = _operations(rng, repo)
    done = []
    for _ in range(30):
        done.append(next(steps))
        kept = whole()
        assert kept == fresh(tmp_path, monkeypatch), f"after {done}"
        assert whole() == kept


def test_the_last_four_answers_are_kept(repo: Path, calls: list[str]) -> None:
    first = whole()
    _edit(repo)
    edited = whole()
    git(repo, "checkout", "--", "docs/a.md")  # the edit undone
    assert whole() == first
    assert calls == ["checked"] * 2
    for number in range(4):
        write(repo, "docs/a.md", page(f"Alpha {number}"))
        whole()
    assert calls == ["checked"] * 6
    git(repo, "checkout", "--", "docs/a.md")
    assert whole() == first
    assert calls == ["checked"] * 7, "five newer answers: the first is no longer kept"
    _edit(repo)
    assert whole() == edited
    assert calls == ["checked"] * 8
    git(repo, "checkout", "--", "docs/a.md")
    assert whole() == first  # an answer given becomes the newest: three more keep it
    for number in range(3):
        write(repo, "docs/a.md", page(f"Beta {number}"))
        whole()
    git(repo, "checkout", "--", "docs/a.md")
    assert whole() == first
    assert calls == ["checked"] * 11


def test_a_damaged_memo_is_a_miss(repo: Path, calls: list[str]) -> None:
    first = whole()
    folder = Path(os.environ["CHUNKGATE_CACHE_DIR"]) / "runs"
    kept = [file for file in folder.iterdir() if file.suffix == ".bin"]
    for file in kept:
        data = bytearray(file.read_bytes())
        data[len(data) // 2] ^= 0xFF
        file.write_bytes(bytes(data))
    assert whole() == first
    assert calls == ["checked", "checked"]
    assert whole() == first
    assert calls == ["checked", "checked"], "the damaged file was written anew"


def test_code_signature_follows_modules_and_installs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg" / "chunkgate"
    write(package, "__init__.py", "")
    write(package, "rules/x.py", "A = 1\n")
    installed = tmp_path / "lib" / "site-packages"
    installed.mkdir(parents=True)
    monkeypatch.setattr(chunkgate, "__file__", str(package / "__init__.py"))
    monkeypatch.setattr(sys, "path", [str(installed)])
    signatures = [memo._code_signature()]
    write(package, "rules/x.py", "A = 22\n")
    signatures.append(memo._code_signature())
    (installed / "newpackage").mkdir()
    os.utime(installed, ns=(1, 1))
    signatures.append(memo._code_signature())
    assert len(set(signatures)) == 3
    assert memo._code_signature() == signatures[-1]


def test_the_library_call_keeps_answers_too(repo: Path, calls: list[str]) -> None:
    from chunkgate.config.load import load_config
    from chunkgate.gate import run_check

    config = load_config(repo)
    first = run_check(config)
    assert run_check(config) == first
    assert calls == ["checked"]
    run_check(config, update=True)
    run_check(config, update=True)
    assert calls == ["checked"] * 3, "an update is never answered from the memo"


def test_an_answer_that_read_an_ignored_include_is_not_kept(
    cli_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An include may name a file git ignores, whose bytes no listing holds: such a run's
    answer is not kept, and an edit of that file is seen."""
    write(cli_repo, ".gitignore", "docs/partial.md\n")
    write(cli_repo, "docs/guide.md", '# Guide\n\n{{% include "partial.md" %}}\n')
    write(cli_repo, "docs/partial.md", "## Part\n\nIncluded words.\n")
    write(cli_repo, "docs/index.md", "# Index\n\nSee [the part](guide.md#part).\n")
    assert invoke("update", "-q").exit_code == 0
    commit_all(cli_repo, "an include")
    assert whole()[0] == 0
    write(cli_repo, "docs/partial.md", "## Other\n\nIncluded words.\n")
    code, out = whole()
    assert (code, out) == fresh(tmp_path, monkeypatch)
    assert [v["rule"] for v in json.loads(out)["violations"]] == ["CG404"]
