"""The configuration as a frozen ``Config``: what the corpus is, how it is chunked, what
the rules report. ``chunkgate.config.load`` makes one from a file."""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple, TypeVar, cast

from chunkgate import rules
from chunkgate.chunking import languages
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.embedtext import EmbedSettings
from chunkgate.core.errors import ConfigError
from chunkgate.core.regex import lazy
from chunkgate.corpus.patterns import PathPatterns
from chunkgate.rules import RULES, Option, Severity
from chunkgate.rules.datadump import MAX_FILE_BYTES
from chunkgate.sites.detect import Generators

YAML_NAMES = (".chunkgate.yaml", ".chunkgate.yml")
DEFAULT_MANIFEST = "chunkgate.manifest"  # a folder: one shard per corpus file
LEGACY_MANIFEST = "chunkgate.manifest.jsonl"  # format 1, one file: migrated by `update`
_OWN_FILES = (*YAML_NAMES, "pyproject.toml", LEGACY_MANIFEST)
_T = TypeVar("_T")
# Changelogs are left out of the corpus: a concatenated history of releases
# matches every question about a feature and steals top-k slots from its docs.
# CHANGELOG*, CHANGES*, RELEASE*NOTES* with any suffix; HISTORY and NEWS only as
# the whole name ("history-design-future.md" is a page).
_CHANGELOG = lazy(
    r"(?:change[-_]?log|changes|release[-_ ]?notes)(?:[-_.][^/]*)?"
    r"|(?:history|news)(?:\.[^/.]*)?",
    re.IGNORECASE,
)
_CHANGELOG_WORDS = (
    "changelog",
    "change-log",
    "change_log",
    "changes",
    "history",
    "news",
    "release",
)


# Test data is left out too: what a test reads or compares (fixtures, expected outputs,
# snapshots, deliberately broken files) and the tests themselves, code included. On the
# 18 corpora every finding under these folders was of that kind: 1,026 of the standard
# library's 1,033 there were test code copying test code (setUp, tearDown, the
# unittest.main() tail), the others files broken on purpose and data tables (see
# benchmarks/README.md). The names are those of the tools that write or read them:
# test/tests (linguist, Semgrep, istanbul), __tests__, __fixtures__ and __snapshots__
# (Jest, Vitest), fixtures (Rails, RSpec), snapshots (insta), testdata (Go's toolchain
# skips it), test-data (mypy), expected (expected-output folders). A folder only:
# "docs/testing.md" is a page.
_TEST_DATA_NAMES = (
    "test",
    "tests",
    "__tests__",
    "testdata",
    "test-data",
    "test_data",
    "fixtures",
    "__fixtures__",
    "__snapshots__",
    "snapshots",
    "expected",
)
_TEST_DATA = lazy(rf"(?<![^/])(?:{'|'.join(_TEST_DATA_NAMES)})/", re.IGNORECASE)


def is_changelog(path: str) -> bool:
    return _CHANGELOG.fullmatch(path.rpartition("/")[2]) is not None


def is_test_data(path: str) -> bool:
    """Whether ``path`` is below a test or test-data folder (``tests/``, ``fixtures/``)."""
    return _TEST_DATA.search(path) is not None


def _names_changelogs(pattern: str) -> bool:
    """Whether an include pattern names changelogs (``CHANGELOG.md``, ``**/HISTORY*``),
    which brings them back; ``**/*.md`` does not."""
    name = pattern.rstrip("/").rpartition("/")[2].lstrip("*!").lower()
    return name.startswith(_CHANGELOG_WORDS)


def _names_test_data(pattern: str) -> bool:
    """Whether an include pattern names a test-data folder (``tests/**/*.md``,
    ``**/fixtures/``), which brings what it matches there back."""
    return is_test_data(pattern.lstrip("!/") + "/")


def _test_data_folder(path: str) -> str:
    """The include pattern that brings back the test-data folder ``path`` is in."""
    found = _TEST_DATA.search(path)
    return f"{path[: found.end()] if found else ''}**"


class LeftOut(NamedTuple):
    """Files the default corpus leaves out although the include patterns match them,
    unless an include pattern names them (``named``)."""

    what: str
    holds: Callable[[str], bool]
    named: Callable[[str], bool]
    include_line: Callable[[str], str]


LEFT_OUT = (
    LeftOut("a changelog", is_changelog, _names_changelogs, lambda path: path.rpartition("/")[2]),
    LeftOut("test data", is_test_data, _names_test_data, _test_data_folder),
)


def default_severities() -> Mapping[str, Severity]:
    return MappingProxyType({code: rule.severity for code, rule in RULES.items()})


def _default_options() -> Mapping[str, object]:
    return MappingProxyType({option.key: option.default for option in rules.options()})


@dataclass(frozen=True, slots=True)
class Config:
    root: Path
    source: Path | None = None
    include: tuple[str, ...] = field(default_factory=languages.default_include)
    exclude: tuple[str, ...] = ()
    manifest: str = DEFAULT_MANIFEST
    chunking: ChunkOptions = field(default_factory=ChunkOptions)
    severities: Mapping[str, Severity] = field(default_factory=default_severities)
    # The values of the options the rules declare (``chunkgate.rules.options()``),
    # by key: read them with ``option()``.
    options: Mapping[str, object] = field(default_factory=_default_options)
    # Fail on every problem, also those the manifest already records (the baseline).
    strict: bool = False
    # The tracked regular files named as a site generator's config, when ``load_config``
    # listed them (``references.site_of`` needs no listing of its own then).
    generator_files: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    # The generator configs found (all of them, and the tracked ones), for the manifest
    # header to record; ``fresh`` when listed in the work tree this run, not taken from
    # the header's record.
    generators: Generators | None = field(default=None, repr=False, compare=False)
    # ``check --site DIR``: the folder a generator built the docs into, whose pages'
    # ids CG404 checks links against (not a setting: a run's input).
    site: Path | None = field(default=None, repr=False, compare=False)
    include_spec: PathPatterns = field(init=False, repr=False, compare=False)
    exclude_spec: PathPatterns = field(init=False, repr=False, compare=False)
    # For each kind of ``LEFT_OUT``, the include patterns that name it, which bring
    # back what they match of it.
    returned: tuple[PathPatterns, ...] = field(init=False, repr=False, compare=False)
    _never: frozenset[str] = field(init=False, repr=False, compare=False)
    _manifest_folder: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Library callers may pass lists or a partial severity mapping; normalise both.
        object.__setattr__(self, "include", tuple(self.include))
        object.__setattr__(self, "exclude", tuple(self.exclude))
        severities = {**default_severities(), **self.severities}
        object.__setattr__(self, "severities", MappingProxyType(severities))
        object.__setattr__(
            self, "options", MappingProxyType({**_default_options(), **self.options})
        )
        object.__setattr__(self, "include_spec", PathPatterns(self.include))
        object.__setattr__(self, "exclude_spec", PathPatterns(self.exclude))
        returned = tuple(
            PathPatterns([pattern for pattern in self.include if kind.named(pattern)])
            for kind in LEFT_OUT
        )
        object.__setattr__(self, "returned", returned)
        never = frozenset((self.manifest, *YAML_NAMES, LEGACY_MANIFEST))
        object.__setattr__(self, "_never", never)
        object.__setattr__(self, "_manifest_folder", self.manifest + "/")

    def __hash__(self) -> int:
        return hash(
            (
                self.root,
                self.source,
                self.include,
                self.exclude,
                self.manifest,
                self.chunking,
                tuple(sorted(self.severities.items())),
                tuple(self.options.items()),
                self.strict,
            )
        )

    def reads(self, path: str) -> bool:
        """Whether chunkgate reads ``path``: a corpus file, a configuration file or the
        manifest (what chunkgate must never write over)."""
        if path in _OWN_FILES or path == self.manifest or path.startswith(self._manifest_folder):
            return True
        return self.selects(path)

    def selects(self, path: str) -> bool:
        """Whether a root-relative POSIX path belongs to the corpus by include/exclude."""
        return self.left_out(path) is None

    def left_out(self, path: str) -> str | None:
        """Why include/exclude leave a root-relative POSIX path out of the corpus (None:
        they do not), in words that say how to bring it in."""
        if path in self._never or path.startswith(self._manifest_folder):
            return "it is chunkgate's own configuration or manifest"
        if not self.include_spec.match(path):
            return self._not_included(path)
        for kind, named in zip(LEFT_OUT, self.returned, strict=True):
            if kind.holds(path) and not (named and named.match(path)):
                line = kind.include_line(path)
                return f"{kind.what} is left out by default; add {line!r} to `include`"
        excluded = self.exclude_spec.deciding(path) if self.exclude_spec else None
        if excluded is not None:
            return f"the `exclude` pattern {excluded!r} leaves it out"
        return None

    def _not_included(self, path: str) -> str:
        suffix = posixpath.splitext(path.rpartition("/")[2])[1]
        if suffix and self.include_spec.simple:
            why, pattern = f"its suffix {suffix} is not a corpus suffix", f"**/*{suffix}"
        else:
            why, pattern = "no `include` pattern matches it", path
        # A list in the configuration replaces the default one, which has no key to add to.
        own = "" if self.include != languages.default_include() else " (with the default ones)"
        return f"{why}; add {pattern!r} to `include`{own} to bring it in"

    def selected(self, paths: Iterable[str]) -> list[str]:
        """The paths ``selects``, in their order: one pass for a whole corpus."""
        never, folder = self._never, self._manifest_folder
        chosen = self.include_spec.filter(
            path for path in paths if path not in never and not path.startswith(folder)
        )
        for kind, named in zip(LEFT_OUT, self.returned, strict=True):
            held = [path for path in chosen if kind.holds(path)]
            if held:
                kept = set(named.filter(held)) if named else set()
                dropped = set(held) - kept
                chosen = [path for path in chosen if path not in dropped]
        if self.exclude_spec:
            excluded = set(self.exclude_spec.filter(chosen))
            chosen = [path for path in chosen if path not in excluded]
        return chosen

    @property
    def embed(self) -> EmbedSettings:
        """The embed text's settings (``embed:``); held by ``chunking``, whose sizes
        they change when ``sizes: embed``."""
        return self.chunking.embed

    def severity(self, code: str) -> Severity:
        """The configured severity; a rule registered after the configuration was made
        (a plugin) has its default one."""
        found = self.severities.get(code)
        return found if found is not None else RULES[code].severity

    def option(self, option: Option[_T]) -> _T:
        return cast(_T, self.options[option.key])

    @property
    def max_file_bytes(self) -> int:
        """Files larger than this are not read at all (CG305 reports them)."""
        return self.option(MAX_FILE_BYTES)

    def findings_fingerprint(self) -> str:
        """What changes the file-level rules' findings (the manifest header records it)."""
        return rules.findings_fingerprint(dict(self.options))


def with_rules(
    config: Config, *, select: str | None = None, ignore: str | None = None, strict: bool = False
) -> Config:
    """``check --select/--ignore/--strict``: the rules not selected, or ignored, are off.
    Codes or prefixes, comma-separated (``CG201,CG3``), as ruff takes them."""
    chosen = _codes("--select", select) if select else None
    dropped = _codes("--ignore", ignore) if ignore else ()
    severities = dict(config.severities)
    for code in severities:
        if (chosen is not None and not code.startswith(chosen)) or code.startswith(dropped):
            severities[code] = "off"
    return dataclasses.replace(config, severities=severities, strict=config.strict or strict)


def _codes(option: str, text: str) -> tuple[str, ...]:
    codes = tuple(part.strip().upper() for part in text.split(",") if part.strip())
    for code in codes:
        if not any(known.startswith(code) for known in RULES):
            raise ConfigError(f"{option}: {code!r} names no rule (known codes: {', '.join(RULES)})")
    return codes
