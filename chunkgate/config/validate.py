"""Validation: a parsed configuration document into a ``Config``, once.

Every key is checked by its kind; a problem is a ``ConfigError`` naming the file, the
key's path (``tool.chunkgate.size.max`` in a pyproject), the value and what is allowed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from chunkgate import rules
from chunkgate.chunking import languages
from chunkgate.chunking.base import ChunkOptions
from chunkgate.chunking.embedtext import SIZES_OF, EmbedSettings
from chunkgate.chunking.models import DEFAULT_LIMIT, MODELS, EmbedModel
from chunkgate.chunking.sizes import TOKENIZERS
from chunkgate.config.model import DEFAULT_MANIFEST, Config, default_severities
from chunkgate.core.errors import ConfigError
from chunkgate.core.model import DeclaredAnchor
from chunkgate.core.regex import lazy
from chunkgate.corpus import paths
from chunkgate.corpus.patterns import PathPatterns
from chunkgate.rules import RULES, SEVERITIES, Severity
from chunkgate.sites.model import SETTINGS as ANCHOR_SETTINGS

_TOKENIZER = lazy(r"estimate|tiktoken:[A-Za-z0-9_.\-]+|huggingface:\S+")

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
_EMBED_KEYS = ("breadcrumb", "separator", "sizes", "model", "headings", "module_summary")
_SIZE_KEYS = ("unit", "max", "min", "overlap", "split", "limit")
# With a model named, sizes default to its tokens: a target of 500 (about the 2,000
# characters of the default) or, for a small model, three quarters of its limit (room
# for the breadcrumb and the special tokens), and a minimum of 10 (about 40 characters).
_MODEL_TARGET = 500
_MODEL_MIN = 10
_UNITS = ("chars", "tokens")


class _Validator:
    """Checks one document's keys, each by its kind, failing on the first problem."""

    def __init__(self, source: Path | None, root: Path) -> None:
        self.name = shown(source) if source is not None else "configuration"
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
            elif option.kind == "anchor_patterns":
                values[option.key] = self.anchor_patterns(option.key, given[name])
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
        embed_table = self.table("embed", top.get("embed", {}), _EMBED_KEYS)
        model = self.model(embed_table.get("model"))
        limit = self.integer(
            "size.limit", size.get("limit", model.limit if model else DEFAULT_LIMIT), 1
        )
        unit = size.get("unit", "tokens" if model else defaults.unit)
        if unit not in _UNITS:
            self.wrong("size.unit", unit, "'chars' or 'tokens'")
        in_tokens = model is not None and unit == "tokens"
        target = min(_MODEL_TARGET, limit * 3 // 4) if in_tokens else defaults.max
        maximum = self.integer("size.max", size.get("max", max(target, 1)), 1)
        least = min(_MODEL_MIN, maximum) if in_tokens else defaults.min
        minimum = self.integer("size.min", size.get("min", least), 0)
        overlap = self.integer("size.overlap", size.get("overlap", defaults.overlap), 0)
        if minimum > maximum:
            default = "" if "min" in size else " (the default; set size.min too)"
            self.wrong("size.min", minimum, f"at most size.max ({maximum})", default)
        if overlap >= maximum:
            self.wrong("size.overlap", overlap, f"less than size.max ({maximum})")
        split = self.boolean("size.split", size.get("split", defaults.split))
        tokenizer = top.get("tokenizer", model.tokenizer if model else defaults.tokenizer)
        if not isinstance(tokenizer, str) or not _TOKENIZER.fullmatch(tokenizer):
            self.wrong("tokenizer", tokenizer, TOKENIZERS)
        markdown = self.table(
            "markdown", top.get("markdown", {}), ("split_level", "anchors", "merge_small")
        )
        level = markdown.get("split_level", defaults.split_level)
        if type(level) is not int or not 1 <= level <= 6:
            self.wrong("markdown.split_level", level, "an integer from 1 to 6")
        anchors = markdown.get("anchors", defaults.anchors)
        if anchors != "auto" and anchors not in ANCHOR_SETTINGS:
            self.wrong("markdown.anchors", anchors, f"auto, {', '.join(ANCHOR_SETTINGS)}")
        merge_small = self.boolean(
            "markdown.merge_small", markdown.get("merge_small", defaults.merge_small)
        )
        python = self.table("python", top.get("python", {}), ("split_classes",))
        split_classes = self.boolean(
            "python.split_classes", python.get("split_classes", defaults.split_classes)
        )
        embed = self.embed(embed_table)
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
                limit=limit,
                model=model.name if model else None,
                merge_small=merge_small,
            )
        except ValueError as exc:  # pragma: no cover - every case is caught above
            self.fail(str(exc))

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
        names = {rule.name: code for code, rule in RULES.items()}
        result = dict(default_severities())
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
