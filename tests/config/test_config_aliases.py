"""YAML aliases in the config are refused before anything expands them (issue 18, defect 7)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers import cli_process, commit_all, write

from chunkgate.config.load import load_config
from chunkgate.core.errors import ConfigError

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param(BOMB, 1, id="alias-bomb"),
        pytest.param("include: &a [*a]\n", 1, id="alias-inside-its-anchor"),
        pytest.param("exclude: &x [a.md]\ninclude: *x\n", 1, id="plain-alias"),
    ],
)
def test_aliases_are_refused_naming_the_file(tmp_path: Path, text: str, line: int) -> None:
    write(tmp_path, ".chunkgate.yaml", text)
    start = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    assert time.perf_counter() - start < 2
    assert f".chunkgate.yaml:{line}: YAML aliases (*name)" in str(caught.value)
    assert "write the value out in full" in str(caught.value)


def test_duplicate_keys_are_still_found_in_nested_mappings(tmp_path: Path) -> None:
    write(tmp_path, ".chunkgate.yaml", "size:\n  max: 10\n  max: 20\n")
    with pytest.raises(ConfigError, match=r"\.chunkgate\.yaml:3: duplicate key 'max'"):
        load_config(tmp_path)


def test_alias_bomb_is_exit_2_with_no_cache_written(git_repo: Path, tmp_path: Path) -> None:
    write(git_repo, "doc.md", "# Title\n\nSome text that is long enough for a chunk.\n")
    write(git_repo, ".chunkgate.yaml", BOMB)
    commit_all(git_repo)
    cache = tmp_path / "cache"
    start = time.perf_counter()
    result = cli_process(git_repo, "check", env={"CHUNKGATE_CACHE_DIR": str(cache)})
    assert time.perf_counter() - start < 20
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    assert b".chunkgate.yaml:1: YAML aliases" in result.stderr + result.stdout
    written = [path.stat().st_size for path in cache.rglob("*") if path.is_file()]
    assert sum(written) < 10_000
