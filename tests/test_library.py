"""The library gives the gate's IDs: the README's example (docs/library.md's too), run as
written from elsewhere."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docspages import page, readme
from helpers import commit_all, git_env, make_repo, write

SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"


def library_example(text: str | None = None) -> str:
    text = readme() if text is None else text
    part = text[text.index("# As a library") :]
    found = re.search(r"```python\n(.*?)```", part, re.S)
    assert found is not None
    return found.group(1)


def test_the_docs_site_shows_the_readmes_example() -> None:
    assert library_example(page("library.md")) == library_example()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """An MkDocs site: its anchors are not GitHub's (`bug-fixes_1`), nor are the IDs."""
    repo = make_repo(tmp_path)
    write(repo, "mkdocs.yml", "site_name: x\nmarkdown_extensions:\n  - toc\n")
    write(
        repo,
        "docs/setup.md",
        f"# Setup\n\n{SECTION}\n## Fixes\n\n{SECTION}\n## Fixes\n\nMore. {SECTION}",
    )
    write(repo, "docs/other.md", f"# Other\n\n{SECTION}")
    write(repo, "LICENSE", "MIT License\n")  # not in the corpus
    commit_all(repo)
    return repo


def test_the_readme_example_gives_the_ids_check_gives(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    class Store:
        def __init__(self) -> None:
            self.keys: list[str] = []

        def upsert(self, *, key: str, text: str, lines: tuple[int, int]) -> None:
            assert text
            assert lines[0] <= lines[1]
            self.keys.append(key)

    store = Store()
    namespace: dict[str, object] = {"store": store}
    exec(library_example().replace("path/to/repo", site.as_posix()), namespace)
    listed = subprocess.run(
        [sys.executable, "-m", "chunkgate", "chunks", "--format", "json", "."],
        cwd=site,
        env=git_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    expected = [chunk["id"] for chunk in json.loads(listed.stdout)]
    assert store.keys == expected
    assert "docs/setup.md#fixes_1" in store.keys  # the site's anchors, not GitHub's
    setup = namespace["setup"]
    assert isinstance(setup, list)
    assert [chunk.id for chunk in setup] == [k for k in expected if k.startswith("docs/setup.md")]


def test_chunk_file_ids_do_not_depend_on_the_current_directory(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunkgate import chunk_file

    ids = []
    for where in (site, site / "docs", site.parent):
        monkeypatch.chdir(where)
        ids.append([chunk.id for chunk in chunk_file(site / "docs" / "setup.md")])
    assert ids[0] == ids[1] == ids[2]
    assert ids[0][0] == "docs/setup.md#setup"


def test_corpus_chunks_takes_paths(site: Path) -> None:
    from chunkgate import corpus_chunks, load_config

    config = load_config(site)
    assert {chunk.path for chunk in corpus_chunks(config, [str(site / "docs" / "other.md")])} == {
        "docs/other.md"
    }


@pytest.mark.parametrize("path", ["a.md", "a.py", "a.rst", "a.txt", "a.js"])
@pytest.mark.parametrize(
    "text",
    [
        "# A\n\n\ud800 words\n",
        'x = "\udce9"\n',
        "Title\n=====\n\nwords \udfff\n",
        "---\ntitle: \udce9\n---\n# A\n",
    ],
)
def test_a_lone_surrogate_in_text_is_a_value_error_that_says_so(path: str, text: str) -> None:
    # Issue 44: a raw UnicodeEncodeError from cmark, the sizes, the text windows or YAML.
    from chunkgate import chunk_text, outline_text

    for call in (chunk_text, outline_text):
        with pytest.raises(ValueError, match="lone surrogate") as raised:
            call(text, path)
        assert type(raised.value) is ValueError  # not a UnicodeEncodeError from inside


def test_a_file_name_that_is_not_utf8_is_no_error_for_chunk_text() -> None:
    from chunkgate import chunk_text

    (chunk,) = chunk_text("# Caf\n\nText here.\n", "caf\udce9.md")
    assert chunk.id == "caf\udce9.md#caf"
