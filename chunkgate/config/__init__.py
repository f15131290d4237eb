"""Configuration: found once, validated once, into a frozen ``Config``.

Sources, first found wins: ``--config PATH``; ``.chunkgate.yaml`` (or ``.yml``)
at the repository root; ``[tool.chunkgate]`` in its ``pyproject.toml``;
the defaults. Every problem is a ``ConfigError`` naming the file, the key,
the value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import os
import posixpath
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar, cast

from chunkgate import git, rules
from chunkgate.cache import configs as configcache
from chunkgate.chunking import languages
from chunkgate.chunking.anchors import SETTINGS as ANCHOR_SETTINGS
from chunkgate.chunking.anchors import Site
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.embedtext import SIZES_OF, EmbedSettings
from chunkgate.core.errors import ChunkgateError, ConfigError
from chunkgate.core.regex import lazy
from chunkgate.corpus import paths
from chunkgate.corpus.patterns import PathPatterns
from chunkgate.rules import RULES, SEVERITIES, Option, Severity
from chunkgate.rules.datadump import MAX_FILE_BYTES
from chunkgate.sites import detect as sites

YAML_NAMES = (".chunkgate.yaml", ".chunkgate.yml")
DEFAULT_MANIFEST = "chunkgate.manifest"  # a folder: one shard per corpus file
LEGACY_MANIFEST = "chunkgate.manifest.jsonl"  # format 1, one file: migrated by `update`
_TOKENIZER = lazy(r"estimate|tiktoken:[A-Za-z0-9_.\-]+")
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


def is_changelog(path: str) -> bool:
    return _CHANGELOG.fullmatch(path.rpartition("/")[2]) is not None


def _names_changelogs(pattern: str) -> bool:
    """Whether an include pattern names changelogs (``CHANGELOG.md``, ``**/HISTORY*``),
    which brings them back; ``**/*.md`` does not."""
    name = pattern.rstrip("/").rpartition("/")[2].lstrip("*!").lower()
    return name.startswith(_CHANGELOG_WORDS)


def _default_severities() -> Mapping[str, Severity]:
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
    severities: Mapping[str, Severity] = field(default_factory=_default_severities)
    # The values of the options the rules declare (``chunkgate.rules.options()``),
    # by key: read them with ``option()``.
    options: Mapping[str, object] = field(default_factory=_default_options)
    # Fail on every problem, also those the manifest already records (the baseline).
    strict: bool = False
    # The tracked regular files named as a site generator's config, when ``load_config``
    # listed them (``links.corpus.sites_of`` needs no listing of its own then).
    generator_files: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    # The generator configs found (all of them, and the tracked ones), for the manifest
    # header to record; ``fresh`` when listed in the work tree this run, not taken from
    # the header's record.
    generators: sites.Generators | None = field(default=None, repr=False, compare=False)
    include_spec: PathPatterns = field(init=False, repr=False, compare=False)
    exclude_spec: PathPatterns = field(init=False, repr=False, compare=False)
    # The include patterns that name changelogs, which brings those back.
    changelog_spec: PathPatterns = field(init=False, repr=False, compare=False)
    _never: frozenset[str] = field(init=False, repr=False, compare=False)
    _manifest_folder: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Library callers may pass lists or a partial severity mapping; normalise both.
        object.__setattr__(self, "include", tuple(self.include))
        object.__setattr__(self, "exclude", tuple(self.exclude))
        severities = {**_default_severities(), **self.severities}
        object.__setattr__(self, "severities", MappingProxyType(severities))
        object.__setattr__(
            self, "options", MappingProxyType({**_default_options(), **self.options})
        )
        object.__setattr__(self, "include_spec", PathPatterns(self.include))
        object.__setattr__(self, "exclude_spec", PathPatterns(self.exclude))
        changelogs = tuple(pattern for pattern in self.include if _names_changelogs(pattern))
        object.__setattr__(self, "changelog_spec", PathPatterns(changelogs))
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

    def selects(self, path: str) -> bool:
        """Whether a root-relative POSIX path belongs to the corpus by include/exclude."""
        if path in self._never or path.startswith(self._manifest_folder):
            return False
        if not self.include_spec.match(path):
            return False
        if is_changelog(path) and not (self.changelog_spec and self.changelog_spec.match(path)):
            return False
        return not (self.exclude_spec and self.exclude_spec.match(path))

    def selected(self, paths: Iterable[str]) -> list[str]:
        """The paths ``selects``, in their order: one pass for a whole corpus."""
        never, folder = self._never, self._manifest_folder
        chosen = self.include_spec.filter(
            path for path in paths if path not in never and not path.startswith(folder)
        )
        changelogs = [path for path in chosen if is_changelog(path)]
        if changelogs:
            kept = set(self.changelog_spec.filter(changelogs)) if self.changelog_spec else set()
            dropped = set(changelogs) - kept
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


def load_config(
    start: str | os.PathLike[str] | None = None,
    *,
    config_path: Path | None = None,
    hook_files: Sequence[str] | None = None,
    listing: git.WorkTreeListing | None = None,
) -> Config:
    """Find the repository root from ``start`` (default: cwd) and load its configuration.

    ``hook_files``: the files a pre-commit hook run is given (the staged ones). Such a
    run takes the site generators' configs from the manifest header's record of the
    last whole-corpus listing, unless one of the files is such a config (or a folder),
    so that its cost does not grow with the work tree: it sees what is staged, and an
    untracked config added since that listing only once it is staged. ``listing``: a
    whole-corpus run's listing of the work tree at the root, started already (its
    untracked files are the untracked configs).
    """
    begin = Path(start if start is not None else Path.cwd()).resolve()
    if not begin.is_dir():
        begin = begin.parent
    found_root = listing.root if listing is not None else git.find_root(begin)
    root = found_root or begin
    source: Path | None
    if config_path is not None:
        source = config_path.resolve()
        if not source.is_file():
            raise ConfigError(f"{config_path}: config file not found")
        data = _read_explicit(source)
    else:
        source, data = _discover(root)
    config = Config(root=root, source=source)
    if data is not None:
        config = _Validator(source, root).build(data)
    if found_root is None:
        return _with_sites(config, lambda: sites.working_tree_sites(root, git=False))
    record = _recorded_configs(config, hook_files) if hook_files is not None else None
    if record is not None:
        generators = sites.recorded_generators(root, *record)
    else:
        untracked = listing.untracked if listing is not None else None
        generators = sites.working_tree_generators(root, untracked)
    return _with_sites(
        replace(config, generator_files=generators.tracked, generators=generators),
        lambda: generators.sites,
    )


def _recorded_configs(
    config: Config, files: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The generator configs the manifest header records (all, tracked), when a hook run
    on ``files`` (paths from the working directory) may use them: none of those is a
    config or a folder."""
    if any(sites.is_listed_name(path) or os.path.isdir(path) for path in files):
        return None
    from chunkgate.manifest import parse_header
    from chunkgate.manifest.layout import HEADER

    try:
        folder = paths.manifest_folder(config.root, config.manifest)
        header = parse_header((folder / HEADER).read_bytes(), HEADER)
    except (OSError, ChunkgateError):  # none, or a bad one: list; the gate reports it
        return None
    tracked = header.tracked_configs()
    if header.site_configs is None or tracked is None:
        return None
    return header.site_configs, tracked


def _with_sites(config: Config, find: Callable[[], tuple[Site, ...]]) -> Config:
    """``config`` with the site generators of its tree (markdown.anchors: auto uses them)."""
    found = find()
    if not found:
        return config
    return replace(config, chunking=replace(config.chunking, sites=found))


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{_shown(path)}: cannot read: {exc.strerror}") from None


def _discover(root: Path) -> tuple[Path | None, object]:
    found = [root / name for name in YAML_NAMES if (root / name).is_file()]
    if len(found) > 1:
        raise ConfigError(f"{root}: both {YAML_NAMES[0]} and {YAML_NAMES[1]} exist; keep one")
    if found:
        return found[0], _load_yaml(found[0])
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        raw = _read_bytes(pyproject)
        # Most pyproject files never mention us: skip parsing them (and their errors).
        if b"chunkgate" in raw:
            table = _tool_table(_load_toml(pyproject, raw))
            if table is not None:
                return pyproject, table
    return None, None


def load_config_at(
    root: Path,
    reader: Callable[[str], bytes | None],
    *,
    label: str,
    paths: Iterable[str] = (),
) -> Config:
    """The configuration committed in one revision's tree, validated like ``load_config``.

    ``reader(name)`` returns the bytes of the file ``name`` in that tree, or
    None; ``label`` (e.g. ``"HEAD~1"``) prefixes file names in errors; ``paths``
    are the tree's files, where its site generators' configs are looked for.
    """
    config = _load_config_at(root, reader, label=label)
    return _with_sites(config, lambda: sites.find_sites(paths, reader))


def _load_config_at(root: Path, reader: Callable[[str], bytes | None], *, label: str) -> Config:
    found = [(name, raw) for name in YAML_NAMES if (raw := reader(name)) is not None]
    if len(found) > 1:
        raise ConfigError(f"{label}: both {YAML_NAMES[0]} and {YAML_NAMES[1]} exist; keep one")
    source: Path | None = None
    data: object = None
    if found:
        source = Path(f"{label}:{found[0][0]}")
        data = _load_yaml(source, found[0][1])
    else:
        toml = reader("pyproject.toml")
        if toml is not None and b"chunkgate" in toml:
            pyproject = Path(f"{label}:pyproject.toml")
            data = _tool_table(_load_toml(pyproject, toml))
            source = pyproject if data is not None else None
    if data is None:
        return Config(root=root, source=source)
    return _Validator(source, root).build(data)


def _read_explicit(source: Path) -> object:
    if source.suffix != ".toml":
        return _load_yaml(source)
    document = _load_toml(source, _read_bytes(source))
    if source.name != "pyproject.toml":
        return document
    table = _tool_table(document)
    if table is None:
        raise ConfigError(f"{_shown(source)}: no [tool.chunkgate] table")
    return table


def _tool_table(document: dict[str, Any]) -> object:
    tool = document.get("tool")
    return tool.get("chunkgate") if isinstance(tool, dict) else None


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _load_toml(path: Path, raw: bytes) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        document: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{_shown(path)}: not UTF-8 ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{_shown(path)}: invalid TOML: {exc}") from None
    return document


def _load_yaml(path: Path, raw: bytes | None = None) -> object:
    raw = _read_bytes(path) if raw is None else raw
    cached = configcache.lookup(raw)
    if not configcache.is_missing(cached):
        return cached
    document = _parse_yaml(path, raw)
    configcache.store(raw, document)
    return document


def _parse_yaml(path: Path, raw: bytes) -> object:
    import yaml  # type: ignore[import-untyped, unused-ignore]

    loader_class: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        loader = loader_class(raw)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _reject_duplicate_keys(path, node, yaml.MappingNode)
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f":{mark.line + 1}" if mark is not None else ""
        message = exc.problem or exc.context or "syntax error"
        if exc.problem and exc.context and exc.context_mark is not None:
            message += f" ({exc.context} started on line {exc.context_mark.line + 1})"
        raise ConfigError(f"{_shown(path)}{where}: invalid YAML: {message}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{_shown(path)}: invalid YAML: {exc}") from None
    except ValueError:  # int() of a number over Python's 4,300-digit limit
        raise ConfigError(f"{_shown(path)}: a number too long to read; use a smaller one") from None


def _reject_duplicate_keys(path: Path, root: Any, mapping_node: Any) -> None:
    # safe_load silently keeps the last of two equal keys; a config should say so.
    # The composer makes an alias the very node its anchor names, so a node met
    # twice is an alias: refused, since nested aliases expand exponentially (a
    # few lines became gigabytes) and one inside its own anchor never ends.
    visited: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in visited:
            line = node.start_mark.line + 1
            raise ConfigError(
                f"{_shown(path)}:{line}: YAML aliases (*name) of the anchor on this line "
                "are not supported: write the value out in full"
            )
        visited.add(id(node))
        if isinstance(node, mapping_node):
            seen: set[object] = set()
            for key, value in node.value:
                name = getattr(key, "value", None)
                if isinstance(name, str):
                    if name in seen:
                        line = key.start_mark.line + 1
                        raise ConfigError(f"{_shown(path)}:{line}: duplicate key {name!r}")
                    seen.add(name)
                stack.extend((value, key))
        elif isinstance(getattr(node, "value", None), list):
            stack.extend(reversed(node.value))


_CORE_KEYS = (
    "include",
    "exclude",
    "manifest",
    "size",
    "tokenizer",
    "markdown",
    "python",
    "rules",
    "strict",
    "embed",
)
_EMBED_KEYS = ("breadcrumb", "separator", "sizes")
_SIZE_KEYS = ("unit", "max", "min", "overlap", "split")
_UNITS = ("chars", "tokens")


class _Validator:
    def __init__(self, source: Path | None, root: Path) -> None:
        self.name = _shown(source) if source is not None else "configuration"
        self.source = source
        self.root = root
        in_pyproject = source is not None and source.name == "pyproject.toml"
        self.prefix = "tool.chunkgate." if in_pyproject else ""

    def fail(self, message: str) -> NoReturn:
        raise ConfigError(f"{self.name}: {message}")

    def wrong(self, key: str, value: object, allowed: str, note: str = "") -> NoReturn:
        shown = f"{self.prefix}{key}" if key else self.prefix.rstrip(".") or "top level"
        self.fail(f"{shown}: expected {allowed}, got {value!r}{note}")

    def table(self, key: str, value: object, known: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.wrong(key, value, "a mapping")
        parent = f"{self.prefix}{key}." if key else self.prefix
        for name in value:
            if name not in known:
                close = _close_matches(str(name), known, n=1)
                hint = f"did you mean '{parent}{close[0]}'?" if close else "known keys: "
                hint += "" if close else ", ".join(known)
                self.fail(f"unknown key '{parent}{name}' ({hint})")
        return value

    def fraction(self, key: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.1 <= value <= 1:
            self.wrong(key, value, "a number from 0.1 to 1")
        return float(value)

    def integer(self, key: str, value: object, minimum: int) -> int:
        if type(value) is not int or value < minimum:
            self.wrong(key, value, f"an integer >= {minimum}")
        return value

    def boolean(self, key: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.wrong(key, value, "true or false")
        return value

    def strings(self, key: str, value: object) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.wrong(key, value, "a list of strings")
        return tuple(value)

    def globs(self, key: str, value: object) -> tuple[str, ...]:
        patterns = self.strings(key, value)
        for index, pattern in enumerate(patterns):
            if PathPatterns((pattern,)).simple:
                continue  # "*.md" and the like are valid by their shape
            try:
                PathPatterns((pattern,)).spec()
            except Exception as exc:  # pathspec raises its own error types per version
                self.wrong(f"{key}[{index}]", pattern, f"a gitignore-style pattern ({exc})")
        return patterns

    def build(self, data: object) -> Config:
        top = self.table("", data, (*_CORE_KEYS, *_option_tables()))
        include = self.globs("include", top.get("include", list(languages.default_include())))
        exclude = self.globs("exclude", top.get("exclude", []))
        return Config(
            root=self.root,
            source=self.source,
            include=include,
            exclude=exclude,
            manifest=self.manifest(top.get("manifest", DEFAULT_MANIFEST)),
            chunking=self.chunking(top),
            severities=self.severities(top.get("rules", {})),
            options=self.options(top),
            strict=self.boolean("strict", top.get("strict", False)),
        )

    def options(self, top: dict[str, Any]) -> Mapping[str, object]:
        """The rules' options (``chunkgate.rules.options()``), each validated by its kind."""
        tables = _option_tables()
        values: dict[str, object] = {}
        for option in rules.options():
            table, _, name = option.key.rpartition(".")
            given = self.table(table, top.get(table, {}), tables[table]) if table else top
            if name not in given:
                values[option.key] = option.default
            elif option.kind == "globs":
                values[option.key] = self.globs(option.key, given[name])
            elif option.kind == "regexes":
                values[option.key] = self.regexes(option.key, given[name])
            elif option.kind == "fraction":
                values[option.key] = self.fraction(option.key, given[name])
            else:
                values[option.key] = self.integer(option.key, given[name], 1)
        return MappingProxyType(values)

    def manifest(self, value: object) -> str:
        allowed = "a relative POSIX path inside the repository"
        if not isinstance(value, str) or not value.strip():
            self.wrong("manifest", value, allowed)
        if "\\" in value:
            self.wrong("manifest", value, f"{allowed}, with '/' separators")
        normal = posixpath.normpath(value)
        if normal.startswith("/") or normal == ".." or normal.startswith("../") or normal == ".":
            self.wrong("manifest", value, allowed)
        unsafe = paths.problem(normal)
        if unsafe is not None:
            self.wrong("manifest", value, allowed, f" (it {unsafe})")
        if normal.endswith(".jsonl"):
            self.wrong(
                "manifest",
                value,
                "a folder (the manifest is one since format 2)",
                f"; name a folder such as {DEFAULT_MANIFEST!r}, or drop the key, and run "
                "`chunkgate update`",
            )
        return normal

    def chunking(self, top: dict[str, Any]) -> ChunkOptions:
        defaults = ChunkOptions()
        size = self.table("size", top.get("size", {}), _SIZE_KEYS)
        unit = size.get("unit", defaults.unit)
        if unit not in _UNITS:
            self.wrong("size.unit", unit, "'chars' or 'tokens'")
        maximum = self.integer("size.max", size.get("max", defaults.max), 1)
        minimum = self.integer("size.min", size.get("min", defaults.min), 0)
        overlap = self.integer("size.overlap", size.get("overlap", defaults.overlap), 0)
        if minimum > maximum:
            default = "" if "min" in size else " (the default; set size.min too)"
            self.wrong("size.min", minimum, f"at most size.max ({maximum})", default)
        if overlap >= maximum:
            self.wrong("size.overlap", overlap, f"less than size.max ({maximum})")
        split = self.boolean("size.split", size.get("split", defaults.split))
        tokenizer = top.get("tokenizer", defaults.tokenizer)
        if not isinstance(tokenizer, str) or not _TOKENIZER.fullmatch(tokenizer):
            self.wrong("tokenizer", tokenizer, "'estimate' or 'tiktoken:<encoding>'")
        markdown = self.table("markdown", top.get("markdown", {}), ("split_level", "anchors"))
        level = markdown.get("split_level", defaults.split_level)
        if type(level) is not int or not 1 <= level <= 6:
            self.wrong("markdown.split_level", level, "an integer from 1 to 6")
        anchors = markdown.get("anchors", defaults.anchors)
        if anchors != "auto" and anchors not in ANCHOR_SETTINGS:
            self.wrong("markdown.anchors", anchors, f"auto, {', '.join(ANCHOR_SETTINGS)}")
        python = self.table("python", top.get("python", {}), ("split_classes",))
        split_classes = self.boolean(
            "python.split_classes", python.get("split_classes", defaults.split_classes)
        )
        embed = self.embed(top.get("embed", {}))
        try:
            return ChunkOptions(
                unit=unit,
                max=maximum,
                min=minimum,
                overlap=overlap,
                split_level=level,
                split_classes=split_classes,
                tokenizer=tokenizer,
                anchors=anchors,
                split=split,
                embed=embed,
            )
        except ValueError as exc:  # pragma: no cover - every case is caught above
            self.fail(str(exc))

    def embed(self, value: object) -> EmbedSettings:
        defaults = EmbedSettings()
        embed = self.table("embed", value, _EMBED_KEYS)
        breadcrumb = self.boolean("embed.breadcrumb", embed.get("breadcrumb", defaults.breadcrumb))
        separator = embed.get("separator", defaults.separator)
        if not isinstance(separator, str) or not separator or "\n" in separator:
            self.wrong("embed.separator", separator, "a non-empty string on one line")
        sizes = embed.get("sizes", defaults.sizes)
        if sizes not in SIZES_OF:
            self.wrong("embed.sizes", sizes, "'text' or 'embed'")
        return EmbedSettings(breadcrumb=breadcrumb, separator=separator, sizes=sizes)

    def severities(self, value: object) -> Mapping[str, Severity]:
        if not isinstance(value, dict):
            self.wrong("rules", value, "a mapping of rule code to 'error', 'warning' or 'off'")
        names = {rule.name: code for code, rule in RULES.items()}
        result = dict(_default_severities())
        for key, setting in value.items():
            code = str(key).upper()
            if code not in RULES:
                close = names.get(str(key)) or next(
                    iter(_close_matches(code, list(RULES), n=1)), None
                )
                hint = f"did you mean '{close}'? " if close else ""
                self.fail(
                    f"{self.prefix}rules.{key}: unknown rule code {key!r} "
                    f"({hint}known codes: {', '.join(RULES)})"
                )
            # YAML 1.1 reads a bare `off` as false.
            severity = "off" if setting is False else setting
            if severity not in SEVERITIES:
                self.wrong(f"rules.{code}", setting, "'error', 'warning' or 'off'")
            result[code] = severity
        return MappingProxyType(result)

    def regexes(self, key: str, value: object) -> tuple[re.Pattern[str], ...]:
        compiled = []
        for index, pattern in enumerate(self.strings(key, value)):
            try:
                compiled.append(re.compile(pattern))
            except re.error as exc:
                self.wrong(f"{key}[{index}]", pattern, f"a Python regular expression ({exc})")
        return tuple(compiled)


def _option_tables() -> dict[str, tuple[str, ...]]:
    """The configuration's keys that hold rule options: a table name and its keys, or
    a top-level option's name and ()."""
    tables: dict[str, tuple[str, ...]] = {}
    for option in rules.options():
        table, _, name = option.key.rpartition(".")
        if table:
            tables[table] = (*tables.get(table, ()), name)
        else:
            tables[name] = ()
    return tables


def _close_matches(word: str, known: Sequence[str], n: int) -> list[str]:
    import difflib  # only when there is a mistake to point out

    return difflib.get_close_matches(word, known, n=n)


def default_config_yaml() -> str:
    """What `chunkgate init` writes: every key with its default, commented."""
    rule_lines = "".join(
        f"#   {code}: {rule.severity:<8} # {rule.name}: {rule.summary}\n"
        for code, rule in RULES.items()
    )
    include = ", ".join(f'"{pattern}"' for pattern in languages.default_include())
    return f"""\
# chunkgate configuration. Every key is optional; these are the defaults.
# Patterns are gitignore-style, matched against POSIX paths from the repository root.

# Files that form the corpus (tracked or untracked, never .gitignored ones).
# Changelogs (CHANGELOG*, CHANGES*, HISTORY, NEWS, RELEASE*NOTES*) are left out;
# a pattern that names them brings them back, e.g. add "CHANGELOG.md".
include: [{include}]
# Files to leave out of the corpus, e.g. ["docs/generated/**"].
exclude: []
# The committed manifest of chunk IDs and sizes, relative to the repository root.
manifest: {DEFAULT_MANIFEST}

size:
  unit: chars       # what max/min/overlap count: chars | tokens
  max: 2000         # CG201: a chunk larger than this is oversized
  min: 40           # CG202: a chunk smaller than this is undersized
  overlap: 0        # plain-text windows share this much with the previous one (< max)
  split: true       # a section or definition over max is chunked in parts, as an ingest
                    # splits it (#id, #id~2, ...); false: one chunk per section, whatever its size

# How tokens are counted: estimate (bytes / 4) | tiktoken:<encoding>, e.g. tiktoken:cl100k_base.
tokenizer: estimate

markdown:
  split_level: 6    # headings at levels 1..split_level start a new chunk
  anchors: auto     # heading IDs as the site generator found in the tree makes them,
                    # else GitHub's; or github, mkdocs, kramdown, hugo, docusaurus, starlight

python:
  split_classes: true   # split a class larger than size.max into its head and methods

# The text an ingest embeds (`chunkgate export`): a breadcrumb line, then the chunk's text.
embed:
  breadcrumb: true      # the first line says where the chunk is: Guide > Setup (Markdown),
                        # pkg.module > Class.method (Python); false: the chunk's text alone
  separator: " > "      # between the breadcrumb's parts
  sizes: text           # what size limits and token counts measure: text (the chunk's) |
                        # embed (the embed text, breadcrumb included: what the model sees)

# Severity per rule code: error | warning | off. Defaults:
{rule_lines}rules: {{}}

# The problems the committed manifest already records (what the repository had when
# chunkgate was adopted) fail nothing; true fails on every problem.
strict: false
{_options_yaml()}"""


def _options_yaml() -> str:
    """The rules' options with their defaults, a comment above each, grouped by table."""
    lines: list[str] = []
    table_open = ""
    for option in rules.options():
        table, _, name = option.key.rpartition(".")
        if table != table_open or not table:
            lines.append("")
            if table:
                lines.append(f"{table}:")
            table_open = table
        indent = "  " if table else ""
        lines.append(f"{indent}# {option.comment}")
        lines.append(f"{indent}{name}: {_yaml_value(option.default)}")
    return "\n".join(lines) + "\n"


def _yaml_value(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{item}"' for item in value) + "]"
    return str(value)
