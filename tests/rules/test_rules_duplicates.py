"""CG501: each copy names the original and says what to do about it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from chunkgate.config.model import Config
from chunkgate.rules.duplicates import duplicate_violations

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
