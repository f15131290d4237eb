"""Validation: a parsed configuration document into a ``Config``, once.

Every key is checked by its kind; a problem is a line naming the file, the key's path
(``tool.chunkgate.size.max`` in a pyproject), the value and what is allowed. Every
problem of a document is found, each key checked on its own (a wrong one stands in
for its default meanwhile), and one ``ConfigError`` holds them all, a line each.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

from chunkgate import rules
from chunkgate.chunking import languages
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.embedtext import SIZES_OF, EmbedSettings
from chunkgate.chunking.models import DEFAULT_LIMIT, MODELS, EmbedModel
from chunkgate.chunking.sizes import TOKENIZERS
from chunkgate.config import keys
from chunkgate.config.model import DEFAULT_MANIFEST, Config, default_severities
from chunkgate.core.errors import ConfigError
from chunkgate.core.model import DeclaredAnchor
from chunkgate.core.regex import lazy
from chunkgate.corpus import paths
from chunkgate.corpus.patterns import PathPatterns
from chunkgate.rules import RULES, SEVERITIES, Option, Severity
from chunkgate.sites.model import SETTINGS as ANCHOR_SETTINGS

_T = TypeVar("_T")
_TOKENIZER = lazy(r"estimate|tiktoken:[A-Za-z0-9_.\-]+|huggingface:\S+")

# With a model named, sizes default to its tokens: a target of 500 (about the 2,000
# characters of the default) or, for a small model, three quarters of its limit (room
# for the breadcrumb and the special tokens), and a minimum of 10 (about 40 characters).
_MODEL_TARGET = 500
_MODEL_MIN = 10


class _Validator:
    """Checks one document's keys, each by its kind. A check raises on its key's problem;
    ``kept`` records it and goes on with the key's default."""

    def __init__(self, source: Path | None, root: Path) -> None:
        self.name = shown(source) if source is not None else "configuration"
        self.source = source
        self.root = root
        in_pyproject = source is not None and source.name == "pyproject.toml"
        self.prefix = "tool.chunkgate." if in_pyproject else ""
        self.problems: list[str] = []

    def fail(self, message: str) -> NoReturn:
        raise ConfigError(f"{self.name}: {message}")

    def kept(self, fallback: _T, check: Callable[[], _T]) -> _T:
        """What ``check`` returns; on a problem, ``fallback``, the problem recorded."""
        try:
            return check()
        except ConfigError as exc:
            self.problems.append(str(exc))
            return fallback

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
                self.problems.append(f"{self.name}: unknown key '{parent}{name}' ({hint})")
        return value

    def entry(
        self, table: dict[str, Any], key: str, default: _T, check: Callable[..., _T], *args: Any
    ) -> _T:
        """``key``'s value in its ``table`` (``size.max`` in ``size``) by ``check``, which
        takes the key, the value and ``args``; ``default`` when not given or wrong."""
        given = table.get(key.rpartition(".")[2], default)
        return self.kept(default, partial(check, key, given, *args))

    def section(self, key: str, value: object, known: tuple[str, ...]) -> dict[str, Any]:
        """``table``, or no keys when ``value`` is no table (the problem recorded)."""
        empty: dict[str, Any] = {}
        return self.kept(empty, partial(self.table, key, value, known))

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

    def choice(self, key: str, value: object, choices: Sequence[str], allowed: str) -> str:
        if value not in choices:
            self.wrong(key, value, allowed)
        return str(value)

    def build(self, data: object) -> Config:
        top = self.table("", data, (*keys.top_level(), *_option_tables()))
        default_include = languages.default_include()
        include = self.kept(
            default_include,
            lambda: self.globs("include", top.get("include", list(default_include))),
        )
        none: tuple[str, ...] = ()
        exclude = self.kept(none, lambda: self.globs("exclude", top.get("exclude", [])))
        manifest = self.kept(
            DEFAULT_MANIFEST, lambda: self.manifest(top.get("manifest", DEFAULT_MANIFEST))
        )
        chunking = self.chunking(top)
        severities = self.kept(default_severities(), partial(self.severities, top.get("rules", {})))
        options = self.options(top)
        strict = self.kept(False, lambda: self.boolean("strict", top.get("strict", False)))
        if self.problems:
            raise ConfigError("\n".join(self.problems))
        return Config(
            root=self.root,
            source=self.source,
            include=include,
            exclude=exclude,
            manifest=manifest,
            chunking=chunking,
            severities=severities,
            options=options,
            strict=strict,
        )

    def options(self, top: dict[str, Any]) -> Mapping[str, object]:
        """The rules' options (``chunkgate.rules.options()``), each validated by its kind."""
        tables = _option_tables()
        values: dict[str, object] = {}
        checked: dict[str, dict[str, Any]] = {"": top}
        for option in rules.options():
            table, _, name = option.key.rpartition(".")
            if table not in checked:  # each table once: its unknown keys said once
                given = top.get(table, {})
                checked[table] = self.section(table, given, tables[table])
            values[option.key] = self.kept(
                option.default, partial(self.option, option, checked[table], name)
            )
        return MappingProxyType(values)

    def option(self, option: Option[Any], given: dict[str, Any], name: str) -> object:
        if name not in given:
            return option.default
        if option.kind == "globs":
            return self.globs(option.key, given[name])
        if option.kind == "regexes":
            return self.regexes(option.key, given[name])
        if option.kind == "fraction":
            return self.fraction(option.key, given[name])
        if option.kind == "anchor_patterns":
            return self.anchor_patterns(option.key, given[name])
        return self.integer(option.key, given[name], 1)

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
        size = self.section("size", top.get("size", {}), keys.table("size"))
        embed_table = self.section("embed", top.get("embed", {}), keys.table("embed"))
        model = self.kept(None, partial(self.model, embed_table.get("model")))
        limit = self.entry(
            size, "size.limit", model.limit if model else DEFAULT_LIMIT, self.integer, 1
        )
        unit = size.get("unit", "tokens" if model else defaults.unit)
        self.kept("", partial(self.choice, "size.unit", unit, keys.UNITS, "'chars' or 'tokens'"))
        in_tokens = model is not None and unit == "tokens"
        target = max(min(_MODEL_TARGET, limit * 3 // 4) if in_tokens else defaults.max, 1)
        maximum = self.entry(size, "size.max", target, self.integer, 1)
        least = min(_MODEL_MIN, maximum) if in_tokens else defaults.min
        minimum = self.entry(size, "size.min", least, self.integer, 0)
        overlap = self.entry(size, "size.overlap", defaults.overlap, self.integer, 0)
        self.kept(None, partial(self.bounds, "min" in size, minimum, maximum, overlap))
        split = self.entry(size, "size.split", defaults.split, self.boolean)
        tokenizer = self.kept(
            defaults.tokenizer,
            partial(self.tokenizer, top.get("tokenizer", model.tokenizer if model else None)),
        )
        markdown = self.section("markdown", top.get("markdown", {}), keys.table("markdown"))
        level = self.entry(markdown, "markdown.split_level", defaults.split_level, self.split_level)
        anchors = self.entry(
            markdown,
            "markdown.anchors",
            defaults.anchors,
            self.choice,
            ("auto", *ANCHOR_SETTINGS),
            f"auto, {', '.join(ANCHOR_SETTINGS)}",
        )
        merge_small = self.entry(
            markdown, "markdown.merge_small", defaults.merge_small, self.boolean
        )
        python = self.section("python", top.get("python", {}), keys.table("python"))
        split_classes = self.entry(
            python, "python.split_classes", defaults.split_classes, self.boolean
        )
        embed = self.kept(defaults.embed, partial(self.embed, embed_table))
        if self.problems:
            return defaults  # never used: the document fails, with every problem said
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
            limit=limit,
            model=model.name if model else None,
            merge_small=merge_small,
        )

    def bounds(self, min_given: bool, minimum: int, maximum: int, overlap: int) -> None:
        if minimum > maximum:
            default = "" if min_given else " (the default; set size.min too)"
            self.wrong("size.min", minimum, f"at most size.max ({maximum})", default)
        if overlap >= maximum:
            self.wrong("size.overlap", overlap, f"less than size.max ({maximum})")

    def tokenizer(self, tokenizer: object) -> str:
        if tokenizer is None:
            return ChunkOptions().tokenizer
        if not isinstance(tokenizer, str) or not _TOKENIZER.fullmatch(tokenizer):
            self.wrong("tokenizer", tokenizer, TOKENIZERS)
        return tokenizer

    def split_level(self, key: str, level: object) -> int:
        if type(level) is not int or not 1 <= level <= 6:
            self.wrong(key, level, "an integer from 1 to 6")
        return level

    def model(self, name: object) -> EmbedModel | None:
        if name is None:
            return None
        if not isinstance(name, str) or name not in MODELS:
            self.wrong("embed.model", name, f"one of {', '.join(MODELS)}")
        return MODELS[name]

    def embed(self, embed: dict[str, Any]) -> EmbedSettings:
        defaults = EmbedSettings()
        breadcrumb = self.boolean("embed.breadcrumb", embed.get("breadcrumb", defaults.breadcrumb))
        separator = embed.get("separator", defaults.separator)
        if not isinstance(separator, str) or not separator or "\n" in separator:
            self.wrong("embed.separator", separator, "a non-empty string on one line")
        sizes = embed.get("sizes", defaults.sizes)
        if sizes not in SIZES_OF:
            self.wrong("embed.sizes", sizes, "'text' or 'embed'")
        headings = self.boolean("embed.headings", embed.get("headings", defaults.headings))
        summary = self.boolean(
            "embed.module_summary", embed.get("module_summary", defaults.module_summary)
        )
        return EmbedSettings(
            breadcrumb=breadcrumb,
            separator=separator,
            sizes=sizes,
            headings=headings,
            module_summary=summary,
        )

    def severities(self, value: object) -> Mapping[str, Severity]:
        if not isinstance(value, dict):
            self.wrong("rules", value, "a mapping of rule code to 'error', 'warning' or 'off'")
        result = dict(default_severities())
        for key, setting in value.items():
            code = str(key).upper()
            result[code] = self.kept(result.get(code, "off"), partial(self.rule, key, setting))
        return MappingProxyType({code: result[code] for code in result if code in RULES})

    def rule(self, key: object, setting: object) -> Severity:
        code = str(key).upper()
        if code not in RULES:
            names = {rule.name: code for code, rule in RULES.items()}
            close = names.get(str(key)) or next(iter(_close_matches(code, list(RULES), n=1)), None)
            hint = f"did you mean '{close}'? " if close else ""
            self.fail(
                f"{self.prefix}rules.{key}: unknown rule code {key!r} "
                f"({hint}known codes: {', '.join(RULES)})"
            )
        # YAML 1.1 reads a bare `off` as false.
        severity = "off" if setting is False else setting
        if severity not in SEVERITIES:
            self.wrong(f"rules.{code}", setting, "'error', 'warning' or 'off'")
        return severity

    def regexes(self, key: str, value: object) -> tuple[re.Pattern[str], ...]:
        compiled = []
        for index, pattern in enumerate(self.strings(key, value)):
            try:
                compiled.append(re.compile(pattern))
            except re.error as exc:
                self.wrong(f"{key}[{index}]", pattern, f"a Python regular expression ({exc})")
        return tuple(compiled)

    def anchor_patterns(self, key: str, value: object) -> tuple[DeclaredAnchor, ...]:
        """A list of ``{pattern: REGEX, anchor: TEMPLATE}``; the template's ``\\1`` and
        ``\\g<name>`` must name the pattern's groups."""
        allowed = "a list of {pattern: REGEX, anchor: TEMPLATE} mappings"
        if not isinstance(value, list):
            self.wrong(key, value, allowed)
        declared = []
        for index, item in enumerate(value):
            where = f"{key}[{index}]"
            entry = self.table(where, item, ("pattern", "anchor"))
            for name in ("pattern", "anchor"):
                if not isinstance(entry.get(name), str) or not entry[name]:
                    self.wrong(f"{where}.{name}", entry.get(name), "a non-empty string")
            try:
                pattern = re.compile(entry["pattern"], re.M)
            except re.error as exc:
                self.wrong(f"{where}.pattern", entry["pattern"], f"a Python regex ({exc})")
            try:
                pattern.sub(entry["anchor"], "")  # parses the template: its group names
            except (re.error, IndexError) as exc:
                self.wrong(
                    f"{where}.anchor",
                    entry["anchor"],
                    f"a template of the pattern's groups ({exc})",
                )
            declared.append(DeclaredAnchor(pattern, entry["anchor"]))
        return tuple(declared)


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
    import difflib  # deferred: only when there is a mistake to point out (hook start-up)

    return difflib.get_close_matches(word, known, n=n)


def validated(data: object, source: Path | None, root: Path) -> Config:
    """The ``Config`` of the document ``data`` read from ``source`` (None: given in code)."""
    return _Validator(source, root).build(data)


def shown(path: Path) -> str:
    """``path`` as a message names it: from the working directory when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
