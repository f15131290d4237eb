"""CG501: each copy names the original and says what to do about it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from chunkgate.config.model import Config
from chunkgate.rules.duplicates import Folders, Row, copied_folders, duplicate_violations

CONFIG = Config(root=Path("."))


def _fixes(*ids: str) -> list[tuple[str, str]]:
    rows = [("0123456789abcdef", chunk_id, chunk_id.partition("#")[0], 3, ()) for chunk_id in ids]
    return [(v.path, v.fix) for v in duplicate_violations(CONFIG, rows)]


def test_a_copy_within_one_language_says_keep_one_copy() -> None:
    assert _fixes("docs/en/index.md#docs", "docs/en/tutorial.md#docs") == [
        (
            "docs/en/tutorial.md",
            "keep one copy and link to docs/en/index.md#docs, or make the copies differ",
        )
    ]


@pytest.mark.parametrize(
    ("original", "copy", "folder"),
    [
        pytest.param("docs/de/docs/a.md#x", "docs/uk/docs/a.md#x", "docs/uk", id="fastapi"),
        pytest.param("content/en/a.md#x", "content/pt-br/a.md#x", "content/pt-br", id="region"),
        pytest.param("i18n/zh_Hant/a.md#x", "i18n/zh_Hant/a.md#x~2", None, id="same-file"),
        pytest.param("docs/api/a.md#x", "docs/guide/a.md#x", None, id="not-a-language"),
    ],
)
def test_an_untranslated_copy_says_translate_or_exclude_the_language(
    original: str, copy: str, folder: str | None
) -> None:
    ((path, fix),) = _fixes(original, copy)
    assert path == copy.partition("#")[0]
    if folder is None:
        assert fix.startswith("keep one copy")
        return
    assert fix.startswith("translate it, or, if the index is meant to hold one language")
    hint = fix[fix.index("exclude: [") :]
    assert yaml.safe_load(hint) == {"exclude": [f"{folder}/**"]}


def _mirrored(first: str, second: str, shared: int, files: int = 4) -> list[Row]:
    """``shared`` chunks at the same paths below two folders, over ``files`` files."""
    rows: list[Row] = []
    for n in range(shared):
        name, identity = f"guide/page{n % files}.md", f"#part-{n}"
        for folder in (first, second):
            path = f"{folder}/{name}"
            rows.append((f"hash{n}", path + identity, path, n, ()))
    return rows


def _sizes(rows: list[Row], **extra: int) -> dict[str, int]:
    sizes = Counter(row[2] for row in rows)
    sizes.update(extra)
    return dict(sizes)


@pytest.mark.parametrize(
    ("folders", "shared", "files", "extra", "pair"),
    [
        pytest.param(("src", "material"), 20, 4, {}, True, id="twenty-chunks"),
        pytest.param(("src", "material"), 19, 4, {}, False, id="nineteen"),
        pytest.param(("src", "material"), 40, 1, {}, False, id="one-file"),
        # Sphinx's C and C++ domains: 40 shared, a sixth of the smaller folder.
        pytest.param(
            ("domains/c", "domains/cpp"),
            40,
            4,
            {"domains/c/x.py": 220, "domains/cpp/x.py": 500},
            False,
            id="share",
        ),
        pytest.param(("docs/de", "docs/uk"), 60, 4, {}, False, id="translations"),
    ],
)
def test_a_folder_pair_is_a_copy_past_the_thresholds(
    folders: tuple[str, str], shared: int, files: int, extra: dict[str, int], pair: bool
) -> None:
    first, second = folders
    rows = _mirrored(first, second, shared, files)
    found = copied_folders(rows, _sizes(rows, **extra))
    assert [(p.first, p.second) for p in found] == ([(second, first)] if pair else [])
    if pair:
        assert len(found[0].pairs) == shared


def test_without_a_judge_a_copy_names_both_folders() -> None:
    rows = _mirrored("one", "two", 24)
    folders = Folders(_sizes(rows))
    violations = list(duplicate_violations(CONFIG, rows, folders=folders))
    assert {v.cause for v in violations} == {"copies:two|one"}
    assert len(violations) == 24
    assert all(v.path.startswith("two/") for v in violations)
    assert "which to keep is your choice" in violations[0].fix
