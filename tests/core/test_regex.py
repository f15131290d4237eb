"""``chunkgate.core.regex.lazy``: compiled on first use, and then the compiled pattern's own."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys

import pytest
from adversarial import _modules

from chunkgate.core.regex import Lazy, lazy

PUBLIC = sorted(name for name in dir(re.Pattern) if not name.startswith("_"))


def test_every_public_attribute_of_a_pattern_is_forwarded() -> None:
    assert PUBLIC, "re.Pattern has public attributes"
    for name in PUBLIC:
        assert name in vars(Lazy), f"Lazy does not forward re.Pattern.{name}"


def test_it_compiles_on_first_use_and_answers_as_the_pattern() -> None:
    stand_in = lazy(r"(?P<word>\w+)=(\d+)", re.MULTILINE)
    real = re.compile(r"(?P<word>\w+)=(\d+)", re.MULTILINE)
    assert isinstance(stand_in, Lazy)
    assert stand_in._compiled is None  # nothing compiled yet
    text = "a=1 bb=22\nc=3"
    assert stand_in.findall(text) == real.findall(text)
    assert stand_in._compiled is not None
    assert [m.span() for m in stand_in.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert stand_in.sub(r"\2", text) == real.sub(r"\2", text)
    assert stand_in.subn("", text) == real.subn("", text)
    assert stand_in.split(text) == real.split(text)
    found = stand_in.search(text, 2)
    assert found is not None
    assert found.group("word") == "bb"
    assert stand_in.match(text) is not None
    assert stand_in.fullmatch(text) is None
    assert (stand_in.pattern, stand_in.flags, stand_in.groups) == (
        real.pattern,
        real.flags,
        real.groups,
    )
    assert dict(stand_in.groupindex) == {"word": 1}
    assert stand_in.compiled is stand_in.compiled  # compiled once


def test_bytes_patterns() -> None:
    stand_in = lazy(rb"\d+")
    assert stand_in.findall(b"a12b3") == [b"12", b"3"]


def test_it_pickles_and_copies_as_the_call_that_made_it() -> None:
    stand_in = lazy(r"x+", re.IGNORECASE)
    assert stand_in.search("aXx") is not None  # attributes kept on it, a mappingproxy too
    assert stand_in.groupindex == {}
    for clone in (
        pickle.loads(pickle.dumps(stand_in)),
        copy.copy(stand_in),
        copy.deepcopy(stand_in),
    ):
        assert isinstance(clone, Lazy)
        found = clone.search("aXx")
        assert found is not None
        assert found.group() == "Xx"


def test_an_invalid_pattern_fails_at_first_use() -> None:
    stand_in = lazy(r"(unclosed")
    with pytest.raises(re.error):
        stand_in.search("x")


def test_every_module_level_lazy_pattern_compiles() -> None:
    """A pattern that does not compile would otherwise fail only where it is used."""
    seen = 0
    for module in _modules():
        for name, value in vars(module).items():
            if isinstance(value, Lazy):
                assert isinstance(value.compiled, re.Pattern), f"{module.__name__}.{name}"
                seen += 1
    assert seen > 100


def test_the_hook_path_compiles_few_patterns_at_import() -> None:
    """Importing what a hook run imports compiles only the patterns used at import."""
    script = (
        "import re\n"
        "count = 0\n"
        "original = re._compile\n"
        "def counting(*args):\n"
        "    global count\n"
        "    count += 1\n"
        "    return original(*args)\n"
        "re._compile = counting\n"
        "import chunkgate.cli.check, chunkgate.config.load, chunkgate.gate\n"
        "import chunkgate.gate.filecheck\n"
        "import chunkgate.chunking.markdown\n"
        "import chunkgate.rules\n"
        "print(count)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    # The standard library's own (click's, textwrap's...) and a few of ours built at import.
    assert int(done.stdout) < 40, done.stdout
