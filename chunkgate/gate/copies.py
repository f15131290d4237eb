"""Which of two folders holding the same chunks is the copy (CG501's copied folders).

The copy is the one that looks built, asked in this order, each question
deciding only when it tells the two apart: a build or package folder by name
(or the folder ``pyproject.toml`` ships as the package); the output folder
or an ignore pattern of a site generator's configuration; the folder git
added later. Nothing here raises: a question that cannot be answered (no
git, an unreadable config) tells nothing.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from chunkgate.git import commits, process
from chunkgate.rules.denylist import is_build_folder
from chunkgate.rules.duplicates import Judge, Verdict
from chunkgate.sites.settings import load_toml, load_yaml

# One question: a folder -> why it looks built, or None.
_Question = Callable[[str], "str | None"]


def copy_judge(root: Path, generator_files: Collection[str] | None) -> Judge:
    """The judge for the repository at ``root`` (``generator_files``: the site generator
    configs ``load_config`` found). The configs are read on the first question: most
    corpora copy no folder, and a hook run should not pay for them."""
    questions: list[_Question] = []

    def judge(first: str, second: str) -> Verdict:
        if not questions:
            questions.extend(
                (
                    _built_name,
                    _package_folder(_read(root, "pyproject.toml")),
                    _generator_output(root, generator_files or ()),
                )
            )
        for question in questions:
            answers = question(first), question(second)
            if (answers[0] is None) != (answers[1] is None):
                copy = first if answers[0] is not None else second
                return Verdict(copy, answers[0] or answers[1] or "")
        return _younger(root, first, second)

    return judge


def _built_name(folder: str) -> str | None:
    found = next((part for part in folder.split("/") if is_build_folder(part)), None)
    return None if found is None else f"a build folder ({found}/)"


def _package_folder(pyproject: bytes | None) -> _Question:
    """Below a folder ``pyproject.toml``'s build configuration ships (hatch's wheel
    ``include``/``packages``/``only-include``, setuptools' ``packages``, poetry's)."""
    shipped = _shipped(load_toml(pyproject) if pyproject else None)

    def question(folder: str) -> str | None:
        found = next((top for top in shipped if _below(folder, top)), None)
        return None if found is None else f"the package pyproject.toml ships ({found}/)"

    return question


def _shipped(data: dict[str, object] | None) -> list[str]:
    tool = _table(data, "tool")
    wheel = _table(_table(_table(_table(tool, "hatch"), "build"), "targets"), "wheel")
    named = [*_strings(wheel.get("include")), *_strings(wheel.get("packages"))]
    named += _strings(wheel.get("only-include"))
    named += _strings(_table(tool, "setuptools").get("packages"))
    poetry = _table(tool, "poetry").get("packages")
    named += [str(item.get("include")) for item in _list(poetry) if isinstance(item, dict)]
    folders = (name.strip("/").removesuffix("/**").replace(".", "/") for name in named)
    return sorted({folder for folder in folders if folder and "*" not in folder})


def _generator_output(root: Path, configs: Iterable[str]) -> _Question:
    """The folder a site generator writes (MkDocs' and Zensical's ``site_dir``, Jekyll's
    ``destination``, Hugo's ``publishDir``) or leaves out (``exclude_docs``, Jekyll's
    ``exclude``), from each config found."""
    outputs: list[tuple[str, str]] = []  # (folder, why)
    ignored: list[tuple[str, str, str]] = []  # (base folder, pattern, why)
    for path in configs:
        name, folder = posixpath.basename(path), posixpath.dirname(path)
        raw = _read(root, path)
        if raw is None:
            continue
        data = load_toml(raw) if name.endswith(".toml") else load_yaml(raw)
        if not isinstance(data, dict):
            continue
        if name == "zensical.toml":
            data = _table(data, "project")
        for key in ("site_dir", "destination", "publishDir"):
            value = data.get(key)
            if isinstance(value, str) and value.strip("/"):
                outputs.append((_join(folder, value), f"{path} names it as {key}"))
        docs = _join(folder, str(data.get("docs_dir", "docs")))
        excluded = data.get("exclude_docs")
        for pattern in excluded.splitlines() if isinstance(excluded, str) else ():
            ignored.append((docs, pattern.strip(), f"{path} leaves it out (exclude_docs)"))
        for pattern in _strings(data.get("exclude")) if name == "_config.yml" else ():
            ignored.append((folder, pattern, f"{path} leaves it out (exclude)"))

    def question(candidate: str) -> str | None:
        for output, why in outputs:
            if _below(candidate, output):
                return why
        for base, pattern, why in ignored:
            if _ignores(base, pattern, candidate):
                return why
        return None

    return question


def _ignores(base: str, pattern: str, folder: str) -> bool:
    """Whether an ignore ``pattern`` relative to ``base`` names ``folder`` (or a folder
    above it): gitignore's rules for a folder name, ``*`` within one segment."""
    if not pattern or pattern.startswith(("#", "!")) or (base and not _below(folder, base)):
        return False
    relative = folder[len(base) + 1 :] if base else folder
    pattern = pattern.strip("/").removesuffix("/**")
    parts = relative.split("/")
    if "/" in pattern:  # anchored at the base
        heads = ("/".join(parts[: i + 1]) for i in range(len(parts)))
        return any(fnmatch.fnmatchcase(head, pattern) for head in heads)
    return any(fnmatch.fnmatchcase(part, pattern) for part in parts)


def _younger(root: Path, first: str, second: str) -> Verdict:
    """The folder whose first commit came after the other's, when git can tell."""
    if not (root / ".git").exists() or not process.installed():
        return Verdict(None)
    added = commits.first_added(root, first), commits.first_added(root, second)
    if added[0] is None or added[1] is None or added[0] == added[1]:
        return Verdict(None)
    if commits.is_ancestor(root, added[0], added[1]):
        return Verdict(second, f"git added it after {first}/ (commit {added[1][:12]})")
    if commits.is_ancestor(root, added[1], added[0]):
        return Verdict(first, f"git added it after {second}/ (commit {added[0][:12]})")
    return Verdict(None)


def _below(folder: str, top: str) -> bool:
    return folder == top or folder.startswith(top + "/")


def _join(folder: str, name: str) -> str:
    return posixpath.normpath(posixpath.join(folder, name)).strip("/")


def _read(root: Path, path: str) -> bytes | None:
    try:
        return (root / path).read_bytes()
    except OSError:
        return None


def _table(data: object, key: str) -> dict[str, object]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _strings(value: object) -> list[str]:
    return [item for item in _list(value) if isinstance(item, str)]
