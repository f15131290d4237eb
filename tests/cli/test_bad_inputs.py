"""Never a traceback (issue 18, "every error is a clear one"): the CLI over a set of bad
inputs and hostile environments, each either handled or refused with one line and
exit 2. In-process runs use ``catch_exceptions=False``, so any exception fails the
test; whole runs also go through a real subprocess with a strict-encoding stdout,
whose stderr must hold no "Traceback"."""

from __future__ import annotations

import codecs
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PROSE, cli_process, commit_all, git, git_env, run, write

TEXT = PROSE.encode()
BIG = "9" * 5000

# Corpus files: name -> bytes. Names are str (bytes names through os.fsdecode).
BAD_FILES: dict[str, bytes] = {
    "binary.md": b"# x\n\x00\x01\x02\xff",
    "invalid-utf8.md": b"# caf\xe9\n\n" + TEXT,
    "crlf.md": b"# A\r\n\r\n" + TEXT.replace(b"\n", b"\r\n"),
    "lone-cr.md": b"# A\r\r" + TEXT.replace(b"\n", b"\r"),
    "bom.md": codecs.BOM_UTF8 + b"# A\n\n" + TEXT,
    "utf16.md": "# héllo\n\ntext text text text text text\n".encode("utf-16"),
    "syntax.py": b"def f(:\n    pass\n",
    "cookie.py": b"# -*- coding: klingon -*-\nx = 1\n",
    "latin1.py": b"# -*- coding: latin-1 -*-\nname = '\xe9'\n",
    "wrong-cookie.py": b"# coding: ascii\nname = '\xc3\xa9'\n",
    "nested.py": b"x = " + b"(" * 300 + b")" * 300 + b"\n",
    "long-sum.py": b"x = " + b"1+" * 100_000 + b"1\n",
    "nul.py": b'x = "\x00"\n',
    "huge.md": b"# Huge\n\n" + TEXT * 25_000,  # over max_file_bytes
    "long-line.md": b"# L\n\n" + b"a" * 500_000 + b"\n",
    "empty.md": b"",
    "blank.md": b"   \n\n\t\n",
    "front-matter.md": b"---\ntitle: [unclosed\n---\n# x\n\n" + TEXT,
    "front-only.md": b"---\ntitle: x\n---\n",
    "fence.md": b"```\n# not a heading\n" + TEXT,
    "quotes.md": b">" * 5000 + b" x\n",
    "lists.md": b"- " * 3000 + b"y\n",
    "headings.md": b"".join(b"# h\n\n" for _ in range(5000)),
    "attributes.md": b"# x {#}\n\n# y {#a #b}\n\n# z { }\n\n# w {.c #d}\n" + TEXT,
    "digits.md": b"# N\n\n" + BIG.encode() + b"\n",
    "lfs.md": b"version https://git-lfs.github.com/spec/v1\noid sha256:"
    + b"0" * 64
    + b"\nsize 1\n",
    "$(touch PWNED).md": b"# E\n\n" + TEXT,
    "-rf.md": b"# R\n\n" + TEXT,
    "a b.md": b"# S\n\n" + TEXT,
    "#hash.md": b"# H\n\n" + TEXT,
    "[x].md": b"# [bold red]x[/]\n\n# a [/b] c\n\n" + TEXT,
    "*.md": b"# G\n\n" + TEXT,
    "日本.md": "# 日本\n\n".encode() + TEXT,
    os.fsdecode(b"\xff\xfe.md"): b"# U\n\n" + TEXT,
    "new\nline.md": b"# N\n\n" + TEXT,
    "esc\x1b[2J.md": b"# \x1b]0;title\x07E\n\n" + TEXT,
    'quote".md': b"# Q\n\n" + TEXT,
    "back\\slash.md": b"# B\n\n" + TEXT,
    "x" * 240 + ".md": b"# Long\n\n" + TEXT,
    " lead.md": b"# L\n\n" + TEXT,
    "tab\t.md": b"# T\n\n" + TEXT,
    "docs/deep/er/still.md": b"# D\n\n" + TEXT,
}

# Manifest shards of a.md as committed, corrupt in one way each.
GOOD_SHARD = (
    '{"file": "a.md", "blob": null, "chunks": 1}\n'
    '{"id": "a.md#a", "lines": [1, 3], "chars": 57, "tokens": 15, "hash": "30e7dbde45442c85"}\n'
)
BAD_SHARDS: dict[str, bytes] = {
    "wrong-type": GOOD_SHARD.replace('"chars": 57', '"chars": "x"').encode(),
    "invalid-json": GOOD_SHARD.replace('"}\n', '"\n', 1).encode(),
    "reversed-lines": GOOD_SHARD.replace("[1, 3]", "[3, 1]").encode(),
    "other-file-id": GOOD_SHARD.replace('"a.md#a"', '"b.md#a"').encode(),
    "5000-digits": GOOD_SHARD.replace('"chars": 57', f'"chars": {BIG}').encode(),
    "5000-digit-count": GOOD_SHARD.replace('"chunks": 1', f'"chunks": {BIG}').encode(),
    "conflict": (
        "<<<<<<< HEAD\n" + GOOD_SHARD + "=======\n" + GOOD_SHARD + ">>>>>>> other\n"
    ).encode(),
    "empty": b"",
    "binary": b"\x00\xff\x00",
    "not-utf8": GOOD_SHARD.encode().replace(b"a.md#a", b"a.md#\xff"),
    "array": b"[]\n",
    "absolute-path": GOOD_SHARD.replace('"a.md"', '"/etc/passwd"', 1).encode(),
    "dotdot-path": GOOD_SHARD.replace('"a.md"', '"../../etc/passwd"', 1).encode(),
    "deep-json": b"[" * 100_000 + b"\n",
    "too-few-chunks": GOOD_SHARD.replace('"chunks": 1', '"chunks": 5').encode(),
}
BAD_HEADERS: dict[str, bytes] = {
    "garbage": b"not json\n",
    "newer-format": b'{"chunkgate_manifest": 99}\n',
    "5000-digits": f'{{"chunkgate_manifest": {BIG}}}\n'.encode(),
    "conflict": b"<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> x\n",
    "empty": b"",
}
BAD_CONFIGS: dict[str, bytes] = {
    "invalid-yaml": b"size: {max: 1\n",
    "5000-digit-max": f"size: {{max: {BIG}}}\n".encode(),
    "nul-manifest": b'manifest: "a\\0b"\n',
    "git-manifest": b"manifest: .git\n",
    "hook-manifest": b"manifest: .git/hooks/pre-commit\n",
    "outside-manifest": b"manifest: ../x\n",
    "absolute-manifest": b"manifest: /tmp/x\n",
    "document-manifest": b"manifest: a.md\n",
    "include-not-list": b"include: 5\n",
    "bad-glob": b"include: ['[']\n",
    "unknown-rule": b"rules: {CG999: error}\n",
    "bad-regex": b"denylist: {content: ['(']}\n",
    "not-utf8": b"\xff\xfe\x00",
    "a-list": b"- a\n- b\n",
    "null": b"~\n",
    "duplicate-key": b"size: {max: 1}\nsize: {max: 2}\n",
    "bom": codecs.BOM_UTF8 + b"size: {max: 1000}\n",
    "tokenizer": b"tokenizer: tiktoken:no-such-encoding\n",
    "overlap": b"size: {max: 10, overlap: 10}\n",
    "tabs": b"size:\n\tmax: 1\n",
}


def expect_clear(code: int, output: str, what: object) -> None:
    assert "Traceback" not in output, what
    assert code in (0, 1, 2), (what, code, output)
    if code == 2:
        errors = [line for line in output.splitlines() if line.startswith(("chunkgate:", "Error"))]
        assert errors, (what, output)


def subprocess_cli(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    done = cli_process(cwd, *args, env=env)
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    return cli_repo


@pytest.fixture
def bad_corpus(repo: Path) -> Path:
    for name, data in BAD_FILES.items():
        write(repo, name, data)
    commit_all(repo)
    return repo


WHOLE_COMMANDS = [
    ["check"],
    ["check", "--format", "json"],
    ["check", "--format", "sarif"],
    ["check", "--format", "github"],
    ["check", "--format", "rich"],
    ["update"],
    ["stats"],
    ["diff"],
    ["chunks", "."],
    ["outline", "."],
]


@pytest.mark.slow
def test_whole_runs_over_the_bad_corpus_as_a_subprocess(bad_corpus: Path) -> None:
    for command in WHOLE_COMMANDS:
        code, output = subprocess_cli(bad_corpus, *command)
        expect_clear(code, output, command)
    assert not (bad_corpus / "PWNED").exists()


def test_whole_runs_over_the_bad_corpus(bad_corpus: Path) -> None:
    for command in (["check"], ["update"], ["check", "--all", "--update"]):
        code, output = run(*command)
        expect_clear(code, output, command)
    assert not (bad_corpus / "PWNED").exists()


def test_each_bad_file_alone(bad_corpus: Path) -> None:
    names = list(BAD_FILES)
    for name in names:
        for command in (["chunks", "--format", "json"], ["outline"]):
            code, output = run(*command, "--", name)
            expect_clear(code, output, (command, name))
    # The hook and update take many files at once, as pre-commit passes them.
    for command in (["check", "--hook"], ["check", "--update"], ["update"]):
        code, output = run(*command, "--", *names)
        expect_clear(code, output, command)


def _manifest(repo: Path) -> Path:
    write(repo, "a.md", b"# A\n\n" + TEXT)
    assert run("update")[0] == 0
    commit_all(repo)
    return repo / "chunkgate.manifest"


@pytest.mark.parametrize("variant", list(BAD_SHARDS))
def test_corrupt_shard(repo: Path, tmp_path: Path, variant: str) -> None:
    folder = _manifest(repo)
    good = (folder / "a.md.jsonl").read_bytes()
    (folder / "a.md.jsonl").write_bytes(BAD_SHARDS[variant])
    (folder / ("~" + "1" * 32 + ".jsonl")).write_bytes(BAD_SHARDS[variant])
    commit_all(repo)
    for command in (["check"], ["check", "a.md"], ["check", "--hook", "a.md"]):
        code, output = run(*command)
        expect_clear(code, output, command)
        assert code != 0, (variant, command, output)
    expect_clear(*run("stats"), "stats")
    base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
    base.write_bytes(good)
    ours.write_bytes(good)
    theirs.write_bytes(BAD_SHARDS[variant])
    code, output = run("merge-driver", str(base), str(ours), str(theirs), "a.md.jsonl")
    expect_clear(code, output, "merge-driver")
    code, output = run("update")
    expect_clear(code, output, "update")
    assert run("check")[0] == 0, variant


@pytest.mark.parametrize("variant", list(BAD_HEADERS))
def test_corrupt_header(repo: Path, variant: str) -> None:
    folder = _manifest(repo)
    (folder / "manifest.json").write_bytes(BAD_HEADERS[variant])
    commit_all(repo)
    for command in (["check"], ["check", "--hook", "a.md"], ["diff"], ["update"]):
        code, output = run(*command)
        expect_clear(code, output, (variant, command))
    assert run("check")[0] == 0


@pytest.mark.parametrize("variant", list(BAD_CONFIGS))
def test_bad_config(repo: Path, variant: str) -> None:
    write(repo, "a.md", b"# A\n\n" + TEXT)
    write(repo, ".chunkgate.yaml", BAD_CONFIGS[variant])
    commit_all(repo)
    for command in (["check"], ["update"], ["chunks", "a.md"], ["diff"]):
        code, output = run(*command)
        expect_clear(code, output, (variant, command))


def test_bad_pyproject_and_config_shapes(repo: Path) -> None:
    write(repo, "a.md", b"# A\n\n" + TEXT)
    write(repo, "pyproject.toml", b"[tool.chunkgate\nsize = 5\n")
    expect_clear(*run("check"), "invalid toml")
    write(repo, "pyproject.toml", b"[tool.chunkgate]\nsize = 5\n")
    expect_clear(*run("check"), "wrong type toml")
    (repo / "pyproject.toml").unlink()
    (repo / ".chunkgate.yaml").mkdir()
    expect_clear(*run("check"), "config is a folder")
    (repo / ".chunkgate.yaml").rmdir()
    write(repo, ".chunkgate.yaml", b"size: {max: 100}\n")
    write(repo, ".chunkgate.yml", b"size: {max: 100}\n")
    expect_clear(*run("check"), "both yaml names")


def test_manifest_folder_oddities(repo: Path) -> None:
    folder = _manifest(repo)
    (folder / "a.md.jsonl").unlink()
    (folder / "a.md.jsonl").mkdir()
    for command in (["check"], ["check", "a.md"], ["update"]):
        expect_clear(*run(*command), ("shard folder", command))
    (folder / "a.md.jsonl").rmdir()
    os.rename(folder, repo / "elsewhere")
    write(repo, "chunkgate.manifest", b"a file\n")
    for command in (["check"], ["update"]):
        expect_clear(*run(*command), ("manifest file", command))
    (repo / "chunkgate.manifest").unlink()
    os.symlink("chunkgate.manifest", repo / "chunkgate.manifest")
    for command in (["check"], ["update"]):
        expect_clear(*run(*command), ("manifest loop", command))


def test_git_environments(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "a.md", b"# A\n\n" + TEXT)
    for command in (["check"], ["update"], ["diff"], ["stats"], ["check", "--baseline", "x"]):
        expect_clear(*run(*command), ("no commits", command))
    commit_all(repo)
    write(repo, "a.md", b"# B\n\n" + TEXT)
    commit_all(repo)
    for command in (
        ["diff", "nope"],
        ["diff", "nope...HEAD"],
        ["diff", "HEAD", "nope"],
        ["diff", "HEAD~5"],
        ["check", "--baseline", "nope"],
        ["update", "--baseline", "HEAD~9"],
        ["diff", "--base", "auto"],
    ):
        expect_clear(*run(*command), ("missing revision", command))
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    expect_clear(*run("check"), "detached")
    git(repo, "checkout", "-q", "main")
    # A merge stopped on conflicts: unmerged entries in the index.
    git(repo, "checkout", "-q", "-b", "other", "HEAD~1")
    write(repo, "a.md", b"# C\n\n" + TEXT)
    commit_all(repo)
    git(repo, "checkout", "-q", "main")
    subprocess.run(
        ["git", "merge", "-q", "other"], cwd=repo, env=git_env(), capture_output=True, check=False
    )
    for command in (["check"], ["update"], ["diff"], ["check", "a.md"]):
        expect_clear(*run(*command), ("conflicted", command))
    git(repo, "merge", "--abort")
    monkeypatch.chdir(repo / ".git")
    expect_clear(*run("check"), "inside .git")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", os.fspath(clone))
    monkeypatch.chdir(clone)
    for command in (["diff", "HEAD~1"], ["diff", "HAED"], ["check", "--baseline", "HEAD~1"]):
        expect_clear(*run(*command), ("shallow", command))
    plain = tmp_path / "plain"
    plain.mkdir()
    write(plain, "a.md", b"# A\n\n" + TEXT)
    monkeypatch.chdir(plain)
    for command in (["check"], ["update"], ["diff"], ["stats"], ["chunks", "a.md"]):
        expect_clear(*run(*command), ("not a git repository", command))


def test_without_git_and_with_a_broken_git_dir(repo: Path) -> None:
    write(repo, "a.md", b"# A\n\n" + TEXT)
    commit_all(repo)
    code, output = subprocess_cli(repo, "check", env={"PATH": os.path.dirname(sys.executable)})
    expect_clear(code, output, "no git on PATH")
    code, output = subprocess_cli(repo, "check", env={"GIT_DIR": str(repo / "nowhere")})
    expect_clear(code, output, "GIT_DIR nowhere")


def test_merge_driver_inputs(tmp_path: Path) -> None:
    names = {"empty": b"", "binary": b"\x00\xff", "digits": f"{BIG}\n".encode()}
    names.update({f"shard-{key}": value for key, value in BAD_SHARDS.items()})
    good = tmp_path / "good"
    good.write_bytes(GOOD_SHARD.encode())
    for name, data in names.items():
        bad = tmp_path / name
        bad.write_bytes(data)
        for order in ((bad, good, good), (good, bad, good), (good, good, bad)):
            mine = tmp_path / "mine"
            mine.write_bytes(order[1].read_bytes())
            code, output = run("merge-driver", str(order[0]), str(mine), str(order[2]))
            expect_clear(code, output, ("merge-driver", name))


def test_the_set_is_as_large_as_the_issue_says() -> None:
    # The closing note counts these; keep the set from shrinking unnoticed.
    assert len(BAD_FILES) + len(BAD_SHARDS) + len(BAD_HEADERS) + len(BAD_CONFIGS) >= 80
