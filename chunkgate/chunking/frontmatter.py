"""YAML front matter: ``---`` on line 1, closed by ``---`` or ``...``, holding a mapping."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class FrontMatter(NamedTuple):
    lines: int  # how many lines it takes, fences included
    title: str | None
    tags: tuple[str, ...]


def parse_front_matter(lines: Sequence[str]) -> FrontMatter | None:
    """The front matter at the top of ``lines``, or None.

    Anything that does not hold a YAML mapping (a thematic break followed by
    text, invalid YAML, a list) is ordinary CommonMark, so it is left alone.
    """
    if not lines or lines[0].rstrip(" \t") != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip(" \t") in ("---", "..."):
            break
    else:
        return None
    # yaml takes longer to import than a hook run takes to chunk a few files:
    # only documents that have front matter pay for it.
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load("\n".join(lines[1:index]), Loader=loader)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    return FrontMatter(index + 1, _title(data.get("title")), _tags(data.get("tags")))


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
