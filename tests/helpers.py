"""Real git repositories in temporary directories, with every identity and date pinned."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from chunkgate.cli import cli

_PINNED = {
    "GIT_AUTHOR_NAME": "Chunkgate Tests",
    "GIT_AUTHOR_EMAIL": "tests@chunkgate.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_COMMITTER_NAME": "Chunkgate Tests",
    "GIT_COMMITTER_EMAIL": "tests@chunkgate.invalid",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00",
    # The tester's own ~/.gitconfig (autocrlf, hooks, templates) must not change results.
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
}


def git_env() -> dict[str, str]:
    # Drop GIT_DIR, GIT_INDEX_FILE and friends: a test run from inside a git hook
    # (pre-commit running the suite) would otherwise act on the outer repository.
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(_PINNED)
    return env


def pin_git_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give the code under test the same hermetic git environment as these helpers."""
    for key in list(os.environ):
        if key.startswith("GIT_"):
            monkeypatch.delenv(key)
    for key, value in git_env().items():
        monkeypatch.setenv(key, value)


def git(repo: Path, *args: str, input: bytes | None = None) -> str:
    """Run ``git -C repo ARGS`` with the pinned environment and return its stdout."""
    proc = subprocess.run(
        (
            "git",
            "-C",
            os.fspath(repo),
            "-c",
            "commit.gpgsign=false",
            "-c",
            "tag.gpgsign=false",
            *args,
        ),
        input=input,
        capture_output=True,
        env=git_env(),
        check=False,
    )
    if proc.returncode:
        raise AssertionError(
            f"git {' '.join(args)} exited {proc.returncode}: "
            f"{proc.stderr.decode('utf-8', 'replace').strip()}"
        )
    return proc.stdout.decode("utf-8", "surrogateescape")


def update_in(repo: Path, *options: str) -> None:
    """``chunkgate update`` in ``repo`` as its own process (as the hooks and CI run it)."""
    subprocess.run(
        [sys.executable, "-m", "chunkgate", "update", *options],
        cwd=repo,
        env=git_env(),
        check=True,
        capture_output=True,
    )


def make_repo(tmp_path: Path) -> Path:
    """An empty repository at ``tmp_path / "repo"`` on branch ``main``."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


def write(repo: Path, relpath: str, content: str | bytes) -> Path:
    """Write exact bytes (str as UTF-8, no newline translation), creating parent folders."""
    path = repo / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def commit_all(repo: Path, message: str = "commit") -> str:
    """Stage everything and commit it; return the new commit's sha."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


MANIFEST = "chunkgate.manifest"  # the manifest folder, by default


def manifest_text(repo: Path) -> str:
    """Every shard of the manifest folder, in path order: what the manifest lists."""
    folder = repo / MANIFEST
    shards = sorted(p for p in folder.rglob("*.jsonl") if p.is_file())
    return "".join(p.read_text(encoding="utf-8") for p in shards)


def manifest_snapshot(repo: Path) -> dict[str, bytes]:
    """The manifest folder's files and their bytes, to compare two states exactly."""
    folder = repo / MANIFEST
    if not folder.is_dir():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def shard(repo: Path, path: str) -> Path:
    """The shard file of corpus file ``path``."""
    return repo / MANIFEST / f"{path}.jsonl"


# A body long enough to be a chunk of its own (over size.min), and a page made of it.
PROSE = "long enough text for a chunk here, yes indeed it is.\n"


def page(title: str) -> str:
    return f"# {title}\n\n{PROSE}"


def invoke(*args: str) -> Result:
    """The command line in process; an exception other than SystemExit fails the test."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def run(*args: str) -> tuple[int, str]:
    """``invoke``'s exit code and output."""
    result = invoke(*args)
    return result.exit_code, result.output


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    """``chunkgate check --format json ARGS``: the exit code and the parsed report."""
    result = invoke("check", "--format", "json", *args)
    return result.exit_code, json.loads(result.output)


def committed(repo: Path, message: str = "commit") -> str:
    """``chunkgate update``, then commit everything, manifest included."""
    code, output = run("update")
    assert code == 0, output
    return commit_all(repo, message)


def cli_process(
    cwd: Path, *args: str, env: Mapping[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[bytes]:
    """``python -m chunkgate ARGS`` in ``cwd``, as a user's shell runs it: git's
    environment pinned, not under GitHub Actions, and a strict UTF-8 stdout (output
    it cannot encode is a traceback, not mojibake); ``env`` adds to that."""
    environment = {**git_env(), "PYTHONIOENCODING": "utf-8:strict"}
    environment.pop("GITHUB_ACTIONS", None)
    environment.pop("GITHUB_STEP_SUMMARY", None)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "chunkgate", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        check=False,
        timeout=timeout,
    )


def run_cli(*args: str) -> int:
    """``invoke``'s exit code."""
    return invoke(*args).exit_code


def adopted_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    """A repository (the working directory) with ``files`` and their manifest committed."""
    pin_git_env(monkeypatch)
    repo = make_repo(tmp_path)
    monkeypatch.chdir(repo)
    for path, text in files.items():
        write(repo, path, text)
    commit_all(repo)
    assert run_cli("update") == 0
    commit_all(repo, "manifest")
    return repo


def index_of(repo: Path) -> dict[str, str]:
    """Path -> blob of every index entry, as ``git ls-files -s`` prints them."""
    out = git(repo, "ls-files", "-z", "-s")
    result = {}
    for record in filter(None, out.split("\0")):
        meta, _, path = record.partition("\t")
        result[path] = meta.split()[1]
    return result


def train_tokenizer(path: Path, texts: list[str], *, vocab: int = 400) -> Path:
    """A small BERT-style WordPiece tokenizer trained on ``texts``, saved as a
    ``tokenizer.json`` at ``path``: ``[CLS]`` and ``[SEP]`` around every text, and (as a
    real model's file often is) truncating at 512, which a count must not do."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    specials = ["[UNK]", "[CLS]", "[SEP]"]
    trainer = trainers.WordPieceTrainer(vocab_size=vocab, special_tokens=specials)
    tokenizer.train_from_iterator(texts, trainer)
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    tokenizer.enable_truncation(512)
    path.parent.mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(path))
    return path


def token_count(path: Path, text: str) -> int:
    """``text``'s tokens as the tokenizer at ``path`` counts them itself, untruncated."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_truncation()
    return len(tokenizer.encode(text).ids)
