"""Code blocks over size.max, cut as code (fenceparts.py, issue 41)."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkgate.chunking import ChunkOptions, chunk_text
from chunkgate.chunking.base import span_text
from chunkgate.chunking.embedtext import EmbedSettings, embed_text
from chunkgate.core.model import Chunk
from chunkgate.ingest.lines import file_lines

INTRO = "Call the functions below to add numbers to the running total of the session."


def parts(text: str, *, max: int = 300, path: str = "docs/a.md") -> list[Chunk]:
    found = chunk_text(text, path, options=ChunkOptions(max=max, min=0))
    lines = text.split("\n")
    for chunk in found:
        assert chunk.text == span_text(
            lines, chunk.start_line, chunk.end_line, chunk.start_column, chunk.end_column
        )
    for before, after in itertools.pairwise(found):
        end = (before.end_line, before.end_column or float("inf"))
        assert end < (after.start_line, after.start_column)
    assert len({c.id for c in found}) == len(found)
    return found


def functions(count: int, indent: str = "") -> str:
    return "\n\n".join(
        f"{indent}def add_{n}(total):\n{indent}    total += {n}\n{indent}    return total"
        for n in range(count)
    )


def test_python_is_cut_between_definitions_and_re_fenced() -> None:
    text = f'# Sums\n\n{INTRO}\n\n```python title="sums.py"\n{functions(12)}\n```\n'
    found = parts(text)
    assert len(found) > 2
    assert not any(c.unsplittable for c in found)
    assert all(c.chars <= 300 for c in found)
    assert all(c.text.startswith("def ") for c in found[1:])
    assert all(c.text.rstrip("`\n").endswith("return total") for c in found)
    assert found[0].text.startswith("# Sums")
    assert found[-1].text.endswith("```")
    opener = '```python title="sums.py"'
    assert [(c.embed_before, c.embed_after) for c in found] == [
        ("", "```"),
        *[(opener, "```")] * (len(found) - 2),
        (opener, ""),
    ]
    assert embed_text(found[1]) == f"Sums\n{opener}\n{found[1].text}\n```"


def test_a_class_is_cut_between_its_methods_and_a_clause_goes_with_its_body() -> None:
    methods = functions(8, "    ").replace("def add_", "def method_")
    branch = "\n".join(f"    value = value * {n} + 1" for n in range(12))
    code = f"class Totals:\n{methods}\n\nif ready:\n{branch}\nelse:\n{branch}"
    found = parts(f"# Totals\n\n```py\n{code}\n```\n")
    starts = [c.text.split("\n")[0] for c in found[1:]]
    assert any(start.startswith("    def method_") for start in starts)
    assert "else:" in starts
    assert not any(c.unsplittable for c in found)


def test_code_of_no_language_is_cut_between_runs_then_lines() -> None:
    runs = "\n\n".join(
        "\n".join(f"$ make step-{run}-{line}" for line in range(5)) for run in range(6)
    )
    found = parts(f"# Shell\n\n```console\n{runs}\n```\n", max=200)
    assert all(c.text.startswith("$ make step-") and "-0" in c.text[:20] for c in found[1:])
    one_run = "\n".join(f"Line {n} of the log, written by the server" for n in range(20))
    found = parts(f"# Log\n\n```\n{one_run}\n```\n", max=200)
    assert len(found) > 3
    assert all(c.chars <= 200 for c in found)
    assert [c.embed_before for c in found[1:]] == ["```"] * (len(found) - 1)


def test_code_that_does_not_parse_falls_back_to_runs() -> None:
    snippet = functions(10).replace("total += 3", "total += ...  # and so on >>>")
    snippet = snippet.replace("def add_5(total):", "def add_5(total) ->:")
    found = parts(f"# Broken\n\n```python\n{snippet}\n```\n")
    assert len(found) > 1
    assert all(c.text.startswith("def ") for c in found[1:])
    assert not any(c.unsplittable for c in found)


def test_indented_code_and_a_fence_in_a_list_item() -> None:
    indented = "\n".join(f"    step_{n}()" for n in range(40))
    found = parts(f"# Steps\n\n{INTRO}\n\n{indented}\n")
    assert len(found) > 2
    assert not any(c.unsplittable for c in found)
    assert not any(c.embed_before or c.embed_after for c in found)
    item = f"- Run this:\n\n    ```python\n{functions(10, '    ')}\n    ```\n"
    found = parts(f"# Item\n\n{item}")
    assert all(c.text.startswith("    def ") for c in found[1:])
    assert found[1].embed_before == "    ```python"


def test_a_long_line_of_code_is_named_by_cg201() -> None:
    line = "x = [" + ", ".join(str(n) for n in range(200)) + "]"
    found = parts(f"# Data\n\n```python\nimport data\n\n{line}\n\nprint(x)\n```\n")
    (oversized,) = [c for c in found if c.unsplittable]
    assert oversized.unsplittable.startswith("code line (line 6, ")


def test_the_export_record_embeds_the_re_fenced_text(tmp_path: object) -> None:
    text = f"# Sums\n\n```python\n{functions(12)}\n```\n"
    found = parts(text)
    records = [
        json.loads(line)
        for line in file_lines(
            found, text, EmbedSettings(), blob=None, commit=None, model=None
        ).splitlines()
    ]
    assert [r["embed_text"] for r in records] == [embed_text(c) for c in found]
    assert records[1]["text"] == found[1].text


_CODE_LINES = st.lists(
    st.sampled_from(
        ["", "", "x = 1", "def f():", "    return 2", "print('a long line of output here')", "}"]
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=100, deadline=None)
@given(
    _CODE_LINES,
    st.sampled_from(["python", "js", "text", "", "rust {.numberLines}"]),
    st.integers(40, 400),
    st.integers(0, 30),
)
def test_property_parts_of_code(code: list[str], info: str, limit: int, extra: int) -> None:
    body = "\n".join(code)
    fence = f"```{info}\n{body}\n```"
    before = f"# First\n\n{INTRO}\n\n## Code\n\n{fence}\n\n## Last\n\n{INTRO}\n"
    found = parts(before, max=limit)
    for chunk in found:
        assert chunk.chars <= limit or chunk.unsplittable.split(" (")[0] in (
            "code line",
            "fenced code block",
            "paragraph",
            "sentence",
        )
    # An edit in another section changes none of the code's IDs or texts.
    after = before.replace(INTRO, INTRO + " More." * (extra % 3), 1)
    edited = parts(after, max=limit)

    def code_chunks(chunks: list[Chunk]) -> list[tuple[str, str, str, str]]:
        return [
            (c.id, c.text, c.embed_before, c.embed_after)
            for c in chunks
            if c.identity.startswith("code")
        ]

    assert code_chunks(found) == code_chunks(edited)


def test_a_tree_sitter_language_is_cut_between_its_definitions() -> None:
    functions = "\n".join(
        f"function add{n}(total) {{\n  const next = total + {n};\n  return next;\n}}"
        for n in range(12)
    )  # no blank line between them: the grammar, not the runs, finds the cuts
    found = parts(f"# Sums\n\n```js\n{functions}\n```\n", max=200)
    assert len(found) > 2
    assert all(c.text.startswith("function add") for c in found[1:])
    assert all(c.text.rstrip("`\n").endswith("}") for c in found)
