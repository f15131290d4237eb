"""Small Python module code joins a neighbour; so does module code of imports alone."""

from __future__ import annotations

from chunkgate.chunking import ChunkOptions, chunk_text

IMPORTS = "\n".join(f"from package.module_{n} import name_{n}  # what main uses" for n in range(8))
FUNCTION = "def main():\n    return name_0()\n"


def ids(text: str) -> list[str]:
    return [c.identity for c in chunk_text(text, "pkg/app.py", options=ChunkOptions(min=40))]


def test_module_code_of_imports_alone_joins_the_definition_below() -> None:
    text = f"{FUNCTION}\n\n{IMPORTS}\n\n\ndef helper():\n    return 1\n"
    chunks = chunk_text(text, "pkg/app.py", options=ChunkOptions(min=40))
    assert [c.identity for c in chunks] == ["function-main", "function-helper"]
    assert chunks[1].text.startswith("from package.module_0")


def test_imports_at_the_end_join_the_chunk_above_and_code_stays() -> None:
    assert ids(f"{FUNCTION}\n\n{IMPORTS}\n") == ["function-main"]
    code = f"{IMPORTS}\nSETTINGS = {{'timeout': 30, 'retries': 5, 'backoff': 2.5}}\n"
    assert ids(f"{FUNCTION}\n\n{code}") == ["function-main", "module-after-main"]
    assert ids(f"{IMPORTS}\n") == ["module"]  # a file of imports alone keeps its chunk


def test_parenthesised_imports_are_imports_and_other_code_is_not() -> None:
    names = "from package import (\n    first,\n    second,  # the second\n)\n"
    assert ids(f"{FUNCTION}\n\n{names}{IMPORTS}\n") == ["function-main"]
    guarded = "if TYPE_CHECKING:\n    from package import first, second, third, fourth\n"
    assert ids(f"{FUNCTION}\n\n{guarded}") == ["function-main", "module-after-main"]
