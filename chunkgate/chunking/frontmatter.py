"""Front matter: YAML between ``---`` lines (closed by ``---`` or ``...``) holding a
mapping, or TOML between ``+++`` lines (Hugo, Zola), on line 1.

A YAML block of comments alone (``# Do not remove front matter.``) or nothing at
all is an empty mapping, as Hugo and Jekyll read it: front matter, not a thematic
break over a setext heading.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NamedTuple

from chunkgate.core.regex import lazy

# The closing lines each opening line takes.
_CLOSERS = {"---": ("---", "..."), "+++": ("+++",)}
_ONLY_COMMENTS = lazy(r"(?:[ \t]*(?:#[^\n]*)?(?:\n|$))*")


class FrontMatter(NamedTuple):
    lines: int  # how many lines it takes, fences included
    title: str | None
    tags: tuple[str, ...]
    # The keys that say where a site publishes the page, in order: ("url", "/a/"),
    # ("slug", "b"), ("permalink", ...), ("id", ...), ("aliases", each), ("redirect_from", each).
    route: tuple[tuple[str, str], ...] = ()


ROUTE_KEYS = ("url", "slug", "permalink", "id", "aliases", "redirect_from")


def parse_front_matter(lines: Sequence[str]) -> FrontMatter | None:
    """The front matter at the top of ``lines``, or None.

    Anything that does not hold a mapping (a thematic break followed by text,
    invalid YAML or TOML, a list) is ordinary CommonMark, so it is left alone.
    """
    closers = _CLOSERS.get(lines[0].rstrip(" \t")) if lines else None
    if closers is None:
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip(" \t") in closers:
            break
    else:
        return None
    block = "\n".join(lines[1:index])
    data = _yaml(block) if closers[0] == "---" else _toml(block)
    if data is None:
        return None
    return FrontMatter(index + 1, _title(data.get("title")), _tags(data.get("tags")), _route(data))


def _yaml(block: str) -> dict[object, object] | None:
    if _ONLY_COMMENTS.fullmatch(block):
        return {}
    # yaml takes longer to import than a hook run takes to chunk a few files:
    # only documents that have front matter pay for it.
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(block, Loader=loader)
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict) else None


def _toml(block: str) -> dict[object, object] | None:
    if sys.version_info >= (3, 11):
        # TOML front matter is rare: only a file that has it loads the parser
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        table = tomllib.loads(block)
    except tomllib.TOMLDecodeError:
        return None
    found: dict[object, object] = dict(table.items())
    return found


def _route(data: dict[object, object]) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    for key in ROUTE_KEYS:
        value = data.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, (str, int)) and not isinstance(item, bool) and str(item).strip():
                found.append((key, str(item).strip()))
    return tuple(found)


def _title(value: object) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value)


def _tags(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(tag for tag in value.replace(",", " ").split() if tag)
    if isinstance(value, list):
        return tuple(
            str(tag) for tag in value if tag is not None and not isinstance(tag, (dict, list))
        )
    return ()
