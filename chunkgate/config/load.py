"""Finding and reading the configuration file (YAML or TOML) of a repository or revision.

Sources, first found wins: ``--config PATH``; ``.chunkgate.yaml`` (or ``.yml``)
at the repository root; ``[tool.chunkgate]`` in its ``pyproject.toml``;
the defaults. A parsed YAML document is cached by the file's bytes
(``chunkgate.cache.configs``): importing PyYAML costs a hook run more than the rest.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from chunkgate.cache import configs as configcache
from chunkgate.config.model import YAML_NAMES, Config
from chunkgate.config.validate import shown, validated
from chunkgate.core.errors import ChunkgateError, ConfigError
from chunkgate.corpus import paths
from chunkgate.git import listings, process
from chunkgate.manifest import parse_header
from chunkgate.manifest.layout import HEADER
from chunkgate.sites import detect as sites
from chunkgate.sites.model import Site


def load_config(
    start: str | os.PathLike[str] | None = None,
    *,
    config_path: Path | None = None,
    hook_files: Sequence[str] | None = None,
    listing: listings.WorkTreeListing | None = None,
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
    found_root = listing.root if listing is not None else process.find_root(begin)
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
        config = validated(data, source, root)
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
        raise ConfigError(f"{shown(path)}: cannot read: {exc.strerror}") from None


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
    return validated(data, source, root)


def _read_explicit(source: Path) -> object:
    if source.suffix != ".toml":
        return _load_yaml(source)
    document = _load_toml(source, _read_bytes(source))
    if source.name != "pyproject.toml":
        return document
    table = _tool_table(document)
    if table is None:
        raise ConfigError(f"{shown(source)}: no [tool.chunkgate] table")
    return table


def _tool_table(document: dict[str, Any]) -> object:
    tool = document.get("tool")
    return tool.get("chunkgate") if isinstance(tool, dict) else None


def _load_toml(path: Path, raw: bytes) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib  # deferred: only a TOML file needs it (hook start-up)
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        document: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{shown(path)}: not UTF-8 ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{shown(path)}: invalid TOML: {exc}") from None
    return document


def _load_yaml(path: Path, raw: bytes | None = None) -> object:
    raw = _read_bytes(path) if raw is None else raw
    cached = configcache.lookup(raw)
    if not configcache.is_missing(cached):
        return cached
    document = _parse_yaml(path, raw)
    configcache.remember(raw, document)
    return document


def _parse_yaml(path: Path, raw: bytes) -> object:
    # Deferred: PyYAML takes longer to import than a hook run spends on the rest.
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
        raise ConfigError(f"{shown(path)}{where}: invalid YAML: {message}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{shown(path)}: invalid YAML: {exc}") from None
    except ValueError:  # int() of a number over Python's 4,300-digit limit
        raise ConfigError(f"{shown(path)}: a number too long to read; use a smaller one") from None


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
                f"{shown(path)}:{line}: YAML aliases (*name) of the anchor on this line "
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
                        raise ConfigError(f"{shown(path)}:{line}: duplicate key {name!r}")
                    seen.add(name)
                stack.extend((value, key))
        elif isinstance(getattr(node, "value", None), list):
            stack.extend(reversed(node.value))
